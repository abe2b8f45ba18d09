/**
 * bench:guard — what the guard costs in tokens. The scripted fcc-Al lattice-constant and
 * CO/Pt(111) runs are played through the real Anthropic SDK against the fake Messages API
 * (usage computed from the real prompt sizes, prompt cache included), once without the
 * guard's model tiers and once with them (per-parameter judge batched per call, cross
 * judge where declared, report judge), and the input and output tokens are compared.
 * Target: guarded ≤ 2× the unguarded input tokens. Writes bench/results/guard.json.
 *   npm run bench:guard
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRun } from '../../src/core/run/directory';
import { ToolRegistry } from '../../src/core/agents/toolRegistry';
import { RunControl } from '../../src/core/run/checkpoint';
import { DEFAULT_AGENT_LIMITS, type AgentRuntime } from '../../src/core/agents/runtime';
import { TOOL_CATALOGUE } from '../../src/core/tools';
import { ApprovalBook } from '../../src/core/guard/approvals';
import { AnthropicProvider } from '../../src/core/llm/anthropic';
import { DEFAULT_ROLE_MODELS } from '../../src/core/llm/models';
import { FakeAnthropicApi, type RecordedRequest } from '../../test/fixtures/fake-anthropic/server';
import { runScripted } from './guard/scriptedWorker';
import { standInRunPw } from './guard/standInPw';
import { CO_PT_RUN, LATTICE_RUN, type ScriptedRun } from './guard/workflows';

const ROOT = path.resolve(__dirname, '../..');
const KEY = 'sk-ant-bench-guard-0000000000';
const TARGET_RATIO = 2;
/** The API's shortest cacheable prefix for these models (the fake caches nothing shorter). */
const MIN_CACHEABLE_TOKENS = 1024;
const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

interface Tokens {
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Every prompt token sent: uncached + cache read + cache write. */
  prompt: number;
  /** Prompt tokens weighted as billed: cache reads at 0.1×, 5-minute cache writes at 1.25×. */
  billedInputEquivalent: number;
}

function kindOf(r: RecordedRequest): string {
  const body = r.body as { system?: { text: string }[]; tool_choice?: { name?: string }; messages?: unknown[] } | undefined;
  const system = (body?.system ?? []).map((s) => s.text).join('\n');
  if (system.includes('You are the DFT worker') || system.includes('You are the HPC worker')) return 'agent';
  const text = JSON.stringify(body?.messages ?? []);
  if (text.includes('Contributing calls')) return 'report-judge';
  if (text.includes('fit together')) return 'cross-judge';
  return 'param-judge';
}

function sum(reqs: RecordedRequest[]): Tokens {
  const t: Tokens = { requests: reqs.length, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, prompt: 0, billedInputEquivalent: 0 };
  for (const r of reqs) {
    const u = r.usage;
    if (!u) throw new Error(`request #${r.index} (${r.outcome}) has no usage: ${r.rawBody.slice(0, 200)}`);
    t.input += u.input_tokens;
    t.cacheRead += u.cache_read_input_tokens;
    t.cacheWrite += u.cache_creation_input_tokens;
    t.output += u.output_tokens;
  }
  t.prompt = t.input + t.cacheRead + t.cacheWrite;
  t.billedInputEquivalent = Math.round(t.input + 0.1 * t.cacheRead + 1.25 * t.cacheWrite);
  return t;
}

