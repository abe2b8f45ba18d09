/**
 * What a relaxation did to a planned configuration. Bonds come from covalent radii:
 * within the adsorbate d < 1.35 (r_a + r_b) (a disconnected adsorbate has dissociated);
 * between surface and adsorbate d < 1.30 (r_a + r_s), loosened to 1.45 when the
 * adsorption energy is below -0.5 eV (strong binding stretches the bonds). The relaxed
 * site is named by how many surface atoms the binding atom bonds to. A geometric slip
 * moves the adsorbate to other surface atoms; a chemical slip changes which surface
 * elements it bonds to, which changes the chemistry the hypothesis was about.
 */
import { covalentRadiusAngstrom } from '../dft/structure/covalentRadii';
import type { Structure, Vec3 } from '../dft/types';
import { bondsOf, fragments } from './adsorbate';
import { dot, sub } from './geometry';
import { lateralImages } from './surfaceAtoms';
import type { AdsorptionSite, HollowType, SiteKind, SurfaceSites } from './sites';
import type { SlabFrame } from './slab';

export const SURFACE_BOND_FACTOR = 1.3;
export const STRONG_SURFACE_BOND_FACTOR = 1.45;
export const STRONG_BINDING_EV = -0.5;

export type SlipKind = 'none' | 'geometric' | 'chemical' | 'desorbed';

export interface RelaxedSite {
  kind: SiteKind | 'desorbed';
  hollowType?: HollowType;
  /** Home-cell slab indices bonded to the binding atom. */
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

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
const elementSet = (s: Structure, atoms: number[]) => [...new Set(atoms.map((i) => s.symbols[i]!))].sort();

export function analyseConfiguration(input: AnalysisInput): ConfigurationAnalysis {
  const { relaxed, adsorbateStart, frame, sites, plannedSite, adsorptionEnergyEv } = input;
  const nAds = relaxed.symbols.length - adsorbateStart;
  const adsSymbols = relaxed.symbols.slice(adsorbateStart);
  const adsPositions = relaxed.positions.slice(adsorbateStart);
  const frags = fragments(nAds, bondsOf(adsSymbols, adsPositions));
  const factor = adsorptionEnergyEv < STRONG_BINDING_EV ? STRONG_SURFACE_BOND_FACTOR : SURFACE_BOND_FACTOR;
  const surfaceBonds = adsPositions.map((p, i) => bondedSlabAtoms(relaxed, adsorbateStart, p, adsSymbols[i]!, factor));
  let bindingAtom = 0;
  surfaceBonds.forEach((bonds, i) => {
    const better = bonds.length > surfaceBonds[bindingAtom]!.length ||
      (bonds.length === surfaceBonds[bindingAtom]!.length && dot(adsPositions[i]!, frame.normal) < dot(adsPositions[bindingAtom]!, frame.normal) - 1e-6);
    if (better) bindingAtom = i;
  });
  const bonded = surfaceBonds[bindingAtom]!;
  const relaxedSite = classifyRelaxedSite(relaxed, bonded, sites, adsPositions[bindingAtom]!, frame);
  const plannedElements = elementSet(relaxed, plannedSite.surfaceAtoms);
  const relaxedElements = elementSet(relaxed, bonded);
  const siteChanged = relaxedSite.kind !== plannedSite.kind || relaxedSite.hollowType !== plannedSite.hollowType || !sameSet(bonded, plannedSite.surfaceAtoms);
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

function classifyRelaxedSite(relaxed: Structure, bonded: number[], sites: SurfaceSites, at: Vec3, frame: SlabFrame): RelaxedSite {
  const elements = bonded.map((i) => relaxed.symbols[i]!).sort();
  if (bonded.length === 0) return { kind: 'desorbed', surfaceAtoms: [], elements, siteFingerprint: 'desorbed' };
  const kind: SiteKind = bonded.length === 1 ? 'ontop' : bonded.length === 2 ? 'bridge' : 'hollow';
  // In small cells two sites can share atom indices (through different images): take the one under the binding atom.
  const lateral = (p: Vec3) => {
    const d = sub(p, at);
    const up = dot(d, frame.normal);
    return Math.hypot(d[0] - up * frame.normal[0], d[1] - up * frame.normal[1], d[2] - up * frame.normal[2]);
  };
  const imagesOfCentre = (c: Vec3) => lateralImages({ ...relaxed, symbols: ['X'], positions: [c] }).map((im) => lateral(im.position));
  const match = sites.sites
    .filter((s) => s.kind === kind && sameSet(s.surfaceAtoms, bonded))
    .map((s) => ({ s, d: Math.min(...imagesOfCentre(s.centre)) }))
    .sort((x, y) => x.d - y.d)[0]?.s;
  if (match) {
    return { kind, ...(match.hollowType ? { hollowType: match.hollowType } : {}), surfaceAtoms: bonded, elements, siteFingerprint: match.fingerprint };
  }
  // Bonded to atoms that do not form a site of the clean surface (a subsurface atom, or a
  // hollow of more atoms than any triangle): name it by its atoms.
  return { kind, surfaceAtoms: bonded, elements, siteFingerprint: `${kind}|${elements.join(',')}|irregular` };
}

/** Height of the lowest adsorbate atom above the highest slab atom, Å (negative: it sank into the surface). */
export function adsorbateClearanceAngstrom(s: Structure, adsorbateStart: number, frame: SlabFrame): number {
  const h = (p: Vec3) => dot(p, frame.normal);
  const slabTop = Math.max(...s.positions.slice(0, adsorbateStart).map(h));
  return Math.min(...s.positions.slice(adsorbateStart).map(h)) - slabTop;
}

