/**
 * A sweep is not extended past its extension budget without the user: when a provisional
 * convergence selection names its next value with a predicted pw.x time over
 * extensionBudgetSeconds, a generate_series of that sweep (its template, its parameter) that
 * reaches that value or a finer one is refused, saying what the run is predicted to cost and how
 * to allow it. The offline planner stops there (agents/sweepExtension.ts); this holds a model to
 * the same limit.
 */
import type { ConvergenceSelectionValue } from '../../artifacts/shapes';
import type { ArtifactRecord } from '../../provenance/types';
import type { ProvenanceView } from '../../provenance/view';
import { verdict, type TierOneRule } from './ruleInput';

export const RULE = 'extension-within-budget';

const idOf = (ref: string) => ref.split('.')[0]!;

/** The templates a selection's sweep was generated from: selection → energies → their inputs → those inputs' template. */
function sweepTemplates(selection: ArtifactRecord, provenance: ProvenanceView): Set<string> {
  const templates = new Set<string>();
  for (const energyRef of selection.inputs) {
    const energy = provenance.artifact(idOf(energyRef));
    for (const inputRef of energy?.inputs ?? []) {
      const input = provenance.artifact(idOf(inputRef));
      if (input?.name !== 'pw_input') continue;
      const creator = provenance.call(input.creator);
      if (creator?.tool !== 'generate_series') continue;
      for (const t of input.inputs) templates.add(idOf(t));
    }
  }
  return templates;
}

export const extensionWithinBudget: TierOneRule = ({ call, provenance }) => {
  const kind = call.args.kind;
  const template = call.args.template;
  const values = Array.isArray(call.args.values) ? (call.args.values as unknown[]).filter((v): v is number => typeof v === 'number') : [];
  if ((kind !== 'ecutwfc' && kind !== 'kspacing') || typeof template !== 'string' || !values.length) return [];
  const over = provenance.artifacts().filter((a) => {
    if (a.name !== 'converged_settings' || a.status !== 'provisional') return false;
    const v = a.value as Partial<ConvergenceSelectionValue> | undefined;
    return v?.parameter === kind && v.extension !== undefined && v.extension.withinBudget === false;
  });
  const verdicts = over.flatMap((a) => {
    const sel = a.value as ConvergenceSelectionValue;
    const ext = sel.extension!;
    // a finer value costs at least as much: a higher cutoff, a smaller spacing
    const reaching = values.filter((x) => (kind === 'ecutwfc' ? x >= ext.value - 1e-9 : x <= ext.value + 1e-9));
    if (!reaching.length || !sweepTemplates(a, provenance).has(idOf(template))) return [];
    const unit = kind === 'ecutwfc' ? 'Ry' : '1/Å';
    const cost =
      ext.predictedSeconds !== undefined
        ? `is predicted to take ~${Math.round(ext.predictedSeconds)} s of pw.x${ext.predictedFrom ? ` (${ext.predictedFrom})` : ''}`
        : 'has no predicted time';
    return [
      verdict(
        RULE,
        'fail',
        [
          `${a.id} (provisional) says extending the ${kind} sweep to ${ext.value} ${unit}${ext.kMesh ? ` (${ext.kMesh.join('×')})` : ''} ${cost}, ` +
            `over the extension budget of ${ext.budgetSeconds ?? '?'} s; values ${reaching.join(', ')} reach it. It is not run without asking the user: ` +
            'end the round saying so; the user may raise extensionBudgetSeconds (or loosen the tolerance knowingly) and run the study again with --reuse-from this run.',
        ],
        'values',
      ),
    ];
  });
  return verdicts;
};
