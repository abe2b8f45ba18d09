/**
 * EMT's own fcc lattice constant: the minimum of the bulk energy per atom (golden-section
 * search between 3.0 and 4.6 Å, to 1e-5 Å). A slab for an EMT search is cut at it, so the
 * slab is not strained by the model's own bulk.
 */
import type { Vec3 } from '../dft/types';
import { EmtCalculator } from './emt';
import { EMT_ELEMENTS } from './emtParameters';

export function fccLatticeConstantAngstrom(symbol: string): number {
  if (!EMT_ELEMENTS.includes(symbol)) throw new Error(`EMT has no parameters for ${symbol}; it covers ${EMT_ELEMENTS.join(', ')}.`);
  const emt = new EmtCalculator();
  const energy = (a: number) => {
    const h = a / 2;
    const cell = [
      [0, h, h],
      [h, 0, h],
      [h, h, 0],
    ] as [Vec3, Vec3, Vec3];
    return emt.compute({ symbols: [symbol], positions: [[0, 0, 0]], cell, pbc: [true, true, true] }).energyEv;
  };
  let lo = 3.0;
  let hi = 4.6;
  const g = (Math.sqrt(5) - 1) / 2;
  while (hi - lo > 1e-5) {
    const x1 = hi - g * (hi - lo);
    const x2 = lo + g * (hi - lo);
    if (energy(x1) < energy(x2)) hi = x2;
    else lo = x1;
  }
  return (lo + hi) / 2;
}
