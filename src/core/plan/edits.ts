/**
 * The supervisor's plan edits: insert, modify, delete. Each edit is checked by an ajv
 * schema and then against the plan (ids, dependencies, the tool's allowed workers,
 * hints naming steps it depends on); a refused edit says why and what to do, and the
 * plan is unchanged. A modified step, and every step that depends on it, runs again.
 *
 * modify merges: `changes.args` and `changes.reasons` change only the arguments they name
 * (a value replaces that argument's, null removes it, the others stay as they were); every
 * other field given (title, worker, tool, dependsOn, reportQuantities) replaces the step's.
 */
import Ajv from 'ajv';
import type { AgentRole } from '../canvas/types';
import { describeSchemaErrors } from '../schemaErrors';
import { hintedSteps } from './stepHints';
import type { Plan, PlanEdit, PlanStep } from './types';

const STEP_ID = '^[a-z0-9][a-z0-9-]{0,63}$';
const WORKERS = ['dft', 'hpc', 'advisor'];

const stepFields = {
  title: { type: 'string', minLength: 1, maxLength: 300 },
  worker: { type: 'string', enum: WORKERS },
  tool: { type: 'string', minLength: 1 },
  args: { type: 'object' },
  reasons: { type: 'object', additionalProperties: { type: 'string' } },
  reportQuantities: { type: 'array', items: { type: 'string', minLength: 1 } },
  dependsOn: { type: 'array', items: { type: 'string', pattern: STEP_ID }, uniqueItems: true },
};

export const PLAN_EDIT_SCHEMA = {
  type: 'object',
  oneOf: [
    {
      properties: {
        op: { const: 'insert' },
        after: { type: 'string', pattern: STEP_ID, description: 'Insert after this step; omit to append.' },
        step: {
          type: 'object',
          properties: { id: { type: 'string', pattern: STEP_ID }, ...stepFields },
          required: ['id', 'title', 'worker', 'tool'],
          additionalProperties: false,
        },
      },
      required: ['op', 'step'],
      additionalProperties: false,
    },
    {
      properties: {
        op: { const: 'modify' },
        id: { type: 'string', pattern: STEP_ID },
        changes: {
          type: 'object',
          properties: { ...stepFields, reasons: { type: 'object', additionalProperties: { type: ['string', 'null'] } } },
          additionalProperties: false,
          minProperties: 1,
        },
      },
      required: ['op', 'id', 'changes'],
      additionalProperties: false,
    },
    {
      properties: { op: { const: 'delete' }, id: { type: 'string', pattern: STEP_ID }, reason: { type: 'string', minLength: 1 } },
      required: ['op', 'id', 'reason'],
      additionalProperties: false,
    },
  ],
};

const validateEdit = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(PLAN_EDIT_SCHEMA);

/** Which roles may call a tool (the registry's allow-list); undefined for an unknown tool. */
export type ToolRoles = (tool: string) => AgentRole[] | undefined;

export type PlanEditResult = { ok: true; plan: Plan; message: string } | { ok: false; reason: string };

const refuse = (reason: string): PlanEditResult => ({ ok: false, reason });

function schemaProblem(edit: unknown): string | undefined {
  if (validateEdit(edit)) return undefined;
  const op = (edit as { op?: unknown })?.op;
  if (op !== 'insert' && op !== 'modify' && op !== 'delete') {
    return `op must be "insert", "modify" or "delete" (got ${JSON.stringify(op)}).`;
  }
  // oneOf reports every branch; keep the branch of the op that was asked for.
  const branch = ['insert', 'modify', 'delete'].indexOf(op);
  const errors = (validateEdit.errors ?? []).filter((e) => e.schemaPath.startsWith(`#/oneOf/${branch}/`));
  return describeSchemaErrors(errors, edit, 'edit').join(' ');
}

function checkStep(step: Omit<PlanStep, 'status'>, plan: Plan, toolRoles: ToolRoles): string | undefined {
  const roles = toolRoles(step.tool);
  if (!roles) return `step ${step.id}: there is no tool "${step.tool}". Name a tool of the catalogue.`;
  if (!roles.includes(step.worker)) {
    return `step ${step.id}: the ${step.worker} worker cannot call ${step.tool}; it belongs to ${roles.join(', ')}. Give the step to one of them.`;
  }
  const ids = new Set(plan.steps.map((s) => s.id));
  for (const d of step.dependsOn ?? []) {
    if (d === step.id) return `step ${step.id} cannot depend on itself.`;
    if (!ids.has(d)) return `step ${step.id} depends on "${d}", which is not in the plan (steps: ${[...ids].join(', ')}).`;
  }
  for (const hinted of hintedSteps(step.args ?? {})) {
    if (!ids.has(hinted)) return `step ${step.id}: an argument refers to step "${hinted}", which is not in the plan.`;
    if (!(step.dependsOn ?? []).includes(hinted) && !dependsTransitively(plan, step.dependsOn ?? [], hinted)) {
      return `step ${step.id}: an argument refers to step "${hinted}" but the step does not depend on it; add "${hinted}" to dependsOn.`;
    }
  }
  return undefined;
}

/** Whether one of the steps `from` is, or depends (through others) on, `target`. */
export function dependsTransitively(
  plan: { steps: readonly { id: string; dependsOn?: string[] }[] },
  from: string[],
  target: string,
): boolean {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(byId.get(id)?.dependsOn ?? []));
  }
  return false;
}

