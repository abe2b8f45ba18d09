import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection, mergeStepOrder } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME, type ApprovalCardData, type ArtifactListData, type ReportData } from '../../../../src/shared/canvasOutputs';

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;

const plan = (status: Record<string, string>) =>
  ev(
    'key.write',
    {
      value: {
        objective: 'Lattice constant of fcc Al',
        version: 1,
        steps: [
          { id: 'cutoff', title: 'Converge the cutoff', worker: 'dft', tool: 'run_pw', status: status.cutoff ?? 'pending' },
          { id: 'eos', title: 'Fit the equation of state', worker: 'dft', tool: 'fit_eos', status: status.eos ?? 'pending' },
          { id: 'report', title: 'Write the report', worker: 'dft', tool: 'write_report', status: status.report ?? 'pending' },
        ],
      },
      reason: '',
      version: 1,
    },
    'plan',
  );
const call = (id: string, tool: string, step: string, status = 'running') =>
  ev('provenance.call', {
    id,
    tool,
    step,
    args: {},
    reasons: { ecutwfc: 'the UPF suggests 30 Ry' },
    context: 'converging',
    verdicts: [{ tier: 'tier1', rule: 'ecut-suggested', level: 'pass', reasons: [], judged: true }],
    agent: { role: 'dft' },
    startedAt: '',
    status,
    outputs: [],
  });
const art = (id: string, creator: string, name: string, value: unknown, extra: Record<string, unknown> = {}) =>
  ev('provenance.artifact', {
    id,
    kind: typeof value === 'number' ? 'scalar' : 'table',
    name,
    creator,
    inputs: [],
    concerns: [],
    status: 'final',
    contentHash: id,
    createdAt: '',
    value,
    ...extra,
  });

/** A lattice-constant run: a plan of three steps, a sweep with an approval and a job, an EOS, a report. */
function run(p: CanvasProjection, opts: { answer?: boolean; report?: boolean } = {}): void {
  p.apply(ev('run.start', { runId: 'r-1', objective: 'Lattice constant of fcc Al' }));
  p.apply(ev('run.state', { state: 'running' }));
  p.apply(plan({ cutoff: 'running' }));
  p.apply(ev('step.start', { id: 'cutoff', attempt: 1, worker: 'dft', tool: 'run_pw' }));
  p.apply(call('c-1', 'run_pw', 'cutoff'));
  p.apply(
    ev('approval.request', {
      id: 'ap-1',
      call: 'c-1',
      tool: 'run_pw',
      parameter: 'ecutwfc',
      value: 20,
      verdicts: [{ rule: 'ecut-suggested', level: 'warn', reasons: ['20 Ry is below the 30 Ry the UPF suggests'] }],
      provenancePath: [],
      createdAt: '',
    }),
  );
  p.apply(ev('run.state', { state: 'waiting-approval' }));
  if (!opts.answer) return;
  p.apply(ev('approval.answer', { id: 'ap-1', decision: 'approve', by: 'user@vscode', at: 't' }));
  p.apply(ev('run.state', { state: 'running' }));
  p.apply(
    ev('job.transition', {
      id: 'j-1',
      backend: 'local',
      state: 'running',
      program: 'pw.x',
      input: 'pw.in',
      files: [],
      pseudopotentials: [],
      outputs: [],
      createdAt: '2026-12-04T10:00:00Z',
      updatedAt: '2026-12-04T10:00:05Z',
      startedAt: '2026-12-04T10:00:00Z',
      call: 'c-1',
      progress: { scfIteration: 4 },
    }),
  );
  p.apply(
    ev('job.transition', {
      id: 'j-1',
      backend: 'local',
      state: 'completed',
      program: 'pw.x',
      input: 'pw.in',
      files: [],
      pseudopotentials: [],
      outputs: [],
      createdAt: '2026-12-04T10:00:00Z',
      updatedAt: '2026-12-04T10:00:09Z',
      startedAt: '2026-12-04T10:00:00Z',
      endedAt: '2026-12-04T10:00:09Z',
      call: 'c-1',
    }),
  );
  p.apply(art('a-1', 'c-1', 'total_energy', -57.1, { unit: 'eV' }));
  p.apply(ev('provenance.call.end', { id: 'c-1', status: 'ok', endedAt: '', outputs: ['a-1'] }));
  p.apply(ev('llm.usage', { usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.0123 }));
  p.apply(plan({ cutoff: 'done', eos: 'running' }));
  p.apply(call('c-2', 'fit_eos', 'eos'));
  p.apply(art('a-2', 'c-2', 'lattice_constant', 4.0412, { unit: 'Å' }));
  if (!opts.report) return;
  p.apply(plan({ cutoff: 'done', eos: 'done', report: 'running' }));
  p.apply(call('c-3', 'write_report', 'report'));
  p.apply(
    ev('provenance.artifact', {
      id: 'a-3',
      kind: 'file',
      name: 'report',
      creator: 'c-3',
      inputs: ['a-2'],
      concerns: [],
      status: 'final',
      contentHash: 'r',
      createdAt: '',
      location: 'files/ab/report.md',
      value: { title: 'Lattice constant of fcc Al', claims: [{ quantity: 'lattice_constant', value: 4.0412, unit: 'Å', cites: 'a-2' }] },
    }),
  );
  p.apply(
    ev(
      'report.judged',
      { call: 'c-3', report: 'a-3', level: 'pass', accepted: true, claims: [], summary: 'The report judge accepted report a-3.' },
      'reports/a-3',
    ),
  );
  p.apply(plan({ cutoff: 'done', eos: 'done', report: 'done' }));
  p.apply(ev('run.state', { state: 'completed' }));
}

