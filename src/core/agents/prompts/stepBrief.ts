/**
 * The user message that hands a worker its step: the objective, the step, the planned call
 * in full as the tool input to send (every plan hint resolved to an artifact reference, or
 * why it cannot be; nothing cut, so a report's text and claims arrive whole), the calls the
 * step has made so far, and the earlier steps once each in their latest state.
 */
import type { Plan, PlanStep } from '../../plan/types';
import type { ApprovalRequest } from '../../guard/types';
import type { StepCalls, StepContext, WrappedCall } from '../../plan/stepArguments';
import { attemptCalls } from '../../plan/stepArguments';
import { eachArgument } from '../../plan/stepHints';
import { earlierSteps } from './supervisor';

/** A planned call as the JSON a model sends: references only where they add to the value. */
function callJson(c: WrappedCall): string {
  return JSON.stringify({
    arguments: c.arguments,
    ...(Object.keys(c.references).length ? { references: c.references } : {}),
    reasons: c.reasons,
    context: c.context,
  });
}

export function stepBrief(opts: {
  objective: string;
  step: PlanStep;
  index: number;
  total: number;
  calls: StepCalls;
  ctx: StepContext;
  plan: Plan;
  /** Approvals waiting for the user: said once, so the worker knows they are not its to act on. */
  openApprovals?: ApprovalRequest[];
}): string {
  const { step, calls } = opts;
  const lines = [
    `Objective: ${opts.objective}`,
    '',
    `Step ${step.id} (${opts.index} of ${opts.total}): ${step.title}`,
    `The tool call that must succeed: ${step.tool}`,
  ];
  if (step.reportQuantities?.length)
    lines.push(`The report must state: ${step.reportQuantities.join(', ')} (one claim each, citing its artifact).`);
  const each = eachArgument(step.args);
  if (!calls.ok) {
    lines.push(
      '',
      `The planned arguments cannot be resolved yet: ${calls.problem}`,
      'Say so in your answer unless you can make the call from the artifacts that exist.',
    );
  } else if (calls.calls.length === 0) {
    lines.push('', 'Every call this step needs has been made. Answer with the summary.');
  } else {
    const n = calls.calls.length;
    lines.push(
      '',
      each
        ? `The planned calls, one ${step.tool} for each of these ${n} ${each.name} artifact(s) (send them in one answer; change a value only with a reason you give):`
        : `The planned call, in full, as the ${step.tool} input to send (every plan hint resolved; change a value only with a reason you give):`,
      ...calls.calls.map(callJson),
    );
  }
  const made = attemptCalls(step, opts.ctx);
  if (made.length) {
    lines.push(
      '',
      'Calls this step has made so far:',
      ...made.map(
        (c) =>
          `  ${c.id} ${c.tool} ${c.status}${c.error ? `: ${c.error.slice(0, 400)}` : ''}${c.outputs.length ? ` → ${c.outputs.join(', ')}` : ''}`,
      ),
    );
  }
  const earlier = earlierSteps(opts.plan).filter((l) => !l.startsWith(`  ${step.id} `));
  if (earlier.length) lines.push('', 'Earlier steps (latest state):', ...earlier);
  const open = opts.openApprovals ?? [];
  if (open.length) {
    lines.push(
      '',
      `Open approvals: ${open.map((r) => `${r.id} (${r.call} ${r.tool}${r.parameter ? `.${r.parameter}` : ''})`).join(', ')}. ` +
        "They are the user's to answer, not yours: carry on with this step; a result they hold counts once it is approved.",
    );
  }
  return lines.join('\n');
}
