/**
 * Why a step failed, gathered for the supervisor's replanning: the call that failed or gave
 * provisional results, what its tool said (its error, or the summary kept with the call),
 * what the worker said at the end of its turn, what the tool suggests next (stored on its
 * provisional result: a sweep's next value with its predicted cost, a slab sweep's advice),
 * and the step as planned with the step that writes its input, so a modify needs no reading.
 */
import type { ConvergenceSelectionValue } from '../artifacts/shapes';
import type { ArtifactRecord } from '../provenance/types';
import { failedCallOf, type StepContext } from '../plan/stepArguments';
import type { Plan, PlanStep } from '../plan/types';
import { inputStepOf } from './offlineProvider';
import { clipAtSentence, type StepFailure } from './prompts/supervisor';

type Extension = NonNullable<ConvergenceSelectionValue['extension']>;

/** A sweep's next value as the selection stored it, in words, with its cost against the budget. */
function extensionWords(parameter: string, ext: Extension): string {
  const unit = parameter === 'ecutwfc' ? 'Ry' : '1/Å';
  const cost =
    ext.predictedSeconds !== undefined
      ? `predicted ~${Math.round(ext.predictedSeconds)} s of pw.x${ext.predictedFrom ? ` (${ext.predictedFrom})` : ''}`
      : 'no predicted time (no run of the sweep has a measured time)';
  const budget =
    ext.budgetSeconds === undefined
      ? ''
      : ext.withinBudget
        ? `, within the extension budget of ${ext.budgetSeconds} s`
        : `, over the extension budget of ${ext.budgetSeconds} s: not to be run without asking the user`;
  return `extend the ${parameter} sweep with ${ext.value} ${unit}${ext.kMesh ? ` (${ext.kMesh.join('×')})` : ''}: ${cost}${budget}`;
}

/** What a provisional result suggests doing next, when its tool stored a suggestion on it. */
export function suggestionOf(a: ArtifactRecord): string | undefined {
  const v = a.value as { parameter?: string; extension?: Extension; advice?: unknown } | undefined;
  if (v?.extension && typeof v.extension.value === 'number') return `${a.id}: ${extensionWords(v.parameter ?? 'swept', v.extension)}`;
  if (typeof v?.advice === 'string' && v.advice.trim()) return `${a.id}: ${v.advice.trim()}`;
  const meta = a.meta?.suggestion;
  return typeof meta === 'string' && meta.trim() ? `${a.id}: ${meta.trim()}` : undefined;
}

/** A step as planned, for the prompt: what a modify would change. */
function plannedLine(step: PlanStep): string {
  const { id, tool, worker, args, reasons, dependsOn } = step;
  return `  ${JSON.stringify({ id, tool, worker, ...(args ? { args } : {}), ...(reasons ? { reasons } : {}), ...(dependsOn ? { dependsOn } : {}) })}`;
}

export function stepFailure(plan: Plan, step: PlanStep, reason: string, ctx: StepContext, workerSaid?: string): StepFailure {
  const failed = failedCallOf(step, ctx);
  const provisional = (failed?.outputs ?? [])
    .map((id) => ctx.provenance.artifact(id))
    .filter((a): a is ArtifactRecord => !!a && a.status !== 'final');
  const suggestions = provisional.map(suggestionOf).filter((s): s is string => !!s);
  const input = step.tool === 'run_pw' ? inputStepOf(plan, step) : undefined;
  return {
    stepId: step.id,
    reason,
    ...(failed
      ? {
          call: `${failed.id} ${failed.tool} (${failed.status}${provisional.length ? `; provisional ${provisional.map((a) => `${a.id} ${a.name}`).join(', ')}` : ''})`,
        }
      : {}),
    ...((failed?.error ?? failed?.summary) ? { toolSaid: clipAtSentence(failed.error ?? failed.summary!, 1500) } : {}),
    ...(workerSaid?.trim() ? { workerSaid: clipAtSentence(workerSaid, 1200) } : {}),
    ...(suggestions.length ? { suggestion: suggestions.join(' ') } : {}),
    planned: [plannedLine(step), ...(input ? [plannedLine(input)] : [])],
  };
}
