/**
 * Which atoms are on the top surface of an arbitrary slab: an atom is exposed when a
 * probe point 2.5 Å above it along the surface normal is closer to it than to any other
 * atom (periodic images included). Second-layer atoms under close-packed layers fail the
 * test; trough atoms of open facets and step-edge atoms pass it.
 */
import type { Structure, Vec3 } from '../dft/types';
import { add, scale } from './geometry';
import type { SlabFrame } from './slab';

export const PROBE_DISTANCE_ANGSTROM = 2.5;

/** Positions of every atom in the home cell and its 8 lateral neighbours, with the atom index. */
export function lateralImages(s: Structure): { index: number; position: Vec3; shift: [number, number] }[] {
  const out: { index: number; position: Vec3; shift: [number, number] }[] = [];
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      const t = add(scale(s.cell[0], i), scale(s.cell[1], j));
      s.positions.forEach((p, index) => out.push({ index, position: add(p, t), shift: [i, j] }));
    }
  }
  return out;
}

export function exposedAtoms(s: Structure, frame: SlabFrame, probeAngstrom = PROBE_DISTANCE_ANGSTROM): number[] {
  const images = lateralImages(s);
  const exposed: number[] = [];
  s.positions.forEach((p, i) => {
    const probe = add(p, scale(frame.normal, probeAngstrom));
    let nearest = Infinity;
    for (const im of images) {
      if (im.index === i && im.shift[0] === 0 && im.shift[1] === 0) continue;
      const d = Math.hypot(im.position[0] - probe[0], im.position[1] - probe[1], im.position[2] - probe[2]);
      if (d < nearest) nearest = d;
    }
    if (probeAngstrom <= nearest + 1e-6) exposed.push(i);
  });
  return exposed;
}
