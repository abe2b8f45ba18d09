/**
 * Placing an adsorbate over a site of an arbitrary slab. The binding atom sits above the
 * site centre along the surface normal, at the height where its distance to the site
 * atoms equals the sum of covalent radii; the rest of the molecule follows the chosen
 * orientation and azimuth. If any adsorbate atom then comes closer than 0.8 × the sum
 * of covalent radii to a slab atom (periodic images included), the adsorbate is raised
 * 0.1 Å at a time until it does not.
 */
import { covalentRadiusAngstrom } from '../dft/structure/covalentRadii';
import type { Structure, Vec3 } from '../dft/types';
import type { Adsorbate } from './adsorbate';
import { add, cross, dot, mean, norm, rotate, scale, sub, unit } from './geometry';
import type { AdsorptionSite } from './sites';
import type { SlabFrame } from './slab';
import { lateralImages } from './surfaceAtoms';

export type Orientation = 'upright' | 'tilted' | 'flat';
export const ORIENTATIONS: readonly Orientation[] = ['upright', 'tilted', 'flat'];
export const COLLISION_FACTOR = 0.8;
const BUMP_STEP_ANGSTROM = 0.1;
const MAX_BUMP_ANGSTROM = 3;

export interface PlacementRequest {
  slab: Structure;
  frame: SlabFrame;
  site: AdsorptionSite;
  adsorbate: Adsorbate;
  /** Adsorbate atoms that bind (1 or 2); the first is put over the site. */
  bindingAtoms: number[];
  orientation: Orientation;
  /** Rotation about the surface normal, degrees. */
  azimuthDeg: number;
}

export interface PlacedConfiguration {
  structure: Structure;
  /** Index of the first adsorbate atom; adsorbate atoms follow the slab's. */
  adsorbateStart: number;
  /** Binding-atom height above the site centre, Å, after any bump. */
  heightAngstrom: number;
  bumpAngstrom: number;
  site: AdsorptionSite;
  azimuthDeg: number;
}

const TILT_DEG: Record<Orientation, number> = { upright: 0, tilted: 45, flat: 90 };

/** Rotation taking unit vector u onto unit vector v, applied to p. */
function alignVector(p: Vec3, u: Vec3, v: Vec3): Vec3 {
  const axis = cross(u, v);
  const s = norm(axis);
  const c = dot(u, v);
  if (s < 1e-12) {
    if (c > 0) return p;
    const any = Math.abs(u[0]) < 0.9 ? cross(u, [1, 0, 0]) : cross(u, [0, 1, 0]);
    return rotate(p, any, Math.PI);
  }
  return rotate(p, axis, Math.atan2(s, c));
}

/** Template coordinates relative to the (first) binding atom, turned so the molecule points along `direction`. */
function orientedTemplate(a: Adsorbate, binding: number[], direction: Vec3, frame: SlabFrame, azimuthRad: number): Vec3[] {
  const origin = binding.length === 2 ? mean([a.positions[binding[0]!]!, a.positions[binding[1]!]!]) : a.positions[binding[0]!]!;
  const rel = a.positions.map((p) => sub(p, origin));
  if (a.symbols.length === 1) return rel;
  if (binding.length === 2) {
    // Both binding atoms parallel to the surface, the rest of the molecule pointing away from it.
    const axis = unit(sub(a.positions[binding[1]!]!, a.positions[binding[0]!]!));
    const inPlane = rotate(frame.e1, frame.normal, azimuthRad);
    let out = rel.map((p) => alignVector(p, axis, inPlane));
    const others = out.filter((_, i) => !binding.includes(i));
    if (others.length > 0) {
      const c = mean(others);
      const perp = sub(c, scale(inPlane, dot(c, inPlane)));
      if (norm(perp) > 1e-6) {
        const angle = Math.atan2(dot(cross(unit(perp), frame.normal), inPlane), dot(unit(perp), frame.normal));
        out = out.map((p) => rotate(p, inPlane, angle));
      }
    }
    return out;
  }
  const others = rel.filter((_, i) => i !== binding[0]);
  const axis = norm(mean(others)) > 1e-6 ? unit(mean(others)) : ([0, 0, 1] as Vec3);
  const aligned = rel.map((p) => alignVector(p, axis, direction));
  return aligned.map((p) => rotate(p, frame.normal, azimuthRad));
}

export function placeOnSite(req: PlacementRequest): PlacedConfiguration {
  const { slab, frame, site, adsorbate: a, bindingAtoms, orientation } = req;
  const azimuth = (req.azimuthDeg * Math.PI) / 180;
  const tilt = (TILT_DEG[orientation] * Math.PI) / 180;
  const direction = add(scale(frame.normal, Math.cos(tilt)), scale(rotate(frame.e1, frame.normal, azimuth), Math.sin(tilt)));
  const rel = orientedTemplate(a, bindingAtoms, direction, frame, azimuth);
  const bindingRadius = covalentRadiusAngstrom(a.symbols[bindingAtoms[0]!]!);
  const centreHeight = dot(site.centre, frame.normal);
  const heights = site.atomPositions.map((p, k) => {
    const lateral = sub(sub(p, site.centre), scale(frame.normal, dot(sub(p, site.centre), frame.normal)));
    const reach = bindingRadius + covalentRadiusAngstrom(slab.symbols[site.surfaceAtoms[k]!]!);
    const above = Math.sqrt(Math.max(reach ** 2 - dot(lateral, lateral), 0.25));
    return above + dot(p, frame.normal) - centreHeight;
  });
  let height = Math.max(...heights);
  const images = lateralImages(slab);
  const radii = a.symbols.map(covalentRadiusAngstrom);
  const slabRadii = slab.symbols.map(covalentRadiusAngstrom);
  const place = (h: number) => rel.map((p) => add(add(site.centre, scale(frame.normal, h)), p));
  const collides = (ps: Vec3[]) =>
    ps.some((p, i) =>
      images.some((im) => {
        const d = Math.hypot(p[0] - im.position[0], p[1] - im.position[1], p[2] - im.position[2]);
        return d < COLLISION_FACTOR * (radii[i]! + slabRadii[im.index]!);
      }),
    );
  let bump = 0;
  let positions = place(height);
  while (collides(positions) && bump < MAX_BUMP_ANGSTROM) {
    bump += BUMP_STEP_ANGSTROM;
    positions = place(height + bump);
  }
  height += bump;
  const slabTags = slab.tags;
  const adsorbateTag = slabTags && slabTags.some((t) => t >= 2) ? 0 : 2;
  const structure: Structure = {
    ...slab,
    symbols: [...slab.symbols, ...a.symbols],
    positions: [...slab.positions, ...positions],
    fixed: [...(slab.fixed ?? slab.symbols.map(() => false)), ...a.symbols.map(() => false)],
    ...(slabTags ? { tags: [...slabTags, ...a.symbols.map(() => adsorbateTag)] } : {}),
  };
  return { structure, adsorbateStart: slab.symbols.length, heightAngstrom: height, bumpAngstrom: bump, site, azimuthDeg: req.azimuthDeg };
}