async function measure(run: ScriptedRun, guarded: boolean) {
  const api = await FakeAnthropicApi.start({ apiKey: KEY, minCacheableTokens: MIN_CACHEABLE_TOKENS });
  const runsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-guard-'));
  const dreamsRun = await createRun(runsRoot, { objective: run.objective, slug: `${run.name}-${guarded ? 'guarded' : 'unguarded'}` });
  try {
    const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { maxAttempts: 1 } });
    const registry = new ToolRegistry(TOOL_CATALOGUE.map((t) => (t.name === 'run_pw' ? standInRunPw : t)));
    const models = { ...DEFAULT_ROLE_MODELS };
    // The parts of a run the worker loop and the guard use; the supervisor's are not needed here.
    const rt = {
      runId: dreamsRun.runId,
      runDir: dreamsRun.dir,
      log: dreamsRun.log,
      canvas: dreamsRun.canvas,
      provenance: dreamsRun.registry,
      approvals: new ApprovalBook(dreamsRun.log),
      policy: 'auto-approve',
      registry,
      provider,
      models,
      ...(guarded
        ? {
            judge: {
              provider,
              models: {
                'param-judge': models['param-judge'],
                'cross-judge': models['cross-judge'],
                'report-judge': models['report-judge'],
              },
              catalogue: registry.judgeCatalogue(),
            },
          }
        : {}),
      services: { pseudoDir, backends: ['local'], canvas: dreamsRun.canvas },
      settings: {},
      control: new RunControl(),
      limits: DEFAULT_AGENT_LIMITS,
    } as unknown as AgentRuntime;
    const result = await runScripted(run, api, rt, guarded);
    const log = dreamsRun.log;
    const judged = log.events().find((e) => e.kind === 'report.judged')?.payload as { accepted: boolean; summary: string } | undefined;
    if (!judged?.accepted) throw new Error(`${run.name}: the report was not accepted: ${judged?.summary}`);
    const byKind: Record<string, Tokens> = {};
    for (const k of ['agent', 'param-judge', 'cross-judge', 'report-judge']) byKind[k] = sum(api.requests.filter((r) => kindOf(r) === k));
    return { turns: result.turns, all: sum(api.requests), byKind };
  } finally {
    await api.stop();
    await dreamsRun.close();
    fs.rmSync(runsRoot, { recursive: true, force: true });
  }
}

const ratio = (a: number, b: number): number | null => (b > 0 ? Number((a / b).toFixed(3)) : null);

async function main(): Promise<void> {
  const runs = [];
  for (const run of [LATTICE_RUN, CO_PT_RUN]) {
    const unguarded = await measure(run, false);
    const guarded = await measure(run, true);
    runs.push({
      run: run.name,
      turns: guarded.turns,
      unguarded,
      guarded,
      ratios: {
        promptTokens: ratio(guarded.all.prompt, unguarded.all.prompt),
        billedInputEquivalent: ratio(guarded.all.billedInputEquivalent, unguarded.all.billedInputEquivalent),
        uncachedInputTokens: ratio(guarded.all.input, unguarded.all.input),
        outputTokens: ratio(guarded.all.output, unguarded.all.output),
      },
    });
  }
  const row = (name: string, t: Tokens) =>
    `  ${name.padEnd(26)} ${String(t.requests).padStart(3)} req  prompt ${String(t.prompt).padStart(7)} (uncached ${String(t.input).padStart(6)}, cache read ${String(t.cacheRead).padStart(7)}, write ${String(t.cacheWrite).padStart(6)}; billed-equivalent ${String(t.billedInputEquivalent).padStart(6)})  output ${String(t.output).padStart(6)}`;
  for (const r of runs) {
    console.log(`\n${r.run} (${r.turns} worker turns)`);
    console.log(row('unguarded', r.unguarded.all));
    console.log(row('guarded', r.guarded.all));
    for (const [k, t] of Object.entries(r.guarded.byKind)) if (t.requests) console.log(row(`  of which ${k}`, t));
    console.log(
      `  guarded/unguarded: prompt tokens ${r.ratios.promptTokens}×, billed-equivalent input ${r.ratios.billedInputEquivalent}×, ` +
        `uncached input ${r.ratios.uncachedInputTokens ?? 'n/a (the unguarded run sends every token through the cache)'}${r.ratios.uncachedInputTokens !== null ? '×' : ''}, output ${r.ratios.outputTokens}× (target ≤ ${TARGET_RATIO}× input)`,
    );
  }
  const worst = Math.max(...runs.map((r) => r.ratios.promptTokens ?? Infinity));
  const result = {
    bench: 'guard',
    at: new Date().toISOString(),
    method:
      "scripted runs through the agents' worker loop (one worker conversation per plan step; supervisor turns left out of both sides), the real SDK against the fake Messages API, on a real run (event log, provenance registry); usage from the fake API (token estimate of the real request bodies, prompt cache with a " +
      `${MIN_CACHEABLE_TOKENS}-token minimum); run_pw replaced by a model energy (token figures do not depend on pw.x); judges answer pass for every parameter`,
    targetRatio: TARGET_RATIO,
    worstPromptTokenRatio: worst,
    meetsTarget: worst <= TARGET_RATIO,
    runs,
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/guard.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(
    `\nworst prompt-token ratio ${worst}× (target ≤ ${TARGET_RATIO}×): ${worst <= TARGET_RATIO ? 'met' : 'NOT met'}; wrote bench/results/guard.json`,
  );
}

main().catch((e) => {
  console.error(`bench:guard failed: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
