/**
 * The supervisor's system prompt and the messages of its three rounds: plan, replan, respond.
 * Lean on purpose: workflows are listed in a line each (read_workflow gives one in full), the
 * plan is a table, earlier steps appear once each in their latest state, and a failed step
 * comes with what the tool said, what the worker said and what the tool suggests.
 */
import type { WorkflowTemplate } from '../../workflows/types';
import { planTable } from '../../plan/store';
import type { Plan } from '../../plan/types';
import type { ApprovalRequest } from '../../guard/types';
import { REFERENCE_RULE } from '../../guard/referenceRule';

export const SUPERVISOR_SYSTEM = `You are the supervisor of DREAMS, a team of agents that runs density-functional-theory studies
with Quantum ESPRESSO (pw.x). You keep the plan: steps, each naming the worker (dft or hpc), the one tool call
that must succeed, argument hints, and for report steps the quantities the report must state. Workers carry out
the steps; a guard checks every tool call; every number in a report must cite the artifact it comes from.

- Start from a built-in workflow when one fits (start_workflow; read_workflow shows its inputs in full); change
  the plan only with edit_plan. A round ends once the plan is made or the failed step is planned again: say in
  the same answer, in a sentence or two, what you did and why.
- When a step fails, find out why before changing anything: for a failed or unconverged pw.x run, consult the
  convergence advisor (consult_convergence_advisor with the failed run_pw call id), then modify the step that
  writes the input (make_pw_input) with the suggested argument values, citing the advice in the reason.
  Modifying a step runs it and every step after it again. Never lower accuracy to make a run pass
  (no looser conv_thr, lower cutoff or coarser k-points). A relaxation that was killed or ran out of time
  after its atoms moved continues from the last geometry it reached: insert an interrupted_geometry step on
  the advisor's continueFrom energy and point the input step's structure at its restart_structure.
- If the run cannot succeed, say so plainly and why; do not edit the plan to hide a failure.
- The catalogue tools (consult_convergence_advisor, canvas_*) take {"arguments", "references", "reasons", "context"}.
  The reference rule: ${REFERENCE_RULE}
- Be brief. Answer without a tool call when your round is done.`;

/** One line per workflow: what to choose from. read_workflow gives the inputs in full. */
function workflowList(templates: WorkflowTemplate[]): string {
  return templates.map((t) => `- ${t.id}: ${t.title}. ${t.description}`).join('\n');
}

/** What a template read from the objective's words, and what it still needs. */
export interface ObjectiveReading {
  template: WorkflowTemplate;
  inputs: Record<string, unknown>;
  missing: string[];
}

export function planRoundMessage(
  objective: string,
  plan: Plan | undefined,
  templates: WorkflowTemplate[],
  reading?: ObjectiveReading,
): string {
  if (!plan || plan.steps.length === 0) {
    const lines = [
      `Objective: ${objective}`,
      '',
      "There is no plan yet. Built-in workflows (read_workflow shows one's inputs in full):",
      workflowList(templates),
    ];
    if (reading) {
      lines.push(
        '',
        `The objective reads as ${reading.template.id}, with ${JSON.stringify(reading.inputs)}.` +
          `${reading.missing.length ? ` Still to give: ${reading.missing.join(' ')}` : ''} Its input schema:`,
        JSON.stringify(reading.template.inputSchema),
      );
    }
    lines.push(
      '',
      'Start the plan from the workflow that fits (start_workflow with its inputs), or build it with edit_plan inserts, ' +
        'and say in the same answer, in one paragraph, what the plan does and which inputs you chose and why.',
    );
    return lines.join('\n');
  }
  return [
    `Objective: ${objective}`,
    '',
    `The plan (v${plan.version}${plan.workflow ? `, from the ${plan.workflow} template` : ''}):`,
    planTable(plan),
    '',
    'Review it against the objective. Edit it only if something the objective asks for is missing or wrong; then answer with one paragraph on the plan.',
  ].join('\n');
}

/** A text cut at a sentence end (or a clause end) before `max` characters, never mid-word. */
export function clipAtSentence(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max);
  const stop = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf(') '));
  const cut = stop > max / 3 ? head.slice(0, stop + 1) : head.slice(0, head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : max);
  return `${cut.trimEnd()} …`;
}

/** A step's summary as a list reads it: pw.x jobs named by their call ("c-17: E = ..."), not their scheduler name. */
/**
 * A step summary as an earlier step's line: pw.x jobs named by their call, a reused result by the
 * call that ran it, the output files' references without their name, and a run's "(Al, 1 atom(s))"
 * said once, so every run of a sweep and its total_energy reference fit on the line.
 */
