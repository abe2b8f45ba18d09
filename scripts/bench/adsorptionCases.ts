/**
 * The cases of bench:adsorption: the AA20 and OCD-GMAE62 slabs whose elements EMT covers
 * (read from the AdsMind data when it is present beside the project, else from the copies
 * in test/fixtures/adsmind), plus generated fcc(111) and fcc(100) slabs of the seven EMT
 * metals at EMT's own lattice constants, each with H, O, N, C, OH, CO and NH.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EmtCalculator } from '../../src/core/calculators/emt';
import { EMT_ELEMENTS } from '../../src/core/calculators/emtParameters';
import { MOLECULE_NAMES } from '../../src/core/dft/structure/molecules';
import { slab } from '../../src/core/dft/structure/surface';
import { readExtxyz } from '../../src/core/dft/io/extxyz';
import type { Structure, Vec3 } from '../../src/core/dft/types';

export interface BenchCase {
  id: string;
  source: 'AA20' | 'OCD-GMAE62' | 'generated';
  slab: Structure;
  adsorbate: string;
}

export interface Exclusion {
  id: string;
  source: string;
  reason: string;
}

export const METALS = ['Pt', 'Pd', 'Cu', 'Ni', 'Au', 'Ag', 'Al'] as const;
export const ADSORBATES = ['H', 'O', 'N', 'C', 'OH', 'CO', 'NH'] as const;

/** Minimal CSV reader for the AdsMind manifests (quoted fields may hold commas). */
export function readCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((x) => x !== '')) rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head!.map((h, k) => [h, r[k] ?? ''])));
}

const ELEMENT_RE = /[A-Z][a-z]?/g;

function datasetCases(dir: string, manifest: string, source: BenchCase['source'], out: BenchCase[], excluded: Exclusion[]): void {
  const file = path.join(dir, manifest);
  if (!fs.existsSync(file)) return;
  for (const row of readCsv(fs.readFileSync(file, 'utf8'))) {
    const slabFile = path.join(dir, path.basename(row['slab_file']!));
    const id = `${source}-${row['case_id']}`;
    if (!fs.existsSync(slabFile)) {
      excluded.push({ id, source, reason: `slab file ${path.basename(slabFile)} missing` });
      continue;
    }
    const s = readExtxyz(fs.readFileSync(slabFile, 'utf8'));
    const adsorbate = row['adsorbate_name']!;
    const adsElements = new Set((row['smiles'] ?? adsorbate).match(ELEMENT_RE) ?? []);
    const slabElements = new Set(s.symbols);
    const uncovered = [...slabElements, ...adsElements].filter((e) => !EMT_ELEMENTS.includes(e));
    if (uncovered.length > 0) {
      excluded.push({ id, source, reason: `EMT has no parameters for ${[...new Set(uncovered)].join(', ')}` });
    } else if (!MOLECULE_NAMES.includes(adsorbate)) {
      excluded.push({ id, source, reason: `adsorbate ${adsorbate} is not in the molecule table` });
    } else {
      out.push({ id: `${id}-${[...slabElements].sort().join('')}-${adsorbate}`, source, slab: s, adsorbate });
    }
  }
}

/** EMT's fcc lattice constant (golden-section minimum of the bulk energy), Å. */
export function emtLatticeConstant(symbol: string): number {
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
  let lo = 3.0,
    hi = 4.6;
  const g = (Math.sqrt(5) - 1) / 2;
  while (hi - lo > 1e-5) {
    const x1 = hi - g * (hi - lo),
      x2 = lo + g * (hi - lo);
    if (energy(x1) < energy(x2)) hi = x2;
    else lo = x1;
  }
  return (lo + hi) / 2;
}

export function loadCases(root: string): { cases: BenchCase[]; excluded: Exclusion[]; dataDir: string } {
  const shared = process.env.DREAMS_ADSMIND_DATA ?? path.resolve(root, '../shared/data/adsmind');
  const useShared = fs.existsSync(path.join(shared, 'cmu20/cmu20_manifest.csv'));
  const cases: BenchCase[] = [];
  const excluded: Exclusion[] = [];
  if (useShared) {
    datasetCases(path.join(shared, 'cmu20'), 'cmu20_manifest.csv', 'AA20', cases, excluded);
    datasetCases(path.join(shared, 'ocd62'), 'ocd62_manifest.csv', 'OCD-GMAE62', cases, excluded);
  } else {
    const fixtures = path.join(root, 'test/fixtures/adsmind');
    datasetCases(path.join(fixtures, 'aa20'), 'manifest.csv', 'AA20', cases, excluded);
    datasetCases(path.join(fixtures, 'ocd62'), 'manifest.csv', 'OCD-GMAE62', cases, excluded);
  }
  for (const metal of METALS) {
    const a = emtLatticeConstant(metal);
    for (const facet of ['fcc111', 'fcc100'] as const) {
      const s = slab({ facet, symbol: metal, aAngstrom: a, size: [3, 3], layers: 4, vacuumAngstrom: 8, fixedLayers: 1 });
      for (const ads of ADSORBATES)
        cases.push({ id: `gen-${metal}${facet.slice(3)}-${ads}`, source: 'generated', slab: s, adsorbate: ads });
    }
  }
  return { cases, excluded, dataDir: useShared ? shared : path.join(root, 'test/fixtures/adsmind') };
}
