import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumTmpFits, launchChromium } from '../harness/chromium';

// The code-server host hands Chromium a TMPDIR inside the clone; a clone at a long path once made
// Chromium stop at launch ("Socket path too long" for its singleton socket) on every attempt.
describe('launching the test browser (e2e)', () => {
  const deep = path.join(os.tmpdir(), 'dreams-long-tmpdir', 'x'.repeat(90));
  before(() => fs.mkdirSync(deep, { recursive: true }));
  after(() => fs.rmSync(path.join(os.tmpdir(), 'dreams-long-tmpdir'), { recursive: true, force: true }));

  it('starts when the TMPDIR it is given is too long for a socket path, and removes the short one it made', async () => {
    assert.equal(chromiumTmpFits(deep), false, 'the directory must be too long for the test to mean anything');
    const before = fs.readdirSync('/tmp').filter((f) => f.startsWith('dreams-chromium-'));
    const browser = await launchChromium({ env: { ...process.env, TMPDIR: deep }, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      assert.equal(await page.evaluate(() => 6 * 7), 42);
    } finally {
      await browser.close();
    }
    const after = fs.readdirSync('/tmp').filter((f) => f.startsWith('dreams-chromium-'));
    assert.deepEqual(after, before);
  });
});