export function compactSummary(s: string): string {
  const said = new Set<string>();
  return (
    s
      .replace(/job dreams-[0-9a-f]{8}-(c-\d+) completed: /g, '$1: ')
      .replace(/identical input already run by (c-\d+) \(job [^)]*\); its result reused, pw\.x not run again: /g, 'as $1 (result reused): ')
      .replace(/\[(a-\d+) pw_output, /g, '[$1, ')
      .replace(/ \([A-Z][A-Za-z0-9]*, \d+ atom\(s\)\)/g, (m) => (said.has(m) ? '' : (said.add(m), m)))
      // an open approval is listed once, apart (it is the user's to answer), not in every summary
      .replace(/ ?Approval ap-\d+ is open: the result counts only once it is approved\./g, '')
  );
}

/** Each step that has ended, once, in plan order and its latest state: "  k-runs done: ...". */
export function earlierSteps(plan: Plan, max = 320): string[] {
  return plan.steps
    .filter((s) => s.status === 'done' || s.status === 'failed' || (s.status === 'pending' && s.summary))
    .map(
      (s) =>
        `  ${s.id} ${s.status === 'done' ? 'done' : s.status === 'failed' ? 'FAILED' : 'to run again'}: ${clipAtSentence(compactSummary(s.summary ?? ''), max)}`,
    );
}

/** Why a step failed, from every side: its tool, its worker, what the tool suggests; and the step as planned. */
export interface StepFailure {
  stepId: string;
  /** The reason the step is not done (the provenance's view). */
  reason: string;
  /** The call that failed or gave provisional results: "c-33 select_converged_settings". */
  call?: string;
  /** What that call's tool said (its summary, or its error). */
  toolSaid?: string;
  /** The worker's own words at the end of its turn. */
  workerSaid?: string;
  /** What the tool suggests next, as stored on its provisional result. */
  suggestion?: string;
  /** The failed step and the step that writes its input, as planned (JSON). */
  planned: string[];
}

export function replanMessage(opts: { objective: string; plan: Plan; failure: StepFailure; replans: number; maxReplans: number }): string {
  const f = opts.failure;
  return [
    `Objective: ${opts.objective}`,
    '',
    `Step ${f.stepId} failed: ${f.reason}`,
    ...(f.call ? [`- the call: ${f.call}`] : []),
    ...(f.toolSaid ? [`- the tool said: ${f.toolSaid}`] : []),
    ...(f.workerSaid ? [`- the worker said: ${f.workerSaid}`] : []),
    ...(f.suggestion ? [`- the tool suggests: ${f.suggestion}`] : []),
    `Replanning round ${opts.replans} of at most ${opts.maxReplans} for this step.`,
    '',
    'As planned (edit_plan modify changes only the arguments it names; null removes one):',
    ...f.planned,
    '',
    `The plan (v${opts.plan.version}):`,
    planTable(opts.plan),
    '',
    'Earlier steps:',
    ...earlierSteps(opts.plan),
    '',
    'Decide how the run goes on: diagnose (the advisor for pw.x failures), then edit the plan so the failed step runs again with the fix. ' +
      'If nothing can fix it, answer without editing and say why; the run then stops with its state saved.',
  ].join('\n');
}

/** An open approval in a line: what it holds and why. */
export function approvalLine(r: ApprovalRequest): string {
  return `  ${r.id} on ${r.call} ${r.tool}${r.parameter ? `.${r.parameter}` : ''}: ${r.verdicts.map((v) => `[${v.rule}] ${clipAtSentence(v.reasons.join(' '), 600)}`).join(' ')}`;
}

export function responseMessage(opts: { objective: string; plan: Plan; report?: string; openApprovals: ApprovalRequest[] }): string {
  return [
    `Objective: ${opts.objective}`,
    '',
    'Every step of the plan is done:',
    planTable(opts.plan),
    '',
    'Step summaries:',
    ...earlierSteps(opts.plan, 400),
    '',
    ...(opts.report ? [opts.report, ''] : []),
    ...(opts.openApprovals.length
      ? ['Open approvals (a person answers them: dreams approve <run> <id>):', ...opts.openApprovals.map(approvalLine), '']
      : ['No approval is open.', '']),
    'Write the final response for the user in two to five sentences: the result with its artifact reference, the settings it rests on, and anything that needs their attention (the open approvals above, warnings).',
  ].join('\n');
}
