// The test tiers' mocha reporter: spec in CI, dot at a desk, and a list of what failed,
// written as JSON to $DREAMS_TEST_FAILURES_FILE so scripts/test.mjs can repeat it under the
// summary. A long CI log is often read from its end; the failures must be there too.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const Base = process.env.CI ? Mocha.reporters.Spec : Mocha.reporters.Dot;

class TierReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on('fail', (test, err) => {
      const message = String((err && (err.message || err)) || 'unknown error')
        .split('\n')
        .slice(0, 6)
        .join('\n')
        .trimEnd();
      failures.push({ title: test.fullTitle(), file: test.file, message: message.slice(0, 1500) });
    });
    // Wall time per test file, hooks included (a study run in a before() shows in no test's
    // duration): the slowest are listed at the end, which is where to look when a tier is slow.
    const fileTimes = new Map();
    runner.on('suite', (suite) => {
      if (suite.file && !fileTimes.has(suite.file)) fileTimes.set(suite.file, { start: Date.now(), end: Date.now() });
    });
    runner.on('suite end', (suite) => {
      const t = suite.file && fileTimes.get(suite.file);
      if (t) t.end = Date.now();
    });
    runner.once('end', () => {
      const out = process.env.DREAMS_TEST_FAILURES_FILE;
      if (out) fs.writeFileSync(out, JSON.stringify(failures, null, 1));
      const slow = [...fileTimes]
        .map(([file, t]) => [path.relative(process.cwd(), file), (t.end - t.start) / 1000])
        .filter(([, s]) => s >= 10)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10);
      if (slow.length) {
        console.log('\n  slowest files (wall time, hooks included):');
        for (const [file, s] of slow) console.log(`  ${s.toFixed(1).padStart(8)} s  ${file}`);
      }
    });
  }
}

module.exports = TierReporter;
