/**
 * Structures from pw.x files and pw.x cards from structures. Inputs are read with the project's
 * pw.x input parser and its cell code (every ibrav, celldm or A/B/C/cosAB..., CELL_PARAMETERS in
 * alat/bohr/angstrom, ATOMIC_POSITIONS in alat/bohr/angstrom/crystal; if_pos 0 0 0 fixes an
 * atom, a partial if_pos is kept as a Cartesian per-direction constraint). Outputs give their
 * last complete geometry (the final one of a relax or vc-relax). Species labels other than the
 * bare element (Fe1, Fe2) are kept as labels.
 */
import { BOHR_IN_ANGSTROM } from '../../units';
import {
  elementOfSpeciesLabel,
  LatticeError,
  latticeOfInput,
  numberIn,
  parsePwInput,
  rangeOfKey,
  readAtomicPositions,
  readAtomicSpecies,
  cardOf,
} from '../qe/input';
import type { PwInput } from '../qe/input';
import { parsePwOutput } from '../qe/output';
import { toCartesian } from '../structure/cell';
import { convertMask } from '../structure/constraints';
import type { Structure, Vec3 } from '../types';
import { elementOf } from '../../../shared/elements';
import { isChemicalSymbol, normaliseSymbol } from './elements';
import { StructureFileError } from './errors';

const failIn = (line: number | undefined, message: string): never => {
  throw new StructureFileError('pwx-in', line, message);
};
const failOut = (line: number | undefined, message: string): never => {
  throw new StructureFileError('pwx-out', line, message);
};

function elementOfLabel(label: string, line: number | undefined, fail: (l: number | undefined, m: string) => never): string {
  const el = normaliseSymbol(elementOfSpeciesLabel(label));
  if (!isChemicalSymbol(el))
    fail(
      line,
      `the species label "${label}" does not start with a chemical symbol; pw.x reads the element from the label (e.g. Fe1 is Fe).`,
    );
  return el;
}

function withLabels(structure: Structure, labels: string[]): Structure {
  if (labels.some((l, i) => l !== structure.symbols[i])) structure.labels = labels;
  return structure;
}

function constraintsFrom(structure: Structure, ifPos: ([number, number, number] | undefined)[]): void {
  if (!ifPos.some((f) => f !== undefined)) return;
  const masks = ifPos.map((f) => (f ?? [1, 1, 1]).map((x) => x === 0) as [boolean, boolean, boolean]);
  structure.fixed = masks.map((m) => m.every(Boolean));
  if (masks.some((m) => m.some(Boolean) && !m.every(Boolean))) structure.fixedComponents = { frame: 'cartesian', mask: masks };
}

