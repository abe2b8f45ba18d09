// The lattice-constant workflow offline through `dreams run --cluster` on the loopback SLURM
// cluster (sshd on 127.0.0.1:2222): every pw.x run is a SLURM job, and the result is the
// one the same study gives with pw.x on this machine — also when a job of the cutoff sweep
// is cancelled from outside (scancel), which is repeated unchanged and alone.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { JobRecord } from '../../src/core/hpc/types';
import { freshDir, PSEUDO_DIR, writeLeanObjectiveFile } from '../fixtures/agents/scriptedLattice';
import { makeTestCluster, type TestCluster } from './hpc/clusterFixture';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const events = (runs: string): CanvasEvent[] => {
  const run = path.join(runs, fs.readdirSync(runs)[0]!);
  return fs
    .readFileSync(path.join(run, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CanvasEvent);
};
const latticeOf = (ev: CanvasEvent[]) =>
  ev
    .filter((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'lattice_constant')
    .map((e) => (e.payload as { value: number }).value)
    .at(-1);
const dreams = (args: string[], cwd: string, whileRunning?: () => void) =>
  new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const watch = whileRunning && setInterval(whileRunning, 100);
    child.on('exit', (status) => {
      if (watch) clearInterval(watch);
      resolve({ status, out });
    });
  });

/** The events of the one run under `runs` written so far (a line still being written is left out). */
const eventsSoFar = (runs: string): CanvasEvent[] => {
  const run = fs.existsSync(runs) ? fs.readdirSync(runs)[0] : undefined;
  const file = run && path.join(runs, run, 'events.jsonl');
  if (!file || !fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return l ? [JSON.parse(l) as CanvasEvent] : [];
      } catch {
        return [];
      }
    });
};

