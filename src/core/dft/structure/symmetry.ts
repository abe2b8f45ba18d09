/**
 * Crystal symmetry through moyo (the spglib project's symmetry library): the space group
 * (ITA number, short Hermann–Mauguin symbol as spglib writes it, e.g. "Fm-3m", "P6_3/mmc"),
 * the Wyckoff letter of every atom, the standardised conventional and primitive cells (in
 * spglib's settings), and the lattice parameters and volume of the conventional cell.
 * Lengths in Å; the tolerance `symprecAngstrom` is a distance in Å.
 */
import { DftScienceError } from '../scienceError';
import type { Cell, Structure, Vec3 } from '../types';
import { cellVolume, toCartesian, toFractional } from './cell';
import { parametersOfCell } from './cellParameters';
import { loadMoyo } from './moyo';
import { CHEMICAL_SYMBOLS, atomicNumber } from '../io/elements';
import { DEFAULT_SYMPREC_ANGSTROM } from './symprec';

export { DEFAULT_SYMPREC_ANGSTROM, symprecSaid } from './symprec';

export interface SymmetryOptions {
  /** Overrides the structure's own tolerance (`Structure.symprecAngstrom`), which overrides the default. */
  symprecAngstrom?: number;
  /** Tell atoms of one element apart by their species label (pw.x's Fe1/Fe2), as pw.x does. */
  byLabel?: boolean;
}

export interface LatticeParameters {
  aAngstrom: number;
  bAngstrom: number;
  cAngstrom: number;
  alphaDegrees: number;
  betaDegrees: number;
  gammaDegrees: number;
  cOverA: number;
  volumeAngstrom3: number;
}

export interface SpaceGroup {
  number: number;
  /** Short Hermann–Mauguin symbol without spaces, as spglib's `international`. */
  symbol: string;
  hallNumber: number;
  /** e.g. "Cubic", "Hexagonal", "Trigonal", "Monoclinic". */
  crystalSystem: string;
  pearsonSymbol: string;
}

export interface SymmetryInfo {
  symprecAngstrom: number;
  spaceGroup: SpaceGroup;
  /** Symmetry operations of the cell as given (translations of a supercell included). */
  operationCount: number;
  /** Wyckoff letter of each atom of the input, in its order. */
  wyckoffLetters: string[];
  /** Site-symmetry symbol of each atom. */
  siteSymmetry: string[];
  /** For each atom, the index of the first atom of its orbit. */
  equivalentAtoms: number[];
  /** Standardised conventional cell (spglib's setting and orientation). */
  conventional: Structure;
  /** Standardised primitive cell. */
  primitive: Structure;
  /** Of the standardised conventional cell. */
  lattice: LatticeParameters;
}

interface MoyoCellJson {
  lattice: { basis: number[] };
  positions: [number, number, number][];
  numbers: number[];
}

/** The short symbol as spglib writes it: "F m -3 m" -> "Fm-3m". */
export const compactSymbol = (hm: string): string => hm.replace(/\s+/g, '');

function speciesNumbers(s: Structure, byLabel: boolean): { numbers: number[]; symbolOf: Map<number, string> } {
  const keys = s.symbols.map((sym, i) => (byLabel && s.labels ? s.labels[i]! : sym));
  const symbolOf = new Map<number, string>();
  const byKey = new Map<string, number>();
  const numbers = keys.map((k, i) => {
    let n = byKey.get(k);
    if (n === undefined) {
      const z = atomicNumber(s.symbols[i]!);
      // Atomic numbers where each key is its element; otherwise distinct numbers above the table.
      n = z !== undefined && z > 0 && !symbolOf.has(z) && k === s.symbols[i] ? z : 1000 + byKey.size;
      byKey.set(k, n);
      symbolOf.set(n, s.symbols[i]!);
    }
    return n;
  });
  return { numbers, symbolOf };
}

function structureOfMoyoCell(c: MoyoCellJson, symbolOf: Map<number, string>): Structure {
  const b = c.lattice.basis;
  const cell: Cell = [
    [b[0]!, b[1]!, b[2]!],
    [b[3]!, b[4]!, b[5]!],
    [b[6]!, b[7]!, b[8]!],
  ];
  return {
    symbols: c.numbers.map((n) => symbolOf.get(n) ?? CHEMICAL_SYMBOLS[n] ?? 'X'),
    positions: c.positions.map((f) => toCartesian(cell, f as Vec3)),
    cell,
    pbc: [true, true, true],
  };
}

