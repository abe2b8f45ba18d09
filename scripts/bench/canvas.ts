/**
 * bench:canvas — the event log and the provenance graph under load. Writes
 * bench/results/canvas.json.
 *   npm run bench:canvas [-- --events 100000]
 *
 * 1. append: N events (notes, job progress, usage records) to a fresh run with
 *    group-commit durability, with up to W appends in flight (many producers at once),
 *    for several W; and fsync-each with one producer, for comparison. Every append is
 *    durable (written + fdatasync) before its promise resolves, in every mode.
 * 2. reopen: a fresh process opens the N-event run as its writer (lock, check every line,
 *    fold the canvas and the provenance registry): time and that process's peak RSS.
 * 3. walk: a 10,000-artifact graph registered through the real registry (100 tool calls of
 *    100 outputs; each output derived from three outputs of the previous call); upstream
 *    walk from the newest artifact (which reaches nearly every node) and downstream from
 *    the oldest.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRun, openRun } from '../../src/core/run/directory';
import type { Actor, AppendInput } from '../../src/core/canvas/types';
import { downstream, upstream } from '../../src/core/provenance/queries';
import type { ArtifactDraft } from '../../src/core/provenance/types';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('events', 100_000);
const GRAPH_NODES = arg('nodes', 10_000);
const TARGETS = { appendPerSecond: 20_000, reopenMs: 1500, peakRssMb: 300, walkMs: 50 };
const agent: Actor = { kind: 'agent', id: 'dft', model: 'claude-sonnet-4' };
const mb = (kb: number): number => Math.round(kb / 1024);

/** A mix of what a long run writes: notes, pw.x progress, token usage. */
function eventFor(i: number): AppendInput {
  switch (i % 5) {
    case 0:
    case 1:
    case 2:
      return {
        kind: 'key.write',
        key: `notes/n${i % 500}`,
        actor: agent,
        payload: {
          value: { text: `SCF at ecutwfc ${20 + (i % 40)} Ry converged in ${8 + (i % 9)} iterations`, energyEv: -57.2 - i * 1e-6 },
          reason: 'record the sweep point',
          version: 1 + Math.floor(i / 500),
        },
      };
    case 3:
      return {
        kind: 'job.progress',
        payload: {
          id: `j-${i % 37}`,
          progress: {
            scfIteration: i % 30,
            estimatedAccuracyRy: 1e-6 * (i % 13),
            totalEnergyRy: -4.2,
            updatedAt: '2026-01-01T00:00:00.000Z',
          },
        },
        actor: { kind: 'framework', id: 'jobs' },
      };
    default:
      return {
        kind: 'llm.usage',
        actor: { kind: 'framework', id: 'llm' },
        payload: {
          role: 'dft',
          category: 'act',
          model: agent.model!,
          usage: { inputTokens: 1200 + (i % 300), outputTokens: 180, cacheReadTokens: 900, cacheWriteTokens: 0 },
          costUsd: 0.0042,
          at: '2026-01-01T00:00:00.000Z',
        },
      };
  }
}

async function appendPhase(root: string, count: number, inFlight: number, durability: 'group-commit' | 'fsync-each') {
  const run = await createRun(root, { objective: `bench ${durability} ${inFlight}`, slug: `append-${durability}-${inFlight}`, durability });
  const pending: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    pending.push(run.log.append(eventFor(i)));
    // Appends resolve in order, so waiting for the oldest keeps exactly `inFlight` open.
    if (pending.length >= inFlight) await pending.shift();
  }
  await Promise.all(pending);
  const seconds = (performance.now() - t0) / 1000;
  const stats = run.log.stats();
  await run.close();
  return {
    durability,
    inFlight,
    events: count,
    seconds: round(seconds, 3),
    eventsPerSecond: Math.round(count / seconds),
    fdatasyncs: stats.syncs,
    meanBatch: round(stats.appends / stats.syncs, 1),
    logBytes: fs.statSync(path.join(run.dir, 'events.jsonl')).size,
    dir: run.dir,
  };
}

/** Runs in a child process: a cold reopen, as when VS Code or the CLI resumes a run. */
async function reopenChild(dir: string): Promise<void> {
  const t0 = performance.now();
  const run = await openRun(dir, { mode: 'writer' });
  const reopenMs = performance.now() - t0;
  const keys = run.canvas.inspect().length;
  await run.close();
  process.stdout.write(
    JSON.stringify({
      reopenMs: round(reopenMs, 1),
      events: run.log.lastSeq(),
      keys,
      damage: run.recovery.damage ?? null,
      peakRssKb: process.resourceUsage().maxRSS,
    }),
  );
}

