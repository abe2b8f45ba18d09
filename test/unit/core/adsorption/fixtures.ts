import fs from 'node:fs';
import path from 'node:path';
import { slab } from '../../../../src/core/dft/structure/surface';
import { readExtxyz } from '../../../../src/core/dft/io/extxyz';
import type { Structure } from '../../../../src/core/dft/types';

export const FIXTURES = path.resolve(__dirname, '../../../fixtures/adsmind');

export const aa20 = (file: string): Structure => readExtxyz(fs.readFileSync(path.join(FIXTURES, 'aa20', file), 'utf8'));

/** EMT's own lattice constants (golden-section minima, measured with src/core/calculators/emt.ts). */
export const EMT_A: Record<string, number> = { Pt: 3.922, Pd: 3.8785, Cu: 3.59, Ni: 3.487, Au: 4.056, Ag: 4.0635, Al: 3.9945 };

export const fcc111 = (symbol: string, layers = 4): Structure =>
  slab({ facet: 'fcc111', symbol, aAngstrom: EMT_A[symbol]!, size: [3, 3], layers, vacuumAngstrom: 8, fixedLayers: 1 });
export const fcc100 = (symbol: string, layers = 4): Structure =>
  slab({ facet: 'fcc100', symbol, aAngstrom: EMT_A[symbol]!, size: [3, 3], layers, vacuumAngstrom: 8, fixedLayers: 1 });
