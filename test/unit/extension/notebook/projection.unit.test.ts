import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/extension/notebook/projection';
import { CANVAS_MIME } from '../../../../src/shared/canvasOutputs';

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;

describe('canvas projection', () => {
  beforeEach(() => (seq = 0));

  it('turns a sweep selection into an artifact card and a convergence plot, and an EOS fit into its recorded curve', () => {
    const p = new CanvasProjection();
    p.apply(ev('provenance.call', { id: 'c-1', tool: 'select_converged_settings', args: {}, reasons: {}, context: '', verdicts: [], agent: { role: 'dft' }, startedAt: '', status: 'ok', outputs: [] }));
    p.apply(ev('provenance.artifact', { id: 'a-1', kind: 'table', name: 'converged_settings', creator: 'c-1', inputs: [], concerns: [], status: 'final', contentHash: 'x', createdAt: '',
      value: { parameter: 'ecutwfc', tested: [{ value: 20, energyEvPerAtom: 0, deltaMevPerAtom: 4 }, { value: 30, energyEvPerAtom: 0, deltaMevPerAtom: 0.5 }, { value: 40, energyEvPerAtom: 0, deltaMevPerAtom: 0 }], chosenValue: 30, toleranceMevPerAtom: 1, chosen: {}, converged: true } }));
    p.apply(ev('provenance.artifact', { id: 'a-2', kind: 'table', name: 'eos_fit', creator: 'c-1', inputs: [], concerns: [], status: 'final', contentHash: 'y', createdAt: '',
      value: { form: 'birch-murnaghan', v0Angstrom3: 16.5, e0Ev: -57, b0GPa: 78, b0Prime: 4.5, points: [{ volumeAngstrom3: 15.5, energyEv: -56.98 }, { volumeAngstrom3: 17.5, energyEv: -56.98 }] } }));
    const conv = p.cell('artifacts/a-1')!;
    assert.equal(conv.kind, 'artifact');
    const plot = conv.outputs!.find((o) => o.mime === CANVAS_MIME.plot)!.data as { kind: string; chosen: number; unit: string; thresholdMeVPerAtom: number };
    assert.deepEqual([plot.kind, plot.chosen, plot.unit, plot.thresholdMeVPerAtom], ['convergence', 30, 'Ry', 1]);
    const eos = p.cell('artifacts/a-2')!.outputs!.find((o) => o.mime === CANVAS_MIME.plot)!.data as { fit: { curve: { volumeA3: number; energyEv: number }[] } };
    const atV0 = eos.fit.curve.reduce((best, c) => (Math.abs(c.volumeA3 - 16.5) < Math.abs(best.volumeA3 - 16.5) ? c : best));
    assert.ok(Math.abs(atV0.energyEv - -57) < 1e-3, `the curve's minimum region is at E0: ${atV0.energyEv}`);
    assert.ok(eos.fit.curve.every((c) => c.energyEv >= -57 - 1e-9), 'no point of a BM curve lies below E0');
  });

  it('updates an approval cell in place when answered, and keeps the first answer', () => {
    const p = new CanvasProjection();
    p.apply(ev('approval.request', { id: 'ap-1', call: 'c-1', tool: 'run_pw', verdicts: [{ rule: 'r', level: 'warn', reasons: ['x'] }], provenancePath: [], createdAt: '' }, 'approvals/ap-1'));
    assert.equal(p.pendingApprovals().length, 1);
    assert.deepEqual(p.apply(ev('approval.answer', { id: 'ap-1', decision: 'reject', by: 'user@cli', at: 't1', comment: 'no' }, 'approvals/ap-1')), ['approvals/ap-1']);
    assert.deepEqual(p.apply(ev('approval.answer', { id: 'ap-1', decision: 'approve', by: 'user@vscode', at: 't2' }, 'approvals/ap-1')), []);
    const data = p.cell('approvals/ap-1')!.outputs![0]!.data as { answer: { decision: string; by: string } };
    assert.deepEqual([data.answer.decision, data.answer.by], ['reject', 'user@cli']);
    assert.equal(p.pendingApprovals().length, 0);
    assert.equal(p.cells().length, 1);
  });

  it("updates a report's card when the report judge's verdict arrives after the report", () => {
    const p = new CanvasProjection();
    p.apply(ev('provenance.call', { id: 'c-5', tool: 'write_report', args: {}, reasons: {}, context: '', verdicts: [], agent: { role: 'dft' }, startedAt: '', status: 'ok', outputs: [] }));
    p.apply(ev('provenance.artifact', { id: 'a-9', kind: 'file', name: 'report', creator: 'c-5', inputs: [], concerns: [], status: 'final', contentHash: 'r', createdAt: '', value: { title: 'Lattice constant of Al', claims: [] } }));
    const report = () => p.cell('artifacts/a-9')!.outputs!.find((o) => o.mime === CANVAS_MIME.report)!.data as { verdict?: { level: string; reasons: string[] } };
    assert.equal(report().verdict, undefined, 'not judged yet');
    const changed = p.apply(ev('report.judged', { call: 'c-5', report: 'a-9', level: 'pass', accepted: true, claims: [], summary: 'The report judge accepted report a-9.' }, 'reports/a-9'));
    assert.deepEqual(changed, ['artifacts/a-9']);
    assert.deepEqual(report().verdict, { level: 'pass', reasons: ['The report judge accepted report a-9.'] });
  });

  it('ignores an event it has already applied (a reopen replays the log)', () => {
    const p = new CanvasProjection();
    const e = ev('key.write', { value: 'The k-mesh converged at 12x12x12.', reason: '', version: 1 }, 'notes/kmesh');
    assert.deepEqual(p.apply(e), ['notes/kmesh']);
    assert.deepEqual(p.apply(e), []);
    assert.equal(p.cell('notes/kmesh')!.kind, 'note');
  });
});
