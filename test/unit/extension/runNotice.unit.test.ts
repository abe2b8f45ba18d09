// What the user is told when a run from an objective cell ends: the level and the words of
// the notification (shown through VS Code by the controller; see test/vscode/controller and
// the e2e flows for the real notifications).
import assert from 'node:assert/strict';
import { runErrorNotice, runOutcomeNotice } from '../../../src/extension/runNotice';

describe('run outcome notices', () => {
  const run = { runId: '20261201-0630-al', summary: 'a = 4.04 Å\nthe report judge accepted report a-31' };

  it('says how the run ended, at the level that matches', () => {
    assert.deepEqual(runOutcomeNotice({ ...run, state: 'completed' }, 'al.dreams'), {
      level: 'info',
      message: 'DREAMS run 20261201-0630-al (al.dreams) completed: a = 4.04 Å.',
    });
    const failed = runOutcomeNotice(
      { ...run, state: 'failed', summary: 'step run-eos failed: job dreams-1 failed: No space left on device' },
      'al.dreams',
    )!;
    assert.equal(failed.level, 'error');
    assert.match(
      failed.message,
      /^DREAMS run 20261201-0630-al \(al\.dreams\) failed: step run-eos failed: job dreams-1 failed: No space left on device\. /,
    );
    assert.match(failed.message, /log keeps everything done so far/);
    const stopped = runOutcomeNotice({ ...run, state: 'stopped', summary: 'the job budget (20) is spent' }, 'al.dreams')!;
    assert.equal(stopped.level, 'warning');
    assert.match(stopped.message, /stopped: the job budget \(20\) is spent\. Run the objective cell again to continue it\.$/);
  });

  it('says nothing for a run the user paused or that waits on them in the notebook', () => {
    assert.equal(runOutcomeNotice({ ...run, state: 'paused' }, 'al.dreams'), undefined);
    assert.equal(runOutcomeNotice({ ...run, state: 'waiting-approval' }, 'al.dreams'), undefined);
  });

  it('keeps a notification short: the first line, cut at 240 characters; an empty summary ends the sentence', () => {
    const long = runOutcomeNotice({ ...run, state: 'failed', summary: `${'x'.repeat(500)}\nsecond line` }, 'c.dreams')!;
    assert.ok(long.message.includes(`${'x'.repeat(239)}…`));
    assert.ok(!long.message.includes('x'.repeat(240)));
    assert.ok(!long.message.includes('second line'));
    assert.equal(
      runOutcomeNotice({ ...run, state: 'completed', summary: '  ' }, 'c.dreams')!.message,
      'DREAMS run 20261201-0630-al (c.dreams) completed.',
    );
    assert.deepEqual(runErrorNotice('No Anthropic API key: run "DREAMS: Set API Key"\nmore', 'c.dreams'), {
      level: 'error',
      message: 'DREAMS (c.dreams): No Anthropic API key: run "DREAMS: Set API Key"',
    });
  });
});
