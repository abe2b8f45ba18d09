/**
 * bench:agents — what the agent team spends on the scripted lattice-constant run: tokens by
 * role and by category, and the share of input tokens served from the prompt cache. The
 * run is the one the agents qe test drives: fcc Al, lean settings, real pw.x, one EOS job
 * killed so the supervisor replans; its agent turns are recorded from the offline provider
 * and played through the real Anthropic SDK against the fake Messages API (usage computed
 * from the real request bodies, prompt cache with the API's 1024-token minimum). Run with
 * the guard's judges and without them, so the judges' share is visible too.
 * Writes bench/results/agents.json.
 *   npm run bench:agents
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UsageSnapshot, UsageTotals } from '../../src/core/llm/usage';
import { freshDir, PSEUDO_DIR, recordOfflineRun, scriptFromRecording, startModelRun } from '../../test/fixtures/agents/scriptedLattice';

const ROOT = path.resolve(__dirname, '../..');

function row(label: string, t: UsageTotals): string {
  const u = t.usage;
  const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return [
    label.padEnd(14),
    String(t.responses).padStart(5),
    String(prompt).padStart(9),
    String(u.cacheReadTokens).padStart(9),
    String(u.cacheWriteTokens).padStart(9),
    String(u.inputTokens).padStart(8),
    String(u.outputTokens).padStart(8),
    (t.cacheHitShare === null ? '   n/a' : `${(100 * t.cacheHitShare).toFixed(1)} %`).padStart(8),
    `$${t.costUsd.toFixed(4)}`.padStart(9),
  ].join(' ');
}

function table(title: string, entries: [string, UsageTotals][]): string[] {
  return [
    title,
    `${'role'.padEnd(14)} ${'resp'.padStart(5)} ${'prompt'.padStart(9)} ${'cacheRd'.padStart(9)} ${'cacheWr'.padStart(9)} ${'uncached'.padStart(8)} ${'output'.padStart(8)} ${'cache %'.padStart(8)} ${'cost'.padStart(9)}`,
    ...entries.map(([k, t]) => row(k, t)),
  ];
}

async function modelRun(
  runsDir: string,
  judges: boolean,
  rec: Awaited<ReturnType<typeof recordOfflineRun>>,
): Promise<{ snapshot: UsageSnapshot; requests: number; seconds: number; state: string }> {
  const t0 = Date.now();
  const run = await startModelRun(runsDir, scriptFromRecording(rec, { judges }), { judges });
  try {
    const result = await run.controller.run();
    if (result.state !== 'completed') throw new Error(`the scripted run did not complete: ${result.reason}`);
    run.api.assertScriptDone();
    return {
      snapshot: run.controller.session.ledger.snapshot(),
      requests: run.api.requests.length,
      seconds: (Date.now() - t0) / 1000,
      state: result.state,
    };
  } finally {
    await run.controller.close();
    await run.api.stop();
  }
}

async function main(): Promise<void> {
  if (spawnSync('sh', ['-c', 'command -v pw.x']).status !== 0 || !fs.existsSync(path.join(PSEUDO_DIR, 'Al.pz-vbc.UPF'))) {
    console.error(
      'bench:agents needs pw.x and Al.pz-vbc.UPF: sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data',
    );
    process.exit(1);
  }
  const dir = freshDir('dreams-bench-agents-');
  const rec = await recordOfflineRun(path.join(dir, 'offline'));
  if (rec.result.state !== 'completed') throw new Error(`the offline recording did not complete: ${rec.result.reason}`);
  const guarded = await modelRun(path.join(dir, 'guarded'), true, rec);
  const unguarded = await modelRun(path.join(dir, 'unguarded'), false, rec);

  const out: string[] = [];
  const s = guarded.snapshot;
  out.push(
    ...table(
      "Scripted lattice-constant run (fcc Al), with the guard's judges — by role",
      Object.entries(s.byRole) as [string, UsageTotals][],
    ),
    row('total', s.total),
    '',
  );
  out.push(...table('by category', Object.entries(s.byCategory) as [string, UsageTotals][]), '');
  out.push(
    ...table(
      'Same run without the judge tiers (tier 1 only) — by role',
      Object.entries(unguarded.snapshot.byRole) as [string, UsageTotals][],
    ),
    row('total', unguarded.snapshot.total),
    '',
  );
  const prompt = (t: UsageTotals) => t.usage.inputTokens + t.usage.cacheReadTokens + t.usage.cacheWriteTokens;
  const ratio = prompt(s.total) / prompt(unguarded.snapshot.total);
  out.push(
    `share of input tokens served from the prompt cache: ${(100 * (s.total.cacheHitShare ?? 0)).toFixed(1)} % (guarded), ${(100 * (unguarded.snapshot.total.cacheHitShare ?? 0)).toFixed(1)} % (unguarded)`,
  );
  out.push(`prompt tokens with judges / without: ${ratio.toFixed(2)}×`);
  out.push(
    `requests: ${guarded.requests} (guarded), ${unguarded.requests} (unguarded); wall time of each model run incl. pw.x: ${guarded.seconds.toFixed(1)} s, ${unguarded.seconds.toFixed(1)} s`,
  );
  console.log(out.join('\n'));

  const result = {
    bench: 'agents',
    command: 'npm run bench:agents',
    measuredAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.versions.node },
    run: 'scripted lattice constant of fcc Al (lean settings, real pw.x, one EOS job killed and replanned), agent turns recorded offline and replayed through the real SDK against the fake Messages API (minCacheableTokens 1024)',
    prices: 'list prices in src/core/llm/pricing.ts; the fake API computes tokens as ceil(bytes/4) per content block',
    guarded: { requests: guarded.requests, ...guarded.snapshot },
    unguarded: { requests: unguarded.requests, ...unguarded.snapshot },
    cacheHitShare: { guarded: s.total.cacheHitShare, unguarded: unguarded.snapshot.total.cacheHitShare },
    promptTokensRatioGuardedOverUnguarded: ratio,
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/agents.json'), JSON.stringify(result, null, 1) + '\n');
  console.log(`\nwrote bench/results/agents.json`);
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(`bench:agents: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
