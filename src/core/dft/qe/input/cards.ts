/**
 * Typed readings of pw.x cards. Each reader returns what it could read and the
 * problems it met (with ranges), so the validator can report them and tools can use
 * the data of an imperfect input.
 */
import type { Vec3 } from '../../types';
import { evaluateCoordinate } from './expression';
import { parseFortranNumber } from './fortran';
import type { Card, CardLine, PwInput, Range, SyntaxProblem } from './model';
import { cardOf } from './query';

export interface Read<T> {
  value: T;
  problems: SyntaxProblem[];
}

const numberField = (line: CardLine, k: number): number | undefined => {
  const f = line.fields[k];
  return f ? parseFortranNumber(f.text) : undefined;
};

const whole = (c: Card): Range => c.range;

export interface SpeciesEntry {
  label: string;
  massAmu?: number;
  pseudopotential: string;
  range: Range;
}

/** The element of a species label, as pw.x reads it: "Pt1", "Fe_up" and "Fe-2" are Pt and Fe. */
export function elementOfSpeciesLabel(label: string): string {
  return label.replace(/[^A-Za-z].*$/, '') || label;
}

export function readAtomicSpecies(input: PwInput): Read<SpeciesEntry[]> | undefined {
  const card = cardOf(input, 'ATOMIC_SPECIES');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const value: SpeciesEntry[] = [];
  for (const line of card.lines) {
    if (line.fields.length < 3) {
      problems.push({
        code: 'species-line-short',
        range: line.range,
        message: `an ATOMIC_SPECIES line needs a label, a mass and a pseudopotential file, e.g. "Al 26.98 Al.pz-vbc.UPF"; found "${line.fields.map((f) => f.text).join(' ')}".`,
      });
      continue;
    }
    const mass = numberField(line, 1);
    if (mass === undefined) {
      problems.push({
        code: 'species-mass-not-number',
        range: line.fields[1]!.range,
        message: `the mass of ${line.fields[0]!.text} must be a number in amu; found "${line.fields[1]!.text}".`,
      });
    }
    const entry: SpeciesEntry = { label: line.fields[0]!.text, pseudopotential: line.fields[2]!.text, range: line.range };
    if (mass !== undefined) entry.massAmu = mass;
    value.push(entry);
  }
  return { value, problems };
}

export type PositionUnit = 'alat' | 'bohr' | 'angstrom' | 'crystal' | 'crystal_sg';

export interface AtomEntry {
  label: string;
  /** In the card's unit; undefined for Wyckoff-position lines of crystal_sg. */
  position?: Vec3;
  /** 0 fixes a component in relaxations and MD; absent = all free. */
  ifPos?: [number, number, number];
  range: Range;
}

export interface AtomicPositions {
  unit: PositionUnit;
  /** False when the header gives no unit (pw.x then assumes alat, deprecated). */
  unitGiven: boolean;
  atoms: AtomEntry[];
}

export function readAtomicPositions(input: PwInput): Read<AtomicPositions> | undefined {
  const card = cardOf(input, 'ATOMIC_POSITIONS');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const unit = (card.option ?? 'alat') as PositionUnit;
  const atoms: AtomEntry[] = [];
  for (const line of card.lines) {
    const [label, ...rest] = line.fields;
    const entry: AtomEntry = { label: label!.text, range: line.range };
    if (unit === 'crystal_sg' && rest.length < 3) {
      atoms.push(entry);
      continue;
    }
    if (rest.length < 3) {
      problems.push({
        code: 'position-line-short',
        range: line.range,
        message: `an ATOMIC_POSITIONS line needs a label and three coordinates; found "${line.fields.map((f) => f.text).join(' ')}".`,
      });
      atoms.push(entry);
      continue;
    }
    const xyz = rest.slice(0, 3).map((f) => evaluateCoordinate(f.text));
    xyz.forEach((v, k) => {
      if (v === undefined) {
        problems.push({
          code: 'coordinate-not-number',
          range: rest[k]!.range,
          message: `coordinate "${rest[k]!.text}" of ${entry.label} is not a number or an expression pw.x reads (+ - * / ^, no blanks).`,
        });
      }
    });
    if (xyz.every((v) => v !== undefined)) entry.position = xyz as Vec3;
    if (rest.length > 3) {
      const flags = rest.slice(3);
      if (flags.length !== 3 || !flags.every((f) => f.text === '0' || f.text === '1')) {
        problems.push({
          code: 'if-pos-invalid',
          range: { start: flags[0]!.range.start, end: flags[flags.length - 1]!.range.end },
          message: `the if_pos flags of ${entry.label} must be three integers 0 or 1 (0 keeps that component fixed); found "${flags.map((f) => f.text).join(' ')}".`,
        });
      } else {
        entry.ifPos = flags.map((f) => Number(f.text)) as [number, number, number];
      }
    }
    atoms.push(entry);
  }
  return { value: { unit, unitGiven: card.option !== undefined, atoms }, problems };
}

