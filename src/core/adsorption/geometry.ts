/** Vector helpers for the adsorption search (Å). */
import type { Vec3 } from '../dft/types';

export { add, cross, dot, norm, scale, sub } from '../calculators/cellMath';
import { cross, norm, scale } from '../calculators/cellMath';

export function unit(v: Vec3): Vec3 {
  const n = norm(v);
  if (n === 0) throw new RangeError('cannot normalise the zero vector');
  return scale(v, 1 / n);
}

/** Rotate v about a unit axis by an angle (radians), right-handed (Rodrigues). */
export function rotate(v: Vec3, axis: Vec3, angleRad: number): Vec3 {
  const c = Math.cos(angleRad),
    s = Math.sin(angleRad);
  const k = unit(axis);
  const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
  const kxv = cross(k, v);
  return [0, 1, 2].map((i) => v[i]! * c + kxv[i]! * s + k[i]! * kv * (1 - c)) as Vec3;
}

export const mean = (ps: Vec3[]): Vec3 => {
  const s: Vec3 = [0, 0, 0];
  for (const p of ps) for (let k = 0; k < 3; k++) s[k] += p[k]!;
  return scale(s, 1 / ps.length);
};
