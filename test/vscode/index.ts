/**
 * Runs inside the VS Code extension host: VS Code calls run() when the workbench is
 * opened with extensionTestsPath in its payload. Every *.vscode.test.js bundled next
 * to this file is a suite. Results also go to $DREAMS_TEST_RESULT as JSON, so the
 * driver outside VS Code can report each test.
 */
import fs from 'node:fs';
import path from 'node:path';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  durationMs?: number;
  error?: string;
}

export function run(): Promise<void> {
  // mocha 12 is an ES module: require() of it yields its namespace.
  const loaded = require('mocha') as { default?: typeof import('mocha') } & typeof import('mocha');
  const Mocha = loaded.default ?? loaded;
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: 'spec' });
  if (process.env.DREAMS_TEST_GREP) mocha.grep(process.env.DREAMS_TEST_GREP);
  const suites = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.vscode.test.js'))
    .sort();
  for (const f of suites) mocha.addFile(path.join(__dirname, f));
  const results: TestResult[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (process.env.DREAMS_TEST_RESULT) {
        fs.writeFileSync(process.env.DREAMS_TEST_RESULT, JSON.stringify({ suites, failures, results }, null, 1));
      }
      if (failures > 0) reject(new Error(`${failures} test(s) failed inside VS Code`));
      else if (results.length === 0) reject(new Error('no tests ran inside VS Code'));
      else resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err: Error) =>
      results.push({ title: t.fullTitle(), state: 'failed', error: `${err.message}\n${err.stack ?? ''}` }),
    );
  });
}
