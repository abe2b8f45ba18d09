/** The judges' rule texts, by judge and version. */
import { RULE_TEXTS } from './ruleTexts.generated';
import type { RuleText } from './ruleTextSource';

export type { RuleText } from './ruleTextSource';

/** The newest version of a judge's rule text. */
export function latestRuleText(judge: 'param-judge' | 'cross-judge' | 'report-judge'): RuleText {
  const versions = RULE_TEXTS.filter((t) => t.judge === judge);
  if (versions.length === 0) {
    throw new Error(`no rule text for ${judge}: add src/core/guard/rule-texts/${judge}.v1.md and run scripts/guard/generate-rule-texts.ts`);
  }
  return versions.reduce((a, b) => (b.version > a.version ? b : a));
}
