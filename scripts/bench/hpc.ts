/**
 * bench:hpc — job submission and monitoring cost on the test cluster (sshd + SLURM on
 * 127.0.0.1:2222, `sudo npm run setup:cluster`).
 *
 *  1. Submit 100 tiny jobs through the job service over its one SSH connection, and the
 *     same remote steps (stage, upload input and batch script, submit) with one `ssh`
 *     process per command, as a shell script would. Target: ≥ 10× faster.
 *  2. With the 100 jobs in flight, scheduler commands issued per poll cycle. Target: 1.
 *
 * The jobs carry `--begin=now+1hour`, so they wait in the queue without taking a CPU from
 * anyone else's tests; all of them are cancelled and their directories removed at the end.
 * Writes bench/results/hpc.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JobBackends } from '../../src/core/hpc/backends';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { BATCH_SCRIPT_NAME } from '../../src/core/hpc/remoteRunner';
import { SlurmAdapter } from '../../src/core/hpc/schedulers/slurm';
import { shellQuote } from '../../src/core/hpc/shellQuote';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import type { ClusterProfile, JobRecord } from '../../src/core/hpc/types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLUSTER_DIR = process.env.DREAMS_TEST_CLUSTER_DIR ?? '/tmp/dreams-test-cluster';
const SSH_CONFIG = path.join(CLUSTER_DIR, 'ssh/ssh_config');
const JOBS = Number(process.env.DREAMS_BENCH_JOBS ?? 100);
const POLL_CYCLES = 5;
const INPUT = fs.readFileSync(path.join(ROOT, 'test/fixtures/hpc/al-fcc-scf.in'), 'utf8');
const PSEUDO = path.join(process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo', 'Al.pz-vbc.UPF');

const ssh = (command: string, input?: string) => {
  const r = spawnSync('ssh', ['-F', SSH_CONFIG, '-o', 'ControlMaster=no', '-o', 'ControlPath=none', 'cluster', command], {
    input: input ?? '',
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`ssh ${command.slice(0, 80)}… failed (${r.status}): ${r.stderr}`);
  return r.stdout;
};

async function main(): Promise<void> {
  if (!fs.existsSync(SSH_CONFIG)) throw new Error(`no test cluster (${SSH_CONFIG} missing); start it with: sudo npm run setup:cluster`);
  const runId = `bench${crypto.randomBytes(3).toString('hex')}`;
  const workRoot = `dreams-bench/${runId}`;
  const profile: ClusterProfile = {
    name: 'bench',
    sshHost: 'cluster',
    scheduler: 'slurm',
    workRoot: `~/${workRoot}`,
    pwCommand: 'pw.x',
    batchOptions: ['--begin=now+1hour'],
    limits: { maxNtasks: 1, maxNodes: 1 },
  };
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-hpc-'));
  const backends = new JobBackends({
    local: { pwCommand: 'pw.x' },
    profiles: [profile],
    sshConfig: loadSshConfig(SSH_CONFIG),
    pollSeconds: 3600,
  });
  const service = await JobService.open({ store: new MemoryJobStore(), runDir, backend: backends.create });
  const baselineDirs: string[] = [];
  const jobs: JobRecord[] = [];
  try {
    const resources = { ntasks: 1, nodes: 1, walltimeMinutes: 5, reason: 'benchmark: a tiny job' };
    for (let i = 0; i < JOBS; i++) {
      jobs.push(
        await service.create({
          backend: 'bench',
          input: { name: 'al.in', text: INPUT },
          pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: PSEUDO }],
          resources,
        }),
      );
    }
    // warm: connect and put the pseudopotential in the cluster's store (both paths skip it afterwards)
    const warm = await service.create({
      backend: 'bench',
      input: { name: 'al.in', text: INPUT },
      pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: PSEUDO }],
      resources,
    });
    await service.submit(warm.id);
    jobs.push(warm);
    const connection = backends.connections.get('bench')!;
    const execsBefore = connection.stats.execs;

    const t0 = performance.now();
    await Promise.all(jobs.slice(0, JOBS).map((j) => service.submit(j.id)));
    const oneConnectionMs = performance.now() - t0;
    const execsPerJob = (connection.stats.execs - execsBefore) / JOBS;
    console.log(
      `${JOBS} jobs over one connection: ${oneConnectionMs.toFixed(0)} ms (${(oneConnectionMs / JOBS).toFixed(1)} ms/job, ${execsPerJob} commands + 2 SFTP uploads per job)`,
    );

    // the same remote steps, one ssh process per command
    const adapter = new SlurmAdapter();
    const home = ssh('pwd').trim();
    const pseudoStore = `${home}/${workRoot}/.pseudo`;
    const pseudoHash = jobs[0]!.pseudopotentials[0]!.sha256!;
    const t1 = performance.now();
    for (let i = 0; i < JOBS; i++) {
      const id = `${runId}-base-${i}`;
      const dir = `${home}/${workRoot}/baseline/${id}`;
      baselineDirs.push(dir);
      const job: JobRecord = { ...jobs[0]!, id, resources };
      const files = [`${dir}/al.in`, `${dir}/${BATCH_SCRIPT_NAME}`, `${pseudoStore}/${pseudoHash}/Al.pz-vbc.UPF`];
      ssh(
        `mkdir -p -- ${shellQuote(`${dir}/pseudo`)} && ln -sfn -- ${shellQuote(files[2]!)} ${shellQuote(`${dir}/pseudo/Al.pz-vbc.UPF`)} && for f in ${files.map(shellQuote).join(' ')}; do if [ -f "$f" ]; then sha256sum < "$f" | cut -c1-64; else echo -; fi; done`,
      );
      ssh(`cat > ${shellQuote(files[0]!)}`, INPUT);
      ssh(`cat > ${shellQuote(files[1]!)}`, adapter.batchScript(job, profile));
      ssh(adapter.submitCommand(dir, BATCH_SCRIPT_NAME));
    }
    const perCommandMs = performance.now() - t1;
    console.log(
      `${JOBS} jobs with one ssh process per command: ${perCommandMs.toFixed(0)} ms (${(perCommandMs / JOBS).toFixed(1)} ms/job, 4 ssh processes per job)`,
    );

    // monitoring: scheduler commands per poll cycle with every job in flight
    const runner = backends.runners.get('bench')!;
    const before = { ...runner.stats };
    const inFlight = service.list().filter((j) => j.backend === 'bench' && ['submitted', 'queued', 'running'].includes(j.state)).length;
    const pollStart = performance.now();
    for (let i = 0; i < POLL_CYCLES; i++) await runner.pollOnce();
    const pollMs = (performance.now() - pollStart) / POLL_CYCLES;
    const cycles = runner.stats.pollCycles - before.pollCycles;
    const commands = runner.stats.statusCommands - before.statusCommands + runner.stats.finishedCommands - before.finishedCommands;
    const perCycle = commands / cycles;
    console.log(
      `${inFlight} jobs in flight: ${commands} scheduler commands in ${cycles} poll cycles (${perCycle} per cycle, ${pollMs.toFixed(0)} ms per cycle)`,
    );

    const ratio = perCommandMs / oneConnectionMs;
    const result = {
      benchmark: 'hpc',
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version },
      jobs: JOBS,
      submit: {
        oneConnectionMs: Math.round(oneConnectionMs),
        sshProcessPerCommandMs: Math.round(perCommandMs),
        ratio: Number(ratio.toFixed(1)),
        target: '>= 10x',
        meetsTarget: ratio >= 10,
        commandsPerJobOneConnection: execsPerJob,
        sftpUploadsPerJob: 2,
        sshProcessesPerJobBaseline: 4,
      },
      poll: {
        jobsInFlight: inFlight,
        cycles,
        schedulerCommands: commands,
        commandsPerCycle: perCycle,
        msPerCycle: Math.round(pollMs),
        target: 1,
        meetsTarget: perCycle === 1,
      },
    };
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/hpc.json'), JSON.stringify(result, null, 2) + '\n');
    console.log(
      `\nsubmit: ${ratio.toFixed(1)}× faster over one connection (target ≥ 10×: ${result.submit.meetsTarget ? 'met' : 'NOT met'})`,
    );
    console.log(
      `poll: ${perCycle} scheduler command(s) per cycle with ${inFlight} jobs in flight (target 1: ${result.poll.meetsTarget ? 'met' : 'NOT met'})`,
    );
    console.log('written: bench/results/hpc.json');
  } finally {
    // leave the shared cluster idle: cancel every job this run made, remove its directories
    const ids = service
      .list()
      .map((j) => j.schedulerId)
      .filter(Boolean);
    const cleanup =
      `ids=$(squeue -h -o '%i %j' | awk -v p='${runId}-base-' 'index($2,p)==1{print $1}'); ` +
      `scancel ${ids.join(' ')} $ids 2>/dev/null; rm -rf ~/${workRoot}; true`;
    try {
      execFileSync('ssh', ['-F', SSH_CONFIG, 'cluster', cleanup], { stdio: 'ignore' });
    } finally {
      await service.dispose();
      await backends.close();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
