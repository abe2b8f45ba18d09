/**
 * High-symmetry adsorption sites of the slabs built by `slab()`, at the fractional
 * positions of the 1×1 surface cell used by ASE's `adsorbate_info['sites']`, measured from
 * a top-layer atom. On fcc111/hcp0001 "fcc" is the hollow above a third-layer atom and
 * "hcp" the hollow above a second-layer atom. The bcc110 hollow is the pseudo-threefold
 * site, the centre of the circle through its three top-layer neighbours.
 */
import { DftScienceError } from '../scienceError';
import type { Structure, Vec3 } from '../types';
import { FACETS, type Facet } from './surface';

export type SiteKind = 'ontop' | 'bridge' | 'fcc' | 'hcp' | 'hollow' | 'longbridge' | 'shortbridge';

export const SITES_BY_FACET: Record<Facet, Partial<Record<SiteKind, [number, number]>>> = {
  fcc111: { ontop: [0, 0], bridge: [0.5, 0], fcc: [1 / 3, 1 / 3], hcp: [2 / 3, 2 / 3] },
  hcp0001: { ontop: [0, 0], bridge: [0.5, 0], fcc: [1 / 3, 1 / 3], hcp: [2 / 3, 2 / 3] },
  fcc100: { ontop: [0, 0], bridge: [0.5, 0], hollow: [0.5, 0.5] },
  bcc100: { ontop: [0, 0], bridge: [0.5, 0], hollow: [0.5, 0.5] },
  fcc110: { ontop: [0, 0], longbridge: [0.5, 0], shortbridge: [0, 0.5], hollow: [0.5, 0.5] },
  bcc110: { ontop: [0, 0], longbridge: [0.5, 0], shortbridge: [0, 0.5], hollow: [0.375, 0.25] },
};

export interface AdsorptionSite {
  kind: SiteKind;
  facet: Facet;
  /** Fractions of the 1×1 surface cell, measured from a top-layer atom. */
  fractional: [number, number];
  /** x, y of the site and z of the top layer, Å. */
  position: Vec3;
  /** Top-layer atoms nearest to the site (1 ontop, 2 bridge, 3 or 4 hollow). */
  coordination: number;
}

export interface SlabFacts {
  facet: Facet;
  p: number;
  q: number;
  /** 1×1 surface cell vectors (x, y), Å. */
  a1: [number, number];
  a2: [number, number];
  origin: Vec3;
  topZ: number;
}

export function slabFacts(slab: Structure): SlabFacts {
  const facet = slab.info?.facet as Facet | undefined;
  const p = Number(slab.info?.p);
  const q = Number(slab.info?.q);
  if (!facet || !FACETS.includes(facet) || !(p >= 1) || !(q >= 1) || !slab.tags) {
    throw new DftScienceError(
      'this structure does not say which facet and lateral size it is (info.facet, info.p, info.q and tags), so its sites are unknown. ' +
        'Build the slab with slab(), or carry those fields over when reading it from a file.',
      { info: slab.info },
    );
  }
  const top = slab.tags.indexOf(1);
  if (top < 0)
    throw new DftScienceError('the slab has no atom tagged 1 (top layer); tag the top layer 1 as ASE does.', { tags: slab.tags });
  const topZ = Math.max(...slab.positions.filter((_, i) => slab.tags![i] === 1).map((r) => r[2]));
  return {
    facet,
    p,
    q,
    a1: [slab.cell[0][0] / p, slab.cell[0][1] / p],
    a2: [slab.cell[1][0] / q, slab.cell[1][1] / q],
    origin: slab.positions[top],
    topZ,
  };
}

/** One site of each kind the facet has, in the first 1×1 cell. */
export function adsorptionSites(slab: Structure): AdsorptionSite[] {
  const f = slabFacts(slab);
  return (Object.entries(SITES_BY_FACET[f.facet]) as [SiteKind, [number, number]][]).map(([kind, frac]) => {
    const position = sitePosition(f, frac);
    return { kind, facet: f.facet, fractional: frac, position, coordination: topLayerCoordination(slab, position) };
  });
}

export function adsorptionSite(slab: Structure, kind: SiteKind): AdsorptionSite {
  const site = adsorptionSites(slab).find((s) => s.kind === kind);
  if (!site) {
    const f = slabFacts(slab);
    throw new DftScienceError(
      `a ${f.facet} surface has no "${kind}" site. Its sites are: ${Object.keys(SITES_BY_FACET[f.facet]).join(', ')}.`,
      { facet: f.facet, kind },
    );
  }
  return site;
}

/** Every periodic copy of a site kind in the p×q cell (p·q positions), Å. */
export function siteInstances(slab: Structure, kind: SiteKind): Vec3[] {
  const f = slabFacts(slab);
  const frac = adsorptionSite(slab, kind).fractional;
  const out: Vec3[] = [];
  for (let j = 0; j < f.q; j++) for (let i = 0; i < f.p; i++) out.push(sitePosition(f, [frac[0] + i, frac[1] + j]));
  return out;
}

function sitePosition(f: SlabFacts, frac: [number, number]): Vec3 {
  return [f.origin[0] + frac[0] * f.a1[0] + frac[1] * f.a2[0], f.origin[1] + frac[0] * f.a1[1] + frac[1] * f.a2[1], f.topZ];
}

/** In-plane minimum-image distance from (x, y) to each atom, Å. */
export function lateralDistances(slab: Structure, xy: Vec3): number[] {
  const [c1, c2] = slab.cell;
  return slab.positions.map((r) => {
    let best = Infinity;
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        const dx = r[0] + i * c1[0] + j * c2[0] - xy[0];
        const dy = r[1] + i * c1[1] + j * c2[1] - xy[1];
        best = Math.min(best, Math.hypot(dx, dy));
      }
    }
    return best;
  });
}

function topLayerCoordination(slab: Structure, position: Vec3): number {
  const d = lateralDistances(slab, position).filter((_, i) => slab.tags![i] === 1);
  const nearest = Math.min(...d);
  return d.filter((x) => x <= nearest + 1e-3).length;
}