/**
 * moyo may return a monoclinic conventional cell with β far from 90° (e.g. 164° where 104° is
 * the same lattice): shorten a and c in their plane, keeping the centring (c by multiples of a;
 * a by even multiples of c), and make β obtuse, as the standard cell has it. Unique axis b.
 */
function reduceMonoclinic(s: Structure): void {
  let [a, b, c] = s.cell.map((v) => [...v] as Vec3) as [Vec3, Vec3, Vec3];
  const dot3 = (u: Vec3, v: Vec3) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const comb = (u: Vec3, v: Vec3, n: number): Vec3 => [u[0] - n * v[0], u[1] - n * v[1], u[2] - n * v[2]];
  for (let k = 0; k < 50; k++) {
    const n = Math.round(dot3(a, c) / dot3(a, a));
    const m = 2 * Math.round(dot3(a, c) / (2 * dot3(c, c)));
    if (n !== 0 && dot3(comb(c, a, n), comb(c, a, n)) < dot3(c, c) - 1e-12) c = comb(c, a, n);
    else if (m !== 0 && dot3(comb(a, c, m), comb(a, c, m)) < dot3(a, a) - 1e-12) a = comb(a, c, m);
    else break;
  }
  if (dot3(a, c) > 1e-12) {
    a = [-a[0], -a[1], -a[2]];
    b = [-b[0], -b[1], -b[2]];
  }
  const cell: Cell = [a, b, c];
  s.positions = s.positions.map((p) => toCartesian(cell, toFractional(cell, p).map((x) => x - Math.floor(x + 1e-12)) as Vec3));
  s.cell = cell;
}

/** The tolerance a structure's symmetry is found at: the one asked for, else the structure's own, else the default. */
export const symprecOf = (structure: Pick<Structure, 'symprecAngstrom'>, options: SymmetryOptions = {}): number =>
  options.symprecAngstrom ?? structure.symprecAngstrom ?? DEFAULT_SYMPREC_ANGSTROM;

/** The space group and standardised cells of a periodic structure. */
export function analyseSymmetry(structure: Structure, options: SymmetryOptions = {}): SymmetryInfo {
  const symprec = symprecOf(structure, options);
  if (!(symprec > 0) || !Number.isFinite(symprec)) {
    throw new DftScienceError(`symprec = ${symprec} Å is not a positive distance; pass a tolerance such as 1e-3 Å.`, { symprec });
  }
  if (!structure.pbc.every(Boolean)) {
    throw new DftScienceError(
      'symmetry analysis needs a crystal periodic in three directions; this structure is not (a molecule or slab).',
      { pbc: structure.pbc },
    );
  }
  if (structure.symbols.length === 0) throw new DftScienceError('the structure has no atoms; a space group needs at least one.', {});
  const moyo = loadMoyo();
  const { numbers, symbolOf } = speciesNumbers(structure, options.byLabel ?? false);
  const cellJson: MoyoCellJson = {
    lattice: { basis: structure.cell.flat() },
    positions: structure.positions.map((p) => toFractional(structure.cell, p)),
    numbers,
  };
  let d;
  try {
    d = moyo.analyze_cell(JSON.stringify(cellJson), symprec, 'Spglib');
  } catch (e) {
    throw new DftScienceError(
      `the symmetry search failed at symprec = ${symprec} Å (${String((e as Error)?.message ?? e)}); ` +
        'try a larger tolerance (e.g. --symprec 1e-2), or check for overlapping atoms.',
      { symprec },
    );
  }
  const type = moyo.space_group_type(d.number);
  // the standardised cells are the same crystal: they keep the tolerance it was given
  const keep = structure.symprecAngstrom !== undefined ? { symprecAngstrom: structure.symprecAngstrom } : {};
  const conventional = { ...structureOfMoyoCell(d.std_cell as MoyoCellJson, symbolOf), ...keep };
  if (type.crystal_system === 'Monoclinic') reduceMonoclinic(conventional);
  const p = parametersOfCell(conventional.cell);
  return {
    symprecAngstrom: symprec,
    spaceGroup: {
      number: d.number,
      symbol: compactSymbol(d.hm_symbol),
      hallNumber: d.hall_number,
      crystalSystem: type.crystal_system,
      pearsonSymbol: d.pearson_symbol,
    },
    operationCount: d.operations.length,
    wyckoffLetters: [...d.wyckoffs],
    siteSymmetry: [...d.site_symmetry_symbols],
    equivalentAtoms: [...d.orbits],
    conventional,
    primitive: { ...structureOfMoyoCell(d.prim_std_cell as MoyoCellJson, symbolOf), ...keep },
    lattice: {
      aAngstrom: p.a,
      bAngstrom: p.b,
      cAngstrom: p.c,
      alphaDegrees: p.alpha,
      betaDegrees: p.beta,
      gammaDegrees: p.gamma,
      cOverA: p.c / p.a,
      volumeAngstrom3: cellVolume(conventional.cell),
    },
  };
}

