/**
 * bench:demo — `npm run demo` as a new user runs it: in a fresh clone of this repository's
 * committed HEAD (no dist/, no runs/; node_modules linked from here, as `npm install` would
 * have made it), timed from the command to its exit (the build included), three times; prints
 * each time, the median and what each run computed, with the CPU seconds of the demo's process tree
 * and the load average around each run (a time taken on shared cores says so), and writes
 * bench/results/demo.json.
 *
 *   npm run bench:demo -- [--runs 3] [--keep]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLine } from '../commandLine';

const ROOT = path.resolve(__dirname, '../..');
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const runs = Number(option('runs') ?? 3);
const keep = process.argv.includes('--keep');

interface DemoRun {
  seconds: number;
  exitCode: number | null;
  latticeConstantAngstrom?: number;
  reportAccepted: boolean;
  pwJobs: number;
  reusedEnergies: number;
  loadBefore: number[];
  /** The 1-minute load average when the run ended (the cores' sharing during it). */
  loadAfter: number[];
  /** CPU seconds of the demo's whole process tree (build, CLI, every pw.x), user + system. */
  cpuSeconds?: number;
}

/** User + system CPU seconds of this process's waited-for children so far (Linux /proc; undefined elsewhere). */
function childrenCpuSeconds(): number | undefined {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    // fields[0] is the state (field 3), so cutime (16) and cstime (17) are fields[13] and fields[14]
    return (Number(fields[13]) + Number(fields[14])) / ticks;
  } catch {
    return undefined;
  }
}

function gitHead(): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
}

function oneRun(base: string, i: number): DemoRun {
  const clone = path.join(base, `clone-${i}`);
  const c = spawnSync('git', ['clone', '-q', '--no-hardlinks', ROOT, clone], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`git clone failed: ${c.stderr}`);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  const loadBefore = os.loadavg();
  const cpu0 = childrenCpuSeconds();
  const t0 = Date.now();
  const r = spawnSync('npm', ['run', 'demo'], { cwd: clone, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const seconds = (Date.now() - t0) / 1000;
  const cpu1 = childrenCpuSeconds();
  const loadAfter = os.loadavg();
  const out = `${r.stdout}${r.stderr}`;
  const a = /fcc Al \([^)]*\): a = (\d+\.\d+) Å/.exec(out);
  const runDir = fs
    .readdirSync(path.join(clone, 'runs'))
    .map((d) => path.join(clone, 'runs', d))
    .at(-1);
  const events =
    runDir && fs.existsSync(path.join(runDir, 'events.jsonl'))
      ? fs
          .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { kind: string; payload: Record<string, unknown> })
      : [];
  const jobs = new Set(events.filter((e) => e.kind === 'job.transition').map((e) => e.payload.id));
  const reused = events.filter(
    (e) =>
      e.kind === 'provenance.artifact' &&
      e.payload.name === 'total_energy' &&
      (e.payload.meta as { reusedFrom?: unknown } | undefined)?.reusedFrom,
  ).length;
  if (r.status !== 0) console.error(out.slice(-3000));
  return {
    seconds,
    exitCode: r.status,
    ...(a ? { latticeConstantAngstrom: Number(a[1]) } : {}),
    reportAccepted: /report accepted/.test(out),
    pwJobs: jobs.size,
    reusedEnergies: reused,
    loadBefore,
    loadAfter,
    ...(cpu0 !== undefined && cpu1 !== undefined ? { cpuSeconds: cpu1 - cpu0 } : {}),
  };
}

function main(): void {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-demo-'));
  const results: DemoRun[] = [];
  try {
    for (let i = 1; i <= runs; i++) {
      const r = oneRun(base, i);
      results.push(r);
      console.log(
        `demo ${i}/${runs}: ${r.seconds.toFixed(1)} s, exit ${r.exitCode}, a = ${r.latticeConstantAngstrom ?? '—'} Å, report ${r.reportAccepted ? 'accepted' : 'NOT accepted'}, ` +
          `${r.pwJobs} pw.x runs (${r.reusedEnergies} energies reused), ${r.cpuSeconds === undefined ? '' : `${r.cpuSeconds.toFixed(1)} CPU s, `}` +
          `load ${r.loadBefore[0]!.toFixed(1)} before, ${r.loadAfter[0]!.toFixed(1)} after (1-min average, ${os.cpus().length} cores)`,
      );
    }
  } finally {
    if (!keep) fs.rmSync(base, { recursive: true, force: true });
  }
  const times = results.map((r) => r.seconds).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const ok = results.every((r) => r.exitCode === 0 && r.reportAccepted);
  const cpus = results
    .map((r) => r.cpuSeconds)
    .filter((c): c is number => c !== undefined)
    .sort((a, b) => a - b);
  const medianCpu = cpus.length ? cpus[Math.floor(cpus.length / 2)] : undefined;
  console.log(
    `\nnpm run demo from a fresh clone: median ${median.toFixed(1)} s of ${runs} (${times.map((t) => t.toFixed(1)).join(', ')} s)${ok ? '' : ' — a run failed (above)'}; target < 60 s` +
      `${medianCpu === undefined ? '' : `; median ${medianCpu.toFixed(1)} CPU s (the whole process tree)`}`,
  );
  const out = path.join(ROOT, 'bench/results/demo.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        bench: 'demo',
        date: new Date().toISOString(),
        commit: gitHead(),
        command: commandLine('npm run bench:demo --'),
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model },
        medianSeconds: median,
        ...(medianCpu !== undefined ? { medianCpuSeconds: medianCpu } : {}),
        targetSeconds: 60,
        met: ok && median < 60,
        runs: results,
      },
      null,
      1,
    ) + '\n',
  );
  if (!ok) process.exitCode = 1;
}

main();
