/**
 * A band structure along a path: bands.x's energies on the k-points pw.x generated from the
 * path's crystal_b nodes, checked to be those k-points (count and Cartesian position), with
 * the path coordinate (1/Å), the labelled ticks and, for a k index, where on the path it is
 * ("0.85 of Γ–X, near X"). Energies in eV, k in 1/Å.
 */
import { DftScienceError } from '../scienceError';
import type { Cell, Vec3 } from '../types';
import { bohrToAngstrom } from '../../units';
import { norm, sub } from '../structure/vec';
import { cartesianK, type SampledPath } from './kpath';

export interface BandsAlongPath {
  /** Path coordinate, 1/Å, one per k-point. */
  x: number[];
  kpoints: Vec3[];
  ticks: SampledPath['ticks'];
  /** energiesEv[k][band], eV. */
  energiesEv: number[][];
}

/** Joins bands.x's energies to the sampled path; refuses energies computed on other k-points. */
export function bandsAlongPath(
  sampled: SampledPath,
  cell: Cell,
  alatBohr: number,
  file: { kCartesianTwoPiOverAlat: Vec3[]; energiesEv: number[][] },
): BandsAlongPath {
  if (file.energiesEv.length !== sampled.kpoints.length) {
    throw new DftScienceError(
      `the band file has ${file.energiesEv.length} k-points but the path generates ${sampled.kpoints.length}: the bands were computed on another path.`,
      {
        fileK: file.energiesEv.length,
        pathK: sampled.kpoints.length,
      },
    );
  }
  const unit = (2 * Math.PI) / bohrToAngstrom(alatBohr);
  sampled.kpoints.forEach((f, i) => {
    const want = cartesianK(cell, f);
    const got = file.kCartesianTwoPiOverAlat[i]!.map((v) => v * unit) as Vec3;
    // bands.x prints k to 4 decimals of 2π/alat
    if (norm(sub(want, got)) > 2e-4 * unit + 1e-6) {
      throw new DftScienceError(
        `k-point ${i + 1} of the band file is (${got.map((v) => v.toFixed(4)).join(', ')}) 1/Å where the path has (${want.map((v) => v.toFixed(4)).join(', ')}): the bands belong to another cell or path.`,
        { index: i },
      );
    }
  });
  return { x: sampled.x, kpoints: sampled.kpoints, ticks: sampled.ticks, energiesEv: file.energiesEv };
}

export interface PathLocation {
  /** The nearest labelled point and the distance to it, 1/Å. */
  nearest: string;
  distanceToNearest: number;
  /** The segment it lies on and how far along (0 at `from`, 1 at `to`). */
  from: string;
  to: string;
  fraction: number;
  /** "Γ", "X", or "0.85 of Γ–X (near X)". */
  text: string;
}

/** Where on the path the k-point with this index is. */
export function locateOnPath(path: Pick<BandsAlongPath, 'x' | 'ticks'>, index: number): PathLocation {
  const x = path.x[index]!;
  const ticks = path.ticks;
  let seg = 0;
  while (seg < ticks.length - 2 && ticks[seg + 1]!.index <= index) seg++;
  const a = ticks[seg]!;
  const b = ticks[seg + 1] ?? a;
  const fromLabel = a.label.split('|').at(-1)!;
  const toLabel = b.label.split('|')[0]!;
  const length = b.x - a.x;
  const fraction = length > 0 ? (x - a.x) / length : 0;
  const near = ticks.reduce((best, t) => (Math.abs(t.x - x) < Math.abs(best.x - x) ? t : best), ticks[0]!);
  const distanceToNearest = Math.abs(near.x - x);
  const nearest = near.x <= x ? near.label.split('|').at(-1)! : near.label.split('|')[0]!;
  const text = distanceToNearest < 1e-6 ? nearest : `${fraction.toFixed(2)} of ${fromLabel}–${toLabel} (near ${nearest})`;
  return { nearest, distanceToNearest, from: fromLabel, to: toLabel, fraction, text };
}