async function graphPhase(root: string) {
  const run = await createRun(root, { objective: 'bench provenance graph', slug: 'graph' });
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const perCall = 100;
  const t0 = performance.now();
  for (let made = 0; made < GRAPH_NODES; made += perCall) {
    const call = await run.registry.recordCall({
      tool: 'pw_scf',
      args: { ecutwfc: { value: 30 } },
      reasons: { ecutwfc: 'converged' },
      context: 'bench',
      verdicts: [],
      agent: { role: 'dft' },
    });
    const drafts: ArtifactDraft[] = [];
    for (let k = 0; k < perCall && made + k < GRAPH_NODES; k++) {
      // Inputs come from the previous call's outputs (a call's outputs cannot name each other).
      const previous = made - perCall;
      const inputs =
        previous < 0
          ? []
          : [
              ...new Set([previous + k + 1, previous + 1 + Math.floor(random() * perCall), previous + 1 + Math.floor(random() * perCall)]),
            ].map((x) => `a-${x}`);
      drafts.push({ kind: 'scalar', name: 'total_energy', value: -57.2 - (made + k) * 1e-4, unit: 'eV', inputs });
    }
    await run.registry.registerArtifacts(call.id, drafts);
    await run.registry.endCall(call.id, { status: 'ok' });
  }
  const buildSeconds = (performance.now() - t0) / 1000;
  const newest = `a-${GRAPH_NODES}`;
  const times: number[] = [];
  let reached = 0;
  for (let i = 0; i < 21; i++) {
    const s = performance.now();
    reached = upstream(run.registry, newest).artifacts.length;
    times.push(performance.now() - s);
  }
  const down: number[] = [];
  let dependents = 0;
  for (let i = 0; i < 21; i++) {
    const s = performance.now();
    dependents = downstream(run.registry, 'a-1').length;
    down.push(performance.now() - s);
  }
  await run.close();
  return {
    artifacts: GRAPH_NODES,
    calls: Math.ceil(GRAPH_NODES / perCall),
    buildSeconds: round(buildSeconds, 2),
    upstreamFrom: newest,
    upstreamReached: reached,
    upstreamMedianMs: round(median(times), 2),
    upstreamMaxMs: round(Math.max(...times), 2),
    downstreamFrom: 'a-1',
    downstreamReached: dependents,
    downstreamMedianMs: round(median(down), 2),
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits: number): number => Number(x.toFixed(digits));

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-canvas-'));
  try {
    console.log(`canvas bench in ${root} (${os.cpus().length} cores, node ${process.versions.node})`);
    const append = [];
    append.push(await appendPhase(root, Math.min(EVENTS, 2_000), 1, 'fsync-each'));
    for (const w of [1, 64, 1024]) append.push(await appendPhase(root, w === 1 ? Math.min(EVENTS, 5_000) : EVENTS, w, 'group-commit'));
    for (const a of append) {
      console.log(
        `append ${a.durability.padEnd(12)} in flight ${String(a.inFlight).padStart(4)}: ${String(a.eventsPerSecond).padStart(7)} events/s (${a.events} events, ${a.fdatasyncs} fdatasyncs, mean batch ${a.meanBatch})`,
      );
    }
    const headline = append[append.length - 1]!;

    const child = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--reopen', headline.dir], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });
    const reopened = JSON.parse(child) as { reopenMs: number; events: number; keys: number; damage: unknown; peakRssKb: number };
    if (reopened.events !== headline.events + 1 || reopened.damage)
      throw new Error(`reopen read ${reopened.events} events (damage ${JSON.stringify(reopened.damage)}); expected ${headline.events + 1}`);
    console.log(
      `reopen ${reopened.events} events (${(headline.logBytes / 2 ** 20).toFixed(1)} MiB, ${reopened.keys} keys) in a fresh process: ${reopened.reopenMs} ms, peak RSS ${mb(reopened.peakRssKb)} MB`,
    );

    const walk = await graphPhase(root);
    console.log(
      `graph of ${walk.artifacts} artifacts / ${walk.calls} calls built in ${walk.buildSeconds} s; upstream from ${walk.upstreamFrom} reaches ${walk.upstreamReached}: median ${walk.upstreamMedianMs} ms (max ${walk.upstreamMaxMs}); downstream from a-1 reaches ${walk.downstreamReached}: median ${walk.downstreamMedianMs} ms`,
    );

    const benchRssMb = mb(process.resourceUsage().maxRSS);
    const result = {
      benchmark: 'canvas',
      date: new Date().toISOString(),
      machine: { cores: os.cpus().length, node: process.versions.node, tmpdir: os.tmpdir() },
      append: append.map(({ dir: _dir, ...a }) => a),
      reopen: {
        events: reopened.events,
        logBytes: headline.logBytes,
        keys: reopened.keys,
        ms: reopened.reopenMs,
        peakRssMb: mb(reopened.peakRssKb),
      },
      walk,
      benchProcessPeakRssMb: benchRssMb,
      targets: TARGETS,
      meets: {
        appendPerSecond: headline.eventsPerSecond >= TARGETS.appendPerSecond,
        reopenMs: reopened.reopenMs < TARGETS.reopenMs,
        peakRssMb: mb(reopened.peakRssKb) < TARGETS.peakRssMb,
        walkMs: walk.upstreamMedianMs < TARGETS.walkMs,
      },
    };
    fs.mkdirSync(path.join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(PROJECT_ROOT, 'bench/results/canvas.json'), JSON.stringify(result, null, 2) + '\n');
    console.log(
      `\ntargets: append ${headline.eventsPerSecond}/s (≥ ${TARGETS.appendPerSecond}: ${result.meets.appendPerSecond ? 'met' : 'NOT met'}), ` +
        `reopen ${reopened.reopenMs} ms (< ${TARGETS.reopenMs}: ${result.meets.reopenMs ? 'met' : 'NOT met'}), ` +
        `peak RSS ${mb(reopened.peakRssKb)} MB (< ${TARGETS.peakRssMb}: ${result.meets.peakRssMb ? 'met' : 'NOT met'}), ` +
        `walk ${walk.upstreamMedianMs} ms (< ${TARGETS.walkMs}: ${result.meets.walkMs ? 'met' : 'NOT met'})`,
    );
    console.log('written: bench/results/canvas.json');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const reopenAt = process.argv.indexOf('--reopen');
(reopenAt > 0 ? reopenChild(process.argv[reopenAt + 1]!) : main()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
