import assert from 'node:assert/strict';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME } from '../../../../src/shared/canvasOutputs';
import { canvasEvents } from '../../../harness/canvasEvents';

describe('canvas projection', () => {
  let { ev, call, artifact } = canvasEvents();
  beforeEach(() => ({ ev, call, artifact } = canvasEvents()));

  it('turns a sweep selection into an artifact card and a convergence plot, and an EOS fit into its recorded curve, in the cell of the call that made them', () => {
    const p = new CanvasProjection();
    p.apply(call('c-1', 'select_converged_settings'));
    p.apply(
      artifact('a-1', 'c-1', 'converged_settings', {
        value: {
          parameter: 'ecutwfc',
          tested: [
            { value: 20, energyEvPerAtom: 0, deltaMevPerAtom: 4 },
            { value: 30, energyEvPerAtom: 0, deltaMevPerAtom: 0.5 },
            { value: 40, energyEvPerAtom: 0, deltaMevPerAtom: 0 },
          ],
          chosenValue: 30,
          toleranceMevPerAtom: 1,
          chosen: {},
          converged: true,
        },
      }),
    );
    p.apply(
      artifact('a-2', 'c-1', 'eos_fit', {
        value: {
          form: 'birch-murnaghan',
          v0Angstrom3: 16.5,
          e0Ev: -57,
          b0GPa: 78,
          b0Prime: 4.5,
          points: [
            { volumeAngstrom3: 15.5, energyEv: -56.98 },
            { volumeAngstrom3: 17.5, energyEv: -56.98 },
          ],
        },
      }),
    );
    const cell = p.cell('calls/c-1')!;
    assert.equal(cell.kind, 'artifact');
    assert.equal(cell.text, 'converged_settings (table)\neos_fit (table)', 'one line per artifact, in the order they were made');
    assert.equal(cell.outputs![0]!.mime, CANVAS_MIME.artifacts, 'the cards first, as one output');
    assert.deepEqual(
      (cell.outputs![0]!.data as { cards: { id: string }[] }).cards.map((c) => c.id),
      ['a-1', 'a-2'],
    );
    assert.equal(p.cells().length, 1, 'one cell for the call, not one per artifact');
    assert.equal(p.cellIdOf('a-2'), 'calls/c-1');
    const conv = { outputs: cell.outputs!.slice(1, 2) };
    const plot = conv.outputs!.find((o) => o.mime === CANVAS_MIME.plot)!.data as {
      kind: string;
      chosen: number;
      unit: string;
      thresholdMeVPerAtom: number;
    };
    assert.deepEqual([plot.kind, plot.chosen, plot.unit, plot.thresholdMeVPerAtom], ['convergence', 30, 'Ry', 1]);
    const eos = cell.outputs!.slice(2).find((o) => o.mime === CANVAS_MIME.plot)!.data as {
      fit: { curve: { volumeA3: number; energyEv: number }[] };
    };
    const atV0 = eos.fit.curve.reduce((best, c) => (Math.abs(c.volumeA3 - 16.5) < Math.abs(best.volumeA3 - 16.5) ? c : best));
    assert.ok(Math.abs(atV0.energyEv - -57) < 1e-3, `the curve's minimum region is at E0: ${atV0.energyEv}`);
    assert.ok(
      eos.fit.curve.every((c) => c.energyEv >= -57 - 1e-9),
      'no point of a BM curve lies below E0',
    );
  });

  it('updates an approval cell in place when answered, and keeps the first answer', () => {
    const p = new CanvasProjection();
    p.apply(
      ev(
        'approval.request',
        {
          id: 'ap-1',
          call: 'c-1',
          tool: 'run_pw',
          verdicts: [{ rule: 'r', level: 'warn', reasons: ['x'] }],
          provenancePath: [],
          createdAt: '',
        },
        'approvals/ap-1',
      ),
    );
    assert.equal(p.pendingApprovals().length, 1);
    assert.deepEqual(
      p.apply(ev('approval.answer', { id: 'ap-1', decision: 'reject', by: 'user@cli', at: 't1', comment: 'no' }, 'approvals/ap-1')),
      ['approvals/ap-1'],
    );
    assert.deepEqual(
      p.apply(ev('approval.answer', { id: 'ap-1', decision: 'approve', by: 'user@vscode', at: 't2' }, 'approvals/ap-1')),
      [],
    );
    const data = p.cell('approvals/ap-1')!.outputs![0]!.data as { answer: { decision: string; by: string } };
    assert.deepEqual([data.answer.decision, data.answer.by], ['reject', 'user@cli']);
    assert.equal(p.pendingApprovals().length, 0);
    assert.equal(p.cells().length, 1);
  });

  it("updates the report's cell when the report judge's verdict arrives after the report", () => {
    const p = new CanvasProjection();
    p.apply(call('c-5', 'write_report'));
    p.apply(artifact('a-9', 'c-5', 'report', { kind: 'file', value: { title: 'Lattice constant of Al', claims: [] } }));
    const report = () =>
      p.cell('report')!.outputs!.find((o) => o.mime === CANVAS_MIME.report)!.data as { verdict?: { level: string; reasons: string[] } };
    assert.equal(report().verdict, undefined, 'not judged yet');
    const changed = p.apply(
      ev(
        'report.judged',
        { call: 'c-5', report: 'a-9', level: 'pass', accepted: true, claims: [], summary: 'The report judge accepted report a-9.' },
        'reports/a-9',
      ),
    );
    assert.deepEqual(changed, ['report'], "the report cell, not the call's");
    assert.deepEqual(report().verdict, { level: 'pass', reasons: ['The report judge accepted report a-9.'] });
  });

  it('ignores an event it has already applied (a reopen replays the log)', () => {
    const p = new CanvasProjection();
    const e = ev('key.write', { value: 'The k-mesh converged at 12x12x12.', reason: '', version: 1 }, 'notes/kmesh');
    assert.deepEqual(p.apply(e), ['notes/kmesh']);
    assert.deepEqual(p.apply(e), []);
    assert.equal(p.cell('notes/kmesh')!.kind, 'note');
  });

  it('shows the calls of one tool in a row in one cell, one line per call, and starts a new cell with another tool', () => {
    const p = new CanvasProjection();
    const run = (id: string, tool: string) => p.apply(call(id, tool));
    const art = (id: string, creator: string, name: string, value?: number) =>
      p.apply(
        artifact(
          id,
          creator,
          name,
          value === undefined ? { kind: 'qe-input', location: `files/${creator}/pw.in` } : { kind: 'scalar', value, unit: 'eV' },
        ),
      );
    run('c-1', 'run_pw');
    art('a-1', 'c-1', 'pw_input');
    art('a-2', 'c-1', 'total_energy', -57.1);
    run('c-2', 'run_pw');
    art('a-3', 'c-2', 'pw_input');
    assert.deepEqual(art('a-4', 'c-2', 'total_energy', -57.12), ['calls/c-1'], "the second run_pw joins the first one's cell");
    run('c-3', 'select_converged_settings');
    assert.deepEqual(art('a-5', 'c-3', 'chosen', 30), ['calls/c-3']);
    run('c-4', 'run_pw');
    assert.deepEqual(art('a-6', 'c-4', 'total_energy', -57.2), ['calls/c-4'], 'a run_pw after another tool starts a new cell');
    assert.deepEqual(
      p.cells().map((c) => c.id),
      ['calls/c-1', 'calls/c-3', 'calls/c-4'],
    );
    assert.equal(
      p.cell('calls/c-1')!.text,
      'run_pw × 2\nc-1: pw_input · total_energy = -57.1 eV\nc-2: pw_input · total_energy = -57.12 eV',
    );
    assert.deepEqual(
      (p.cell('calls/c-1')!.outputs![0]!.data as { cards: { id: string }[] }).cards.map((c) => c.id),
      ['a-1', 'a-2', 'a-3', 'a-4'],
    );
    assert.equal(p.cellIdOf('a-4'), 'calls/c-1');
    // a later status change of a-3 updates the batch's cell in place
    assert.deepEqual(p.apply(ev('provenance.status', { ids: ['a-3'], status: 'stale', reason: 'cutoff changed' })), ['calls/c-1']);
    assert.match(p.cell('calls/c-1')!.text, /c-2: pw_input \(stale\) · total_energy/);
  });
});