/** Ids of steps that depend on `id`, directly or through others. */
export function dependentsOf(plan: Plan, id: string): string[] {
  const out: string[] = [];
  const queue = [id];
  while (queue.length) {
    const cur = queue.shift()!;
    for (const s of plan.steps) {
      if ((s.dependsOn ?? []).includes(cur) && !out.includes(s.id)) {
        out.push(s.id);
        queue.push(s.id);
      }
    }
  }
  return out;
}

export function applyPlanEdit(plan: Plan, edit: unknown, toolRoles: ToolRoles): PlanEditResult {
  const problem = schemaProblem(edit);
  if (problem) return refuse(`the edit does not have the required form: ${problem}`);
  const e = edit as PlanEdit;
  const steps = plan.steps.map((s) => ({ ...s }));
  const byId = new Map(steps.map((s) => [s.id, s]));

  if (e.op === 'insert') {
    if (byId.has(e.step.id)) return refuse(`a step "${e.step.id}" already exists; choose another id, or modify that step.`);
    if (e.after !== undefined && !byId.has(e.after))
      return refuse(`cannot insert after "${e.after}": no such step (steps: ${steps.map((s) => s.id).join(', ')}).`);
    const why = checkStep(e.step, plan, toolRoles);
    if (why) return refuse(why);
    const at = e.after === undefined ? steps.length : steps.findIndex((s) => s.id === e.after) + 1;
    steps.splice(at, 0, { ...e.step, status: 'pending' });
    return {
      ok: true,
      plan: { ...plan, steps, version: plan.version + 1 },
      message: `inserted step ${e.step.id} (${e.step.tool}, ${e.step.worker})${e.after ? ` after ${e.after}` : ' at the end'}.`,
    };
  }

  const target = byId.get(e.id);
  if (!target) return refuse(`no step "${e.id}" in the plan (steps: ${steps.map((s) => s.id).join(', ')}).`);
  if (target.status === 'running') return refuse(`step ${e.id} is running; wait for it to finish before changing it.`);

  if (e.op === 'delete') {
    const users = steps.filter((s) => s.id !== e.id && (s.dependsOn ?? []).includes(e.id)).map((s) => s.id);
    if (users.length)
      return refuse(
        `step ${e.id} cannot be deleted: ${users.join(', ')} depend${users.length === 1 ? 's' : ''} on it. Modify or delete ${users.length === 1 ? 'it' : 'them'} first.`,
      );
    return {
      ok: true,
      plan: { ...plan, steps: steps.filter((s) => s.id !== e.id), version: plan.version + 1 },
      message: `deleted step ${e.id}: ${e.reason}`,
    };
  }

  const { reasons: _namedReasons, ...replaced } = e.changes;
  const changed: Omit<PlanStep, 'status'> = { ...target, ...replaced, id: target.id };
  // args and reasons merge: only the arguments named change, null removes one
  if (e.changes.args) changed.args = mergeNamed(target.args, e.changes.args);
  if (e.changes.reasons) changed.reasons = mergeNamed(target.reasons, e.changes.reasons) as Record<string, string>;
  if (changed.args && !Object.keys(changed.args).length) delete changed.args;
  if (changed.reasons && !Object.keys(changed.reasons).length) delete changed.reasons;
  const why =
    checkStep(changed, { ...plan, steps: steps.filter((s) => s.id !== target.id) }, toolRoles) ??
    ((changed.dependsOn ?? []).some((d) => dependentsOf(plan, target.id).includes(d))
      ? `step ${e.id} would depend on a step that depends on it (a cycle).`
      : undefined);
  if (why) return refuse(why);
  const rerun = [
    target.id,
    ...dependentsOf({ ...plan, steps: steps.map((s) => (s.id === target.id ? { ...changed, status: s.status } : s)) }, target.id),
  ];
  const reopened: string[] = [];
  const next = steps.map((s) => {
    const base = s.id === target.id ? { ...changed, status: s.status, ...(s.summary ? { summary: s.summary } : {}) } : s;
    if (rerun.includes(s.id) && base.status !== 'pending') {
      reopened.push(s.id);
      const { summary: _old, ...rest } = base;
      return { ...rest, status: 'pending' as const };
    }
    return base;
  });
  return {
    ok: true,
    plan: { ...plan, steps: next, version: plan.version + 1 },
    message: `modified step ${e.id} (${describeChanges(target, e.changes)})${reopened.length ? `; to run again: ${reopened.join(', ')}` : ''}.`,
  };
}

/** The step's arguments (or reasons) with those named changed: a value replaces, null removes. */
function mergeNamed(base: Record<string, unknown> | undefined, named: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(named)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** What a modify changed, in words: "args.mixingBeta 0.7 → 0.3, args.electronMaxstep removed, title". */
function describeChanges(step: Omit<PlanStep, 'status'>, changes: Record<string, unknown>): string {
  const parts: string[] = [];
  const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));
  for (const [field, value] of Object.entries(changes)) {
    if ((field === 'args' || field === 'reasons') && value && typeof value === 'object') {
      const before = (step[field] ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        parts.push(
          v === null ? `${field}.${k} removed` : field === 'args' ? `${field}.${k} ${show(before[k])} → ${show(v)}` : `${field}.${k}`,
        );
      }
    } else parts.push(field);
  }
  return parts.join(', ');
}
