// `dreams resume` on a disk that is still full (a real one: a small tmpfs filled to the last
// byte; mounting it needs root, as CI runs): it says the disk is full and what to do, leaves
// no file behind (no half-made lock), and changes nothing in the run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunController } from '../../../../src/core/run/controller';
import { resumeCommand } from '../../../../src/cli/commands/resume';
import { emtSearchSettings } from '../../core/workflows/support/adsorptionSearch';

function du(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? du(p) + 4096 : Math.ceil(fs.statSync(p).size / 4096) * 4096;
  }
  return n;
}

/** Fill the file system holding `dir` until a write fails with ENOSPC. */
function fill(dir: string): void {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  // the last bytes a smaller write still takes
  const small = fs.openSync(path.join(dir, 'filler2'), 'w');
  try {
    for (;;) fs.writeSync(small, Buffer.alloc(1, 1));
  } catch {
    // full to the byte
  } finally {
    fs.closeSync(small);
  }
}

describe('dreams resume on a full disk', function () {
  this.timeout(120_000);
  let root: string;
  let mount: string;

  before(() => {
    if (process.getuid?.() !== 0) throw new Error('this test mounts a small tmpfs to fill it, which needs root (CI runs as root)');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-diskfull-'));
    mount = path.join(root, 'full');
    fs.mkdirSync(mount);
  });
  after(() => {
    try {
      execFileSync('umount', [mount]);
    } catch {
      // not mounted
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('says the disk is full and what to do, leaves no lock file, and changes nothing', async () => {
    const c = await RunController.start({
      runsDir: path.join(root, 'made'),
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' }),
    });
    assert.equal((await c.run()).state, 'completed');
    const made = c.runDir;
    await c.close();
    // The run as a crash left it: its last events (the end of the search and the report) never written.
    const log = path.join(made, 'events.jsonl');
    const lines = fs.readFileSync(log, 'utf8').split(/(?<=\n)/);
    const searchEnd = lines.findIndex((l) => l.includes('"kind":"provenance.call.end"') && l.includes('"c-6"'));
    fs.writeFileSync(log, lines.slice(0, searchEnd > 0 ? searchEnd : lines.length - 10).join(''));

    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${du(made) + 256 * 1024}`, 'tmpfs', mount]);
    const dir = path.join(mount, path.basename(made));
    fs.cpSync(made, dir, { recursive: true });
    fill(mount);
    const before = fs.readFileSync(path.join(dir, 'events.jsonl'));
    const listing = fs.readdirSync(dir).sort();

    const errors: string[] = [];
    const orig = console.error;
    console.error = (...a: unknown[]) => {
      errors.push(a.join(' '));
    };
    let message = '';
    try {
      const code = await resumeCommand([dir, '--no-bundle', '--log-level', 'off']);
      message = errors.join('\n');
      assert.notEqual(code, 0);
    } catch (e) {
      message = `${errors.join('\n')}\n${(e as Error).message}`;
    } finally {
      console.error = orig;
    }
    assert.match(message, /the disk is full \(ENOSPC\)/, message);
    assert.match(message, /Free space on the disk that holds .*, then try again/, message);
    assert.deepEqual(fs.readdirSync(dir).sort(), listing, 'no lock (or half-made lock) file is left behind');
    assert.deepEqual(fs.readFileSync(path.join(dir, 'events.jsonl')), before, 'the log is unchanged');
  });
});
