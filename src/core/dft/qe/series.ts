/**
 * Series from a template (DREAMS' batch tool): a convergence series in the cutoff or
 * the k-point spacing, or an equation-of-state series in the cell scale. Each member
 * changes only the named parameters of a validated template, in place, so every other
 * byte (comments, spacing, other values) is identical; each records the template's
 * hash and its changes for provenance.
 */
import { DreamsError } from '../../errors';
import { createHash } from 'node:crypto';
import { meshFromSpacing, type KMesh, type Periodicity } from '../kpoints';
import { readAtomicPositions, readCellParameters, readKPoints } from './input/cards';
import { applyTextEdits, serializePwInput, setVariableEdit, type TextEdit } from './input/edit';
import { formatFortranNumber } from './input/fortran';
import { latticeOfInput } from './input/lattice';
import type { PwInput } from './input/model';
import { parsePwInput } from './input/parse';
import { assignedOf, cardOf, numberIn, valueOf } from './input/query';
import { validatePwInput, type Diagnostic, type ValidateOptions } from './validate';

export interface SeriesChange {
  /** The input item changed: "ecutwfc", "celldm(1)", "K_POINTS", "CELL_PARAMETERS", "ATOMIC_POSITIONS". */
  parameter: string;
  /** As written in the template (undefined when the template did not set it). */
  from?: string;
  to: string;
}

export interface SeriesMember {
  /** Short name of the point, e.g. "ecutwfc=40", "k=0.2/Å (6×6×6)", "scale=1.02". */
  label: string;
  text: string;
  sha256: string;
  templateSha256: string;
  changes: SeriesChange[];
  /** The swept value: ecutwfc (Ry), the spacing (1/Å) or the linear cell scale. */
  value: number;
  /** k-spacing series: the mesh, and every requested spacing that gives it. */
  kMesh?: KMesh;
  spacingsPerAngstrom?: number[];
  /** EOS series: the cell volume, Å^3. */
  volumeAngstrom3?: number;
  /** Warnings this point has and the template did not (e.g. ecutrho below 4 × ecutwfc). */
  warnings: Diagnostic[];
}

