/**
 * The deterministic check every convergence suggestion passes: a suggestion may change
 * how the SCF gets to the answer, never make the answer less accurate. A looser
 * conv_thr, a lower cutoff, a coarser k-sampling, fewer SCF steps or a smearing wide
 * enough to bias the energy are refused with the reason.
 */
import { MAGNETIC_ELEMENTS } from '../../workflows/latticeConstantInputs';

export interface Suggestion {
  /** The pw.x variable (or job resource) to change: 'mixing_beta', 'starting_magnetization(Fe)', 'resources.walltimeMinutes'. */
  parameter: string;
  currentValue?: unknown;
  newValue: unknown;
  reason: string;
}

/** Smearing wider than this biases total energies and lattice constants visibly. */
export const MAX_DEGAUSS_RY = 0.03;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Parameters whose change can lower accuracy: a suggestion for one must say the value it replaces. */
const ACCURACY_CRITICAL = new Set(['conv_thr', 'ecutwfc', 'ecutrho', 'kspacing', 'k_spacing', 'kmesh', 'electron_maxstep']);

/** Why the suggestion lowers accuracy, or undefined when it does not. */
export function loweredAccuracy(s: Suggestion, context: { elements?: string[] } = {}): string | undefined {
  const now = num(s.currentValue);
  const next = num(s.newValue);
  const name = s.parameter.toLowerCase();
  const lower = (what: string) => `${s.parameter} ${s.currentValue} → ${JSON.stringify(s.newValue)} ${what}`;
  if (ACCURACY_CRITICAL.has(name) && s.currentValue === undefined) {
    return `${s.parameter} → ${JSON.stringify(s.newValue)}: the value it replaces is unknown, so it cannot be shown not to lower accuracy`;
  }
  if (name === 'conv_thr' && next !== undefined && now !== undefined && next > now)
    return lower('loosens the SCF threshold: the energies would be less precise');
  if ((name === 'ecutwfc' || name === 'ecutrho') && next !== undefined && now !== undefined && next < now)
    return lower('lowers a cutoff below the converged one');
  if ((name === 'kspacing' || name === 'k_spacing') && next !== undefined && now !== undefined && next > now)
    return lower('coarsens the k-point sampling');
  if (
    name === 'kmesh' &&
    Array.isArray(s.newValue) &&
    Array.isArray(s.currentValue) &&
    (s.newValue as number[]).some((n, i) => n < ((s.currentValue as number[])[i] ?? 0))
  )
    return lower('coarsens the k-point mesh');
  if (name === 'electron_maxstep' && next !== undefined && now !== undefined && next < now)
    return lower('allows fewer SCF iterations, which cannot help an SCF that did not converge');
  if (name === 'degauss' && next !== undefined && next > MAX_DEGAUSS_RY)
    return lower(`widens the smearing beyond ${MAX_DEGAUSS_RY} Ry, which biases the total energy`);
  if (name === 'nspin' && next === 1 && (context.elements ?? []).some((el) => MAGNETIC_ELEMENTS.has(el))) {
    return lower(
      `drops spin polarization of a magnetic element (${(context.elements ?? []).filter((el) => MAGNETIC_ELEMENTS.has(el)).join(', ')})`,
    );
  }
  return undefined;
}

/** Split suggestions into those that keep accuracy and those refused, each refusal with its reason. */
export function screenSuggestions(
  suggestions: Suggestion[],
  context: { elements?: string[] } = {},
): { accepted: Suggestion[]; rejected: (Suggestion & { rejectedBecause: string })[] } {
  const accepted: Suggestion[] = [];
  const rejected: (Suggestion & { rejectedBecause: string })[] = [];
  for (const s of suggestions) {
    const why = loweredAccuracy(s, context);
    if (why) rejected.push({ ...s, rejectedBecause: why });
    else accepted.push(s);
  }
  return { accepted, rejected };
}
