/**
 * What a relaxation did to a planned configuration. Bonds come from covalent radii:
 * within the adsorbate d < 1.35 (r_a + r_b) (a disconnected adsorbate has dissociated);
 * between surface and adsorbate d < 1.30 (r_a + r_s), loosened to 1.45 when the
 * adsorption energy is below -0.5 eV (strong binding stretches the bonds). An adsorbate
 * is desorbed only when no atom of it bonds to the surface *and* its adsorption energy
 * does not bind it (above -0.5 eV): a model with long adsorbate-metal distances (EMT's H,
 * 2.43 Å from Pt in the hollows, 1.45 x the covalent sum) still binds H by 3 eV. An energy
 * binds only an adsorbate near the surface: with no bond, its nearest slab atom must be within
 * 2 x the bond cutoff and it must be above the top layer, or it is desorbed (an atom 6 Å up,
 * or carried across the vacuum to the next image's bottom face, is on no site of this surface).
 * The relaxed site is the site of the clean surface (ontop, bridge, hollow) whose centre,
 * taken at the relaxed positions of its atoms, lies laterally nearest to the binding atom.
 * Counting the atoms within a bond cutoff does not name a site: at a (111) bridge the two
 * far atoms of the rhombus are 1.33 x the bridge atoms' distance away and inside any cutoff
 * loose enough for hollows, and under a (100) 4-fold hollow the second-layer atom is too.
 * A geometric slip moves the adsorbate to another site; a chemical slip changes which
 * surface elements it sits on, which changes the chemistry the hypothesis was about.
 */
import { covalentRadiusAngstrom } from '../dft/structure/covalentRadii';
import type { Structure, Vec3 } from '../dft/types';
import { bondsOf, fragments } from './adsorbate';
import { dot, mean, sub } from './geometry';
import { lateralImages } from './surfaceAtoms';
import type { AdsorptionSite, HollowType, SiteKind, SurfaceSites } from './sites';
import type { SlabFrame } from './slab';

export const SURFACE_BOND_FACTOR = 1.3;
export const STRONG_SURFACE_BOND_FACTOR = 1.45;
export const STRONG_BINDING_EV = -0.5;
/** With no surface bond, an adsorbate bound by its energy is on the surface only within this multiple of the bond cutoff. */
export const ENERGY_BOUND_REACH = 2;
/** Atoms within this multiple of the nearest one's distance ratio name an energy-bound atom's site when it is over no site of the clean surface. */
const NEAREST_SHELL = 1.1;

export type SlipKind = 'none' | 'geometric' | 'chemical' | 'desorbed';

export interface RelaxedSite {
  kind: SiteKind | 'desorbed';
  hollowType?: HollowType;
  /** Home-cell slab indices of the relaxed site's atoms (for an irregular site: the atoms bonded to the binding atom). */
  surfaceAtoms: number[];
  elements: string[];
  /** The matching site's fingerprint, or a label built from the bonded atoms. */
  siteFingerprint: string;
}

export interface ConfigurationAnalysis {
  /** Adsorbate atom (index within the adsorbate) with the most surface bonds. */
  bindingAtom: number;
  relaxedSite: RelaxedSite;
  /** Surface atoms bonded to each adsorbate atom (home-cell slab indices). */
  surfaceBonds: number[][];
  dissociated: boolean;
  /** Adsorbate fragments after relaxation (adsorbate atom indices). */
  fragments: number[][];
  slip: SlipKind;
  /** True when the planned site kind or its atoms changed. */
  siteChanged: boolean;
  surfaceBondFactor: number;
  /** Identity of the relaxed configuration; two relaxations that end in the same basin share it. */
  fingerprint: string;
}

export interface AnalysisInput {
  relaxed: Structure;
  adsorbateStart: number;
  frame: SlabFrame;
  sites: SurfaceSites;
  plannedSite: AdsorptionSite;
  adsorptionEnergyEv: number;
}

/** Slab atoms (home-cell index) bonded to a point, with periodic images. */
function bondedSlabAtoms(relaxed: Structure, slabCount: number, p: Vec3, symbol: string, factor: number): number[] {
  const out = new Set<number>();
  const r = covalentRadiusAngstrom(symbol);
  for (let a = -1; a <= 1; a++) {
    for (let b = -1; b <= 1; b++) {
      for (let k = 0; k < slabCount; k++) {
        const q = relaxed.positions[k]!;
        const x = q[0] + a * relaxed.cell[0][0] + b * relaxed.cell[1][0] - p[0];
        const y = q[1] + a * relaxed.cell[0][1] + b * relaxed.cell[1][1] - p[1];
        const z = q[2] + a * relaxed.cell[0][2] + b * relaxed.cell[1][2] - p[2];
        if (Math.hypot(x, y, z) < factor * (r + covalentRadiusAngstrom(relaxed.symbols[k]!))) out.add(k);
      }
    }
  }
  return [...out].sort((x, y) => x - y);
}

