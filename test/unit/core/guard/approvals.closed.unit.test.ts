import assert from 'node:assert/strict';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { MemoryEventLog } from './support/memoryEventLog';

const draft = {
  call: 'c-9',
  tool: 'select_converged_settings',
  verdicts: [{ rule: 'cross-judge@1', level: 'warn' as const, reasons: ['only the finest value meets the tolerance'] }],
  provenancePath: ['a-30', 'c-9'],
};

describe('approvals closed as superseded', () => {
  it('closes an open request with the reason and the call that took its place: no longer open, and an answer is refused saying why', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft);
    await book.raise({ ...draft, call: 'c-12' });
    const closed = await book.close('ap-1', 'superseded: step cutoff-choice ran again and c-20 made a-41', 'c-20');
    assert.deepEqual([closed!.id, closed!.supersededBy], ['ap-1', 'c-20']);
    assert.deepEqual(log.list.at(-1)!.kind, 'approval.closed');
    assert.equal(log.list.at(-1)!.key, 'approvals/ap-1');
    assert.deepEqual(
      book.pending().map((r) => r.id),
      ['ap-2'],
    );
    const answer = await book.answer('ap-1', 'approve', 'user@cli');
    assert.equal(answer.ok, false);
    assert.match(
      (answer as { message: string }).message,
      /ap-1 was closed without an answer at .*: superseded: step cutoff-choice ran again and c-20 made a-41\. Nothing is left to answer\./,
    );
  });

  it('leaves an answered request as it was', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft);
    await book.answer('ap-1', 'approve', 'user@vscode');
    assert.equal(await book.close('ap-1', 'superseded'), undefined);
    assert.equal(book.closedOf('ap-1'), undefined);
    assert.equal(log.list.filter((e) => e.kind === 'approval.closed').length, 0);
  });
});
