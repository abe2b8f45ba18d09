import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import type { ApprovalCardData } from '../../../../src/shared/canvasOutputs';

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;

describe('canvas projection: approvals closed as superseded', () => {
  it('shows a closed request with why, no longer waiting for an answer, and leaves an answered one as answered', () => {
    seq = 0;
    const p = new CanvasProjection();
    const request = (id: string, call: string) =>
      ev(
        'approval.request',
        {
          id,
          call,
          tool: 'select_converged_settings',
          verdicts: [{ rule: 'cross-judge@1', level: 'warn', reasons: ['provisional'] }],
          provenancePath: [],
          createdAt: '',
        },
        `approvals/${id}`,
      );
    p.apply(request('ap-1', 'c-9'));
    p.apply(request('ap-2', 'c-12'));
    assert.deepEqual(
      p.apply(
        ev(
          'approval.closed',
          { id: 'ap-1', reason: 'superseded: step cutoff-choice ran again and c-20 made a-41', supersededBy: 'c-20', at: 't1' },
          'approvals/ap-1',
        ),
      ),
      ['approvals/ap-1'],
    );
    const cell = p.cell('approvals/ap-1')!;
    assert.match(
      cell.text,
      /Approval ap-1: select_converged_settings — closed, superseded: step cutoff-choice ran again and c-20 made a-41/,
    );
    assert.deepEqual((cell.outputs![0]!.data as ApprovalCardData).closed, {
      reason: 'superseded: step cutoff-choice ran again and c-20 made a-41',
      supersededBy: 'c-20',
      at: 't1',
    });
    assert.deepEqual(
      p.pendingApprovals().map((r) => r.id),
      ['ap-2'],
    );
    p.apply(ev('approval.answer', { id: 'ap-2', decision: 'approve', by: 'user@vscode', at: 't2' }, 'approvals/ap-2'));
    assert.deepEqual(
      p.apply(ev('approval.closed', { id: 'ap-2', reason: 'superseded', at: 't3' }, 'approvals/ap-2')),
      [],
      'an answered request stays answered',
    );
  });
});