export type KPoints =
  | { kind: 'automatic'; mesh: [number, number, number]; shift: [number, number, number] }
  | { kind: 'gamma' }
  | { kind: 'list'; unit: string; points: KPointEntry[] };

/** A listed k-point; in a band path (tpiba_b, crystal_b) a point may be a special-point label ("gG", "X") instead of coordinates. */
export interface KPointEntry {
  k?: Vec3;
  label?: string;
  weight: number;
  range: Range;
}

export function readKPoints(input: PwInput): Read<KPoints> | undefined {
  const card = cardOf(input, 'K_POINTS');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const option = card.option ?? 'tpiba';
  if (option === 'gamma') return { value: { kind: 'gamma' }, problems };
  if (option === 'automatic') {
    const line = card.lines[0];
    const nums = line?.fields.map((f) => f.text) ?? [];
    const ints = nums.map((t) => (/^[+-]?\d+$/.test(t) ? Number(t) : NaN));
    if (!line || nums.length < 6 || ints.slice(0, 6).some((n) => Number.isNaN(n))) {
      problems.push({
        code: 'kpoints-automatic-line',
        range: line?.range ?? whole(card),
        message: `K_POINTS automatic needs one line of six integers "nk1 nk2 nk3 sk1 sk2 sk3" (e.g. "6 6 6 0 0 0"); found "${nums.join(' ')}".`,
      });
      return { value: { kind: 'automatic', mesh: [1, 1, 1], shift: [0, 0, 0] }, problems };
    }
    const mesh = ints.slice(0, 3) as [number, number, number];
    const shift = ints.slice(3, 6) as [number, number, number];
    if (mesh.some((n) => n < 1)) {
      problems.push({
        code: 'kpoints-mesh-nonpositive',
        range: line.range,
        message: `every k-mesh dimension must be 1 or more; found ${mesh.join(' ')}.`,
      });
    }
    if (shift.some((n) => n !== 0 && n !== 1)) {
      problems.push({
        code: 'kpoints-shift-invalid',
        range: line.range,
        message: `k-mesh shifts must be 0 or 1 (half a grid step); found ${shift.join(' ')}.`,
      });
    }
    return { value: { kind: 'automatic', mesh, shift }, problems };
  }
  const [countLine, ...rows] = card.lines;
  const count = countLine ? Number(countLine.fields[0]?.text) : NaN;
  const points: KPointEntry[] = [];
  const path = /_[bc]$/.test(option);
  if (!Number.isInteger(count)) {
    problems.push({
      code: 'kpoints-count',
      range: countLine?.range ?? whole(card),
      message: `K_POINTS ${option} starts with the number of k-points on its own line; found "${countLine?.fields.map((f) => f.text).join(' ') ?? ''}".`,
    });
  }
  for (const r of rows) {
    const labelled = path && r.fields.length >= 2 && /^[A-Za-z][A-Za-z0-9_']*$/.test(r.fields[0]!.text) ? numberField(r, 1) : undefined;
    if (labelled !== undefined) {
      points.push({ label: r.fields[0]!.text, weight: labelled, range: r.range });
      continue;
    }
    const v = [0, 1, 2, 3].map((k) => numberField(r, k));
    if (v.some((x) => x === undefined)) {
      problems.push({
        code: 'kpoint-line',
        range: r.range,
        message: `a k-point line needs "kx ky kz weight"; found "${r.fields.map((f) => f.text).join(' ')}".`,
      });
      continue;
    }
    points.push({ k: [v[0]!, v[1]!, v[2]!], weight: v[3]!, range: r.range });
  }
  if (Number.isInteger(count) && count !== rows.length) {
    problems.push({
      code: 'kpoints-count-mismatch',
      range: countLine!.range,
      message: `K_POINTS says ${count} k-points but lists ${rows.length}; make the count match the lines.`,
    });
  }
  return { value: { kind: 'list', unit: option, points }, problems };
}

export type CellUnit = 'alat' | 'bohr' | 'angstrom';

export interface CellParameters {
  /** Undefined when the header gives none (pw.x then takes bohr, or alat when celldm(1)/A is set). */
  unit?: CellUnit;
  vectors: [Vec3, Vec3, Vec3];
  /** The nine number fields, row by row, for in-place edits. */
  fieldRanges: Range[];
}

export function readCellParameters(input: PwInput): Read<CellParameters> | undefined {
  const card = cardOf(input, 'CELL_PARAMETERS');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const rows = card.lines.slice(0, 3);
  const vectors: Vec3[] = [];
  const fieldRanges: Range[] = [];
  for (const r of rows) {
    const v = [0, 1, 2].map((k) => numberField(r, k));
    if (r.fields.length !== 3 || v.some((x) => x === undefined)) {
      problems.push({
        code: 'cell-row',
        range: r.range,
        message: `a CELL_PARAMETERS row needs three numbers; found "${r.fields.map((f) => f.text).join(' ')}".`,
      });
      vectors.push([0, 0, 0]);
      continue;
    }
    vectors.push(v as Vec3);
    fieldRanges.push(...r.fields.map((f) => f.range));
  }
  if (card.lines.length !== 3) {
    problems.push({
      code: 'cell-row-count',
      range: whole(card),
      message: `CELL_PARAMETERS needs exactly three rows (the lattice vectors); found ${card.lines.length}.`,
    });
  }
  while (vectors.length < 3) vectors.push([0, 0, 0]);
  const value: CellParameters = { vectors: vectors as [Vec3, Vec3, Vec3], fieldRanges };
  if (card.option) value.unit = card.option as CellUnit;
  return { value, problems };
}

export function readOccupations(input: PwInput): Read<number[]> | undefined {
  const card = cardOf(input, 'OCCUPATIONS');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const value: number[] = [];
  for (const line of card.lines) {
    for (const f of line.fields) {
      // read_cards.f90 evaluates each field with feval_infix, as it does atomic coordinates ("4/3", "1+1/3").
      const v = evaluateCoordinate(f.text);
      if (v === undefined)
        problems.push({
          code: 'occupation-not-number',
          range: f.range,
          message: `occupation "${f.text}" is neither a number nor an expression pw.x evaluates (+ - * / ^ and parentheses, e.g. 4/3); pw.x stops with "Error parsing occupation".`,
        });
      else value.push(v);
    }
  }
  return { value, problems };
}

export interface Constraint {
  type: string;
  args: number[];
  target?: number;
  range: Range;
}

export function readConstraints(input: PwInput): Read<{ count: number; tolerance?: number; constraints: Constraint[] }> | undefined {
  const card = cardOf(input, 'CONSTRAINTS');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const [head, ...rows] = card.lines;
  const count = head ? Number(head.fields[0]?.text) : NaN;
  const tolerance = head ? numberField(head, 1) : undefined;
  if (!Number.isInteger(count)) {
    problems.push({
      code: 'constraints-count',
      range: head?.range ?? whole(card),
      message: 'CONSTRAINTS starts with "nconstr [constr_tol]" on its own line.',
    });
  }
  const constraints: Constraint[] = rows.map((r) => {
    const nums = r.fields.slice(1).map((f) => parseFortranNumber(f.text) ?? NaN);
    return { type: r.fields[0]!.text.replace(/^'|'$/g, ''), args: nums, range: r.range };
  });
  if (Number.isInteger(count) && count !== rows.length) {
    problems.push({
      code: 'constraints-count-mismatch',
      range: head!.range,
      message: `CONSTRAINTS says ${count} constraints but lists ${rows.length}.`,
    });
  }
  const value: { count: number; tolerance?: number; constraints: Constraint[] } = { count, constraints };
  if (tolerance !== undefined) value.tolerance = tolerance;
  return { value, problems };
}

export interface HubbardEntry {
  /** U, J0, J, B, E2, E3, V, ALPHA, BETA. */
  parameter: string;
  /** Manifolds as written, e.g. ["Fe-3d"] or ["Fe-3d", "O-2p"] for V. */
  manifolds: string[];
  /** Atom indices of a V entry. */
  atoms?: [number, number];
  /** eV. */
  valueEv: number;
  range: Range;
}

const HUBBARD_PARAMETERS = new Set(['U', 'J0', 'J', 'B', 'E2', 'E3', 'V', 'ALPHA', 'BETA']);

export function readHubbard(input: PwInput): Read<{ projectors?: string; entries: HubbardEntry[] }> | undefined {
  const card = cardOf(input, 'HUBBARD');
  if (!card) return undefined;
  const problems: SyntaxProblem[] = [];
  const entries: HubbardEntry[] = [];
  for (const line of card.lines) {
    const f = line.fields.map((x) => x.text);
    const parameter = f[0]!.toUpperCase();
    const value = parseFortranNumber(f[f.length - 1] ?? '');
    if (!HUBBARD_PARAMETERS.has(parameter) || value === undefined || f.length < 3) {
      problems.push({
        code: 'hubbard-line',
        range: line.range,
        message: `a HUBBARD line reads "<U|J0|J|B|E2|E3|V|ALPHA|BETA> <label>-<manifold> ... <value>", e.g. "U Fe-3d 4.0"; found "${f.join(' ')}".`,
      });
      continue;
    }
    if (parameter === 'V') {
      const i = Number(f[3]);
      const j = Number(f[4]);
      if (f.length !== 6 || !Number.isInteger(i) || !Number.isInteger(j)) {
        problems.push({
          code: 'hubbard-v-line',
          range: line.range,
          message: `a V line reads "V Fe-3d O-2p 1 2 0.5" (two manifolds, two atom indices, the value); found "${f.join(' ')}".`,
        });
        continue;
      }
      entries.push({ parameter, manifolds: [f[1]!, f[2]!], atoms: [i, j], valueEv: value, range: line.range });
    } else {
      entries.push({ parameter, manifolds: f.slice(1, -1), valueEv: value, range: line.range });
    }
  }
  return card.option === undefined ? { value: { entries }, problems } : { value: { projectors: card.option, entries }, problems };
}
