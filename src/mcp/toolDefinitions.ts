/**
 * The MCP tools a DREAMS server always offers: reading (workflows, runs, status, canvas,
 * approvals, jobs, report) and acting (start or resume a run, answer an approval, end a
 * step's turn, stop the run). The guarded tools of the running steps come on top, with the
 * schema a worker is given plus an optional "step".
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const RUN = {
  type: 'string',
  description: 'The run: its id (dreams_runs lists them) or "latest"; default the run this server drives, else the latest.',
} as const;
const read = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

export const READ_TOOLS: Tool[] = [
  {
    name: 'dreams_workflows',
    description: 'The built-in workflows (lattice constant, band structure, adsorption search, ...) with the JSON schema of their inputs.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_runs',
    description: "The runs under this server's runs directory, each with its state and objective.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_status',
    description:
      "The state of a run: its plan, and for the run driven here each running step with its brief and its planned call in full (the input to send to the step's tool), and the open approvals.",
    inputSchema: { type: 'object', properties: { run: RUN }, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_canvas_inspect',
    description: 'List a run\'s canvas keys (optionally under a prefix such as "artifacts/", "calls/" or "notes/"), one line each.',
    inputSchema: { type: 'object', properties: { run: RUN, prefix: { type: 'string', maxLength: 200 } }, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_canvas_read',
    description:
      "Read a run's canvas key (the latest version, or a given one): an artifact (artifacts/a-12), a call (calls/c-3), the plan, a note.",
    inputSchema: {
      type: 'object',
      properties: { run: RUN, key: { type: 'string', minLength: 1, maxLength: 300 }, version: { type: 'integer', minimum: 1 } },
      required: ['key'],
      additionalProperties: false,
    },
    annotations: read,
  },
  {
    name: 'dreams_approvals',
    description: "A run's approval requests (guard warnings) with their state: open, approved or rejected (and by whom), or closed.",
    inputSchema: { type: 'object', properties: { run: RUN }, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_jobs',
    description: "A run's pw.x jobs: backend, state and error.",
    inputSchema: { type: 'object', properties: { run: RUN }, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'dreams_report',
    description: "A run's report (Markdown) and the report judge's verdict on it.",
    inputSchema: { type: 'object', properties: { run: RUN }, additionalProperties: false },
    annotations: read,
  },
];

const BUDGET = {
  type: 'object',
  properties: {
    maxTokens: { type: 'integer', exclusiveMinimum: 0 },
    maxCostUsd: { type: 'number', exclusiveMinimum: 0 },
    maxJobs: { type: 'integer', exclusiveMinimum: 0 },
    maxWallMinutes: { type: 'number', exclusiveMinimum: 0 },
  },
  additionalProperties: false,
  description: 'Limits of the run (model tokens and cost for the judges, pw.x jobs, wall time).',
} as const;

export const WRITE_TOOLS: Tool[] = [
  {
    name: 'dreams_start_run',
    description:
      "Start a run of a built-in workflow, worked by you: its steps wait for your calls. Give the objective as an objective file's content ({workflow, inputs[, objective]}) or objectiveFile (a YAML objective inside the workspace).",
    inputSchema: {
      type: 'object',
      properties: {
        objective: {
          type: 'object',
          properties: { workflow: { type: 'string' }, inputs: { type: 'object' }, objective: { type: 'string' } },
          required: ['workflow', 'inputs'],
          description: 'As an objective file: workflow, inputs (its schema in dreams_workflows), objective (words).',
        },
        objectiveFile: { type: 'string', description: 'A YAML or JSON objective file, relative to the workspace.' },
        approval: {
          type: 'string',
          enum: ['continue'],
          description:
            'What a guard warning does: continue (the result counts once you approve it with dreams_answer_approval; the only policy an outside agent sets).',
        },
        cluster: { type: 'string', description: "Run pw.x on this cluster profile of the user's (default: this machine)." },
        budget: BUDGET,
        parallelJobs: {
          type: 'integer',
          minimum: 1,
          maximum: 16,
          description: 'pw.x steps and run_pw calls in flight at once (default 4).',
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'dreams_resume_run',
    description:
      'Continue a stopped or interrupted run, worked by you from where it stopped (finished steps are not redone; pw.x jobs still running are picked up).',
    inputSchema: {
      type: 'object',
      properties: { run: RUN, approval: { type: 'string', enum: ['continue'] }, budget: BUDGET },
      required: ['run'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'dreams_answer_approval',
    description:
      'Answer an approval request the guard raised on a warned call: approve it, or reject it with a comment (its result then becomes provisional and cannot back a report). Recorded with your name and version as the answering party.',
    inputSchema: {
      type: 'object',
      properties: {
        run: RUN,
        id: { type: 'string', pattern: '^ap-\\d+$' },
        decision: { type: 'string', enum: ['approve', 'reject'] },
        comment: { type: 'string', maxLength: 2000 },
        allLikeThis: { type: 'boolean', description: 'Also approve every open and later request of the run with the same concern.' },
      },
      required: ['id', 'decision'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'dreams_end_step',
    description:
      "End a waiting step's turn without a call, with what you have to say (e.g. why its call cannot be made). The step is then judged from what it made; a step with calls still to make fails and is replanned.",
    inputSchema: {
      type: 'object',
      properties: { step: { type: 'string' }, summary: { type: 'string', maxLength: 4000 } },
      required: ['step', 'summary'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'dreams_stop_run',
    description: 'Stop the run driven here after the call in flight; it stays resumable (dreams_resume_run).',
    inputSchema: { type: 'object', properties: { reason: { type: 'string', maxLength: 500 } }, additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
];

/** A worker's tool schema with the optional step the call is for. */
export function withStep(schema: object): object {
  const s = schema as { properties?: Record<string, unknown> };
  return {
    ...s,
    properties: {
      ...s.properties,
      step: { type: 'string', description: 'The plan step this call is for (needed only when several running steps take this tool).' },
    },
  };
}
