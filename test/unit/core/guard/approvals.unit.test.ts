import assert from 'node:assert/strict';
import { ApprovalBook, sameConcern, standingNote } from '../../../../src/core/guard/approvals';
import { MemoryEventLog } from './support/memoryEventLog';

const draft = {
  call: 'c-3',
  tool: 'make_pw_input',
  parameter: 'ecutwfcRy',
  value: 25,
  verdicts: [{ rule: 'param-judge@1', level: 'warn' as const, reasons: ['generic reason'] }],
  provenancePath: ['a-2', 'c-2'],
};

describe('approvals', () => {
  it('raises requests as canvas events under approvals/<id>, numbered ap-1, ap-2', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    const a = await book.raise(draft);
    const b = await book.raise({ ...draft, call: 'c-4' });
    assert.deepEqual([a.id, b.id], ['ap-1', 'ap-2']);
    assert.deepEqual(
      log.list.map((e) => [e.kind, e.key]),
      [
        ['approval.request', 'approvals/ap-1'],
        ['approval.request', 'approvals/ap-2'],
      ],
    );
    assert.deepEqual(
      book.pending().map((r) => r.id),
      ['ap-1', 'ap-2'],
    );
  });

  it('records an answer with who gave it, and refuses a second answer naming who answered first and when', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft);
    const first = await book.answer('ap-1', 'approve', 'user@cli', 'the sweep shows 25 Ry is enough');
    assert.equal(first.ok, true);
    const second = await book.answer('ap-1', 'reject', 'user@vscode');
    assert.equal(second.ok, false);
    assert.match(
      (second as { message: string }).message,
      /ap-1 was already answered: approved by user@cli at \d{4}-.*"the sweep shows 25 Ry is enough".*first answer stands/,
    );
    assert.equal(log.list.filter((e) => e.kind === 'approval.answer').length, 1);
    assert.equal(log.list.at(-1)!.actor.id, 'user@cli');
  });

  it('refuses two racing answers but the first', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft);
    const results = await Promise.all([book.answer('ap-1', 'reject', 'user@vscode'), book.answer('ap-1', 'approve', 'user@cli')]);
    assert.deepEqual(
      results.map((r) => r.ok),
      [true, false],
    );
    assert.equal(book.answerOf('ap-1')!.decision, 'reject');
  });

  it('refuses an answer to an unknown request and lists the open ones', async () => {
    const book = new ApprovalBook(new MemoryEventLog());
    await book.raise(draft);
    const r = await book.answer('ap-9', 'approve', 'user@cli');
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /no approval request ap-9.*open requests: ap-1/);
  });

  it('a standing approval answers the open and later requests of the same concern, and no other', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft); // ap-1
    await book.raise({ ...draft, call: 'c-4', tool: 'run_pw' }); // ap-2: same concern from another tool
    await book.raise({ ...draft, call: 'c-5', value: 20 }); // ap-3: another value
    const r = await book.answer('ap-1', 'approve', 'user@vscode', 'loose on purpose', { standing: true });
    assert.ok(r.ok);
    assert.deepEqual(r.alsoApproved, ['ap-2']);
    assert.match(standingNote(r), /stands for later requests of the same concern in this run, and also approved ap-2/);
    assert.deepEqual(
      book.pending().map((x) => x.id),
      ['ap-3'],
    );
    const later = await book.raise({ ...draft, call: 'c-6' }); // ap-4: answered as it is raised
    assert.deepEqual(book.answerOf(later.id), { ...book.answerOf(later.id)!, decision: 'approve', by: 'user@vscode', under: 'ap-1' });
    assert.match(book.answerOf(later.id)!.comment!, /standing approval of ap-1 \(“loose on purpose”\)/);
    assert.equal((await book.waitFor(later.id)).under, 'ap-1', 'a waiting call is released at once');
    assert.deepEqual(
      log.list.filter((e) => e.kind === 'approval.answer').map((e) => e.actor),
      [
        { kind: 'user', id: 'user@vscode' },
        { kind: 'framework', id: 'standing-approval' },
        { kind: 'framework', id: 'standing-approval' },
      ],
    );
    // another rule, or a failed verdict, is not the same concern
    const other = await book.raise({ ...draft, verdicts: [{ rule: 'cutoff-vs-pseudopotential', level: 'warn', reasons: ['r'] }] });
    const failed = await book.raise({ ...draft, verdicts: [...draft.verdicts, { rule: 'units', level: 'fail', reasons: ['r'] }] });
    assert.deepEqual(
      book.pending().map((x) => x.id),
      ['ap-3', other.id, failed.id],
    );
    assert.equal(sameConcern(book.request('ap-1')!, failed), false);
    // the book is a fold: a reopened run applies the same standing approval
    const reopened = new ApprovalBook(new MemoryEventLog([...log.list]));
    assert.equal((await reopened.raise({ ...draft, call: 'c-9' })).id, 'ap-7');
    assert.equal(reopened.answerOf('ap-7')!.under, 'ap-1');
  });

  it('only an approval can stand', async () => {
    const book = new ApprovalBook(new MemoryEventLog());
    await book.raise(draft);
    const r = await book.answer('ap-1', 'reject', 'user@cli', undefined, { standing: true });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /only an approval can stand/);
    assert.equal(book.answerOf('ap-1'), undefined);
  });

  it('is the same after a reopen: the book is a fold over the events', async () => {
    const log = new MemoryEventLog();
    const book = new ApprovalBook(log);
    await book.raise(draft);
    await book.raise(draft);
    await book.answer('ap-2', 'approve', 'policy');
    const reopened = new ApprovalBook(new MemoryEventLog([...log.list]));
    assert.deepEqual(
      reopened.pending().map((r) => r.id),
      ['ap-1'],
    );
    assert.equal(reopened.answerOf('ap-2')!.by, 'policy');
    assert.equal(log.list.at(-1)!.actor.kind, 'framework');
  });

  it('waitFor resolves when the answer arrives, and at once when it already has', async () => {
    const book = new ApprovalBook(new MemoryEventLog());
    await book.raise(draft);
    const waiting = book.waitFor('ap-1');
    await book.answer('ap-1', 'reject', 'user@vscode', 'use the converged cutoff');
    assert.equal((await waiting).comment, 'use the converged cutoff');
    assert.equal((await book.waitFor('ap-1')).decision, 'reject');
  });

  it('waitFor stops with a clear error when the run is cancelled', async () => {
    const book = new ApprovalBook(new MemoryEventLog());
    await book.raise(draft);
    const ac = new AbortController();
    const waiting = book.waitFor('ap-1', ac.signal);
    ac.abort();
    await assert.rejects(waiting, /stopped waiting for approval ap-1: the run was cancelled/);
  });
});

