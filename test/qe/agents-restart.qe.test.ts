// Pause and resume, a budget stop, and a process killed mid-run and resumed by another,
// on the offline lattice-constant run with real pw.x: the run's state lives in its event
// log, jobs running at a stop are picked up rather than resubmitted, and nothing is redone.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RunController } from '../../src/core/run/controller';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { JobRecord } from '../../src/core/hpc/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import { jobIdForCall } from '../../src/core/tools/runPw';
import { freshDir, leanSettings, PSEUDO_DIR, writeLeanObjectiveFile } from '../fixtures/agents/scriptedLattice';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const readEvents = (runDir: string): CanvasEvent[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as CanvasEvent);
const jobStates = (events: CanvasEvent[]) => {
  const last = new Map<string, JobRecord>();
  for (const e of events) if (e.kind === 'job.transition') last.set((e.payload as JobRecord).id, e.payload as JobRecord);
  return [...last.values()];
};
const runPwCalls = (events: CanvasEvent[]) =>
  events
    .filter((e) => e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === 'run_pw')
    .map((e) => (e.payload as ToolCallRecord).id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dreams(args: string[], cwd: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    child.on('exit', (status) => resolve({ status, stdout }));
  });
}

/** Calls whose result is an earlier identical run's, reused without a job of their own. */
const reusingCalls = (events: CanvasEvent[]) =>
  new Set(
    events
      .filter((e) => e.kind === 'provenance.artifact')
      .map((e) => e.payload as ArtifactRecord)
      .filter((a) => a.name === 'total_energy' && (a.meta as { reusedFrom?: unknown } | undefined)?.reusedFrom)
      .map((a) => a.creator),
  );

/** No job was created twice, and every run_pw call has its own job, but for those that reused an identical earlier run. */
function assertNoDuplicateJobs(events: CanvasEvent[]): void {
  const drafts = events
    .filter((e) => e.kind === 'job.transition' && (e.payload as JobRecord).state === 'draft')
    .map((e) => (e.payload as JobRecord).id);
  assert.equal(new Set(drafts).size, drafts.length, 'a job was created twice');
  const jobs = jobStates(events);
  const runId = (events.find((e) => e.kind === 'run.start')!.payload as { runId: string }).runId;
  const reusing = reusingCalls(events);
  assert.equal(reusing.size, 2, "the k sweep's run at the cutoff sweep's spacing and the EOS middle point reuse earlier runs");
  assert.deepEqual(
    jobs.map((j) => j.id).sort(),
    runPwCalls(events)
      .filter((c) => !reusing.has(c))
      .map((c) => jobIdForCall(runId, c))
      .sort(),
  );
}