describe('dreams run --cluster: the lattice-constant workflow on SLURM over SSH', function () {
  this.timeout(900_000);
  let cluster: TestCluster;
  let dir: string;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    cluster = makeTestCluster();
    dir = freshDir('dreams-agents-cluster-');
  });
  after(() => cluster?.cleanup());

  it('runs every pw.x job through SLURM and gets the lattice constant the local run gets, repeating only the job cancelled from outside', async () => {
    const objective = writeLeanObjectiveFile(dir);
    const profiles = path.join(dir, 'clusters.json');
    fs.writeFileSync(profiles, JSON.stringify({ clusters: [cluster.profile()] }));
    // scancel, from outside DREAMS, one job of the cutoff sweep that SLURM has but that has not finished
    let cancelled: JobRecord | undefined;
    const cancelOne = () => {
      if (cancelled) return;
      const so = eventsSoFar(path.join(dir, 'cluster'));
      const sweep = new Set(
        so
          .filter((e) => e.kind === 'provenance.call' && (e.payload as { step?: string }).step === 'cutoff-runs')
          .map((e) => (e.payload as { id: string }).id),
      );
      const latest = new Map<string, JobRecord>();
      for (const e of so) if (e.kind === 'job.transition') latest.set((e.payload as JobRecord).id, e.payload as JobRecord);
      const open = [...latest.values()].filter(
        (j) => j.call && sweep.has(j.call) && j.schedulerId && ['submitted', 'queued', 'running'].includes(j.state),
      );
      cancelled = open.find((j) => j.state === 'running') ?? open[0];
      if (cancelled) cluster.ssh(`scancel ${cancelled.schedulerId}`);
    };
    const onCluster = await dreams(
      [
        'run',
        objective,
        '--offline',
        '--cluster',
        'testcluster',
        '--clusters',
        profiles,
        '--ssh-config',
        cluster.sshConfigFile,
        '--runs-dir',
        path.join(dir, 'cluster'),
        '--pseudo-dir',
        PSEUDO_DIR,
        '--no-bundle',
      ],
      dir,
      cancelOne,
    );
    assert.equal(onCluster.status, 0, onCluster.out);
    assert.ok(cancelled, 'a job of the cutoff sweep was cancelled from outside');
    const remote = events(path.join(dir, 'cluster'));
    const jobs = new Map<string, JobRecord>();
    for (const e of remote) if (e.kind === 'job.transition') jobs.set((e.payload as JobRecord).id, e.payload as JobRecord);
    // the advisor saw the cancelled job as stopped from outside: no input change, the job repeated as it was
    const advice = remote
      .filter((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'convergence_advice')
      .map(
        (e) => (e.payload as { value: { diagnosis: { kind: string; finding: string }; rerun?: boolean; suggestions: unknown[] } }).value,
      );
    assert.equal(advice.length, 1, JSON.stringify(advice));
    assert.equal(advice[0]!.diagnosis.kind, 'killed', advice[0]!.diagnosis.finding);
    assert.match(advice[0]!.diagnosis.finding, /cancelled/);
    assert.equal(advice[0]!.rerun, true);
    assert.deepEqual(advice[0]!.suggestions, []);
    assert.equal(jobs.get(cancelled!.id)!.state, 'cancelled');
    // no input run twice to completion: the completed jobs of the sweep were kept, and a later input
    // byte-identical to a finished run (the k sweep's run at the cutoff sweep's spacing, the EOS middle point) reused its result
    const inputOf = (j: JobRecord) => j.files[0]!.sha256!;
    const completed = [...jobs.values()].filter((j) => j.state === 'completed');
    assert.equal(new Set(completed.map(inputOf)).size, completed.length, 'an input was run to completion twice');
    assert.deepEqual(
      [...jobs.values()].filter((j) => inputOf(j) === inputOf(cancelled!)).map((j) => j.state),
      ['cancelled', 'completed'],
      'the cancelled input ran again, once',
    );
    const energies = remote
      .filter((e) => e.kind === 'provenance.artifact')
      .map((e) => e.payload as { name: string; creator: string; meta?: { reusedFrom?: unknown } })
      .filter((a) => a.name === 'total_energy');
    const reused = energies.filter((a) => a.meta?.reusedFrom).length;
    assert.equal(reused, 2);
    assert.equal(completed.length, new Set(energies.filter((a) => a.creator !== cancelled!.call).map((a) => a.creator)).size - reused);
    assert.ok(completed.length >= 10, `${completed.length} jobs`);
    for (const j of jobs.values()) {
      assert.equal(j.backend, 'testcluster');
      assert.match(j.schedulerId ?? '', /^\d+$/, `${j.id} has a SLURM job id`);
      assert.equal(j.state, j.id === cancelled!.id ? 'cancelled' : 'completed');
    }
    // dreams.log in the run directory: the login (host key, method), scheduler commands with exit codes, job transitions
    const runDir = path.join(dir, 'cluster', fs.readdirSync(path.join(dir, 'cluster'))[0]!);
    const log = fs.readFileSync(path.join(runDir, 'dreams.log'), 'utf8');
    assert.match(
      log,
      /info  \[ssh testcluster\] connected: logged in as testuser with key \S+id_ed25519; host key ssh-ed25519 SHA256:\S+ \(matches /,
    );
    assert.match(log, /info  \[ssh testcluster\] \$ cd -- .* sbatch .*→ exit 0 \(\d+ ms\)/);
    assert.match(log, /info  \[jobs\] job \S+ \(testcluster #\d+\): submitted → (queued|running|completed)/);
    assert.ok(!/sk-ant-/.test(log));
    const judged = remote.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    assert.equal(judged.accepted, true);

    const local = await dreams(
      ['run', objective, '--offline', '--runs-dir', path.join(dir, 'local'), '--pseudo-dir', PSEUDO_DIR, '--no-bundle'],
      dir,
    );
    assert.equal(local.status, 0, local.out);
    const a = latticeOf(remote);
    assert.ok(a !== undefined);
    assert.ok(Math.abs(a - latticeOf(events(path.join(dir, 'local')))!) < 1e-6, `cluster a = ${a} Å`);
  });
});