/** A symmetry operation on fractional coordinates: x' = R x + t. */
export interface FractionalOperation {
  rotation: [Vec3, Vec3, Vec3];
  translation: Vec3;
}

const normaliseHm = (s: string) => s.replace(/[\s_]/g, '').toLowerCase();
/** "P 1 2_1/n 1" -> "P2_1/n": the full monoclinic symbol without its 1 axes, as files often abbreviate it. */
const withoutOneAxes = (full: string) => {
  const parts = full.trim().split(/\s+/);
  const kept = parts.filter((t, k) => k === 0 || t !== '1');
  return kept.length > 1 ? kept.join('') : full;
};

/**
 * The operations (centring included) of a space group in the conventional cell, from its ITA
 * number or its Hermann–Mauguin symbol. A setting may follow the symbol or number as ":1",
 * ":2", ":H", ":R" (or " H", " R", " S"); without one, spglib's first setting (origin choice 1,
 * hexagonal axes for R groups, unique axis b), as ASE assumes.
 */
export function operationsOfSpaceGroup(
  ref: string | number,
): { operations: FractionalOperation[]; number: number; hallNumber: number; symbol: string } | undefined {
  const moyo = loadMoyo();
  const text = String(ref).trim();
  const m = /^(.*?)(?:\s*:\s*([A-Za-z0-9]+)|\s+([HRSZ]))?$/.exec(text);
  const base = (m?.[1] ?? text).trim();
  const settingRaw = (m?.[2] ?? m?.[3])?.toUpperCase();
  const setting = settingRaw === 'S' || settingRaw === 'Z' ? '2' : settingRaw;
  let entries: { hall_number: number; number: number; setting: string; hm_short: string; hm_full: string }[] = [];
  if (/^\d+$/.test(base)) {
    const n = Number(base);
    if (n < 1 || n > 230) return undefined;
    entries = moyo.hall_symbol_entries_from_number(n);
  } else {
    const want = normaliseHm(base);
    for (let n = 1; n <= 230 && entries.length === 0; n++) {
      const all = moyo.hall_symbol_entries_from_number(n);
      const full = all.filter((e) => normaliseHm(e.hm_full) === want || normaliseHm(withoutOneAxes(e.hm_full)) === want);
      entries = full.length ? full : all.filter((e) => normaliseHm(e.hm_short) === want);
    }
  }
  if (entries.length === 0) return undefined;
  const entry = (setting ? entries.find((e) => e.setting.toUpperCase() === setting) : undefined) ?? entries[0]!;
  if (setting && entry.setting.toUpperCase() !== setting) return undefined;
  const ops = moyo.operations_from_number(entry.number, { type: 'HallNumber', value: entry.hall_number }, false);
  return {
    number: entry.number,
    hallNumber: entry.hall_number,
    symbol: compactSymbol(entry.hm_short),
    // moyo gives each rotation column by column (its matrices are column-major): row i of R is
    // (r[i], r[i+3], r[i+6]). Read row by row, the 3-fold and 6-fold axes of trigonal and hexagonal
    // groups came out transposed, which are not operations of the group (hcp Mg by its symbol
    // expanded to six atoms); the signed permutations of the other systems hid it.
    operations: ops.map((o) => ({
      rotation: [
        [o.rotation[0], o.rotation[3], o.rotation[6]],
        [o.rotation[1], o.rotation[4], o.rotation[7]],
        [o.rotation[2], o.rotation[5], o.rotation[8]],
      ],
      translation: [...o.translation] as Vec3,
    })),
  };
}
