/**
 * VASP POSCAR/CONTCAR read and write. VASP 5 files name the species on the line before the
 * counts; a VASP 4 file (counts only) is read only when the caller gives the species. The
 * scale may be one factor, three (per Cartesian axis), or negative (the cell volume in Å^3).
 * Direct or Cartesian coordinates; Selective dynamics flags (F = fixed) become fixed atoms,
 * or per-direction constraints along the lattice vectors when only some flags are F.
 * Velocities and predictor blocks after the positions (CONTCAR) are ignored.
 * Writing gives VASP 5 Direct coordinates to 1e-12, in the structure's atom order (runs of
 * one species each get an entry on the species line, as VASP allows).
 */
import type { Cell, Structure, Vec3 } from '../types';
import { signedVolume, toCartesian, toFractional } from '../structure/cell';
import { convertMask } from '../structure/constraints';
import { isChemicalSymbol, normaliseSymbol } from './elements';
import { StructureFileError } from './errors';

export interface PoscarReadOptions {
  /** Species in the order of the counts line, for VASP 4 files that do not name them. */
  species?: string[];
}

const fail = (line: number | undefined, message: string): never => {
  throw new StructureFileError('poscar', line, message);
};

const numbersOn = (text: string | undefined, lineNo: number, count: number, what: string): number[] => {
  const xs = (text ?? '').trim().split(/\s+/).slice(0, count).map(Number);
  if (text === undefined) fail(lineNo, `the file ends where ${what} should be.`);
  if (xs.length < count || xs.some((x) => !Number.isFinite(x)))
    fail(lineNo, `expected ${count} number${count > 1 ? 's' : ''} for ${what}, found "${text!.trim()}".`);
  return xs;
};

/** "Fe_pv", "Fe/1a2b3c" (VASP 6 writes the POTCAR hash) -> "Fe". */
function speciesName(token: string, lineNo: number): string {
  const s = normaliseSymbol(token.split(/[_/]/)[0]!);
  if (!isChemicalSymbol(s)) fail(lineNo, `"${token}" on the species line is not a chemical symbol.`);
  return s;
}

export function readPoscar(text: string, options: PoscarReadOptions = {}): Structure {
  const lines = text.split(/\r\n|\r|\n/);
  const scaleTokens = (lines[1] ?? '').trim().split(/\s+/).filter(Boolean);
  if (lines.length < 8)
    fail(
      lines.length,
      'too short for a POSCAR: it needs a comment, the scale, three lattice vectors, the counts, the coordinate mode and the positions.',
    );
  if (scaleTokens.length !== 1 && scaleTokens.length !== 3)
    fail(2, `the scale line holds one number (or three, one per axis), found "${lines[1]!.trim()}".`);
  const scale = numbersOn(lines[1], 2, scaleTokens.length, 'the scale factor');
  const unscaled = [2, 3, 4].map((k) => numbersOn(lines[k], k + 1, 3, `lattice vector ${k - 1} (Å before scaling)`)) as Cell;
  // One factor per Cartesian axis, applied to the lattice vectors and to Cartesian positions alike.
  let factors: Vec3;
  if (scale.length === 3) {
    if (scale.some((s) => s <= 0)) fail(2, 'three scale factors must all be positive.');
    factors = scale as Vec3;
  } else if (scale[0]! < 0) {
    const v = Math.abs(signedVolume(unscaled));
    if (v === 0) fail(3, 'the lattice vectors are coplanar, so a negative scale (target volume) cannot be applied.');
    const f = Math.cbrt(-scale[0]! / v);
    factors = [f, f, f];
  } else if (scale[0] === 0) {
    return fail(2, 'the scale factor is 0; give a positive factor, or a negative number for the cell volume in Å^3.');
  } else {
    factors = [scale[0]!, scale[0]!, scale[0]!];
  }
  const cell = unscaled.map((v) => [v[0] * factors[0], v[1] * factors[1], v[2] * factors[2]]) as Cell;
  if (Math.abs(signedVolume(cell)) < 1e-10) fail(3, 'the three lattice vectors are coplanar (zero volume); check lines 3-5.');
  let k = 5;
  let species: string[];
  const sixth = (lines[k] ?? '').trim().split(/\s+/);
  if (/^\d+$/.test(sixth[0] ?? '')) {
    if (!options.species) {
      fail(
        6,
        'this is a VASP 4 file: line 6 gives counts but no species line names the elements. Add the species line (e.g. "Na Cl") above the counts, ' +
          'or pass the species in order (dreams structure FILE --species Na,Cl).',
      );
    }
    species = options.species!.map((s) => speciesName(s, 6));
  } else {
    species = sixth.map((t) => speciesName(t, 6));
    k++;
  }
  const countTokens = (lines[k] ?? '').trim().split(/\s+/);
  if (!countTokens.every((t) => /^\d+$/.test(t)))
    fail(k + 1, `expected the number of atoms of each species, found "${(lines[k] ?? '').trim()}".`);
  const counts = countTokens.map(Number);
  if (counts.length !== species.length) {
    fail(k + 1, `${species.length} species (${species.join(' ')}) but ${counts.length} counts; give one count per species.`);
  }
  k++;
  let selective = false;
  if (/^\s*s/i.test(lines[k] ?? '')) {
    selective = true;
    k++;
  }
  const mode = (lines[k] ?? '').trim();
  if (!/^[dDcCkK]/.test(mode)) fail(k + 1, `expected the coordinate mode (Direct or Cartesian), found "${mode}".`);
  const cartesian = /^[cCkK]/.test(mode);
  k++;
  const symbols: string[] = species.flatMap((s, j) => Array<string>(counts[j]!).fill(s));
  const positions: Vec3[] = [];
  const masks: [boolean, boolean, boolean][] = [];
  for (let a = 0; a < symbols.length; a++) {
    const lineNo = k + a + 1;
    const raw = lines[k + a];
    if (raw === undefined || raw.trim() === '')
      fail(
        lineNo,
        `the counts promise ${symbols.length} atoms but the positions end after ${a}; fix the counts on line ${k - (selective ? 2 : 1)}.`,
      );
    const t = raw!.trim().split(/\s+/);
    const xyz = numbersOn(raw, lineNo, 3, `the position of atom ${a + 1}`) as Vec3;
    positions.push(cartesian ? [xyz[0] * factors[0], xyz[1] * factors[1], xyz[2] * factors[2]] : toCartesian(cell, xyz));
    if (selective) {
      const flags = t.slice(3, 6);
      if (flags.length !== 3 || !flags.every((x) => /^[TF]$/i.test(x)))
        fail(lineNo, `Selective dynamics needs three flags T or F after the coordinates of atom ${a + 1}; found "${flags.join(' ')}".`);
      masks.push(flags.map((x) => /^F$/i.test(x)) as [boolean, boolean, boolean]);
    }
  }
  const structure: Structure = { symbols, positions, cell, pbc: [true, true, true] };
  const comment = (lines[0] ?? '').trim();
  if (comment) structure.info = { comment };
  if (selective) {
    structure.fixed = masks.map((m) => m.every(Boolean));
    if (masks.some((m) => m.some(Boolean) && !m.every(Boolean))) structure.fixedComponents = { frame: 'lattice', mask: masks };
  }
  return structure;
}