export class SeriesError extends DreamsError<'bad-input'> {
  override readonly name = 'SeriesError';
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[] = [],
  ) {
    super('bad-input', message);
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Writes a number in the style of the template's value: "30.0" stays a real with a decimal point. */
function like(templateRaw: string | undefined, value: number): string {
  const s = formatFortranNumber(value);
  return templateRaw && /[.dDeE]/.test(templateRaw) && Number.isInteger(value) ? `${s}.0` : s;
}

/** A scaled coordinate or length, to 12 significant digits (beyond what pw.x reads as meaningful). */
const scaled = (x: number) => formatFortranNumber(Number(x.toPrecision(12)));

function validTemplate(template: string, opts: ValidateOptions): PwInput {
  const input = parsePwInput(template);
  const r = validatePwInput(input, opts);
  if (r.errorCount) {
    const first = r.diagnostics
      .filter((d) => d.severity === 'error')
      .slice(0, 3)
      .map((d) => `line ${d.range.start.line + 1}: ${d.message}`)
      .join('\n  ');
    throw new SeriesError(
      `the template has ${r.errorCount} error(s); fix them before generating a series:\n  ${first}`,
      r.diagnostics.filter((d) => d.severity === 'error'),
    );
  }
  return input;
}

function member(
  template: string,
  input: PwInput,
  edits: TextEdit[],
  fields: Omit<SeriesMember, 'text' | 'sha256' | 'templateSha256' | 'warnings'>,
  opts: ValidateOptions,
): SeriesMember {
  const text = applyTextEdits(serializePwInput(input), edits);
  const check = validatePwInput(text, opts);
  if (check.errorCount) {
    const d = check.diagnostics.find((x) => x.severity === 'error')!;
    throw new SeriesError(
      `the series point ${fields.label} would be invalid: ${d.message}`,
      check.diagnostics.filter((x) => x.severity === 'error'),
    );
  }
  const before = new Set(templateCodes(input, opts));
  const warnings = check.diagnostics.filter((d) => d.severity === 'warning' && !before.has(d.code));
  return { ...fields, text, sha256: sha256(text), templateSha256: sha256(template), warnings };
}

const unique = (xs: number[]) => [...new Set(xs)];

const codesCache = new WeakMap<PwInput, string[]>();
function templateCodes(input: PwInput, opts: ValidateOptions): string[] {
  let codes = codesCache.get(input);
  if (!codes) {
    codes = validatePwInput(input, opts).diagnostics.map((d) => d.code);
    codesCache.set(input, codes);
  }
  return codes;
}

function positive(values: number[], what: string): void {
  if (!values.length) throw new SeriesError(`no ${what} given: pass at least one value.`);
  const bad = values.filter((v) => !Number.isFinite(v) || v <= 0);
  if (bad.length) throw new SeriesError(`${what} must be positive numbers; got ${bad.join(', ')}.`);
}

export interface CutoffSeriesSpec {
  ecutwfcRy: number[];
  /** Density cutoffs, one per ecutwfc; by default ecutrho follows the template's ratio ecutrho/ecutwfc (or pw.x's default 4× when the template leaves ecutrho out). */
  ecutrhoRy?: number[];
}

export function cutoffSeries(template: string, spec: CutoffSeriesSpec, opts: ValidateOptions = {}): SeriesMember[] {
  positive(spec.ecutwfcRy, 'ecutwfc values');
  if (spec.ecutrhoRy && spec.ecutrhoRy.length !== spec.ecutwfcRy.length) {
    throw new SeriesError(`give one ecutrho per ecutwfc (${spec.ecutwfcRy.length}); got ${spec.ecutrhoRy.length}.`);
  }
  const input = validTemplate(template, opts);
  const wfc = assignedOf(input, 'system', 'ecutwfc')!;
  const rho = assignedOf(input, 'system', 'ecutrho');
  const dual = rho ? numberIn(input, 'system', 'ecutrho')! / numberIn(input, 'system', 'ecutwfc')! : undefined;
  const values = spec.ecutrhoRy ? spec.ecutwfcRy : unique(spec.ecutwfcRy);
  return values.map((e, i) => {
    const edits: TextEdit[] = [];
    const changes: SeriesChange[] = [];
    const wfcText = like(wfc.item.raw, e);
    edits.push(setVariableEdit(input, 'system', 'ecutwfc', { raw: wfcText }));
    changes.push({ parameter: 'ecutwfc', from: wfc.item.raw, to: wfcText });
    const rhoValue = spec.ecutrhoRy?.[i] ?? (dual !== undefined ? Number((dual * e).toPrecision(12)) : undefined);
    if (rhoValue !== undefined) {
      const rhoText = like(rho?.item.raw ?? wfc.item.raw, rhoValue);
      edits.push(setVariableEdit(input, 'system', 'ecutrho', { raw: rhoText }));
      changes.push(rho ? { parameter: 'ecutrho', from: rho.item.raw, to: rhoText } : { parameter: 'ecutrho', to: rhoText });
    }
    return member(template, input, edits, { label: `ecutwfc=${e}`, changes, value: e }, opts);
  });
}

function meshEdits(input: PwInput, mesh: KMesh): { edits: TextEdit[]; from: string; to: string } {
  const card = cardOf(input, 'K_POINTS')!;
  const line = card.lines[0]!;
  const edits = [0, 1, 2].map((k) => ({ range: line.fields[k]!.range, newText: String(mesh[k]) }));
  const from = line.fields.map((f) => f.text).join(' ');
  const to = [...mesh, ...line.fields.slice(3).map((f) => f.text)].join(' ');
  return { edits, from, to };
}

function automaticTemplate(template: string, opts: ValidateOptions): PwInput {
  const input = validTemplate(template, opts);
  const k = readKPoints(input)?.value;
  if (k?.kind !== 'automatic') {
    throw new SeriesError(
      `a k-point series changes the mesh of "K_POINTS automatic"; the template's K_POINTS is ${k ? k.kind : 'missing'}. Give the template an automatic mesh.`,
    );
  }
  return input;
}

export interface KSpacingSeriesSpec {
  /** Largest allowed distance between k-points, 1/Å with 2π (see dft/kpoints.ts). */
  spacingsPerAngstrom: number[];
  /** Periodic axes (false along a slab's vacuum normal: one k-point there). Default all periodic. */
  periodic?: Periodicity;
}

/**
 * One member per distinct mesh: spacings that give the same mesh on this cell share one
 * input (running it twice would only spend cluster time), and the member lists them all.
 */
export function kSpacingSeries(template: string, spec: KSpacingSeriesSpec, opts: ValidateOptions = {}): SeriesMember[] {
  positive(spec.spacingsPerAngstrom, 'k-point spacings');
  const input = automaticTemplate(template, opts);
  const cell = latticeOfInput(input).cellAngstrom;
  const byMesh = new Map<string, { mesh: KMesh; spacings: number[] }>();
  for (const s of unique(spec.spacingsPerAngstrom)) {
    const mesh = meshFromSpacing(cell, s, spec.periodic);
    const key = mesh.join('x');
    const entry = byMesh.get(key) ?? { mesh, spacings: [] };
    entry.spacings.push(s);
    byMesh.set(key, entry);
  }
  return [...byMesh.values()].map(({ mesh, spacings }) => {
    const e = meshEdits(input, mesh);
    const largest = Math.max(...spacings);
    return member(
      template,
      input,
      e.edits,
      {
        label: `k=${spacings.join('/')}/Å (${mesh.join('×')})`,
        changes: [{ parameter: 'K_POINTS', from: e.from, to: e.to }],
        value: largest,
        kMesh: mesh,
        spacingsPerAngstrom: spacings,
      },
      opts,
    );
  });
}

export function kMeshSeries(template: string, meshes: KMesh[], opts: ValidateOptions = {}): SeriesMember[] {
  if (!meshes.length) throw new SeriesError('no k-meshes given: pass at least one [n1, n2, n3].');
  for (const m of meshes) {
    if (m.length !== 3 || !m.every((n) => Number.isInteger(n) && n >= 1))
      throw new SeriesError(`a k-mesh is three integers ≥ 1; got [${m.join(', ')}].`);
  }
  const input = automaticTemplate(template, opts);
  const seen = new Set<string>();
  return meshes
    .filter((m) => !seen.has(m.join('x')) && seen.add(m.join('x')))
    .map((mesh) => {
      const e = meshEdits(input, mesh);
      return member(
        template,
        input,
        e.edits,
        { label: `k=${mesh.join('×')}`, changes: [{ parameter: 'K_POINTS', from: e.from, to: e.to }], value: mesh[0], kMesh: mesh },
        opts,
      );
    });
}

export interface EosSeriesSpec {
  /** Factors on every lattice vector (the volume scales by their cube). */
  linearScales?: number[];
  /** Factors on the volume. */
  volumeScales?: number[];
}

const det = (m: number[][]) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);

