/**
 * Embeds the judges' versioned rule texts (src/core/guard/rule-texts/*.v<n>.md) into
 * ruleTexts.generated.ts.   node --import tsx scripts/guard/generate-rule-texts.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderGeneratedModule, ruleTextFromFile, type RuleText } from '../../src/core/guard/rule-texts/ruleTextSource';

export const RULE_TEXT_DIR = path.resolve(__dirname, '../../src/core/guard/rule-texts');
export const GENERATED = path.join(RULE_TEXT_DIR, 'ruleTexts.generated.ts');

export function readRuleTexts(): RuleText[] {
  return fs
    .readdirSync(RULE_TEXT_DIR)
    .map((f) => ruleTextFromFile(f, fs.readFileSync(path.join(RULE_TEXT_DIR, f), 'utf8')))
    .filter((t): t is RuleText => !!t);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  fs.writeFileSync(GENERATED, renderGeneratedModule(readRuleTexts()));
  console.log(`wrote ${path.relative(process.cwd(), GENERATED)}`);
}
