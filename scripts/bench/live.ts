/**
 * bench:live — what real-model studies cost, from recorded transcripts (test/fixtures/live/*.json:
 * studies run live against a hand-answered Messages API, each request answered in its role from the
 * request alone). Each is replayed through the real Anthropic SDK against the fake Messages API with
 * real pw.x where the study runs it; the fake API computes usage from the real request bodies with the
 * prompt cache (1024-token minimum). Printed per study: requests by role, prompt tokens, cost at list
 * prices, whether the report judge accepted the report; for the lattice-constant study also the same
 * transcript with --no-judges, and the guarded/unguarded prompt-token ratio. Targets (the lattice
 * study): ≤ 40 requests, ≤ 300 k prompt tokens, ≤ $0.50, ratio ≤ 1.5.
 * Writes bench/results/live.json; naming sessions measures those and keeps the others' figures.
 *   npm run bench:live [-- <session> ...] [--reuse-from <run dir> ...]
 * --reuse-from takes pw.x results for byte-identical inputs from a run (as `dreams run --reuse-from`),
 * e.g. the live run of a study whose relaxations take minutes; the token figures do not depend on it,
 * and the results say which sessions reused what.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UsageSnapshot, UsageTotals } from '../../src/core/llm/usage';
import { loadTranscript, recordedSessions, roleOf, type LiveTranscript } from '../../test/fixtures/live/replay';
import { replayStudy, type Replay } from '../../test/fixtures/live/replayRun';

const ROOT = path.resolve(__dirname, '../..');
const TARGETS = { requests: 40, promptTokens: 300_000, costUsd: 0.5, ratio: 1.5 };

const prompt = (t: UsageTotals) => t.usage.inputTokens + t.usage.cacheReadTokens + t.usage.cacheWriteTokens;

interface Figures {
  state: string;
  reportAccepted: boolean | null;
  requests: number;
  requestsByRole: Record<string, number>;
  promptTokens: number;
  promptTokensByRole: Record<string, number>;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
  seconds: number;
  /** How faithfully the replay followed the live run. */
  replay: { unmatched: string[]; unused: string[]; outOfOrder: string[] };
}

function figures(r: Replay, snapshot: UsageSnapshot): Figures {
  const byRole: Record<string, number> = {};
  for (const q of r.api.requests) if (q.outcome === 'reply' && q.body) byRole[roleOf(q.body)] = (byRole[roleOf(q.body)] ?? 0) + 1;
  return {
    state: r.result.state,
    reportAccepted: r.reportAccepted,
    requests: Object.values(byRole).reduce((a, b) => a + b, 0),
    requestsByRole: byRole,
    promptTokens: prompt(snapshot.total),
    promptTokensByRole: Object.fromEntries(Object.entries(snapshot.byRole).map(([k, t]) => [k, prompt(t as UsageTotals)])),
    outputTokens: snapshot.total.usage.outputTokens,
    cacheReadTokens: snapshot.total.usage.cacheReadTokens,
    costUsd: Number((snapshot.total.costUsd ?? 0).toFixed(4)),
    seconds: Number(r.seconds.toFixed(1)),
    replay: { unmatched: r.report.unmatched, unused: r.report.unused().map((e) => e.key), outOfOrder: r.report.outOfOrder },
  };
}

async function replay(t: LiveTranscript, judges: boolean, dir: string, reuseFrom: string[]): Promise<Figures> {
  const r = await replayStudy(t, {
    runsDir: path.join(dir, `${t.session}-${judges ? 'guarded' : 'unguarded'}`),
    judges,
    ...(reuseFrom.length ? { reuseFrom } : {}),
  });
  try {
    return figures(r, r.controller.session.ledger.snapshot());
  } finally {
    await r.controller.close();
    await r.api.stop();
  }
}

function liveCounts(t: LiveTranscript): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of t.exchanges) out[e.key.split('|')[0]!] = (out[e.key.split('|')[0]!] ?? 0) + 1;
  return out;
}

