/**
 * Where the bulk modulus (GPa) a convergence selection judged pressures with came from, read from
 * the selection as select_converged_settings records it: its own probe of strained cells; another
 * selection's probe, handed on by a reference to that B (`a-N.criterion.bulkModulusGPa` or
 * `a-N.bulkModulus.valueGPa`: the lattice-constant study gives the k choice the B the cutoff choice
 * read from its probe); or given (a number, or a reference to anything else, another field of a
 * probe's selection included).
 * The report composer and the report judge's selection tables both say it from here.
 */
import { parseRef } from '../provenance/references';
import type { ConvergenceSelectionValue } from './shapes';

export type BulkModulusSource =
  | { from: 'probe' }
  /** Handed on from selection `id`, which read it from its probe; `inferred` for a selection recorded before `given` was kept. */
  | { from: 'selection'; id: string; inferred?: true }
  | { from: 'given'; ref?: string };

export function isConvergenceSelection(v: unknown): v is ConvergenceSelectionValue {
  const s = v as Partial<ConvergenceSelectionValue> | undefined;
  return !!s && typeof s === 'object' && typeof s.parameter === 'string' && Array.isArray(s.tested) && typeof s.chosenValue === 'number';
}

/** The fields of a selection that hold the B it read from its probe: a reference to one of these hands that B on. */
const PROBE_B_PATHS: readonly string[] = ['criterion.bulkModulusGPa', 'bulkModulus.valueGPa'];

const readFromProbe = (v: unknown): v is ConvergenceSelectionValue & { bulkModulus: { from: [string, ...string[]] } } =>
  isConvergenceSelection(v) && !!v.bulkModulus?.from.length;

/**
 * The source of `s`'s bulk modulus (undefined when it judged no pressure). `valueOf` reads an
 * artifact's value by id. A selection recorded before the reference of a given B was kept
 * (no `given`) is taken to have been handed on when one of `candidates` (artifact ids: the other
 * selections the reader shows) read the same B from its probe: an inference, kept only for those runs.
 */
export function bulkModulusSource(
  s: ConvergenceSelectionValue,
  valueOf: (id: string) => unknown,
  candidates: readonly string[],
): BulkModulusSource | undefined {
  const b = s.bulkModulus;
  if (!b) return undefined;
  if (b.from.length) return { from: 'probe' };
  if (b.given) {
    const ref = b.given.ref;
    if (ref === undefined) return { from: 'given' };
    const parsed = parseRef(ref);
    const v = parsed ? valueOf(parsed.artifactId) : undefined;
    // a hand-on names the B the selection read from its probe, and carries it; any other field of it is a given value
    const handedOn =
      parsed !== undefined && PROBE_B_PATHS.includes(parsed.path.join('.')) && readFromProbe(v) && v.bulkModulus.valueGPa === b.valueGPa;
    return handedOn ? { from: 'selection', id: parsed.artifactId } : { from: 'given', ref };
  }
  const id = candidates.find((c) => {
    const v = valueOf(c);
    return readFromProbe(v) && v.bulkModulus.valueGPa === b.valueGPa;
  });
  return id !== undefined ? { from: 'selection', id, inferred: true } : { from: 'given' };
}
