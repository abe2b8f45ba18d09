/**
 * Extending a convergence sweep that showed no converged value: a second series from the
 * same template with the next value, its run, and the selection taking the energies of
 * both. The runs already made are kept: only the new point is computed. One value at a
 * time (the selection names it: dft/convergenceExtension.ts), so the sweep stops as soon as
 * two successive values agree; a value whose predicted pw.x time is over the selection's
 * budget is not run without asking.
 */
import type { ConvergenceSelectionValue } from '../artifacts/shapes';
import { nextSweepValue } from '../dft/convergenceExtension';
import { parseHint } from '../plan/stepHints';
import type { Plan, PlanEdit, PlanStep } from '../plan/types';

const hintsOf = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');

/** The value to run next: the one the selection named, else one step past the finest tested. */
export function furtherSweepValues(sel: Pick<ConvergenceSelectionValue, 'parameter' | 'tested' | 'extension'>): number[] {
  if (sel.extension) return [sel.extension.value];
  return [
    nextSweepValue(
      sel.parameter,
      sel.tested.map((t) => t.value),
    ),
  ];
}

/**
 * Extensions of one sweep made without asking: a sweep that needs more has a noise floor above its
 * tolerance, or a wrong start. (K's cutoff sweep at 0.05 % of a, B 3.9 GPa, tolerance 0.06 kbar,
 * needs about five 10-Ry steps past the file's suggestion + 30 Ry.)
 */
export const MAX_EXTENSIONS = 8;

/**
 * How many replanning rounds a failed step gets: a selection step is extended one value per round,
 * bounded by MAX_EXTENSIONS and the budget, so it gets one round more than that; other steps the
 * supervisor's own limit.
 */
export function replanLimitFor(step: Pick<PlanStep, 'tool'>, maxReplansPerStep: number): number {
  return step.tool === 'select_converged_settings' ? Math.max(maxReplansPerStep, MAX_EXTENSIONS + 1) : maxReplansPerStep;
}

/** How many times a selection step's sweep has been extended (its energies name one series per extension after the first). */
export function extensionsSoFar(selection: PlanStep): number {
  return Math.max(0, hintsOf(selection.args?.energies).filter((h) => parseHint(h)?.kind === 'all').length - 1);
}

/** Why an extension is not run without asking, or undefined when it may run. */
export function extensionRefusal(sel: Pick<ConvergenceSelectionValue, 'parameter' | 'extension'>, extensionsMade = 0): string | undefined {
  const ext = sel.extension;
  if (extensionsMade >= MAX_EXTENSIONS) {
    return (
      `the ${sel.parameter} sweep has been extended ${extensionsMade} times without showing convergence, so it is not extended again without asking: ` +
      'look at its table (a noise floor above the tolerance, or a start far from convergence), then loosen the tolerance knowingly or give the sweep ' +
      'values of your own, and run the study again with --reuse-from this run, which reuses every pw.x run it finished.'
    );
  }
  if (!ext || ext.withinBudget) return undefined;
  const unit = sel.parameter === 'ecutwfc' ? 'Ry' : '1/Å';
  const cost =
    ext.predictedSeconds !== undefined
      ? `is predicted to take ~${Math.round(ext.predictedSeconds)} s of pw.x (${ext.predictedFrom})`
      : 'has no predicted time (no run of the sweep has a measured time)';
  return (
    `extending the ${sel.parameter} sweep to ${ext.value} ${unit}${ext.kMesh ? ` (${ext.kMesh.join('×')})` : ''} ${cost}, over the extension budget of ${ext.budgetSeconds} s. ` +
    'It is not run without asking: raise extensionBudgetSeconds in the objective (or loosen the tolerance knowingly) and run the study again with --reuse-from this run, which reuses every pw.x run it finished.'
  );
}

/** The plan edits that extend the sweep a failed selection step reads (with its next value); undefined when its plan does not have that shape. */
export function sweepExtensionEdits(
  plan: Plan,
  selection: PlanStep,
  sel: ConvergenceSelectionValue,
  reason: string,
): PlanEdit[] | undefined {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const energies = selection.args?.energies;
  const runSteps = hintsOf(energies)
    .map(parseHint)
    .filter((h) => h?.kind === 'all')
    .map((h) => byId.get((h as { step: string }).step))
    .filter((s): s is PlanStep => !!s);
  // the sweep's first series and runs name the extensions (-2, -3, ...), inserted after its latest runs
  const runs = runSteps[0];
  const last = runSteps.at(-1);
  const each =
    runs &&
    (Object.values(runs.args ?? {})
      .map(parseHint)
      .find((h) => h?.kind === 'each') as { step: string } | undefined);
  const series = each && byId.get(each.step);
  if (!runs || !last || !series || series.tool !== 'generate_series') return undefined;
  const values = furtherSweepValues(sel);
  let n = 2;
  while (byId.has(`${series.id}-${n}`) || byId.has(`${runs.id}-${n}`)) n++;
  const newSeries = `${series.id}-${n}`;
  const newRuns = `${runs.id}-${n}`;
  return [
    {
      op: 'insert',
      after: last.id,
      step: {
        id: newSeries,
        title: `Extend the ${sel.parameter} sweep: ${values.join(', ')}`,
        worker: series.worker,
        tool: 'generate_series',
        args: { ...(series.args ?? {}), values },
        reasons: { ...(series.reasons ?? {}), values: `the next value past the finest tested, because ${reason}` },
        ...(series.dependsOn ? { dependsOn: series.dependsOn } : {}),
      },
    },
    {
      op: 'insert',
      after: newSeries,
      step: {
        id: newRuns,
        title: `Run pw.x on the extension of the ${sel.parameter} sweep`,
        worker: runs.worker,
        tool: runs.tool,
        args: Object.fromEntries(
          Object.entries(runs.args ?? {}).map(([k, v]) => [k, parseHint(v)?.kind === 'each' ? `$each.${newSeries}.pw_input` : v]),
        ),
        ...(runs.reasons ? { reasons: runs.reasons } : {}),
        dependsOn: [newSeries],
      },
    },
    {
      op: 'modify',
      id: selection.id,
      changes: {
        args: { ...(selection.args ?? {}), energies: [...hintsOf(energies), `$all.${newRuns}.total_energy`] },
        dependsOn: [...new Set([...(selection.dependsOn ?? []), newRuns])],
      },
    },
  ];
}
