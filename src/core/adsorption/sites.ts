/**
 * Adsorption sites on the top surface of an arbitrary (alloyed, stepped, tilted) slab:
 * the exposed atoms are triangulated in the surface plane (Delaunay, with periodic
 * images); an edge between nearest neighbours is a bridge, a triangle of three bridges is
 * a 3-fold hollow (hcp when an atom of the next layer lies under it, fcc otherwise), and
 * two triangles sharing a long diagonal with four bridge sides are a 4-fold hollow.
 */
import Delaunator from 'delaunator';
import type { Structure, Vec3 } from '../dft/types';
import { add, dot, mean, scale } from './geometry';
import type { SlabFrame } from './slab';
import { exposedAtoms } from './surfaceAtoms';

export type SiteKind = 'ontop' | 'bridge' | 'hollow';
export type HollowType = 'fcc' | 'hcp' | '4fold';

export interface AdsorptionSite {
  /** Stable within one slab: kind and the home-cell indices of its atoms. */
  id: string;
  kind: SiteKind;
  hollowType?: HollowType;
  /** Home-cell indices of the surface atoms that make the site. */
  surfaceAtoms: number[];
  /** The site atoms' positions as used (periodic images where the site spans the boundary), Å. */
  atomPositions: Vec3[];
  /** Centre of the site atoms, Å. */
  centre: Vec3;
  /** Symmetry-aware label: kind, site elements and the elements around them. Equivalent sites share it. */
  fingerprint: string;
}

export interface SurfaceSites {
  /** Exposed (top-layer) atoms, home-cell indices. */
  topLayer: number[];
  sites: AdsorptionSite[];
  /** Median nearest-neighbour distance between top-layer atoms, Å. */
  nearestNeighbourAngstrom: number;
}

/** Longest bridge relative to the longer of its two atoms' nearest-neighbour distances. */
const BRIDGE_FACTOR = 1.2;
/** An atom within this lateral distance under a 3-fold hollow and this depth below it makes it hcp. */
const HCP_LATERAL_ANGSTROM = 0.8;
const HCP_DEPTH_ANGSTROM = 3.2;

interface Point {
  index: number;
  shift: [number, number];
  position: Vec3;
  x: number;
  y: number;
}

export function findSites(slab: Structure, frame: SlabFrame): SurfaceSites {
  const topLayer = exposedAtoms(slab, frame);
  const inPlane = (p: Vec3): [number, number] => [dot(p, frame.e1), dot(p, frame.e2)];
  const a2 = inPlane(slab.cell[0]);
  const b2 = inPlane(slab.cell[1]);
  const det = a2[0] * b2[1] - a2[1] * b2[0];
  const frac = (x: number, y: number): [number, number] => [(x * b2[1] - y * b2[0]) / det, (a2[0] * y - a2[1] * x) / det];
  const inHome = (x: number, y: number) => {
    const [u, v] = frac(x, y);
    return u >= -1e-6 && u < 1 - 1e-6 && v >= -1e-6 && v < 1 - 1e-6;
  };
  const points: Point[] = [];
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      const t = add(scale(slab.cell[0], i), scale(slab.cell[1], j));
      for (const index of topLayer) {
        const position = add(slab.positions[index]!, t);
        const [x, y] = inPlane(position);
        points.push({ index, shift: [i, j], position, x, y });
      }
    }
  }
  const dist = (p: Point, q: Point) =>
    Math.hypot(p.position[0] - q.position[0], p.position[1] - q.position[1], p.position[2] - q.position[2]);
  const nn = new Map<number, number>();
  for (const p of points.filter((q) => q.shift[0] === 0 && q.shift[1] === 0)) {
    let best = Infinity;
    for (const q of points) if (q !== p) best = Math.min(best, dist(p, q));
    nn.set(p.index, best);
  }
  const isBridge = (p: Point, q: Point) => dist(p, q) <= BRIDGE_FACTOR * Math.max(nn.get(p.index)!, nn.get(q.index)!);
  const env = environmentLabeller(slab, topLayer, nn);
  const sites: AdsorptionSite[] = [];
  const makeSite = (kind: SiteKind, pts: Point[], hollowType?: HollowType): AdsorptionSite => {
    const surfaceAtoms = pts.map((p) => p.index);
    const atomPositions = pts.map((p) => p.position);
    const label = `${kind}${hollowType ? `-${hollowType}` : ''}`;
    const sortedIdx = [...surfaceAtoms].sort((x, y) => x - y);
    return {
      id: `${label}:${sortedIdx.join(',')}${pts.some((p) => p.shift[0] || p.shift[1]) ? `@${pts.map((p) => p.shift.join(' ')).join('/')}` : ''}`,
      kind,
      ...(hollowType ? { hollowType } : {}),
      surfaceAtoms,
      atomPositions,
      centre: mean(atomPositions),
      fingerprint: `${label}|${env(surfaceAtoms)}`,
    };
  };

  for (const index of topLayer)
    sites.push(makeSite('ontop', [points.find((p) => p.index === index && p.shift[0] === 0 && p.shift[1] === 0)!]));

  const d = Delaunator.from(
    points,
    (p) => p.x,
    (p) => p.y,
  );
  const seenEdge = new Set<string>();
  for (let e = 0; e < d.halfedges.length; e++) {
    const p = points[d.triangles[e]!]!;
    const q = points[d.triangles[e % 3 === 2 ? e - 2 : e + 1]!]!;
    if (!inHome((p.x + q.x) / 2, (p.y + q.y) / 2) || !isBridge(p, q)) continue;
    const key = [d.triangles[e], d.triangles[e % 3 === 2 ? e - 2 : e + 1]].sort().join('-');
    if (seenEdge.has(key)) continue;
    seenEdge.add(key);
    sites.push(makeSite('bridge', [p, q]));
  }

  const triangleCount = d.triangles.length / 3;
  const corners = (t: number) => [0, 1, 2].map((k) => points[d.triangles[3 * t + k]!]!);
  const nonBridgeEdges = (t: number) =>
    [0, 1, 2].filter((k) => {
      const c = corners(t);
      return !isBridge(c[k]!, c[(k + 1) % 3]!);
    });
  for (let t = 0; t < triangleCount; t++) {
    const c = corners(t);
    const cx = (c[0]!.x + c[1]!.x + c[2]!.x) / 3,
      cy = (c[0]!.y + c[1]!.y + c[2]!.y) / 3;
    const bad = nonBridgeEdges(t);
    if (bad.length === 0) {
      if (!inHome(cx, cy)) continue;
      sites.push(makeSite('hollow', c, isHcp(slab, frame, c, [cx, cy], inPlane) ? 'hcp' : 'fcc'));
    } else if (bad.length === 1) {
      const e = 3 * t + bad[0]!;
      const twin = d.halfedges[e]!;
      if (twin < 0) continue;
      const t2 = Math.floor(twin / 3);
      if (t2 < t || nonBridgeEdges(t2).length !== 1 || 3 * t2 + nonBridgeEdges(t2)[0]! !== twin) continue;
      const far = corners(t2).find((p) => !c.includes(p))!;
      const four = [...c, far];
      const fx = four.reduce((s, p) => s + p.x, 0) / 4,
        fy = four.reduce((s, p) => s + p.y, 0) / 4;
      if (!inHome(fx, fy)) continue;
      sites.push(makeSite('hollow', four, '4fold'));
    }
  }
  const nnValues = [...nn.values()].sort((x, y) => x - y);
  return { topLayer, sites, nearestNeighbourAngstrom: nnValues[Math.floor(nnValues.length / 2)] ?? NaN };
}

