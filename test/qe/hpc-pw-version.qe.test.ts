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
    const before = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('dreams-pw-version-'));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const version = await probeLocalPwVersion('pw.x');
    clearInterval(timer);
    assert.equal(version, localPwVersion('pw.x'));
    assert.match(version ?? '', /^6\.7/);
    assert.ok(ticks > 0, 'the event loop ran while pw.x started');
    assert.deepEqual(
      fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('dreams-pw-version-')),
      before,
      'its scratch directory is removed',
    );
    assert.equal(await probeLocalPwVersion('no-such-pw.x'), undefined);
    assert.equal(await probeLocalPwVersion('pw.x | tee out'), undefined);
  });
});