/**
 * An equation-of-state series: the cell scaled uniformly, through whatever defines it in
 * the template: celldm(1), or A (with B and C), or the CELL_PARAMETERS vectors when they
 * are in bohr or Å. Atoms keep their fractional positions: Cartesian positions in bohr or Å
 * are scaled too; positions in crystal or alat units need no change.
 */
export function eosSeries(template: string, spec: EosSeriesSpec, opts: ValidateOptions = {}): SeriesMember[] {
  const linear = [...(spec.linearScales ?? []), ...(spec.volumeScales ?? []).map((v) => Math.cbrt(v))];
  positive(linear, 'scale factors');
  const input = validTemplate(template, opts);
  const lattice = latticeOfInput(input);
  const v0 = Math.abs(det(lattice.cellAngstrom));
  const celldm = assignedOf(input, 'system', 'celldm(1)');
  const A = valueOf(input, 'system', 'A') !== undefined;
  const cellCard = readCellParameters(input)?.value;
  const cellScalesWithAlat = lattice.ibrav !== 0 || cellCard?.unit === 'alat' || (cellCard && !cellCard.unit && (celldm || A));
  const positions = readAtomicPositions(input)?.value;
  const posCard = cardOf(input, 'ATOMIC_POSITIONS');
  const cartesianAbsolute = positions && (positions.unit === 'bohr' || positions.unit === 'angstrom');
  return unique(linear).map((s) => {
    const edits: TextEdit[] = [];
    const changes: SeriesChange[] = [];
    if (cellScalesWithAlat) {
      const keys = celldm ? ['celldm(1)'] : ['A', 'B', 'C'];
      for (const key of keys) {
        const a = assignedOf(input, 'system', key);
        if (!a) continue;
        const v = scaled(Number(a.value.value) * s);
        edits.push(setVariableEdit(input, 'system', key, { raw: v }));
        changes.push({ parameter: key, from: a.item.raw, to: v });
      }
    } else {
      const card = cardOf(input, 'CELL_PARAMETERS')!;
      const fields = card.lines.slice(0, 3).flatMap((l) => l.fields.slice(0, 3));
      for (const f of fields) edits.push({ range: f.range, newText: scaled(Number(f.text.replace(/[dD]/, 'e')) * s) });
      changes.push({ parameter: 'CELL_PARAMETERS', from: fields.map((f) => f.text).join(' '), to: edits.map((e) => e.newText).join(' ') });
    }
    if (cartesianAbsolute && posCard) {
      const coords = posCard.lines.flatMap((l) => l.fields.slice(1, 4));
      const posEdits = coords.map((f) => {
        const x = positions!.atoms.flatMap((a) => a.position ?? [])[coords.indexOf(f)];
        return { range: f.range, newText: scaled((x ?? 0) * s) };
      });
      edits.push(...posEdits);
      changes.push({
        parameter: 'ATOMIC_POSITIONS',
        from: coords.map((f) => f.text).join(' '),
        to: posEdits.map((e) => e.newText).join(' '),
      });
    }
    return member(template, input, edits, { label: `scale=${s}`, changes, value: s, volumeAngstrom3: v0 * s ** 3 }, opts);
  });
}