describe('pause, budget stop and restart of a run (offline, real pw.x)', function () {
  this.timeout(600_000);
  let dir: string;
  let objective: string;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    dir = freshDir('dreams-restart-');
    objective = writeLeanObjectiveFile(dir);
  });

  it('pause lets the job in flight finish, holds the run, and unpause continues it to the end', async () => {
    const controller = await RunController.start({ runsDir: path.join(dir, 'pause'), settings: leanSettings(true) });
    const log = controller.session.run.log;
    let pausedAt: string | undefined;
    const off = log.subscribe((e) => {
      if (!pausedAt && e.kind === 'job.transition' && (e.payload as JobRecord).state === 'running') {
        pausedAt = (e.payload as JobRecord).id;
        controller.pause();
      }
    });
    const done = controller.run();
    while (controller.progress().state !== 'paused') await sleep(50);
    off();
    const atPause = log.events().length;
    const paused = log
      .events()
      .filter((e) => e.kind === 'run.state')
      .at(-1)!;
    const inFlight = jobStates([...log.events()]).find((j) => j.id === pausedAt)!;
    assert.equal(inFlight.state, 'completed', 'the job in flight finished before the run paused');
    assert.ok(
      log
        .events()
        .some((e) => e.kind === 'provenance.call.end' && e.seq < paused.seq && (e.payload as { id: string }).id === inFlight.call),
      'its tool call ended first',
    );
    await sleep(1500);
    assert.equal(log.events().length, atPause, 'nothing happens while paused');
    controller.unpause();
    const result = await done;
    await controller.close();
    assert.equal(result.state, 'completed', result.reason);
    const events = readEvents(controller.runDir);
    assert.ok(events.some((e) => e.kind === 'run.state' && (e.payload as { state: string; reason?: string }).reason === 'resumed'));
    assertNoDuplicateJobs(events);
  });

  it('a job budget stops the run cleanly; resume with a higher limit finishes without redoing a job', async () => {
    const runs = path.join(dir, 'budget');
    const first = await dreams(
      ['run', objective, '--offline', '--runs-dir', runs, '--pseudo-dir', PSEUDO_DIR, '--budget', 'jobs=6', '--no-bundle'],
      dir,
    );
    assert.equal(first.status, 3, first.stdout);
    assert.match(first.stdout, /STOPPED: budget reached: pw\.x jobs spent 6 jobs of the 6 jobs limit/);
    assert.match(first.stdout, /Resume with: dreams resume .* --budget/);
    const runDir = path.join(runs, fs.readdirSync(runs)[0]!);
    const stopped = readEvents(runDir);
    assert.equal(jobStates(stopped).length, 6);
    assert.ok(
      jobStates(stopped).every((j) => j.state === 'completed'),
      'the run stopped between jobs',
    );
    const second = await dreams(['resume', path.basename(runDir), '--runs-dir', runs, '--budget', 'jobs=100', '--no-bundle'], dir);
    assert.equal(second.status, 0, second.stdout);
    const events = readEvents(runDir);
    assertNoDuplicateJobs(events);
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    assert.equal(judged.accepted, true);
  });

  it('a process killed mid-job is resumed by another process: the running job is picked up, not resubmitted', async () => {
    const runs = path.join(dir, 'killed');
    const child = spawn(
      process.execPath,
      [cli, 'run', objective, '--offline', '--runs-dir', runs, '--pseudo-dir', PSEUDO_DIR, '--no-bundle'],
      { cwd: dir, env: { ...process.env, ANTHROPIC_API_KEY: '' }, stdio: 'ignore' },
    );
    let runDir: string | undefined;
    let inFlight: JobRecord | undefined;
    for (let i = 0; i < 1200 && !inFlight; i++) {
      await sleep(25);
      if (!runDir && fs.existsSync(runs)) runDir = fs.readdirSync(runs).map((d) => path.join(runs, d))[0];
      if (!runDir || !fs.existsSync(path.join(runDir, 'events.jsonl'))) continue;
      const jobs = jobStates(readEvents(runDir));
      if (jobs.filter((j) => j.state === 'completed').length >= 3) inFlight = jobs.find((j) => j.state === 'running');
    }
    assert.ok(runDir && inFlight, 'a job was running after three had completed');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const atKill = readEvents(runDir);
    assert.equal(atKill.filter((e) => e.kind === 'provenance.call' && (e.payload as ToolCallRecord).id === inFlight.call).length, 1);
    assert.ok(
      !atKill.some((e) => e.kind === 'provenance.call.end' && (e.payload as { id: string }).id === inFlight!.call),
      'its call was still open when the process died',
    );

    const resumed = await dreams(['resume', path.basename(runDir), '--runs-dir', runs, '--no-bundle'], dir);
    assert.equal(resumed.status, 0, resumed.stdout);
    const events = readEvents(runDir);
    const recovered = events.find((e) => e.kind === 'run.recovered')!.payload as {
      reattached: string[];
      failed: string[];
      finished?: string[];
    };
    // Every run_pw call the dead process left open is picked up: the one whose job was running, and any whose job was still queued.
    // One whose results were registered just before the kill (its end not yet written) is ended as finished, not run again.
    const ended = new Set(atKill.filter((e) => e.kind === 'provenance.call.end').map((e) => (e.payload as { id: string }).id));
    const open = atKill
      .filter(
        (e) =>
          e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === 'run_pw' && !ended.has((e.payload as ToolCallRecord).id),
      )
      .map((e) => (e.payload as ToolCallRecord).id);
    const finished = recovered.finished ?? [];
    for (const id of finished) {
      assert.ok(
        atKill.some((e) => e.kind === 'provenance.artifact' && (e.payload as { creator: string }).creator === id),
        `${id} was ended as finished without results on record`,
      );
    }
    assert.ok(recovered.reattached.includes(inFlight.call!));
    assert.deepEqual([...recovered.reattached, ...finished].sort(), open.sort());
    assert.deepEqual(recovered.failed, []);
    assertNoDuplicateJobs(events);
    const end = events.find((e) => e.kind === 'provenance.call.end' && (e.payload as { id: string }).id === inFlight!.call)!.payload as {
      status: string;
    };
    assert.equal(end.status, 'ok');
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    assert.equal(judged.accepted, true);
  });
});