const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
const elementSet = (s: Structure, atoms: number[]) => [...new Set(atoms.map((i) => s.symbols[i]!))].sort();

export function analyseConfiguration(input: AnalysisInput): ConfigurationAnalysis {
  const { relaxed, adsorbateStart, frame, sites, plannedSite, adsorptionEnergyEv } = input;
  const nAds = relaxed.symbols.length - adsorbateStart;
  const adsSymbols = relaxed.symbols.slice(adsorbateStart);
  const adsPositions = relaxed.positions.slice(adsorbateStart);
  const frags = fragments(nAds, bondsOf(adsSymbols, adsPositions));
  const stronglyBound = adsorptionEnergyEv < STRONG_BINDING_EV;
  const factor = stronglyBound ? STRONG_SURFACE_BOND_FACTOR : SURFACE_BOND_FACTOR;
  const surfaceBonds = adsPositions.map((p, i) => bondedSlabAtoms(relaxed, adsorbateStart, p, adsSymbols[i]!, factor));
  const anyBond = surfaceBonds.some((b) => b.length > 0);
  let bindingAtom = 0;
  // The atoms that name an irregular site: the bonded ones, or (bound by its energy only) the nearest shell.
  let siteAtoms: number[] = [];
  let onSurface = anyBond;
  if (anyBond) {
    surfaceBonds.forEach((bonds, i) => {
      const better =
        bonds.length > surfaceBonds[bindingAtom]!.length ||
        (bonds.length === surfaceBonds[bindingAtom]!.length &&
          dot(adsPositions[i]!, frame.normal) < dot(adsPositions[bindingAtom]!, frame.normal) - 1e-6);
      if (better) bindingAtom = i;
    });
  } else {
    // Bound by its energy only: the atom nearest to the surface relative to the covalent sum binds.
    const reach = adsPositions.map((p, i) => nearestSlabDistanceRatio(relaxed, adsorbateStart, p, adsSymbols[i]!));
    reach.forEach((r, i) => {
      if (r < reach[bindingAtom]! - 1e-9) bindingAtom = i;
    });
    // Only near the surface, and above it: not 6 Å up, not on the next image's bottom face.
    const p = adsPositions[bindingAtom]!;
    const topLayer = mean(sites.topLayer.map((k) => relaxed.positions[k]!));
    onSurface = stronglyBound && reach[bindingAtom]! <= ENERGY_BOUND_REACH * factor && dot(sub(p, topLayer), frame.normal) > 0;
    if (onSurface) siteAtoms = bondedSlabAtoms(relaxed, adsorbateStart, p, adsSymbols[bindingAtom]!, NEAREST_SHELL * reach[bindingAtom]!);
  }
  if (anyBond) siteAtoms = surfaceBonds[bindingAtom]!;
  const relaxedSite = onSurface ? classifyRelaxedSite(relaxed, siteAtoms, sites, adsPositions[bindingAtom]!, frame) : desorbed();
  const plannedElements = elementSet(relaxed, plannedSite.surfaceAtoms);
  const relaxedElements = elementSet(relaxed, relaxedSite.surfaceAtoms);
  const siteChanged =
    relaxedSite.kind !== plannedSite.kind ||
    relaxedSite.hollowType !== plannedSite.hollowType ||
    !sameSet(relaxedSite.surfaceAtoms, plannedSite.surfaceAtoms);
  let slip: SlipKind = 'none';
  if (relaxedSite.kind === 'desorbed') slip = 'desorbed';
  else if (plannedElements.join() !== relaxedElements.join()) slip = 'chemical';
  else if (siteChanged) slip = 'geometric';
  const dissociated = frags.length > 1;
  return {
    bindingAtom,
    relaxedSite,
    surfaceBonds,
    dissociated,
    fragments: frags,
    slip,
    siteChanged,
    surfaceBondFactor: factor,
    fingerprint: `${adsSymbols[bindingAtom]}@${relaxedSite.siteFingerprint}${dissociated ? '|dissociated' : ''}`,
  };
}

const desorbed = (): RelaxedSite => ({ kind: 'desorbed', surfaceAtoms: [], elements: [], siteFingerprint: 'desorbed' });