function isHcp(
  slab: Structure,
  frame: SlabFrame,
  corners: Point[],
  centre: [number, number],
  inPlane: (p: Vec3) => [number, number],
): boolean {
  const h = corners.reduce((s, p) => s + dot(p.position, frame.normal), 0) / 3;
  const cornerIdx = new Set(corners.map((p) => p.index));
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      const t = add(scale(slab.cell[0], i), scale(slab.cell[1], j));
      for (let k = 0; k < slab.positions.length; k++) {
        if (cornerIdx.has(k)) continue;
        const p = add(slab.positions[k]!, t);
        const depth = h - dot(p, frame.normal);
        if (depth <= 0.3 || depth > HCP_DEPTH_ANGSTROM) continue;
        const [x, y] = inPlane(p);
        if (Math.hypot(x - centre[0], y - centre[1]) < HCP_LATERAL_ANGSTROM) return true;
      }
    }
  }
  return false;
}

/**
 * Environment label of a group of site atoms: their elements, then the elements of all
 * slab atoms within 1.2 × the nearest-neighbour distance of each (counted per site atom).
 * Composition counts do not change under small distortions, so equivalent sites agree.
 */
function environmentLabeller(slab: Structure, topLayer: number[], nn: Map<number, number>): (atoms: number[]) => string {
  const nnAll = [...nn.values()];
  const cutoff = 1.2 * (nnAll.reduce((s, x) => s + x, 0) / Math.max(1, nnAll.length));
  const shells = new Map<number, string[]>();
  const top = new Set(topLayer);
  for (const i of topLayer) {
    const around: string[] = [];
    for (let a = -1; a <= 1; a++) {
      for (let b = -1; b <= 1; b++) {
        const t = add(scale(slab.cell[0], a), scale(slab.cell[1], b));
        slab.positions.forEach((p, k) => {
          if (k === i && a === 0 && b === 0) return;
          const q = add(p, t);
          const r = Math.hypot(q[0] - slab.positions[i]![0], q[1] - slab.positions[i]![1], q[2] - slab.positions[i]![2]);
          if (r < cutoff) around.push(`${slab.symbols[k]}${top.has(k) ? '' : '*'}`);
        });
      }
    }
    shells.set(i, around.sort());
  }
  return (atoms) => {
    const own = atoms
      .map((i) => slab.symbols[i]!)
      .sort()
      .join(',');
    const around = atoms.flatMap((i) => shells.get(i) ?? []).sort();
    const counts = new Map<string, number>();
    for (const x of around) counts.set(x, (counts.get(x) ?? 0) + 1);
    return `${own}|${[...counts].map(([k, v]) => `${k}${v}`).join(',')}`;
  };
}
