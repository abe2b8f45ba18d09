/**
 * Extending a convergence sweep that showed no converged value: a second series from the
 * same template with further values, its runs, and the selection taking the energies of
 * both. The runs already made are kept: only the new points are computed.
 */
import type { ConvergenceSelectionValue } from '../artifacts/shapes';
import { parseHint } from '../plan/stepHints';
import type { Plan, PlanEdit, PlanStep } from '../plan/types';

/** Three further values past the finest (a series has at least three), continuing the sweep's last step. */
export function furtherSweepValues(sel: Pick<ConvergenceSelectionValue, 'parameter' | 'tested'>): number[] {
  const higherIsFiner = sel.parameter === 'ecutwfc';
  const values = [...sel.tested.map((t) => t.value)].sort((a, b) => (higherIsFiner ? a - b : b - a));
  const n = values.length;
  const round = (x: number) => Number(x.toPrecision(6));
  const last = values[n - 1]!;
  if (higherIsFiner) {
    const step = Math.abs(last - values[n - 2]!);
    return [1, 2, 3].map((k) => round(last + k * step));
  }
  // Spacings shrink by the sweep's last ratio, so they stay positive and the mesh grows steadily.
  const ratio = Math.min(0.9, last / values[n - 2]!);
  return [1, 2, 3].map((k) => round(last * ratio ** k));
}

const hintsOf = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');

/** The plan edits that extend the sweep a failed selection step reads; undefined when its plan does not have that shape. */
export function sweepExtensionEdits(plan: Plan, selection: PlanStep, sel: ConvergenceSelectionValue, reason: string): PlanEdit[] | undefined {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const energies = selection.args?.energies;
  const runSteps = hintsOf(energies).map(parseHint).filter((h) => h?.kind === 'all').map((h) => byId.get((h as { step: string }).step)).filter((s): s is PlanStep => !!s);
  const runs = runSteps.at(-1);
  const each = runs && Object.values(runs.args ?? {}).map(parseHint).find((h) => h?.kind === 'each') as { step: string } | undefined;
  const series = each && byId.get(each.step);
  if (!runs || !series || series.tool !== 'generate_series') return undefined;
  const values = furtherSweepValues(sel);
  let n = 2;
  while (byId.has(`${series.id}-${n}`) || byId.has(`${runs.id}-${n}`)) n++;
  const newSeries = `${series.id}-${n}`;
  const newRuns = `${runs.id}-${n}`;
  return [
    {
      op: 'insert', after: runs.id,
      step: {
        id: newSeries, title: `Extend the ${sel.parameter} sweep: ${values.join(', ')}`, worker: series.worker, tool: 'generate_series',
        args: { ...(series.args ?? {}), values },
        reasons: { ...(series.reasons ?? {}), values: `further values past the finest tested, because ${reason}` },
        ...(series.dependsOn ? { dependsOn: series.dependsOn } : {}),
      },
    },
    {
      op: 'insert', after: newSeries,
      step: {
        id: newRuns, title: `Run pw.x on the extension of the ${sel.parameter} sweep`, worker: runs.worker, tool: runs.tool,
        args: Object.fromEntries(Object.entries(runs.args ?? {}).map(([k, v]) => [k, parseHint(v)?.kind === 'each' ? `$each.${newSeries}.pw_input` : v])),
        ...(runs.reasons ? { reasons: runs.reasons } : {}),
        dependsOn: [newSeries],
      },
    },
    {
      op: 'modify', id: selection.id,
      changes: {
        args: { ...(selection.args ?? {}), energies: [...hintsOf(energies), `$all.${newRuns}.total_energy`] },
        dependsOn: [...new Set([...(selection.dependsOn ?? []), newRuns])],
      },
    },
  ];
}
