import assert from 'node:assert/strict';
import fs from 'node:fs';
import { GENERATED, readRuleTexts } from '../../../../../scripts/guard/generate-rule-texts';
import { renderGeneratedModule, ruleTextFromFile } from '../../../../../src/core/guard/rule-texts/ruleTextSource';
import { latestRuleText } from '../../../../../src/core/guard/rule-texts';

describe('judge rule texts', () => {
  it('the embedded module matches the versioned files (run scripts/guard/generate-rule-texts.ts after editing them)', () => {
    assert.equal(fs.readFileSync(GENERATED, 'utf8'), renderGeneratedModule(readRuleTexts()));
  });
  it('every judge has a rule text, identified by judge and version', () => {
    for (const judge of ['param-judge', 'cross-judge', 'report-judge'] as const) {
      const t = latestRuleText(judge);
      assert.equal(t.id, `${judge}@${t.version}`);
      assert.ok(t.text.length > 200);
    }
  });
  it('names versions by file', () => {
    assert.deepEqual(ruleTextFromFile('param-judge.v12.md', 'x'), { judge: 'param-judge', version: 12, id: 'param-judge@12', text: 'x' });
    assert.equal(ruleTextFromFile('notes.md', 'x'), undefined);
  });
});
