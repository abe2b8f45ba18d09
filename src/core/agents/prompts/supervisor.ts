/** The supervisor's system prompt and the messages of its three rounds: plan, replan, respond. */
import type { WorkflowTemplate } from '../../workflows/types';
import { planTable } from '../../plan/store';
import type { Plan } from '../../plan/types';

export const SUPERVISOR_SYSTEM = `You are the supervisor of DREAMS, a team of agents that runs density-functional-theory studies
with Quantum ESPRESSO (pw.x). You keep the plan: steps, each naming the worker (dft or hpc), the one tool call
that must succeed, argument hints, and for report steps the quantities the report must state. Workers carry out
the steps; a guard checks every tool call; every number in a report must cite the artifact it comes from.

- Start from a built-in workflow when one fits (start_workflow); change the plan only with edit_plan.
- When a step fails, find out why before changing anything: for a failed or unconverged pw.x run, consult the
  convergence advisor (consult_convergence_advisor with the failed run_pw call id), then modify the step that
  writes the input (make_pw_input) with the suggested argument values, citing the advice in the reason.
  Modifying a step runs it and every step after it again. Never lower accuracy to make a run pass
  (no looser conv_thr, lower cutoff or coarser k-points). A relaxation that was killed or ran out of time
  after its atoms moved continues from the last geometry it reached: insert an interrupted_geometry step on
  the advisor's continueFrom energy and point the input step's structure at its restart_structure.
- If the run cannot succeed, say so plainly and why; do not edit the plan to hide a failure.
- Be brief. Answer without a tool call when your round is done.`;

function templateCatalogue(templates: WorkflowTemplate[]): string {
  return templates.map((t) => `- ${t.id}: ${t.title}. ${t.description}\n  inputs schema: ${JSON.stringify(t.inputSchema)}`).join('\n');
}

export function planRoundMessage(objective: string, plan: Plan | undefined, templates: WorkflowTemplate[]): string {
  if (!plan || plan.steps.length === 0) {
    return [`Objective: ${objective}`, '', 'There is no plan yet. Built-in workflows:', templateCatalogue(templates), '',
      'Start the plan from the workflow that fits (start_workflow), or build it with edit_plan inserts. Then answer with one paragraph on the plan.'].join('\n');
  }
  return [`Objective: ${objective}`, '', `The plan (v${plan.version}${plan.workflow ? `, from the ${plan.workflow} template` : ''}):`, planTable(plan), '',
    'Review it against the objective. Edit it only if something the objective asks for is missing or wrong; then answer with one paragraph on the plan.'].join('\n');
}

export function replanMessage(opts: { objective: string; plan: Plan; stepId: string; reason: string; failedCall?: string; pastSteps: { id: string; summary: string; ok: boolean }[]; replans: number; maxReplans: number }): string {
  return [
    `Objective: ${opts.objective}`, '',
    `Step ${opts.stepId} failed: ${opts.reason}`,
    ...(opts.failedCall ? [`The failed call: ${opts.failedCall}.`] : []),
    `Replanning round ${opts.replans} of at most ${opts.maxReplans} for this step.`, '',
    `The plan (v${opts.plan.version}):`, planTable(opts.plan), '',
    'Earlier steps:', ...opts.pastSteps.slice(-12).map((p) => `  ${p.id} ${p.ok ? 'done' : 'FAILED'}: ${p.summary.slice(0, 300)}`), '',
    'Decide how the run goes on: diagnose (the advisor for pw.x failures), then edit the plan so the failed step runs again with the fix. ' +
      'If nothing can fix it, answer without editing and say why; the run then stops with its state saved.',
  ].join('\n');
}

export function responseMessage(opts: { objective: string; plan: Plan; pastSteps: { id: string; summary: string; ok: boolean }[]; report?: string }): string {
  return [
    `Objective: ${opts.objective}`, '', 'Every step of the plan is done:', planTable(opts.plan), '',
    'Step summaries:', ...opts.pastSteps.filter((p) => p.ok).map((p) => `  ${p.id}: ${p.summary.slice(0, 400)}`), '',
    ...(opts.report ? [opts.report, ''] : []),
    'Write the final response for the user in two to five sentences: the result with its artifact reference, the settings it rests on, and anything that needs their attention (open approvals, warnings).',
  ].join('\n');
}
