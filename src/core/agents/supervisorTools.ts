/**
 * The supervisor's own tools: read_workflow (one template's inputs in full), start_workflow
 * (the plan from a template) and edit_plan (one validated insert, modify or delete). They
 * change the plan, not the science, so they are not guarded calls; every change is a
 * version of the canvas key 'plan' with its reason. consult_convergence_advisor and the
 * canvas tools are guarded catalogue tools the supervisor also has.
 */
import type { LlmToolDef, ToolResultBlock, ToolUseBlock } from '../llm/types';
import { ObjectiveError } from '../workflows/types';
import { prepareWorkflow } from '../workflows/objective';
import { workflowTemplate, workflowTemplates } from '../workflows';
import { applyPlanEdit } from '../plan/edits';
import { PlanStore, SUPERVISOR_ACTOR } from '../plan/store';
import type { AgentRuntime } from './runtime';
import type { Plan } from '../plan/types';
import { workflowEnvironment } from '../workflows/environment';

export const START_WORKFLOW = 'start_workflow';
export const EDIT_PLAN = 'edit_plan';
export const READ_WORKFLOW = 'read_workflow';

export function supervisorToolDefs(): LlmToolDef[] {
  return [
    {
      name: READ_WORKFLOW,
      description: 'Read one built-in workflow in full: what it computes and the JSON schema of its inputs (names, units, defaults).',
      inputSchema: {
        type: 'object',
        properties: { workflow: { type: 'string', enum: workflowTemplates().map((t) => t.id) } },
        required: ['workflow'],
      },
    },
    {
      name: START_WORKFLOW,
      description:
        "Start the plan from a built-in workflow template with its inputs (validated against the template's input schema; " +
        'read_workflow shows it). Only while the plan is empty or untouched.',
      inputSchema: {
        type: 'object',
        properties: {
          workflow: { type: 'string', enum: workflowTemplates().map((t) => t.id) },
          inputs: { type: 'object', description: "The template's inputs, as its input schema names them." },
        },
        required: ['workflow', 'inputs'],
      },
    },
    {
      name: EDIT_PLAN,
      description:
        'Edit the plan with one operation. insert: {op, after?, step: {id, title, worker, tool, args?, reasons?, dependsOn?, reportQuantities?}}; ' +
        "modify: {op, id, changes}: changes.args and changes.reasons change only the arguments they name (a value replaces that argument's, " +
        "null removes it, the rest stay as planned); any other field given (title, worker, tool, dependsOn, reportQuantities) replaces the step's. " +
        'The step and every step depending on it run again. delete: {op, id, reason}. ' +
        'Arguments may use hints: "$step.<id>.<artifact name>[.path]", "$all.<id>.<name>", "$each.<id>.<name>", "$run.backend". ' +
        'canvas_read of the key "plan" shows every step with its arguments. An invalid edit is refused with the reason and the plan is unchanged.',
      inputSchema: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['insert', 'modify', 'delete'] },
          after: { type: 'string' },
          step: { type: 'object' },
          id: { type: 'string' },
          changes: { type: 'object' },
          reason: { type: 'string', description: 'Why (required for delete; recorded with every edit).' },
        },
        required: ['op'],
      },
    },
  ];
}

const result = (use: ToolUseBlock, content: string, isError = false): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId: use.id,
  content,
  ...(isError ? { isError } : {}),
});

export async function runSupervisorTool(rt: AgentRuntime, use: ToolUseBlock): Promise<ToolResultBlock> {
  if (use.inputError) return result(use, `the input to ${use.name} was not valid JSON (${use.inputError}); send one JSON object.`, true);
  const store = new PlanStore(rt.canvas);
  const input = (use.input ?? {}) as Record<string, unknown>;
  if (use.name === READ_WORKFLOW) {
    const t = workflowTemplate(String(input.workflow));
    if (!t)
      return result(
        use,
        `no workflow "${String(input.workflow)}"; one of ${workflowTemplates()
          .map((x) => x.id)
          .join(', ')}.`,
        true,
      );
    return result(use, `${t.id}: ${t.title}. ${t.description}\nInput schema: ${JSON.stringify(t.inputSchema)}`);
  }
  if (use.name === START_WORKFLOW) {
    const plan = store.current();
    if (plan && plan.steps.some((s) => s.status !== 'pending')) {
      return result(use, 'the plan has started; change it with edit_plan instead of starting a new one.', true);
    }
    try {
      const prepared = prepareWorkflow(
        String(input.workflow),
        (input.inputs ?? {}) as Record<string, unknown>,
        workflowEnvironment(rt.services),
      );
      const next: Plan = {
        objective: prepared.objective,
        workflow: prepared.template.id,
        steps: prepared.steps.map((s) => ({ ...s, status: 'pending' })),
        version: (plan?.version ?? 0) + 1,
      };
      await store.save(next, `plan from the ${prepared.template.id} template`, SUPERVISOR_ACTOR);
      rt.workflow = { template: prepared.template, inputs: prepared.inputs };
      await rt.log.append({
        kind: 'workflow.inputs',
        key: 'run/workflow',
        actor: SUPERVISOR_ACTOR,
        payload: { workflow: prepared.template.id, inputs: prepared.inputs },
      });
      return result(
        use,
        `plan v${next.version} from ${prepared.template.id}: ${next.steps.length} steps (${next.steps.map((s) => s.id).join(', ')}).`,
      );
    } catch (e) {
      const msg = e instanceof ObjectiveError ? e.message : `the workflow could not start: ${(e as Error).message}`;
      return result(use, msg, true);
    }
  }
  if (use.name === EDIT_PLAN) {
    const plan = store.current() ?? { objective: rt.objective.text, steps: [], version: 0 };
    const { reason, ...edit } = input;
    const editWithReason = edit.op === 'delete' ? { ...edit, reason } : edit;
    const r = applyPlanEdit(plan, editWithReason, (tool) => rt.registry.get(tool)?.roles);
    if (!r.ok) return result(use, `edit refused: ${r.reason} The plan is unchanged (v${plan.version}).`, true);
    await store.save(
      r.plan,
      `${r.message}${typeof reason === 'string' && edit.op !== 'delete' ? ` Reason: ${reason}` : ''}`,
      SUPERVISOR_ACTOR,
    );
    return result(use, `plan v${r.plan.version}: ${r.message}`);
  }
  return result(use, `unknown tool "${use.name}"`, true);
}
