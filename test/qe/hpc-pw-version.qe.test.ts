// The pw.x version probe starts pw.x without an input; pw.x then stops with an error and
// writes CRASH into its working directory. The probe must not leave that in the user's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localPwVersion, probeLocalPwVersion } from '../../src/core/hpc/pwCommand';

describe('local pw.x version probe', () => {
  it('reads the version from the banner and leaves no file in the working directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-user-project-'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      assert.match(localPwVersion('pw.x') ?? '', /^6\.7/);
      assert.deepEqual(fs.readdirSync(dir), []);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers undefined for a command that does not run', () => {
    assert.equal(localPwVersion('no-such-pw.x'), undefined);
    assert.equal(localPwVersion('pw.x | tee out'), undefined);
  });

  it('probes the same way without blocking: the version, no file left, undefined for a command that does not run', async () => {
    // The probe's scratch directory goes under the system's temporary directory; this test gives it one of its own,
    // since other studies of the tier probe pw.x at the same time in the shared one.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-probe-tmp-'));
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const version = await probeLocalPwVersion('pw.x');
      clearInterval(timer);
      assert.equal(fs.readdirSync(tmp).length, 0, 'its scratch directory is removed');
      assert.equal(version, localPwVersion('pw.x'));
      assert.match(version ?? '', /^6\.7/);
      assert.ok(ticks > 0, 'the event loop ran while pw.x started');
      assert.equal(await probeLocalPwVersion('no-such-pw.x'), undefined);
      assert.equal(await probeLocalPwVersion('pw.x | tee out'), undefined);
      assert.deepEqual(fs.readdirSync(tmp), [], 'no scratch directory left by any probe');
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
