// Live updates of a canvas notebook touch only what changed: a step that gains a call line or
// the summary rewritten after an event keep their outputs drawn (text only), a new artifact
// redraws its own step's outputs and no other cell's, and a reopen changes nothing.
import assert from 'node:assert/strict';
import type { CanvasCell } from '../../../../src/core/canvas/canvasFile';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { outputsKey, planCellUpdates, type ShownCell } from '../../../../src/extension/notebook/cellUpdates';
import { syntheticRunEvents } from '../../../harness/syntheticRun';

const asEvents = (inputs: ReturnType<typeof syntheticRunEvents>, from = 1): CanvasEvent[] =>
  inputs.map((e, i) => ({ v: 1, seq: from + i, ts: '2026-01-01T00:00:00.000Z', crc: '', ...e }) as CanvasEvent);

/** The notebook as a canvas shows it after the projection's cells were written: objective first, then the cells. */
function notebookOf(cells: CanvasCell[]): Map<string, ShownCell> {
  const shown = new Map<string, ShownCell>();
  shown.set('objective-1', { index: 0, text: 'synthetic', outputs: () => outputsKey(undefined) });
  cells.forEach((c, i) => {
    const copy = JSON.parse(JSON.stringify(c)) as CanvasCell; // what the notebook holds went through JSON
    shown.set(c.id, {
      index: i + 1,
      text: copy.text,
      ...(copy.seq !== undefined ? { seq: copy.seq } : {}),
      outputs: () => outputsKey(copy.outputs),
    });
  });
  return shown;
}

/** A run with a plan of steps, replayed; then `more` applied. Returns the plan for `more`'s changes. */
function planAfter(more: (last: number, events: CanvasEvent[]) => CanvasEvent[]) {
  const events = asEvents(syntheticRunEvents({ nodes: 300, steps: true, runId: 'r1' }));
  const p = new CanvasProjection();
  p.applyAll(events);
  const shown = notebookOf(p.cells());
  const changedIds = new Set<string>();
  for (const e of more(events.length, events)) for (const id of p.apply(e)) changedIds.add(id);
  const changed = [...changedIds].map((id) => p.cell(id)!);
  return { plan: planCellUpdates(changed, shown, p.cellOrder(), shown.size, (id) => p.cell(id)), shown, p };
}

const tool = { kind: 'tool' as const, id: 'registry' };
const at = '2026-01-01T00:00:00.000Z';

