/**
 * The user message that hands a worker its step: the objective, the step, its arguments
 * with every plan hint already resolved to an artifact reference (or why it cannot be),
 * the calls the step has made so far, and the earlier steps' summaries.
 */
import type { PlanStep } from '../../plan/types';
import type { StepCalls, StepContext, WrappedCall } from '../../plan/stepArguments';
import { attemptCalls } from '../../plan/stepArguments';
import { eachArgument } from '../../plan/stepHints';

function describeCall(c: WrappedCall): string[] {
  return Object.entries(c.arguments).map(([k, v]) => {
    const ref = c.references[k];
    const shown = JSON.stringify(v);
    const value = shown !== undefined && shown.length > 160 ? `${shown.slice(0, 157)}...` : shown;
    return `  ${k}: ${value}${ref ? `   (reference ${ref})` : ''}${c.reasons[k] ? ` — ${c.reasons[k]}` : ''}`;
  });
}

export function stepBrief(opts: {
  objective: string;
  step: PlanStep;
  index: number;
  total: number;
  calls: StepCalls;
  ctx: StepContext;
  pastSteps: { id: string; summary: string; ok: boolean }[];
}): string {
  const { step, calls } = opts;
  const lines = [
    `Objective: ${opts.objective}`,
    '',
    `Step ${step.id} (${opts.index} of ${opts.total}): ${step.title}`,
    `The tool call that must succeed: ${step.tool}`,
  ];
  if (step.reportQuantities?.length) lines.push(`The report must state: ${step.reportQuantities.join(', ')} (one claim each, citing its artifact).`);
  const each = eachArgument(step.args);
  if (!calls.ok) {
    lines.push('', `The planned arguments cannot be resolved yet: ${calls.problem}`, 'Say so in your answer unless you can make the call from the artifacts that exist.');
  } else if (calls.calls.length === 0) {
    lines.push('', 'Every call this step needs has been made. Answer with the summary.');
  } else if (each) {
    lines.push('', `Call ${step.tool} once for each of these ${calls.calls.length} ${each.name} artifact(s): ${calls.calls.map((c) => c.arguments[each.argument]).join(', ')}.`,
      'Planned arguments (the same for each call but the one that varies):', ...describeCall(calls.calls[0]!));
  } else {
    lines.push('', 'Planned arguments (references resolved; use them unless you have a reason not to, and say it):', ...describeCall(calls.calls[0]!));
  }
  const made = attemptCalls(step, opts.ctx);
  if (made.length) {
    lines.push('', 'Calls this step has made so far:', ...made.map((c) => `  ${c.id} ${c.tool} ${c.status}${c.error ? `: ${c.error.slice(0, 200)}` : ''}${c.outputs.length ? ` → ${c.outputs.join(', ')}` : ''}`));
  }
  if (opts.pastSteps.length) {
    lines.push('', 'Earlier steps:', ...opts.pastSteps.slice(-12).map((p) => `  ${p.id} ${p.ok ? 'done' : 'FAILED'}: ${p.summary.slice(0, 300)}`));
  }
  return lines.join('\n');
}
