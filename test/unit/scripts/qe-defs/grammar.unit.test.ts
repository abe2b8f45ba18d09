// The TextMate grammar (generated from QE's definitions) against the scope assertions in
// test/grammar/*.pwi, run with vscode-tmgrammar-test on vscode-textmate + oniguruma.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const GRAMMAR = path.join(ROOT, 'syntaxes/qe-input.tmLanguage.json');
const RUNNER = path.join(ROOT, 'node_modules/vscode-tmgrammar-test/dist/unit.js');

function runGrammarTests(glob: string) {
  const r = spawnSync(process.execPath, [RUNNER, '-g', GRAMMAR, glob], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('pw.x input grammar', function () {
  this.timeout(60_000);

  it('passes every scope assertion in test/grammar', () => {
    const files = fs.readdirSync(path.join(ROOT, 'test/grammar')).filter((f) => f.endsWith('.pwi'));
    assert.ok(files.length >= 2);
    const r = runGrammarTests('test/grammar/*.pwi');
    assert.equal(r.status, 0, r.output);
    for (const f of files) assert.match(r.output, new RegExp(`${f.replace('.', '\\.')} run successfuly`));
  });

  it('fails on a wrong assertion (the runner checks what it claims)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-grammar-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'wrong.pwi'),
        '! SYNTAX TEST "source.qe-input" "a misspelt variable is not a known one"\n&SYSTEM\n  ecutwfx = 30\n! ^^^^^^^ variable.parameter.qe-input\n/\n',
      );
      const r = runGrammarTests(path.join(dir, '*.pwi'));
      assert.notEqual(r.status, 0);
      assert.match(r.output, /missing required scopes: variable\.parameter\.qe-input/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