describe('canvas notebook live updates (cellUpdates.planCellUpdates)', () => {
  it("a call starting in a step changes that step's text only: its outputs stay drawn and no other cell is touched", () => {
    const { plan } = planAfter((last) => [
      {
        v: 1,
        seq: last + 1,
        ts: at,
        crc: '',
        kind: 'provenance.call',
        key: 'calls/c-900',
        actor: tool,
        payload: {
          id: 'c-900',
          tool: 'run_scf',
          args: {},
          reasons: {},
          context: 'more',
          verdicts: [],
          agent: { role: 'dft' },
          startedAt: at,
          status: 'running',
          outputs: [],
          step: 'sweep-2',
        },
      } as CanvasEvent,
    ]);
    assert.deepEqual(
      plan.updates.map((u) => [u.cell.id, u.kind]),
      [['steps/sweep-2', 'text']],
    );
    assert.match(plan.updates[0]!.cell.text, /sweep-2/);
    assert.deepEqual(plan.inserts, []);
  });

  it("a new artifact redraws the outputs of its step's cell only, and the summary rewritten after a state change is text only", () => {
    const { plan } = planAfter(
      (last) =>
        [
          {
            v: 1,
            seq: last + 1,
            ts: at,
            crc: '',
            kind: 'provenance.artifact',
            key: 'artifacts/a-900',
            actor: tool,
            payload: {
              id: 'a-900',
              kind: 'scalar',
              name: 'total_energy',
              value: -57.2,
              unit: 'eV',
              contentHash: 'x',
              creator: 'c-3',
              inputs: [],
              concerns: [],
              status: 'final',
              createdAt: at,
            },
          },
          {
            v: 1,
            seq: last + 2,
            ts: at,
            crc: '',
            kind: 'run.state',
            actor: { kind: 'framework', id: 'runner' },
            payload: { state: 'running' },
          },
        ] as CanvasEvent[],
    );
    const byId = new Map(plan.updates.map((u) => [u.cell.id, u.kind]));
    assert.equal(byId.size, 2, `touched: ${[...byId.keys()].join(', ')}`);
    assert.equal(byId.get('summary'), 'text');
    const step = [...byId].find(([id]) => id.startsWith('steps/'));
    assert.ok(step, 'the step of c-3 was updated');
    assert.equal(step[1], 'replace');
  });

  it('a step the plan adds gets a new cell, and the cells shown change their text only (the summary\'s count, each step\'s "of N"), no output redrawn', () => {
    const { plan, shown } = planAfter((last, events) => {
      const order = (events.find((e) => e.kind === 'key.write' && e.key === 'plan')!.payload as { value: { steps: unknown[] } }).value
        .steps;
      return [
        {
          v: 1,
          seq: last + 1,
          ts: at,
          crc: '',
          kind: 'key.write',
          key: 'plan',
          actor: { kind: 'agent', id: 'supervisor' },
          payload: {
            value: {
              objective: 'synthetic',
              version: 2,
              steps: [...order, { id: 'report-step', title: 'Write the report', worker: 'report', status: 'pending' }],
            },
            reason: 'one more',
            version: 2,
          },
        } as CanvasEvent,
      ];
    });
    assert.deepEqual(
      plan.inserts.map((i) => [i.index, i.cells.map((c) => c.id)]),
      [[shown.size, ['steps/report-step']]],
    );
    assert.ok(
      plan.updates.some((u) => u.cell.id === 'summary' && u.kind === 'text'),
      'the summary counts the new step',
    );
    assert.deepEqual(
      plan.updates.filter((u) => u.kind !== 'text').map((u) => u.cell.id),
      [],
      "no cell's outputs are drawn again",
    );
    const stepsNow = [...shown.keys()].filter((id) => id.startsWith('steps/')).length + 1;
    const outOf = plan.updates.filter((u) => u.cell.id.startsWith('steps/')).map((u) => /^Step \d+ of (\d+): /.exec(u.cell.text)?.[1]);
    assert.equal(outOf.length, stepsNow - 1, 'every step shown is written again');
    assert.deepEqual([...new Set(outOf)], [String(stepsNow)], 'each step is numbered out of the new count');
  });

  it('a plan version that reorders steps moves the step cells already shown to the plan order, and a step it adds lands in that order too', () => {
    const { plan, shown, p } = planAfter((last, events) => {
      const steps = (
        [...events].reverse().find((e) => e.kind === 'key.write' && e.key === 'plan')!.payload as { value: { steps: { id: string }[] } }
      ).value.steps;
      // the supervisor moves the last step to the front and adds one after it
      const reordered = [
        steps.at(-1)!,
        { id: 'check-pressure', title: 'Check the pressure', worker: 'dft', tool: 'run_scf', status: 'pending' },
        ...steps.slice(0, -1),
      ];
      return [
        {
          v: 1,
          seq: last + 1,
          ts: at,
          crc: '',
          kind: 'key.write',
          key: 'plan',
          actor: { kind: 'agent', id: 'supervisor' },
          payload: { value: { objective: 'synthetic', version: 2, steps: reordered }, reason: 'reordered', version: 2 },
        } as CanvasEvent,
      ];
    });
    // the notebook after the plan's edits: in-place updates first, then inserts from the bottom up
    const notebook = [...shown].sort((x, y) => x[1].index - y[1].index).map(([id]) => id);
    for (const u of plan.updates) notebook[u.index] = u.cell.id;
    for (const { index, cells } of [...plan.inserts].sort((x, y) => y.index - x.index))
      notebook.splice(index, 0, ...cells.map((c) => c.id));
    assert.deepEqual(notebook, ['objective-1', ...p.cellOrder()], 'the open notebook shows the cells in the plan order');
    const moved = plan.updates.filter((u) => u.kind === 'move');
    assert.ok(moved.length >= 2, 'step cells moved');
    assert.ok(
      moved.every((u) => u.cell.id.startsWith('steps/')),
      'only step cells move',
    );
    const summary = plan.updates.find((u) => u.cell.id === 'summary');
    assert.equal(summary?.kind, 'text', 'the summary keeps its place and is edited in place');
    assert.equal(new Set(plan.updates.map((u) => u.index)).size, plan.updates.length, 'one update per cell');
  });

  it('reopening a canvas that already shows the run plans no edit', () => {
    const events = asEvents(syntheticRunEvents({ nodes: 300, steps: true, runId: 'r1' }));
    const first = new CanvasProjection();
    first.applyAll(events);
    const shown = notebookOf(first.cells());
    const again = new CanvasProjection();
    const ids = again.applyAll(events);
    const plan = planCellUpdates(
      ids.map((id) => again.cell(id)!),
      shown,
      again.cellOrder(),
      shown.size,
    );
    assert.deepEqual(plan, { updates: [], inserts: [] });
  });
  it('a cell without a record number whose outputs changed is drawn again, and one whose outputs are the same is left alone', () => {
    const cell = (data: unknown): CanvasCell => ({ kind: 'note', id: 'notes/a', text: 'note', outputs: [{ mime: 'text/markdown', data }] });
    const shown = new Map<string, ShownCell>([['notes/a', { index: 3, text: 'note', outputs: () => outputsKey(cell('old').outputs) }]]);
    assert.deepEqual(
      planCellUpdates([cell('new')], shown, ['notes/a'], 4).updates.map((u) => [u.kind, u.index]),
      [['replace', 3]],
    );
    assert.deepEqual(planCellUpdates([cell('old')], shown, ['notes/a'], 4), { updates: [], inserts: [] });
  });
});