export function readPwxInput(text: string): Structure {
  const input: PwInput = parsePwInput(text);
  if (input.problems.length) {
    const p = input.problems[0]!;
    failIn(p.range.start.line + 1, `${p.message} (check it with: dreams validate FILE)`);
  }
  const lineOfKey = (key: string) => {
    const r = rangeOfKey(input, 'system', key);
    return r ? r.start.line + 1 : undefined;
  };
  let lattice;
  try {
    lattice = latticeOfInput(input);
  } catch (e) {
    if (e instanceof LatticeError) failIn(lineOfKey('ibrav'), e.message);
    throw e;
  }
  const read = readAtomicPositions(input);
  if (!read) failIn(undefined, 'the input has no ATOMIC_POSITIONS card; add one with the atoms of the structure.');
  if (read!.problems.length) failIn(read!.problems[0]!.range.start.line + 1, read!.problems[0]!.message);
  const card = cardOf(input, 'ATOMIC_POSITIONS')!;
  const cardLine = card.headerRange.start.line + 1;
  const { unit, atoms } = read!.value;
  if (unit === 'crystal_sg') {
    failIn(
      cardLine,
      'ATOMIC_POSITIONS {crystal_sg} gives Wyckoff positions of a space_group, which this reader does not expand; ' +
        'run pw.x once and read its output, or write the cell with ibrav and the positions as {crystal}.',
    );
  }
  const nat = numberIn(input, 'system', 'nat');
  if (nat !== undefined && nat !== atoms.length)
    failIn(lineOfKey('nat') ?? cardLine, `nat = ${nat} but ATOMIC_POSITIONS lists ${atoms.length} atoms; make them agree.`);
  const speciesCard = readAtomicSpecies(input);
  const known = new Set(speciesCard?.value.map((s) => s.label));
  const cell = lattice!.cellAngstrom;
  const alat = lattice!.alatAngstrom;
  const positions = atoms.map((a) => {
    const p = a.position!;
    switch (unit) {
      case 'alat':
        return [p[0] * alat, p[1] * alat, p[2] * alat] as Vec3;
      case 'bohr':
        return [p[0] * BOHR_IN_ANGSTROM, p[1] * BOHR_IN_ANGSTROM, p[2] * BOHR_IN_ANGSTROM] as Vec3;
      case 'angstrom':
        return [...p] as Vec3;
      default:
        return toCartesian(cell, p);
    }
  });
  const labels = atoms.map((a) => {
    if (speciesCard && !known.has(a.label))
      failIn(a.range.start.line + 1, `the atom's species "${a.label}" is not in ATOMIC_SPECIES (${[...known].join(', ')}); add it there.`);
    return a.label;
  });
  const symbols = atoms.map((a) => elementOfLabel(a.label, a.range.start.line + 1, failIn));
  const structure: Structure = { symbols, positions, cell, pbc: [true, true, true] };
  constraintsFrom(
    structure,
    atoms.map((a) => a.ifPos),
  );
  return withLabels(structure, labels);
}

/** The if_pos of the last ATOMIC_POSITIONS block printed in an output (pw.x prints them for constrained atoms). */
function lastPrintedIfPos(text: string, nat: number): ([number, number, number] | undefined)[] | undefined {
  const at = text.lastIndexOf('ATOMIC_POSITIONS');
  if (at < 0) return undefined;
  const lines = text
    .slice(at)
    .split(/\r?\n/)
    .slice(1, nat + 1);
  if (lines.length < nat) return undefined;
  return lines.map((l) => {
    const t = l.trim().split(/\s+/);
    return t.length >= 7 && t.slice(4, 7).every((x) => x === '0' || x === '1')
      ? (t.slice(4, 7).map(Number) as [number, number, number])
      : undefined;
  });
}

export function readPwxOutput(text: string): Structure {
  const out = parsePwOutput(text);
  const nat = out.settings.nat;
  const complete = out.ionicSteps.filter((s) => nat === undefined || s.positionsAngstrom.length === nat);
  // The final SCF of a relaxation prints the geometry of the "final coordinates" block again, rounded
  // (axes to 6 decimals of alat); when the last two geometries agree to that rounding, the earlier has the digits.
  const last = complete[complete.length - 1];
  const before = complete[complete.length - 2];
  const agree = (a: Vec3[], b: Vec3[]) => a.length === b.length && a.every((v, i) => v.every((x, k) => Math.abs(x - b[i]![k]!) < 1e-4));
  const step =
    last && before && agree(last.cellAngstrom, before.cellAngstrom) && agree(last.positionsAngstrom, before.positionsAngstrom)
      ? before
      : last;
  if (!step) {
    failOut(
      undefined,
      out.lineCount < 20
        ? 'this does not look like a pw.x output (no "Program PWSCF" header or geometry); give the file pw.x wrote to standard output.'
        : 'the output holds no complete geometry (pw.x stopped before printing the cell and positions); use the input file instead.',
    );
  }
  const symbols = step!.symbols.map((l) => elementOfLabel(l, undefined, failOut));
  const structure: Structure = {
    symbols,
    positions: step!.positionsAngstrom.map((p) => [...p] as Vec3),
    cell: step!.cellAngstrom.map((v) => [...v]) as Structure['cell'],
    pbc: [true, true, true],
  };
  const ifPos = lastPrintedIfPos(text, symbols.length);
  if (ifPos) constraintsFrom(structure, ifPos);
  const info: Record<string, string | number | boolean> = { geometries: complete.length };
  if (out.calculation) info['calculation'] = out.calculation;
  if (out.relaxation) info['relaxationConverged'] = out.relaxation.converged;
  structure.info = info;
  return withLabels(structure, step!.symbols);
}

