// The run summary's word on the plan counts revisions (steps added, dropped, reordered or
// changed), not versions of the plan key: each step's status change is a version too, and a
// practitioner reading "plan version 33" after a 16-step study takes it for 33 revisions.
import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;

interface Step {
  id: string;
  status: string;
  title?: string;
  args?: Record<string, unknown>;
  summary?: string;
}
let version = 0;
const plan = (steps: Step[]) => {
  version++;
  return ev(
    'key.write',
    {
      value: {
        objective: 'Lattice constant of fcc Al',
        version,
        steps: steps.map((st) => ({ title: `Do ${st.id}`, worker: 'dft', tool: 'run_pw', ...st })),
      },
      reason: '',
      version,
    },
    'plan',
  );
};
const stateLine = (p: CanvasProjection) =>
  p
    .cell('summary')!
    .text.split('\n')
    .find((l) => l.startsWith('| State |'))!;

describe('run summary: how often the plan was revised', () => {
  it('says "plan as first made" while only step statuses change, however many versions that writes', () => {
    const p = new CanvasProjection();
    p.apply(ev('run.start', { runId: 'r-1', objective: 'Lattice constant of fcc Al' }));
    const ids = ['cutoff', 'kpoints', 'eos', 'report'];
    p.apply(plan(ids.map((id) => ({ id, status: 'pending' }))));
    // each step running, then done with a summary: eight more versions of the plan key
    for (let i = 0; i < ids.length; i++) {
      p.apply(plan(ids.map((id, k) => ({ id, status: k < i ? 'done' : k === i ? 'running' : 'pending' }))));
      p.apply(plan(ids.map((id, k) => ({ id, status: k <= i ? 'done' : 'pending', ...(k <= i ? { summary: `${id} finished` } : {}) }))));
    }
    assert.equal(version, 9);
    assert.match(stateLine(p), /4\/4 steps done · plan as first made/);
    assert.doesNotMatch(p.cell('summary')!.text, /plan version/);
  });

  it('counts a step added, a step reordered and a step whose arguments changed as one revision each, not the status writes between them', () => {
    const p = new CanvasProjection();
    p.apply(ev('run.start', { runId: 'r-2', objective: 'Lattice constant of fcc Al' }));
    p.apply(
      plan([
        { id: 'cutoff', status: 'pending' },
        { id: 'eos', status: 'pending' },
      ]),
    );
    p.apply(
      plan([
        { id: 'cutoff', status: 'running' },
        { id: 'eos', status: 'pending' },
      ]),
    );
    p.apply(
      plan([
        { id: 'cutoff', status: 'done' },
        { id: 'eos', status: 'pending' },
      ]),
    );
    assert.match(stateLine(p), /plan as first made/);
    // the supervisor extends the study: a k-point series before the EOS
    p.apply(
      plan([
        { id: 'cutoff', status: 'done' },
        { id: 'kpoints', status: 'pending' },
        { id: 'eos', status: 'pending' },
      ]),
    );
    assert.match(stateLine(p), /plan revised once/);
    p.apply(
      plan([
        { id: 'cutoff', status: 'done' },
        { id: 'kpoints', status: 'running' },
        { id: 'eos', status: 'pending' },
      ]),
    );
    assert.match(stateLine(p), /plan revised once/);
    // reordered, then the EOS's arguments modified
    p.apply(
      plan([
        { id: 'cutoff', status: 'done' },
        { id: 'eos', status: 'pending' },
        { id: 'kpoints', status: 'running' },
      ]),
    );
    p.apply(
      plan([
        { id: 'cutoff', status: 'done' },
        { id: 'eos', status: 'pending', args: { points: 9 } },
        { id: 'kpoints', status: 'running' },
      ]),
    );
    assert.match(stateLine(p), /plan revised 3 times/);
  });
});
