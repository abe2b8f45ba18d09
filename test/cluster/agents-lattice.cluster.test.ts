// The lattice-constant workflow offline through `dreams run --cluster` on the loopback SLURM
// cluster (sshd on 127.0.0.1:2222): every pw.x run is a SLURM job, and the result is the
// one the same study gives with pw.x on this machine.
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
  return fs.readFileSync(path.join(run, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CanvasEvent);
};
const latticeOf = (ev: CanvasEvent[]) => ev.filter((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'lattice_constant').map((e) => (e.payload as { value: number }).value).at(-1);
const dreams = (args: string[], cwd: string) => new Promise<{ status: number | null; out: string }>((resolve) => {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('exit', (status) => resolve({ status, out }));
});

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

  it('runs every pw.x job through SLURM and gets the lattice constant the local run gets', async () => {
    const objective = writeLeanObjectiveFile(dir);
    const profiles = path.join(dir, 'clusters.json');
    fs.writeFileSync(profiles, JSON.stringify({ clusters: [cluster.profile()] }));
    const onCluster = await dreams(['run', objective, '--offline', '--cluster', 'testcluster', '--clusters', profiles, '--ssh-config', cluster.sshConfigFile,
      '--runs-dir', path.join(dir, 'cluster'), '--pseudo-dir', PSEUDO_DIR, '--no-bundle'], dir);
    assert.equal(onCluster.status, 0, onCluster.out);
    const remote = events(path.join(dir, 'cluster'));
    const jobs = new Map<string, JobRecord>();
    for (const e of remote) if (e.kind === 'job.transition') jobs.set((e.payload as JobRecord).id, e.payload as JobRecord);
    // a job for every run_pw call but the two that reuse an identical earlier run (k sweep at the finest spacing, EOS middle point)
    const energies = remote.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as { name: string; creator: string; meta?: { reusedFrom?: unknown } }).filter((a) => a.name === 'total_energy');
    const reused = energies.filter((a) => a.meta?.reusedFrom).length;
    assert.equal(reused, 2);
    assert.equal(jobs.size, new Set(energies.map((a) => a.creator)).size - reused);
    assert.ok(jobs.size >= 10, `${jobs.size} jobs`);
    for (const j of jobs.values()) {
      assert.equal(j.backend, 'testcluster');
      assert.match(j.schedulerId ?? '', /^\d+$/, `${j.id} has a SLURM job id`);
      assert.equal(j.state, 'completed');
    }
    // dreams.log in the run directory: the login (host key, method), scheduler commands with exit codes, job transitions
    const runDir = path.join(dir, 'cluster', fs.readdirSync(path.join(dir, 'cluster'))[0]!);
    const log = fs.readFileSync(path.join(runDir, 'dreams.log'), 'utf8');
    assert.match(log, /info  \[ssh testcluster\] connected: logged in as testuser with key \S+id_ed25519; host key ssh-ed25519 SHA256:\S+ \(matches /);
    assert.match(log, /info  \[ssh testcluster\] \$ cd -- .* sbatch .*→ exit 0 \(\d+ ms\)/);
    assert.match(log, /info  \[jobs\] job \S+ \(testcluster #\d+\): submitted → (queued|running|completed)/);
    assert.ok(!/sk-ant-/.test(log));
    const judged = remote.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    assert.equal(judged.accepted, true);

    const local = await dreams(['run', objective, '--offline', '--runs-dir', path.join(dir, 'local'), '--pseudo-dir', PSEUDO_DIR, '--no-bundle'], dir);
    assert.equal(local.status, 0, local.out);
    const a = latticeOf(remote);
    assert.ok(a !== undefined);
    assert.ok(Math.abs(a - latticeOf(events(path.join(dir, 'local')))!) < 1e-6, `cluster a = ${a} Å`);
  });
});
