import assert from 'node:assert/strict';
import { countVerdicts, verdictLabel, verdictLine } from '../../../../src/core/guard/verdictSummary';
import type { Verdict } from '../../../../src/core/guard/types';

const v = (over: Partial<Verdict>): Verdict => ({
  tier: 'tier2',
  rule: 'param-judge@1',
  level: 'pass',
  reasons: ['x'],
  judged: true,
  ...over,
});

describe('verdict summary', () => {
  it('never shows an unjudged or failed judge as a pass', () => {
    assert.equal(verdictLabel(v({ judged: false })), 'not judged');
    assert.equal(verdictLabel(v({ judged: false, infraError: 'timeout' })), 'judge unavailable');
    assert.equal(verdictLabel(v({ level: 'warn' })), 'warn');
  });
  it('counts infrastructure errors and unjudged tiers apart from scientific verdicts', () => {
    const vs = [
      v({}),
      v({ tier: 'tier1', rule: 'units-match' }),
      v({ level: 'warn' }),
      v({ judged: false }),
      v({ judged: false, infraError: 'overloaded' }),
    ];
    assert.deepEqual(countVerdicts(vs), { pass: 2, warn: 1, fail: 0, notJudged: 1, judgeUnavailable: 1 });
    assert.equal(verdictLine(vs), '2 pass, 1 warn · 1 not judged · 1 judge unavailable');
  });
});
