/** canvas_inspect, canvas_read, canvas_write: the agents' shared memory (canvas/). */
import type { AgentRole } from '../canvas/types';
import { defineTool } from './defineTool';

const ALL: AgentRole[] = ['supervisor', 'dft', 'hpc', 'advisor'];
const HINT = 'the host opens the run canvas before agents act';

export const canvasInspectTool = defineTool({
  name: 'canvas_inspect',
  description: 'List canvas keys (optionally under a prefix such as "notes/" or "artifacts/"), one line each: mode, versions, summary.',
  roles: ALL,
  input: { type: 'object', properties: { prefix: { type: 'string', maxLength: 200 } }, additionalProperties: false },
  rules: [],
  outputs: [],
  requires: { canvas: HINT },
  parameterJudge: false,
  async run({ prefix }, ctx) {
    const rows = ctx.services.canvas.inspect(prefix);
    return {
      artifacts: [],
      summary: rows.length ? rows.map((r) => `${r.key} [${r.mode}, v${r.versions}] ${r.summary}`).join('\n') : 'no keys',
    };
  },
});

/** The head of a canvas_read result, before the value's JSON text (from `offset` on). */
const canvasReadHead = (key: string, version: number, versions: number, offset: number, length: number): string =>
  `${key} v${version}/${versions}${offset ? ` (from character ${offset} of ${length})` : ''}: `;
const CANVAS_READ_HEAD = /^.*? v\d+\/\d+(?: \(from character \d+ of \d+\))?: /;

/** Where a canvas_read result cut after `max` characters goes on: the canvas_read of the same key from that offset. */
export function canvasReadOn(content: string, max: number, input: Record<string, unknown>): string {
  const head = CANVAS_READ_HEAD.exec(content)?.[0];
  if (!head || typeof input.key !== 'string') return '';
  const from = (typeof input.offset === 'number' ? input.offset : 0) + Math.max(0, max - head.length);
  const args = { key: input.key, ...(typeof input.version === 'number' ? { version: input.version } : {}), offset: from };
  return ` Read on with canvas_read ${JSON.stringify(args)}.`;
}

export const canvasReadTool = defineTool({
  name: 'canvas_read',
  description:
    'Read a canvas key (the latest version, or a given one): the plan ("plan"), an artifact ("artifacts/a-26", its whole value), a tool call ("calls/c-7"), a note ("notes/<name>"). A long value is cut; its cut note gives the offset to read on.',
  roles: ALL,
  input: {
    type: 'object',
    properties: {
      key: { type: 'string', minLength: 1, maxLength: 300 },
      version: { type: 'integer', minimum: 1 },
      offset: {
        type: 'integer',
        minimum: 0,
        description: "Characters of the value's JSON to skip (a cut note gives it).",
      },
    },
    required: ['key'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [],
  requires: { canvas: HINT },
  parameterJudge: false,
  async run({ key, version, offset = 0 }, ctx) {
    const r = ctx.services.canvas.read(key, version);
    if (!r.ok) throw new Error(`${r.message}${r.closest.length ? ` Did you mean: ${r.closest.join(', ')}?` : ''}`);
    const text = JSON.stringify(r.value) ?? 'null';
    if (offset && offset >= text.length)
      throw new Error(
        `offset ${offset} is past the end of ${r.key} v${r.version} (${text.length} characters of JSON); read from an offset below ${text.length}.`,
      );
    return { artifacts: [], summary: `${canvasReadHead(r.key, r.version, r.versions, offset, text.length)}${text.slice(offset)}` };
  },
});

export const canvasWriteTool = defineTool({
  name: 'canvas_write',
  description: 'Write a canvas key (notes/* are versioned; framework keys such as artifacts/* are refused). Give the reason for the write.',
  roles: ALL,
  input: {
    type: 'object',
    properties: {
      key: { type: 'string', minLength: 1, maxLength: 300 },
      value: {},
      reason: { type: 'string', minLength: 1, maxLength: 2000 },
    },
    required: ['key', 'value', 'reason'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [],
  requires: { canvas: HINT },
  parameterJudge: false,
  async run({ key, value, reason }, ctx) {
    const r = await ctx.services.canvas.write(key, value, reason, { kind: 'tool', id: 'canvas_write' });
    if (!r.ok) throw new Error(r.message);
    return { artifacts: [], summary: r.message };
  },
});
