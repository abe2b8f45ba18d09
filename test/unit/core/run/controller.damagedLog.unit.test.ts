// Resuming a run whose log is damaged, through the run controller itself (the route of
// `dreams resume`, a canvas cell run again in VS Code and dreams_resume_run over MCP): what a
// crash leaves (a torn last line) is cut after a copy and the run goes on; damage with lines
// after it (a changed byte, a deleted line) is refused with its line and what to do, and the
// log is left byte for byte, unless the caller asked for the cut.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EventLogError } from '../../../../src/core/canvas/eventLogError';
import { RunController } from '../../../../src/core/run/controller';
import { openRun, setRunState } from '../../../../src/core/run/directory';
import { emtSearchSettings, freshDir } from '../workflows/support/adsorptionSearch';

async function runWithEvents(): Promise<string> {
  const c = await RunController.start({
    runsDir: freshDir('dreams-resume-damaged-'),
    settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [2, 2], layers: 2 } }, adsorbate: 'CO' }),
  });
  const dir = c.runDir;
  await c.close();
  const run = await openRun(dir, { mode: 'writer' });
  for (const reason of ['first', 'second', 'third']) await setRunState(run, 'stopped', `stopped ${reason}`);
  await run.close();
  return dir;
}

const logOf = (dir: string) => path.join(dir, 'events.jsonl');
const backups = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('events.damaged-'));

/** Change one byte inside the run.state event that says `stopped second`, so its checksum fails. */
function flipMidLog(dir: string): number {
  const lines = fs.readFileSync(logOf(dir), 'utf8').split(/(?<=\n)/);
  const i = lines.findIndex((l) => l.includes('stopped second'));
  assert.ok(i > 0 && i < lines.length - 1, 'a line with good lines after it');
  lines[i] = lines[i]!.replace('stopped second', 'stopped secomd');
  fs.writeFileSync(logOf(dir), lines.join(''));
  return i + 1;
}

describe('resuming a run whose log is damaged (run controller)', function () {
  this.timeout(60_000);

  it('refuses damage with good-looking lines after it, naming the line and what to do, and changes nothing', async () => {
    const dir = await runWithEvents();
    const line = flipMidLog(dir);
    const before = fs.readFileSync(logOf(dir));
    await assert.rejects(RunController.resume(dir, {}), (e: unknown) => {
      assert.ok(e instanceof EventLogError, String(e));
      assert.equal(e.code, 'damaged');
      assert.match(e.message, new RegExp(`damaged at line ${line}\\b`));
      assert.match(e.message, /Nothing was changed/);
      assert.match(e.message, /Restore events\.jsonl from a copy.*--cut-damaged/s);
      return true;
    });
    assert.deepEqual(fs.readFileSync(logOf(dir)), before, 'the log is byte for byte as it was');
    assert.deepEqual(backups(dir), [], 'no copy made, nothing cut');
    assert.equal(fs.existsSync(path.join(dir, 'events.lock')), false, 'no lock left');
  });

  it('cuts a torn last line (what a crash leaves) after a copy, and goes on', async () => {
    const dir = await runWithEvents();
    fs.appendFileSync(logOf(dir), '{"v":1,"seq":99,"kind":"run.st');
    const c = await RunController.resume(dir, {});
    try {
      const damage = c.session.run.recovery.damage;
      assert.ok(damage, 'the cut is reported');
      assert.equal(backups(dir).length, 1);
      assert.ok(c.session.run.log.events().some((e) => e.kind === 'run.state'));
    } finally {
      await c.close();
    }
  });

  it('cuts damage with lines after it only when asked (cutDamaged), after a copy of the whole file', async () => {
    const dir = await runWithEvents();
    const line = flipMidLog(dir);
    const before = fs.readFileSync(logOf(dir));
    const c = await RunController.resume(dir, {}, {}, { cutDamaged: true });
    try {
      assert.equal(c.session.run.recovery.damage?.line, line);
      const [copy] = backups(dir);
      assert.ok(copy);
      assert.deepEqual(fs.readFileSync(path.join(dir, copy)), before, 'the copy is the damaged file');
    } finally {
      await c.close();
    }
  });
});
