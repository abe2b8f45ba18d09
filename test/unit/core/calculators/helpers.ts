import type { Cell, Structure, Vec3 } from '../../../../src/core/dft/types';

/** A deterministic pseudo-random generator (mulberry32) so rattled structures are reproducible. */
export function seeded(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

export function rattled(s: Structure, amplitudeAngstrom: number, seed: number): Structure {
  const rnd = seeded(seed);
  return { ...s, positions: s.positions.map((p) => p.map((x) => x + amplitudeAngstrom * (2 * rnd() - 1)) as Vec3) };
}

/** Primitive fcc cell (one atom), optionally deformed by a matrix applied to the rows, and repeated n×n×n. */
export function fccBulk(el: string, a: number, deform?: number[][], n = 1): Structure {
  const h = a / 2;
  let cell: Cell = [
    [0, h, h],
    [h, 0, h],
    [h, h, 0],
  ];
  if (deform) cell = cell.map((v) => [0, 1, 2].map((k) => v[0] * deform[0]![k]! + v[1] * deform[1]![k]! + v[2] * deform[2]![k]!)) as Cell;
  const positions: Vec3[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let k = 0; k < n; k++) {
        positions.push([0, 1, 2].map((c) => i * cell[0][c] + j * cell[1][c] + k * cell[2][c]) as Vec3);
      }
  return { symbols: positions.map(() => el), positions, cell: cell.map((v) => v.map((x) => x * n)) as Cell, pbc: [true, true, true] };
}

/** Central-difference forces, eV/Å. */
export function finiteDifferenceForces(energy: (s: Structure) => number, s: Structure, h: number): Vec3[] {
  return s.positions.map(
    (_, i) =>
      [0, 1, 2].map((k) => {
        const displaced = (d: number): Structure => ({
          ...s,
          positions: s.positions.map((p, j) => (j === i ? (p.map((x, c) => (c === k ? x + d : x)) as Vec3) : p)),
        });
        return -(energy(displaced(h)) - energy(displaced(-h))) / (2 * h);
      }) as Vec3,
  );
}