/** Smallest distance from a point to a slab atom (periodic images) over the covalent sum. */
function nearestSlabDistanceRatio(relaxed: Structure, slabCount: number, p: Vec3, symbol: string): number {
  const r = covalentRadiusAngstrom(symbol);
  let best = Infinity;
  for (const im of lateralImages({
    ...relaxed,
    symbols: relaxed.symbols.slice(0, slabCount),
    positions: relaxed.positions.slice(0, slabCount),
  })) {
    const d = Math.hypot(im.position[0] - p[0], im.position[1] - p[1], im.position[2] - p[2]);
    best = Math.min(best, d / (r + covalentRadiusAngstrom(relaxed.symbols[im.index]!)));
  }
  return best;
}

/** Beyond this lateral distance (× the nearest-neighbour distance) from every site centre a position is no site of the clean surface. */
const IRREGULAR_LATERAL_FRACTION = 0.5;
/** A binding atom this far below its site's atoms (Å) has gone under the surface. */
const SUBSURFACE_DEPTH_ANGSTROM = 0.5;

function classifyRelaxedSite(relaxed: Structure, bonded: number[], sites: SurfaceSites, at: Vec3, frame: SlabFrame): RelaxedSite {
  const lateralImagesOf = (p: Vec3) => lateralImages({ ...relaxed, symbols: ['X'], positions: [p] }).map((im) => im.position);
  const lateral = (p: Vec3) => {
    const d = sub(p, at);
    const up = dot(d, frame.normal);
    return Math.hypot(d[0] - up * frame.normal[0], d[1] - up * frame.normal[1], d[2] - up * frame.normal[2]);
  };
  // Each site's atoms where the relaxation left them (the image next to the clean site's atom).
  const relaxedCentre = (s: AdsorptionSite): Vec3 =>
    mean(
      s.surfaceAtoms.map((i, k) => {
        const clean = s.atomPositions[k]!;
        return lateralImagesOf(relaxed.positions[i]!).reduce((best, q) =>
          Math.hypot(q[0] - clean[0], q[1] - clean[1], q[2] - clean[2]) <
          Math.hypot(best[0] - clean[0], best[1] - clean[1], best[2] - clean[2])
            ? q
            : best,
        );
      }),
    );
  let match: { s: AdsorptionSite; d: number; centre: Vec3 } | undefined;
  for (const s of sites.sites) {
    const centre = relaxedCentre(s);
    const d = Math.min(...lateralImagesOf(centre).map(lateral));
    // Equal distances (symmetric ties): keep the site with fewer atoms, the list's first.
    if (!match || d < match.d - 1e-6) match = { s, d, centre };
  }
  const below = match ? dot(match.centre, frame.normal) - dot(at, frame.normal) : 0;
  if (match && match.d <= IRREGULAR_LATERAL_FRACTION * sites.nearestNeighbourAngstrom && below < SUBSURFACE_DEPTH_ANGSTROM) {
    const { s } = match;
    return {
      kind: s.kind,
      ...(s.hollowType ? { hollowType: s.hollowType } : {}),
      surfaceAtoms: [...s.surfaceAtoms].sort((x, y) => x - y),
      elements: s.surfaceAtoms.map((i) => relaxed.symbols[i]!).sort(),
      siteFingerprint: s.fingerprint,
    };
  }
  // Under the surface, or over no site of the clean surface (a site the triangulation does
  // not make, e.g. a trough of an open facet): name it by the atoms it bonds to; with none, it is on no site.
  if (bonded.length === 0) return desorbed();
  const elements = bonded.map((i) => relaxed.symbols[i]!).sort();
  const kind: SiteKind = bonded.length === 1 ? 'ontop' : bonded.length === 2 ? 'bridge' : 'hollow';
  return {
    kind,
    surfaceAtoms: bonded,
    elements,
    siteFingerprint: `${kind}|${elements.join(',')}|${below >= SUBSURFACE_DEPTH_ANGSTROM ? 'subsurface' : 'irregular'}`,
  };
}

/** Height of the lowest adsorbate atom above the highest slab atom, Å (negative: it sank into the surface). */
export function adsorbateClearanceAngstrom(s: Structure, adsorbateStart: number, frame: SlabFrame): number {
  const h = (p: Vec3) => dot(p, frame.normal);
  const slabTop = Math.max(...s.positions.slice(0, adsorbateStart).map(h));
  return Math.min(...s.positions.slice(adsorbateStart).map(h)) - slabTop;
}
