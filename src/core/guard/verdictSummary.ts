/**
 * How verdicts read to a person: a model tier that did not look is "not judged" (never a
 * pass), a judge that failed is "judge unavailable", and both are counted apart from the
 * scientific verdicts.
 */
import type { Verdict } from './types';

export type VerdictLabel = 'pass' | 'warn' | 'fail' | 'not judged' | 'judge unavailable';

export function verdictLabel(v: Verdict): VerdictLabel {
  if (v.infraError) return 'judge unavailable';
  if (!v.judged) return 'not judged';
  return v.level;
}

export interface VerdictCounts {
  pass: number;
  warn: number;
  fail: number;
  notJudged: number;
  judgeUnavailable: number;
}

export function countVerdicts(verdicts: readonly Verdict[]): VerdictCounts {
  const c: VerdictCounts = { pass: 0, warn: 0, fail: 0, notJudged: 0, judgeUnavailable: 0 };
  for (const v of verdicts) {
    const l = verdictLabel(v);
    if (l === 'not judged') c.notJudged++;
    else if (l === 'judge unavailable') c.judgeUnavailable++;
    else c[l]++;
  }
  return c;
}

/** One line for a call's verdicts: "3 pass, 1 warn · 4 not judged · 1 judge unavailable". */
export function verdictLine(verdicts: readonly Verdict[]): string {
  const c = countVerdicts(verdicts);
  const scientific =
    [c.pass && `${c.pass} pass`, c.warn && `${c.warn} warn`, c.fail && `${c.fail} fail`].filter(Boolean).join(', ') || 'no verdicts';
  return [scientific, c.notJudged && `${c.notJudged} not judged`, c.judgeUnavailable && `${c.judgeUnavailable} judge unavailable`]
    .filter(Boolean)
    .join(' · ');
}
