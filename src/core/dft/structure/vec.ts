import type { Vec3 } from '../types';

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const distance = (a: Vec3, b: Vec3): number => norm(sub(a, b));

export function unit(a: Vec3): Vec3 {
  const n = norm(a);
  if (n === 0) throw new RangeError('cannot normalise the zero vector');
  return scale(a, 1 / n);
}

/** Rodrigues rotation of v about the unit axis k by angle (radians), right-handed. */
export function rotateAbout(v: Vec3, axis: Vec3, angleRad: number): Vec3 {
  const k = unit(axis);
  const c = Math.cos(angleRad);
  const s = Math.sin(angleRad);
  const kxv = cross(k, v);
  const kdv = dot(k, v);
  return [0, 1, 2].map((i) => v[i] * c + kxv[i] * s + k[i] * kdv * (1 - c)) as Vec3;
}