const roleLine = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const reuseFrom = args.flatMap((a, i) => (args[i - 1] === '--reuse-from' ? [path.resolve(a)] : []));
  const wanted = args.filter((a, i) => a !== '--reuse-from' && args[i - 1] !== '--reuse-from');
  const sessions = wanted.length ? wanted : recordedSessions();
  if (!sessions.length)
    throw new Error('no recorded transcripts in test/fixtures/live/: record one (docs/notes/agents.md, "Live sessions")');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-live-'));
  const out: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const s of sessions) {
    const t = loadTranscript(s);
    const guarded = await replay(t, true, dir, reuseFrom);
    const lattice = /lattice/i.test(t.session);
    const unguarded = lattice ? await replay(t, false, dir, reuseFrom) : undefined;
    const ratio = unguarded ? guarded.promptTokens / unguarded.promptTokens : undefined;
    out[s] = {
      objective: t.objective,
      recordedAt: t.recordedAt,
      measuredAt: new Date().toISOString(),
      ...(reuseFrom.length ? { pwResultsReusedFrom: reuseFrom } : {}),
      live: { requests: t.exchanges.length, requestsByRole: liveCounts(t), outcome: t.outcome },
      guarded,
      ...(unguarded ? { unguarded, promptTokensRatioGuardedOverUnguarded: Number(ratio!.toFixed(3)) } : {}),
      ...(lattice
        ? {
            targets: TARGETS,
            meets: {
              requests: guarded.requests <= TARGETS.requests,
              promptTokens: guarded.promptTokens <= TARGETS.promptTokens,
              costUsd: guarded.costUsd <= TARGETS.costUsd,
              ratio: ratio! <= TARGETS.ratio,
            },
          }
        : {}),
    };
    lines.push(
      `${s}: "${t.objective}"`,
      `  live: ${t.exchanges.length} requests (${roleLine(liveCounts(t))}); ${t.outcome.state}, report ${t.outcome.reportAccepted === null ? 'none' : t.outcome.reportAccepted ? 'accepted' : 'not accepted'}`,
      `  replay: ${guarded.state}, report ${guarded.reportAccepted === null ? 'none' : guarded.reportAccepted ? 'accepted' : 'not accepted'}; ${guarded.requests} requests (${roleLine(guarded.requestsByRole)})`,
      `          ${guarded.promptTokens.toLocaleString('en')} prompt tokens (${guarded.cacheReadTokens.toLocaleString('en')} from the cache), ${guarded.outputTokens.toLocaleString('en')} output, $${guarded.costUsd.toFixed(3)} at list prices, ${guarded.seconds} s`,
      ...(guarded.replay.unmatched.length || guarded.replay.unused.length || guarded.replay.outOfOrder.length
        ? [
            `          replay drift: ${guarded.replay.unmatched.length} unmatched, ${guarded.replay.unused.length} unused, ${guarded.replay.outOfOrder.length} out of order`,
            // which requests the live run made and the replay did not (and the reverse): the flow changed there
            ...guarded.replay.unused.map(
              (k) => `            recorded, never asked: req-${t.exchanges.find((e) => e.key === k)?.n ?? '?'} ${k}`,
            ),
            ...guarded.replay.unmatched.map((k) => `            asked, never recorded: ${k}`),
          ]
        : []),
      ...(unguarded
        ? [
            `  --no-judges: ${unguarded.requests} requests, ${unguarded.promptTokens.toLocaleString('en')} prompt tokens, $${unguarded.costUsd.toFixed(3)}; guarded/unguarded prompt tokens ${ratio!.toFixed(2)}×`,
            `  targets: requests ${guarded.requests} ≤ ${TARGETS.requests} ${guarded.requests <= TARGETS.requests ? 'met' : 'MISSED'}; prompt ${guarded.promptTokens} ≤ ${TARGETS.promptTokens} ${guarded.promptTokens <= TARGETS.promptTokens ? 'met' : 'MISSED'}; ` +
              `cost $${guarded.costUsd.toFixed(3)} ≤ $${TARGETS.costUsd} ${guarded.costUsd <= TARGETS.costUsd ? 'met' : 'MISSED'}; ratio ${ratio!.toFixed(2)} ≤ ${TARGETS.ratio} ${ratio! <= TARGETS.ratio ? 'met' : 'MISSED'}`,
          ]
        : []),
      '',
    );
    console.log(lines.slice(lines.lastIndexOf(`${s}: "${t.objective}"`)).join('\n'));
  }
  // sessions named on the command line replace their own entries; the others' figures are kept
  const file = path.join(ROOT, 'bench/results/live.json');
  const kept =
    wanted.length && fs.existsSync(file)
      ? ((JSON.parse(fs.readFileSync(file, 'utf8')) as { sessions?: Record<string, unknown> }).sessions ?? {})
      : {};
  const result = {
    bench: 'live',
    command: 'npm run bench:live',
    measuredAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.versions.node },
    method:
      'recorded real-model transcripts (hand-answered Messages API, each role answered from its request alone) replayed through the real Anthropic SDK against the fake Messages API; answers matched by role, thread and turn, released in the recorded order; usage from the real request bodies (ceil(bytes/4) per block) with the prompt cache (1024-token minimum); list prices of src/core/llm/pricing.ts for the default model of each role',
    sessions: { ...Object.fromEntries(Object.entries(kept).filter(([k]) => recordedSessions().includes(k))), ...out },
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
  console.log('wrote bench/results/live.json');
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(`bench:live: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
