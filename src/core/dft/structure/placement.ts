/**
 * Putting an adsorbate on a slab at a site, in an orientation.
 *
 * Height: unless given, the adsorbate is lowered until one of its atoms touches a slab atom
 * at the sum of their covalent radii (Cordero et al. 2008) and no pair is closer; the
 * reported height is the anchor atom's height above the top layer. For an upright
 * adsorbate on a top site this is r_anchor + r_metal; over a hollow it is lower, as the
 * anchor sits between the surface atoms.
 *
 * Orientations act on the template (anchor at the origin, molecule along +z):
 *   upright  as tabulated (CO binds through C);
 *   flipped  turned over (rotated 180° about x): the atom at the far end binds (CO through O);
 *   tilted   rotated by `angleDeg` about `axis` (in the surface plane, default x) through the anchor;
 *   flat     tilted by 90° about `axis` (default x): the molecular axis lies parallel to the surface.
 */
import { DftScienceError } from '../scienceError';
import type { Structure, Vec3 } from '../types';
import { covalentRadiusAngstrom } from './covalentRadii';
import { molecule, type MoleculeTemplate } from './molecules';
import { adsorptionSite, lateralDistances, type SiteKind } from './sites';
import { rotateAbout, sub } from './vec';

export type Orientation =
  | { kind: 'upright' }
  | { kind: 'flipped' }
  | { kind: 'tilted'; angleDeg: number; axis?: Vec3 }
  | { kind: 'flat'; axis?: Vec3 };

export interface PlacementSpec {
  /** A name from the molecule table (e.g. 'CO') or a template. */
  adsorbate: string | MoleculeTemplate;
  site: SiteKind;
  orientation?: Orientation;
  /** Anchor height above the top layer, Å; omitted: from covalent radii. */
  heightAngstrom?: number;
}

export interface Placement {
  structure: Structure;
  /** Height of the binding atom above the top layer, Å. */
  heightAngstrom: number;
  /** Index (in the new structure) of the binding atom. */
  anchorIndex: number;
  /** The adsorbate–slab pair nearest to touching (smallest distance minus covalent sum), Å. */
  tightestPair: { adsorbateIndex: number; slabIndex: number; distanceAngstrom: number; covalentSumAngstrom: number };
}

export function orientTemplate(template: MoleculeTemplate, orientation: Orientation): { positions: Vec3[]; anchor: number } {
  const pos = template.positions.map((p) => sub(p, template.positions[0]));
  switch (orientation.kind) {
    case 'upright':
      return { positions: pos, anchor: 0 };
    case 'flipped': {
      const turned = pos.map((p) => rotateAbout(p, [1, 0, 0], Math.PI));
      const anchor = turned.reduce((low, p, i) => (p[2] < turned[low][2] - 1e-9 ? i : low), 0);
      return { positions: turned.map((p) => sub(p, turned[anchor])), anchor };
    }
    case 'tilted':
    case 'flat': {
      const angle = orientation.kind === 'flat' ? 90 : orientation.angleDeg;
      const axis = orientation.axis ?? [1, 0, 0];
      if (!Number.isFinite(angle)) throw new DftScienceError(`tilt angle ${angle}° is not a number; pass degrees.`, { orientation });
      if (Math.abs(axis[2]) > 1e-9 || Math.hypot(axis[0], axis[1]) === 0) {
        throw new DftScienceError(
          `tilt axis ${JSON.stringify(axis)} must be a non-zero vector in the surface plane (z = 0), e.g. [1, 0, 0].`,
          { orientation },
        );
      }
      return { positions: pos.map((p) => rotateAbout(p, axis, angle * (Math.PI / 180))), anchor: 0 };
    }
    default:
      throw new DftScienceError(`unknown orientation ${JSON.stringify(orientation)}; use upright, flipped, tilted or flat.`, {
        orientation,
      });
  }
}

export function placeAdsorbate(slab: Structure, spec: PlacementSpec): Placement {
  const template = typeof spec.adsorbate === 'string' ? molecule(spec.adsorbate) : spec.adsorbate;
  const orientation = spec.orientation ?? { kind: 'upright' };
  const site = adsorptionSite(slab, spec.site);
  const { positions: local, anchor } = orientTemplate(template, orientation);
  const at = (h: number): Vec3[] => local.map((p) => [site.position[0] + p[0], site.position[1] + p[1], site.position[2] + h + p[2]]);

  const slabRadii = slab.symbols.map(covalentRadiusAngstrom);
  const adsRadii = template.symbols.map(covalentRadiusAngstrom);
  let height = spec.heightAngstrom;
  if (height === undefined) {
    // lowest height at which no pair is closer than its covalent sum; the binding pair touches
    height = -Infinity;
    const flat = at(0);
    flat.forEach((r, i) => {
      const lateral = lateralDistances(slab, r);
      slab.positions.forEach((s, j) => {
        const reach = adsRadii[i] + slabRadii[j];
        if (lateral[j] < reach) height = Math.max(height!, s[2] - r[2] + Math.sqrt(reach ** 2 - lateral[j] ** 2));
      });
    });
    if (!Number.isFinite(height)) {
      throw new DftScienceError(
        `no slab atom is within bonding reach of the ${spec.site} site for ${template.name}; pass heightAngstrom explicitly.`,
        { spec },
      );
    }
  } else if (!Number.isFinite(height)) {
    throw new DftScienceError(`adsorption height ${height} Å is not a number; pass Å above the top layer, or omit it.`, { spec });
  }

  const placed = at(height);
  const zTopOfCell = slab.cell[2][2];
  if (Math.max(...placed.map((r) => r[2])) > zTopOfCell) {
    throw new DftScienceError(
      `the ${template.name} adsorbate would stick out of the cell (top at ${Math.max(...placed.map((r) => r[2])).toFixed(2)} Å, cell height ${zTopOfCell.toFixed(2)} Å). Build the slab with more vacuum.`,
      { spec },
    );
  }
  const tightestPair = tightest(slab, placed, adsRadii, slabRadii);
  const n = slab.symbols.length;
  const orientationLabel = orientation.kind === 'tilted' ? `tilted ${orientation.angleDeg}°` : orientation.kind;
  return {
    structure: {
      ...slab,
      symbols: [...slab.symbols, ...template.symbols],
      positions: [...slab.positions, ...placed],
      tags: [...(slab.tags ?? slab.symbols.map(() => 1)), ...template.symbols.map(() => 0)],
      fixed: [...(slab.fixed ?? slab.symbols.map(() => false)), ...template.symbols.map(() => false)],
      info: { ...slab.info, adsorbate: template.name, site: spec.site, orientation: orientationLabel, adsorbateHeight: height },
    },
    heightAngstrom: height,
    anchorIndex: n + anchor,
    tightestPair: { ...tightestPair, adsorbateIndex: n + tightestPair.adsorbateIndex },
  };
}

function tightest(slab: Structure, placed: Vec3[], adsRadii: number[], slabRadii: number[]): Placement['tightestPair'] {
  let best = { adsorbateIndex: 0, slabIndex: 0, distanceAngstrom: Infinity, covalentSumAngstrom: 0 };
  placed.forEach((r, i) => {
    const lateral = lateralDistances(slab, r);
    slab.positions.forEach((s, j) => {
      const d = Math.hypot(lateral[j], r[2] - s[2]);
      const sum = adsRadii[i] + slabRadii[j];
      if (d - sum < best.distanceAngstrom - best.covalentSumAngstrom)
        best = { adsorbateIndex: i, slabIndex: j, distanceAngstrom: d, covalentSumAngstrom: sum };
    });
  });
  return best;
}
