// The outcome a job records from pw.x's output, and from the CRASH file beside it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCrashBeside, readPwOutcome } from '../../../../../src/core/dft/qe/jobFacts';
import { FIXTURES } from './fixtures';

const run = (name: string) => fs.readFileSync(path.join(FIXTURES, 'runs', name), 'utf8');

describe('pw.x job outcome', () => {
  it("takes pw.x's error from the CRASH file in the job directory when the output was cut before it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-outcome-'));
    try {
      const out = path.join(dir, 'pw.out');
      const cut = run('al-missing-pseudo.out').split('\n').slice(0, 10).join('\n');
      fs.writeFileSync(out, cut);
      assert.equal(readCrashBeside(out), undefined);
      assert.equal(readPwOutcome(cut, readCrashBeside(out)).error, undefined);
      fs.writeFileSync(path.join(dir, 'CRASH'), run('al-missing-pseudo.CRASH'));
      const outcome = readPwOutcome(cut, readCrashBeside(out));
      assert.equal(outcome.jobDone, false);
      assert.match(
        outcome.error ?? '',
        /^Error in routine readpp \(1\):\nfile \/usr\/share\/espresso\/pseudo\/Al\.no-such-file\.UPF not found$/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