describe('answerApproval', () => {
  it('a rejection of a call that already ran makes its outputs provisional; an approval changes nothing', async () => {
    const { MemoryProvenance } = await import('./support/memoryProvenance');
    const { answerApproval } = await import('../../../../src/core/guard/approvals');
    const p = new MemoryProvenance();
    const [a] = await p.seedCall('fit_eos', { energies: [], form: 'vinet' }, [
      { kind: 'table', name: 'eos_fit', value: { v0Angstrom3: 16.5 } },
    ]);
    const [b] = await p.seedCall('fit_eos', { energies: [], form: 'vinet' }, [
      { kind: 'table', name: 'eos_fit', value: { v0Angstrom3: 16.6 } },
    ]);
    const book = new ApprovalBook(new MemoryEventLog());
    await book.raise({ ...draft, call: a!.creator });
    await book.raise({ ...draft, call: b!.creator });
    const rejected = await answerApproval(book, p, 'ap-1', 'reject', 'user@vscode', 'Vinet is not justified here');
    assert.deepEqual(rejected.madeProvisional, [a!.id]);
    assert.equal(p.artifact(a!.id)!.status, 'provisional');
    assert.match(p.statusLog[0]!.reason, /ap-1 rejected by user@vscode: Vinet is not justified here/);
    await answerApproval(book, p, 'ap-2', 'approve', 'user@cli');
    assert.equal(p.artifact(b!.id)!.status, 'final');
  });
});
