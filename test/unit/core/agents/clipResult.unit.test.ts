// A tool result longer than a turn may carry is cut with where to read the rest. A cut canvas_read
// result points on to the same key from the offset where it stopped, so a long plan is read to its
// end by following the notes; it never points at its own call (whose record holds the same cut text).
import assert from 'node:assert/strict';
import { clipResult } from '../../../../src/core/agents/worker';
import { canvasReadTool } from '../../../../src/core/tools/canvasTools';
import type { ToolUseBlock } from '../../../../src/core/llm/types';

const PLAN = {
  version: 3,
  steps: Array.from({ length: 16 }, (_, i) => ({
    id: `step-${i + 1}`,
    title: `Step ${i + 1} of the relaxation study`,
    tool: i === 11 ? 'run_pw' : 'make_pw_input',
    args: { calculation: i > 9 ? 'relax' : 'scf', note: 'x'.repeat(120) },
  })),
};

const canvas = {
  read: (key: string) =>
    key === 'plan' ? { ok: true, key: 'plan', version: 3, versions: 3, value: PLAN } : { ok: false, message: `no key ${key}`, closest: [] },
};

async function read(input: Record<string, unknown>): Promise<string> {
  const out = await canvasReadTool.run(input as never, { services: { canvas } } as never);
  return out.summary;
}

describe('cut tool results', () => {
  it('reads a long plan to its end by following the cut notes of canvas_read, each from the offset where the last stopped', async () => {
    const full = JSON.stringify(PLAN);
    const max = 1000;
    let input: Record<string, unknown> = { key: 'plan' };
    let text = '';
    for (let turn = 0; turn < 20; turn++) {
      const use: ToolUseBlock = { type: 'tool_use', id: `tu-${turn}`, name: 'canvas_read', input };
      const clipped = clipResult({ type: 'tool_result', toolUseId: use.id, content: await read(input) }, max, `c-${turn + 1}`, use).content;
      const body = clipped.replace(/^.*? v3\/3(?: \(from character \d+ of \d+\))?: /, '');
      const note = /\n… \(\d+ more characters cut\. Read on with canvas_read (\{.*\})\.\)$/.exec(body);
      assert.doesNotMatch(clipped, /calls\/c-/, 'a canvas_read cut note does not send the reader to its own call');
      if (!note) {
        text += body;
        break;
      }
      text += body.slice(0, note.index);
      input = JSON.parse(note[1]!);
    }
    assert.equal(text, full);
  });

  it('refuses an offset past the end of the value, saying how long it is', async () => {
    const length = JSON.stringify(PLAN).length;
    await assert.rejects(
      read({ key: 'plan', offset: length }),
      new RegExp(`offset ${length} is past the end of plan v3 \\(${length} characters of JSON\\)`),
    );
  });

  it("points any other cut result at its call's record, which holds the whole summary", () => {
    const use: ToolUseBlock = { type: 'tool_use', id: 'tu-1', name: 'run_pw', input: {} };
    const clipped = clipResult({ type: 'tool_result', toolUseId: 'tu-1', content: 'y'.repeat(50) }, 20, 'c-7', use).content;
    assert.match(clipped, /^y{20}\n… \(30 more characters cut\. Read calls\/c-7 /);
  });
});
