// The test tiers' mocha reporter: spec in CI, dot at a desk, and a list of what failed,
// written as JSON to $DREAMS_TEST_FAILURES_FILE so scripts/test.mjs can repeat it under the
// summary. A long CI log is often read from its end; the failures must be there too.
const fs = require('node:fs');
const Mocha = require('mocha');

const Base = process.env.CI ? Mocha.reporters.Spec : Mocha.reporters.Dot;

class TierReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on('fail', (test, err) => {
      const message = String((err && (err.message || err)) || 'unknown error').split('\n').slice(0, 6).join('\n').trimEnd();
      failures.push({ title: test.fullTitle(), file: test.file, message: message.slice(0, 1500) });
    });
    runner.once('end', () => {
      const out = process.env.DREAMS_TEST_FAILURES_FILE;
      if (out) fs.writeFileSync(out, JSON.stringify(failures, null, 1));
    });
  }
}

module.exports = TierReporter;
