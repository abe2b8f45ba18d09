import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approveCommand } from '../../../../src/cli/commands/approve';
import { createRun } from '../../../../src/core/run/directory';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { captureConsole as capture } from '../../../fixtures/captureConsole';

describe('dreams approve --list', () => {
  it('shows a request closed because a rerun superseded its result, with the reason, apart from the open ones', async () => {
    const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-approve-list-'));
    const run = await createRun(runs, { objective: 'a lattice constant', slug: 'closed' });
    const book = new ApprovalBook(run.log);
    const warn = {
      tool: 'select_converged_settings',
      verdicts: [{ rule: 'cross-judge@1', level: 'warn' as const, reasons: ['provisional: only 45 Ry meets the tolerance'] }],
      provenancePath: [],
    };
    await book.raise({ ...warn, call: 'c-9' });
    await book.raise({ ...warn, call: 'c-20' });
    await book.close('ap-1', 'superseded: step cutoff-choice ran again and c-20 made a-41', 'c-20');
    const dir = run.dir;
    await run.close();
    const r = await capture(() => approveCommand([dir, '--list']));
    assert.equal(r.code, 0, r.out);
    assert.match(
      r.out,
      /ap-1 {2}c-9 select_converged_settings {2}closed at \S+, superseded: step cutoff-choice ran again and c-20 made a-41/,
    );
    assert.match(r.out, /ap-2 {2}c-20 select_converged_settings {2}OPEN/);
  });
});
