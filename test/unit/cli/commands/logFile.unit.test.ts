// The CLI's side of the logger port: dreams.log in the run directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseLogLevel, runLogFile } from '../../../../src/cli/commands/logFile';

describe('dreams.log (the CLI logger)', () => {
  it('the CLI writes dreams.log in the run directory from the chosen level up, with what came before the directory existed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-log-'));
    try {
      const f = runLogFile(parseLogLevel('info'), ['sk-ant-secret-held-by-cli']);
      f.logger.info('early line');
      f.logger.debug('not at info');
      f.attach(dir);
      f.logger.scoped('jobs').warn('job j-1 (hpc1 #42): running → failed, key sk-ant-secret-held-by-cli');
      const lines = fs.readFileSync(path.join(dir, 'dreams.log'), 'utf8').trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[0]!, /^\d{4}-\d\d-\d\dT\S+Z info  early line$/);
      assert.match(lines[1]!, /warn  \[jobs\] job j-1 \(hpc1 #42\): running → failed, key ‹redacted›$/);
      const off = runLogFile(parseLogLevel('off'));
      off.attach(path.join(dir, 'sub-that-does-not-exist'));
      off.logger.error('nothing written');
      assert.throws(() => parseLogLevel('verbose'), /--log-level must be one of trace, debug, info, warn, error, off \(got "verbose"\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