describe('canvas projection: the lab-notebook layout', () => {
  beforeEach(() => (seq = 0));

  it('puts the summary first, one cell per plan step in plan order, and the report in full last', () => {
    const files: Record<string, string> = {
      'files/ab/report.md': '# Lattice constant of fcc Al\n\n| a (Å) | B (GPa) |\n|---|---|\n| 4.04 | 78 |\n',
    };
    const p = new CanvasProjection({ readFile: (l) => files[l] });
    run(p, { answer: true, report: true });
    assert.deepEqual(
      p.cells().map((c) => c.id),
      ['summary', 'steps/cutoff', 'steps/eos', 'steps/report', 'report'],
    );
    const summary = p.cell('summary')!;
    assert.equal(summary.kind, 'summary');
    assert.match(summary.text, /\| State \| \*\*completed\*\* · 3\/3 steps done/);
    assert.match(summary.text, /\| Result \| lattice constant = \*\*4\.0412 Å\*\* \(artifact a-2\) \|/);
    assert.match(summary.text, /\| Report \| a-3: accepted by the report judge \|/);
    assert.match(summary.text, /\| Tokens and cost \| 1,200 tokens · \$0\.01 \|/);
    assert.match(summary.text, /\| Jobs \| 1\/1 completed \|/);
    assert.match(summary.text, /\| Open approvals \| none \|/);
    const report = p.cell('report')!;
    const data = report.outputs![0]!.data as ReportData;
    assert.equal(report.outputs![0]!.mime, CANVAS_MIME.report);
    // the run's composed report, as report.md has it: the title, the verdict, the report's own text and the run's sections
    assert.match(data.markdown, /^# Lattice constant of fcc Al\n/, 'the report itself, not its path');
    assert.match(data.markdown, /## Report a-3: accepted by the report judge\n/);
    assert.ok(data.markdown.includes('| a (Å) | B (GPa) |\n|---|---|\n| 4.04 | 78 |'), "the report's own table");
    assert.match(data.markdown, /## Jobs\n/);
    assert.deepEqual(data.claims, [{ quantity: 'lattice_constant', value: 4.0412, unit: 'Å', artifact: 'a-2' }]);
    assert.equal(data.verdict?.level, 'pass');
    assert.ok(
      !p.cells().some((c) => c.id.startsWith('calls/') || c.id.startsWith('approvals/') || c.id.startsWith('jobs/') || c.id === 'plan'),
      'no cells besides summary, steps and report',
    );
  });

  it("shows a step's title, status, worker, tool, verdicts and calls, with its artifacts as outputs", () => {
    const p = new CanvasProjection();
    run(p, { answer: true });
    const cutoff = p.cell('steps/cutoff')!;
    assert.equal(cutoff.kind, 'step');
    const lines = cutoff.text.split('\n');
    assert.equal(lines[0], 'Step 1 of 3: Converge the cutoff — done');
    assert.equal(lines[1], 'worker dft · tool run_pw · id cutoff');
    assert.equal(lines[2], 'verdicts: 1 pass');
    assert.equal(lines[3], 'c-1 ok: total_energy = -57.1 eV');
    assert.ok(lines.includes('jobs: 1/1 completed'));
    const cards = cutoff.outputs!.find((o) => o.mime === CANVAS_MIME.artifacts)!.data as ArtifactListData;
    assert.deepEqual(
      cards.cards.map((c) => c.id),
      ['a-1'],
    );
    assert.ok(!cutoff.outputs!.some((o) => o.mime === CANVAS_MIME.job), 'a completed job has no card of its own');
    assert.equal(p.cellIdOf('a-2'), 'steps/eos');
    assert.equal(p.cellIdOf('c-1'), 'steps/cutoff');
  });

  it('puts a waiting approval inside the step that raised it, and says so in the summary', () => {
    const p = new CanvasProjection();
    run(p);
    assert.deepEqual(
      p.cells().map((c) => c.id),
      ['summary', 'steps/cutoff', 'steps/eos', 'steps/report'],
    );
    const cutoff = p.cell('steps/cutoff')!;
    const card = cutoff.outputs!.find((o) => o.mime === CANVAS_MIME.approval)!.data as ApprovalCardData;
    assert.equal(card.request.id, 'ap-1');
    assert.equal(card.agentReason, 'the UPF suggests 30 Ry');
    assert.match(cutoff.text, /approvals: 1, 1 waiting for your answer/);
    assert.match(p.cell('summary')!.text, /\| State \| \*\*waiting-approval\*\*/);
    assert.match(p.cell('summary')!.text, /\| Open approvals \| ap-1 \(run_pw\.ecutwfc, step cutoff\) \|/);
    assert.equal(p.cellIdOf('approvals/ap-1'), 'steps/cutoff', 'the approvals view reveals the step');
  });

  it('rewrites the summary and a step in place as events arrive, never adding a second copy', () => {
    const changed = new Set<string>();
    const events: CanvasEvent[] = [];
    // one event at a time, as a live run writes it
    const q = new CanvasProjection({ readFile: () => '# r\n' });
    const apply = q.apply.bind(q);
    q.apply = (e: CanvasEvent) => {
      events.push(e);
      const ids = apply(e);
      for (const id of ids) changed.add(id);
      return ids;
    };
    run(q, { answer: true, report: true });
    assert.ok(events.length > 20);
    assert.deepEqual(
      q.cells().map((c) => c.id),
      ['summary', 'steps/cutoff', 'steps/eos', 'steps/report', 'report'],
    );
    assert.deepEqual([...changed].sort(), ['report', 'steps/cutoff', 'steps/eos', 'steps/report', 'summary']);
    // a reopen (a fresh fold of the same events) gives the same cells
    const again = new CanvasProjection({ readFile: () => '# r\n' });
    again.applyAll(events);
    assert.deepEqual(again.cells(), q.cells());
  });

  it('shows a running job as a card with its progress in its step, and drops the card when it completes', () => {
    const p = new CanvasProjection();
    run(p);
    p.apply(ev('approval.answer', { id: 'ap-1', decision: 'approve', by: 'u', at: 't' }));
    p.apply(
      ev('job.transition', {
        id: 'j-1',
        backend: 'local',
        state: 'running',
        program: 'pw.x',
        input: 'pw.in',
        files: [],
        pseudopotentials: [],
        outputs: [],
        createdAt: '',
        updatedAt: '2026-12-04T10:00:05Z',
        startedAt: '2026-12-04T10:00:00Z',
        call: 'c-1',
        progress: { scfIteration: 4 },
      }),
    );
    const job = p.cell('steps/cutoff')!.outputs!.find((o) => o.mime === CANVAS_MIME.job)!.data as { progress: string; state: string };
    assert.deepEqual([job.state, job.progress], ['running', 'SCF iteration 4']);
    assert.match(p.cell('summary')!.text, /\| Jobs \| 0\/1 completed, 1 queued or running \|/);
    p.apply(
      ev('job.transition', {
        id: 'j-1',
        backend: 'local',
        state: 'completed',
        program: 'pw.x',
        input: 'pw.in',
        files: [],
        pseudopotentials: [],
        outputs: [],
        createdAt: '',
        updatedAt: '',
        call: 'c-1',
      }),
    );
    assert.ok(!p.cell('steps/cutoff')!.outputs!.some((o) => o.mime === CANVAS_MIME.job));
  });
  it('puts a step a later plan version adds where the plan puts it, not after the report step, and numbers the steps again', () => {
    const p = new CanvasProjection();
    run(p, { answer: true });
    const steps = (ids: { id: string; status: string }[], version: number) =>
      ev(
        'key.write',
        {
          value: {
            objective: 'Lattice constant of fcc Al',
            version,
            steps: ids.map((st) => ({ ...st, title: `Step ${st.id}`, worker: 'dft', tool: 'run_pw' })),
          },
          reason: '',
          version,
        },
        'plan',
      );
    p.apply(
      steps(
        [
          { id: 'cutoff', status: 'done' },
          { id: 'k-series-2', status: 'running' },
          { id: 'eos', status: 'pending' },
          { id: 'report', status: 'pending' },
        ],
        2,
      ),
    );
    assert.deepEqual(p.cellOrder(), ['summary', 'steps/cutoff', 'steps/k-series-2', 'steps/eos', 'steps/report']);
    assert.deepEqual(
      p.cells().map((c) => c.id),
      p.cellOrder(),
    );
    assert.match(p.cell('steps/k-series-2')!.text, /^Step 2 of 4: /);
    assert.match(p.cell('steps/eos')!.text, /^Step 3 of 4: /);
    assert.match(p.cell('steps/report')!.text, /^Step 4 of 4: /);
  });

  it('keeps a step a later plan version drops after the step that preceded it', () => {
    assert.deepEqual(mergeStepOrder(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']), ['a', 'b', 'x', 'c', 'd']);
    assert.deepEqual(mergeStepOrder(['a', 'b'], ['b', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(mergeStepOrder([], ['a', 'a', 'b']), ['a', 'b']);
  });
});
