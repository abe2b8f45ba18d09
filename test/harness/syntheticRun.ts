/**
 * Provenance-shaped runs of any size for benchmarks and UI tests: a structure and its
 * pseudopotentials, then batches of parallel SCF calls (input, output, energy each)
 * reading the structure and the previous batch's result, each batch closed by a selection
 * call — the shape of a convergence sweep or an EOS series. Some results are stale,
 * warned or failed so filters have something to show.
 */
import type { AppendInput } from '../../src/core/canvas/eventLog';
import type { Verdict } from '../../src/core/guard/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';

export interface SyntheticRunOptions {
  /** Total nodes (calls + artifacts), approximately. */
  nodes: number;
  batch?: number;
  runId?: string;
  /**
   * Calls serve plan steps (a plan written after run.start: the structure, then a sweep and a
   * selection step per batch), as a planned run's do: the notebook's lab layout, a cell per step.
   */
  steps?: boolean;
}

export function syntheticRunEvents(opts: SyntheticRunOptions): AppendInput[] {
  const batch = opts.batch ?? 20;
  const runId = opts.runId ?? 'bench-run';
  const out: AppendInput[] = [];
  const tool = { kind: 'tool' as const, id: 'registry' };
  const at = '2026-01-01T00:00:00.000Z';
  let calls = 0;
  let arts = 0;
  let nodes = 0;
  out.push({
    kind: 'run.start',
    actor: { kind: 'framework', id: 'runner' },
    payload: { runId, objective: 'synthetic', settings: {}, software: {} },
  });
  let step = 'structure';
  const plan: { id: string; title: string; worker: 'dft'; tool: string; status: 'done' }[] = [];
  const call = (toolName: string, refs: Record<string, string>, verdicts: Verdict[], status: ToolCallRecord['status'] = 'ok'): string => {
    const id = `c-${++calls}`;
    nodes++;
    const args: ToolCallRecord['args'] = {};
    for (const [k, ref] of Object.entries(refs)) args[k] = { value: 0, ref };
    const rec: ToolCallRecord = {
      id,
      tool: toolName,
      args,
      reasons: {},
      context: 'synthetic',
      verdicts,
      agent: { role: 'dft' },
      startedAt: at,
      status,
      outputs: [],
    };
    if (opts.steps) {
      rec.step = step;
      if (plan.at(-1)?.id !== step)
        plan.push({
          id: step,
          title: step === 'structure' ? 'Build the structure' : `${toolName} (${step})`,
          worker: 'dft',
          tool: toolName,
          status: 'done',
        });
    }
    out.push({ kind: 'provenance.call', key: `calls/${id}`, actor: tool, payload: rec });
    return id;
  };
  const artifact = (
    creator: string,
    name: string,
    kind: ArtifactRecord['kind'],
    value: unknown,
    unit: string | undefined,
    inputs: string[],
    extra: Partial<ArtifactRecord> = {},
  ): string => {
    const id = `a-${++arts}`;
    nodes++;
    const rec: ArtifactRecord = {
      id,
      kind,
      name,
      value,
      contentHash: id,
      creator,
      inputs,
      concerns: [],
      status: 'final',
      createdAt: at,
      ...(unit ? { unit } : {}),
      ...extra,
    };
    out.push({ kind: 'provenance.artifact', key: `artifacts/${id}`, actor: tool, payload: rec });
    return id;
  };
  const pass: Verdict = { tier: 'tier1', rule: 'references-exist', level: 'pass', reasons: [], judged: true };
  const unjudged: Verdict = { tier: 'tier2', rule: 'param-judge@1', level: 'pass', reasons: [], judged: false };
  const warn: Verdict = {
    tier: 'tier1',
    rule: 'cutoff-vs-pseudopotential',
    level: 'warn',
    reasons: ['ecutwfc below the suggested 30 Ry'],
    judged: true,
  };
  const c0 = call('build_bulk', {}, [pass]);
  const structure = artifact(c0, 'structure', 'structure', undefined, undefined, []);
  let previous = structure;
  let b = 0;
  while (nodes < opts.nodes) {
    b++;
    const energies: string[] = [];
    step = `sweep-${b}`;
    for (let i = 0; i < batch && nodes < opts.nodes; i++) {
      const warned = (b * batch + i) % 97 === 13;
      const failed = (b * batch + i) % 211 === 7;
      const refs: Record<string, string> = previous === structure ? { structure } : { structure, settings: previous };
      const c = call('run_scf', refs, [pass, warned ? warn : unjudged], failed ? 'failed' : 'ok');
      const inputs = Object.values(refs);
      artifact(c, 'pw_input', 'qe-input', undefined, undefined, inputs, { location: `files/${c}/pw.in` });
      artifact(c, 'pw_output', 'qe-output', undefined, undefined, inputs, { location: `files/${c}/pw.out` });
      const e = artifact(c, 'total_energy', 'scalar', -57.1 - i * 0.001, 'eV', inputs);
      if (warned)
        out.push({
          kind: 'provenance.concern',
          actor: tool,
          payload: { id: e, concern: { source: 'tier1', level: 'warn', message: 'ecutwfc below the suggested 30 Ry' } },
        });
      if (failed) out.push({ kind: 'provenance.call.end', actor: tool, payload: { id: c, status: 'failed', endedAt: at, outputs: [] } });
      energies.push(e);
    }
    if (nodes >= opts.nodes) break;
    step = `select-${b}`;
    const sel = call('select_converged', Object.fromEntries(energies.map((e, i) => [`e${i}`, e])), [pass]);
    previous = artifact(sel, 'chosen_settings', 'table', { ecutwfcRy: 30 + b }, undefined, energies);
    if (b % 7 === 3)
      out.push({ kind: 'provenance.status', actor: tool, payload: { ids: [previous], status: 'stale', reason: 'cutoff changed' } });
  }
  if (opts.steps) {
    out.splice(1, 0, {
      kind: 'key.write',
      key: 'plan',
      actor: { kind: 'agent', id: 'supervisor' },
      payload: { value: { objective: 'synthetic', version: 1, steps: plan }, reason: 'the synthetic plan', version: 1 },
    });
  }
  return out;
}