export interface PwxCardsOptions {
  /** Pseudopotential file per element or label; `<El>.UPF` where not given (edit it). */
  pseudopotentials?: Record<string, string>;
  comment?: string;
}

/**
 * The structure as the parts of a pw.x input it determines: &SYSTEM ibrav = 0, nat, ntyp;
 * ATOMIC_SPECIES (mass from the element table), CELL_PARAMETERS and ATOMIC_POSITIONS in
 * angstrom (to 1e-10 Å), with if_pos where atoms are constrained. Add the cutoffs, K_POINTS
 * and the rest of the calculation's settings.
 */
export function formatPwxCards(structure: Structure, options: PwxCardsOptions = {}): string {
  const n = structure.symbols.length;
  if (structure.positions.length !== n)
    throw new Error(`cannot write pw.x cards: ${n} symbols but ${structure.positions.length} positions.`);
  if (!structure.pbc.every(Boolean))
    throw new Error('cannot write pw.x cards: the structure has no three-dimensional cell; give it one (a box for a molecule) first.');
  const labels = structure.labels ?? structure.symbols;
  const species = [...new Set(labels)];
  const elementOfSpecies = new Map(labels.map((l, i) => [l, structure.symbols[i]!]));
  const fc = structure.fixedComponents;
  const masks = fc
    ? fc.mask.map((m, i) => {
        const c = convertMask(m, fc.frame, 'cartesian', structure.cell);
        if (!c) {
          throw new Error(
            `cannot write atom ${i + 1}'s constraint (fixed along lattice vectors ${m.map((x, k) => (x ? k + 1 : '')).join('')} only) as pw.x if_pos, ` +
              'which fixes Cartesian directions: no Cartesian mask leaves the same directions free in this cell. Constrain whole atoms, or write POSCAR instead.',
          );
        }
        return c;
      })
    : structure.fixed?.some(Boolean)
      ? structure.fixed.map((f) => [f, f, f] as [boolean, boolean, boolean])
      : undefined;
  const f = (x: number) => x.toFixed(10).padStart(16);
  const lines = [
    ...(options.comment ? options.comment.split('\n').map((l) => `! ${l}`) : []),
    '&CONTROL',
    '/',
    '&SYSTEM',
    '  ibrav = 0',
    `  nat = ${n}`,
    `  ntyp = ${species.length}`,
    '/',
    '&ELECTRONS',
    '/',
    'ATOMIC_SPECIES',
    ...species.map((s) => {
      const el = elementOfSpecies.get(s)!;
      const mass = elementOf(el)?.massAmu;
      if (mass === undefined) throw new Error(`cannot write pw.x cards: "${el}" is not a chemical symbol.`);
      return `${s.padEnd(4)} ${String(mass).padStart(8)}  ${options.pseudopotentials?.[s] ?? options.pseudopotentials?.[el] ?? `${el}.UPF`}`;
    }),
    'CELL_PARAMETERS angstrom',
    ...structure.cell.map((v) => v.map(f).join(' ')),
    'ATOMIC_POSITIONS angstrom',
    ...structure.positions.map(
      (p, i) => `${labels[i]!.padEnd(4)} ${p.map(f).join(' ')}${masks ? '  ' + masks[i]!.map((x) => (x ? 0 : 1)).join(' ') : ''}`,
    ),
  ];
  return lines.join('\n') + '\n';
}
