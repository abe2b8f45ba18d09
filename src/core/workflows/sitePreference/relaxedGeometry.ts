/**
 * What a relaxation did to an adsorbate: which high-symmetry site its binding atom sits
 * over afterwards (an adsorbate that slid from fcc to hcp, or from top to bridge, no
 * longer answers the question asked of it), how far from that site, how high above the
 * top layer, and its internal bond length.
 */
import { siteInstances, SITES_BY_FACET, type SiteKind } from '../../dft/structure/sites';
import type { Facet } from '../../dft/structure/surface';
import type { Structure, Vec3 } from '../../dft/types';

export interface AdsorbateGeometry {
  /** Nearest high-symmetry site of the binding atom. */
  site: SiteKind;
  /** In-plane distance of the binding atom from that site, Å. */
  offsetAngstrom: number;
  /** Height of the binding atom above the mean top layer, Å. */
  heightAngstrom: number;
  /** Distance from the binding atom to the next adsorbate atom, Å (the C–O bond of CO). */
  bondAngstrom?: number;
}

function lateralMinimumImage(cell: Structure['cell'], a: Vec3, b: Vec3): number {
  let best = Infinity;
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      const dx = a[0] - b[0] + i * cell[0][0] + j * cell[1][0];
      const dy = a[1] - b[1] + i * cell[0][1] + j * cell[1][1];
      best = Math.min(best, Math.hypot(dx, dy));
    }
  }
  return best;
}

export function adsorbateGeometry(structure: Structure): AdsorbateGeometry | undefined {
  const tags = structure.tags;
  if (!tags) return undefined;
  const ads = tags.map((t, i) => (t === 0 ? i : -1)).filter((i) => i >= 0);
  if (!ads.length) return undefined;
  const anchor = structure.positions[ads[0]!]!;
  const top = structure.positions.filter((_, i) => tags[i] === 1);
  const topZ = top.reduce((s, p) => s + p[2], 0) / top.length;
  const facet = structure.info?.facet as Facet | undefined;
  if (!facet) return undefined;
  let site: SiteKind = 'ontop';
  let offset = Infinity;
  for (const kind of Object.keys(SITES_BY_FACET[facet]) as SiteKind[]) {
    for (const at of siteInstances(structure, kind)) {
      const d = lateralMinimumImage(structure.cell, anchor, at);
      if (d < offset) [site, offset] = [kind, d];
    }
  }
  const second = ads[1] !== undefined ? structure.positions[ads[1]]! : undefined;
  return {
    site,
    offsetAngstrom: offset,
    heightAngstrom: anchor[2] - topZ,
    ...(second ? { bondAngstrom: Math.hypot(second[0] - anchor[0], second[1] - anchor[1], second[2] - anchor[2]) } : {}),
  };
}
