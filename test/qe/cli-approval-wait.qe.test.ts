// `dreams run --approval wait` through the built CLI: a guard warning holds the call and the
// process stays alive, saying what to answer; killed while it waits, the run is resumed and
// the held call is picked up — answered meanwhile it goes on, still unanswered it waits again —
// and the run completes with no call made twice. The waiting call is an EMT relaxation of the
// AdsMind search (seconds): what is tested is the process and the resume, not the calculator.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ToolCallRecord } from '../../src/core/provenance/types';
import { looseSearchObjective } from '../fixtures/adsorption/looseSearch';
import { freshDir } from '../fixtures/agents/scriptedLattice';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');

/** Relaxations stopped at 0.2 eV/Å, looser than the search's 0.10: the guard warns on each. */
const LOOSE_SEARCH = `${looseSearchObjective()}\n`;

interface Running {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
  exitCode: () => number | null | undefined;
}

function start(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  let out = '';
  let code: number | null | undefined;
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (c) => r((code = c))));
  return { child, out: () => out, exit, exitCode: () => code };
}

const events = (runDir: string): CanvasEvent[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as CanvasEvent);

async function until(what: string, ok: () => boolean, r: Running, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (r.exitCode() !== undefined) throw new Error(`the process ended (exit ${r.exitCode()}) before ${what}:\n${r.out()}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${r.out()}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const waitingFor = (runDir: string, id: string) => () => {
  const states = events(runDir)
    .filter((e) => e.kind === 'run.state')
    .map((e) => e.payload as { state: string; reason?: string });
  const last = states.at(-1);
  return last?.state === 'waiting-approval' && (last.reason ?? '').includes(id);
};

function cliSync(args: string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('dreams run --approval wait (built CLI)', function () {
  this.timeout(300_000);
  let dir: string;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    dir = freshDir('dreams-approval-wait-');
    fs.writeFileSync(path.join(dir, 'loose.yaml'), LOOSE_SEARCH);
  });

  it('stays alive while a call waits for its approval; killed there, a resume picks the held call up, answered or not, and completes', async () => {
    const runs = path.join(dir, 'runs');
    const run = start(['run', 'loose.yaml', '--offline', '--approval', 'wait', '--runs-dir', runs, '--no-bundle'], dir);
    await until(
      'a run directory',
      () =>
        fs.existsSync(runs) && fs.readdirSync(runs).length > 0 && fs.existsSync(path.join(runs, fs.readdirSync(runs)[0]!, 'events.jsonl')),
      run,
    );
    const runDir = path.join(runs, fs.readdirSync(runs)[0]!);
    await until('the run to wait for ap-1', waitingFor(runDir, 'ap-1'), run);
    // the process waits: it neither exits nor reports an end
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(run.exitCode(), undefined, `the run process ended while it waited for ap-1:\n${run.out()}`);
    assert.match(run.out(), /run waiting-approval: waiting for an answer to ap-1/);
    assert.match(run.out(), /dreams approve \S+ ap-1/);
    assert.doesNotMatch(run.out(), /COMPLETED/);
    const held = (events(runDir).find((e) => e.kind === 'approval.request')!.payload as { call: string }).call;

    // the terminal is closed while it waits; the warning is approved with no run process alive
    run.child.kill('SIGKILL');
    await run.exit;
    const approved = cliSync(['approve', runDir, 'ap-1', '--comment', 'a quick look; forces are loose on purpose'], dir);
    assert.equal(approved.status, 0, approved.out);

    // the resume takes the held call up again under its own id, and runs on to the next warning
    const resumed = start(['resume', runDir, '--no-bundle'], dir);
    await until('the resumed run to wait for ap-2', waitingFor(runDir, 'ap-2'), resumed);
    const recovered = events(runDir)
      .filter((e) => e.kind === 'run.recovered')
      .at(-1)!.payload as { reattached: string[]; failed: string[] };
    assert.deepEqual(recovered, { reattached: [held], failed: [] });
    resumed.child.kill('SIGKILL');
    await resumed.exit;

    // resumed again before anyone answered: the held call waits again, and says so
    const again = start(['resume', runDir, '--no-bundle'], dir);
    await until(
      'the run to wait again for ap-2',
      () => waitingFor(runDir, 'ap-2')() && /held when the run stopped/.test(again.out()),
      again,
    );
    assert.match(again.out(), /dreams approve \S+ ap-2/);
    const answered = cliSync(['approve', runDir, 'ap-2', '--all-like-this'], dir);
    assert.equal(answered.status, 0, answered.out);
    assert.equal(await again.exit, 0, again.out());
    assert.match(again.out(), /COMPLETED/);

    const all = events(runDir);
    const calls = all.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);
    const ends = new Map(
      all
        .filter((e) => e.kind === 'provenance.call.end')
        .map((e) => [(e.payload as { id: string }).id, e.payload as { status: string; error?: string }]),
    );
    const ap2Call = (
      all.find((e) => e.kind === 'approval.request' && (e.payload as { id: string }).id === 'ap-2')!.payload as { call: string }
    ).call;
    for (const id of [held, ap2Call]) assert.equal(ends.get(id)?.status, 'ok', `${id}: ${JSON.stringify(ends.get(id))}`);
    assert.ok(![...ends.values()].some((e) => /interrupted/.test(e.error ?? '')), 'no call was ended as interrupted');
    const steps = calls.filter((c) => c.tool === 'relax_structure' && c.step !== 'search').map((c) => c.step);
    assert.deepEqual(steps.sort(), ['relax-clean', 'relax-gas'], 'each reference relaxation was made once');
    const final = all.filter((e) => e.kind === 'run.state').at(-1)!.payload as { state: string };
    assert.equal(final.state, 'completed');
  });
});