/** Per-atom masks along the lattice vectors (true = fixed), or undefined when nothing is fixed. */
export function latticeMasks(structure: Structure): [boolean, boolean, boolean][] | undefined {
  const fc = structure.fixedComponents;
  if (fc) {
    if (fc.frame === 'lattice') return fc.mask;
    return fc.mask.map((m, i) => {
      const l = convertMask(m, 'cartesian', 'lattice', structure.cell);
      if (!l) {
        throw new Error(
          `cannot write atom ${i + 1}'s constraint (fixed along Cartesian ${m.map((x, k) => (x ? 'xyz'[k] : '')).join('')} only) as POSCAR flags, ` +
            'which fix lattice directions: no lattice mask leaves the same directions free in this cell. Write pw.x or extxyz instead.',
        );
      }
      return l;
    });
  }
  if (structure.fixed?.some(Boolean)) return structure.fixed.map((f) => [f, f, f]);
  return undefined;
}

export function formatPoscar(structure: Structure, options: { comment?: string } = {}): string {
  const n = structure.symbols.length;
  if (structure.positions.length !== n) throw new Error(`cannot write POSCAR: ${n} symbols but ${structure.positions.length} positions.`);
  if (!structure.pbc.every(Boolean))
    throw new Error('cannot write POSCAR: the structure has no three-dimensional cell; write extxyz or XSF.');
  const runs: { symbol: string; count: number }[] = [];
  for (const s of structure.symbols) {
    if (!isChemicalSymbol(s)) throw new Error(`cannot write POSCAR: "${s}" is not a chemical symbol.`);
    const last = runs[runs.length - 1];
    if (last && last.symbol === s) last.count++;
    else runs.push({ symbol: s, count: 1 });
  }
  const masks = latticeMasks(structure);
  const f = (x: number) => x.toFixed(12).padStart(18);
  const comment = (options.comment ?? runs.map((r) => `${r.symbol}${r.count}`).join('')).replace(/[\r\n]+/g, ' ');
  const lines = [
    comment,
    '1.0',
    ...structure.cell.map((v) => v.map(f).join(' ')),
    runs.map((r) => r.symbol.padStart(4)).join(' '),
    runs.map((r) => String(r.count).padStart(4)).join(' '),
    ...(masks ? ['Selective dynamics'] : []),
    'Direct',
    ...structure.positions.map((p, i) => {
      const frac = toFractional(structure.cell, p);
      return `${frac.map(f).join(' ')}${masks ? ' ' + masks[i]!.map((x) => (x ? 'F' : 'T')).join(' ') : ''}`;
    }),
  ];
  return lines.join('\n') + '\n';
}
