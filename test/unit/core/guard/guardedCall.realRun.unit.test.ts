// The guard on a real run directory: the canvas owner's event log, provenance registry and
// canvas, so what the guard records is what a reopened run shows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRun, openRun, type Run } from '../../../../src/core/run/directory';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import type { GuardContext } from '../../../../src/core/guard/guardedCall';
import { ToolRegistry, type RegistryContext } from '../../../../src/core/agents/toolRegistry';
import type { ToolUseBlock } from '../../../../src/core/llm/types';
import { paramVerdicts, startJudgeRig, type JudgeRig } from './support/judgeRig';

const registry = new ToolRegistry();
const use = (name: string, args: Record<string, unknown>, reasons: Record<string, string> = {}): ToolUseBlock => ({
  type: 'tool_use',
  id: `tu_${name}`,
  name,
  input: { arguments: args, references: {}, reasons, context: 'real run test' },
});

describe('guard on a real run (event log, provenance registry, canvas)', () => {
  let root: string;
  let run: Run | undefined;
  let rig: JudgeRig | undefined;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-guard-run-'));
  });
  afterEach(async () => {
    await run?.close();
    await rig?.stop();
    run = undefined;
    rig = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  function ctxOf(r: Run, policy: GuardContext['policy'], judge?: GuardContext['judge']): RegistryContext {
    return {
      provenance: r.registry,
      approvals: new ApprovalBook(r.log),
      policy,
      events: r.log,
      ...(judge ? { judge } : {}),
      run: { runId: r.runId, runDir: r.dir, signal: new AbortController().signal, progress: () => {}, services: { canvas: r.canvas } },
    };
  }

  it('records calls, verdicts, artifacts with concerns and approvals that a reopened run shows the same', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-test' });
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'elements', level: 'pass' },
          { parameter: 'bravais', level: 'pass' },
          { parameter: 'latticeConstantAngstrom', level: 'warn', reasons: ['4.5 Å is 11 % above experiment for Al'] },
        ]),
      ],
    });
    const ctx = ctxOf(run, 'continue', rig.judge);
    const r = await registry.call(
      use('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.5 }, { latticeConstantAngstrom: 'a guess' }),
      'dft',
      ctx,
    );
    assert.equal(r.outcome.status, 'ok', r.toolResult.content);
    const callId = (r.outcome as { call: string }).call;
    const artifactId = (r.outcome as { outputs: string[] }).outputs[0]!;
    const dir = run.dir;
    await run.close();
    run = await openRun(dir, { mode: 'writer' });
    const call = run.registry.call(callId)!;
    assert.equal(call.status, 'ok');
    assert.deepEqual(
      call.verdicts.filter((v) => v.tier === 'tier2').map((v) => [v.parameter, v.level]),
      [
        ['elements', 'pass'],
        ['bravais', 'pass'],
        ['latticeConstantAngstrom', 'warn'],
      ],
    );
    const art = run.registry.artifact(artifactId)!;
    assert.deepEqual(
      art.concerns.map((c) => [c.parameter, c.approval]),
      [['latticeConstantAngstrom', 'ap-1']],
    );
    const book = new ApprovalBook(run.log);
    assert.deepEqual(
      book.pending().map((p) => [p.id, p.call, p.parameter, p.value]),
      [['ap-1', callId, 'latticeConstantAngstrom', 4.5]],
    );
    const first = await book.answer('ap-1', 'reject', 'user@cli', 'use the experimental 4.05 Å');
    assert.ok(first.ok);
    const again = await new ApprovalBook(run.log).answer('ap-1', 'approve', 'user@vscode');
    assert.ok(!again.ok && /already answered: rejected by user@cli/.test(again.message));
  });

  it('runs a chain with artifact-valued arguments on the real registry, and the report judge accepts its claim', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-chain' });
    const ctx = ctxOf(run, 'auto-approve');
    const ok = async (tool: string, args: Record<string, unknown>) => {
      const r = await registry.call(use(tool, args), 'dft', ctx);
      assert.equal(r.outcome.status, 'ok', r.toolResult.content);
      return (r.outcome as { outputs: string[] }).outputs;
    };
    const [bulk] = await ok('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 });
    // EOS energies as run_pw would record them (pw.x itself is exercised in test/qe)
    const energies: string[] = [];
    for (const v of [15.6, 16.1, 16.6, 17.1, 17.6]) {
      const c = await run.registry.recordCall({
        tool: 'run_pw',
        args: { input: { value: 'seeded' } },
        reasons: {},
        context: 'seeded',
        verdicts: [],
        agent: { role: 'hpc' },
      });
      const [e] = await run.registry.registerArtifacts(c.id, [
        {
          kind: 'scalar',
          name: 'total_energy',
          value: -57.3 + 0.05 * (v - 16.6) ** 2,
          unit: 'eV',
          meta: {
            settings: {
              code: 'pw.x',
              functional: 'PZ',
              ecutwfcRy: 15,
              ecutrhoRy: 60,
              pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF' } },
              kSpacingPerAngstrom: 0.3,
              occupations: 'smearing',
              smearing: 'mv',
              degaussRy: 0.02,
              nspin: 1,
            },
            natoms: 1,
            volumeAngstrom3: v,
            formula: 'Al',
            scfConverged: true,
            purpose: 'production',
          },
        },
      ]);
      await run.registry.endCall(c.id, { status: 'ok' });
      energies.push(e!.id);
    }
    const [fit] = await ok('fit_eos', { energies, form: 'birch-murnaghan' });
    assert.deepEqual(run.registry.artifact(fit!)!.inputs, energies, 'every energy read is an input of the fit');
    const [a] = await ok('lattice_constant_from_volume', { eosFit: fit, structure: bulk, bravais: 'fcc' });
    const value = run.registry.artifact(a!)!.value as number;
    const r = await registry.call(
      use('write_report', {
        title: 'Al',
        text: 'a',
        claims: [{ quantity: 'lattice_constant', value: Number(value.toPrecision(5)), unit: 'Å', cites: a }],
      }),
      'supervisor',
      ctx,
    );
    assert.equal(r.report?.accepted, true, r.toolResult.content);
    assert.deepEqual(
      r.report!.calls.map((c) => c.tool),
      ['build_bulk', 'run_pw', 'run_pw', 'run_pw', 'run_pw', 'run_pw', 'fit_eos', 'lattice_constant_from_volume'],
    );
  });

  it('accepts an artifact given as the value and repeated in references (the form a model writes first), and records it once', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-both-ways' });
    const ctx = ctxOf(run, 'auto-approve');
    const bulk = await registry.call(use('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 }), 'dft', ctx);
    const id = (bulk.outcome as { outputs: string[] }).outputs[0]!;
    // No EOS fit yet (eosFit names the structure too): the refusal shows which problems the guard sees.
    const r = await registry.call(
      {
        type: 'tool_use',
        id: 'tu_lc',
        name: 'lattice_constant_from_volume',
        input: {
          arguments: { eosFit: id, structure: id, bravais: 'fcc' },
          references: { structure: id },
          reasons: {},
          context: 'real run test',
        },
      },
      'dft',
      ctx,
    );
    assert.equal(r.outcome.status, 'refused');
    assert.doesNotMatch(r.toolResult.content, /reference-values-match/, 'the structure given both ways is not a contradiction');
    assert.match(r.toolResult.content, /reference-kinds · eosFit/, 'only the real problem is reported');
    const call = run.registry.call((r.outcome as { call: string }).call)!;
    assert.deepEqual(call.args.structure, { value: id }, 'the reference is recorded once, as the value');
  });

  it('records a provisional starting lattice constant given to build_bulk as a seed, an input of nothing', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-seed' });
    const ctx = ctxOf(run, 'auto-approve');
    const c = await run.registry.recordCall({
      tool: 'lattice_constant_from_volume',
      args: {},
      reasons: {},
      context: 'seeded',
      verdicts: [],
      agent: { role: 'dft' },
    });
    const [lc] = await run.registry.registerArtifacts(c.id, [
      { kind: 'scalar', name: 'lattice_constant', value: 4.0412, unit: 'Å', status: 'provisional' },
    ]);
    await run.registry.endCall(c.id, { status: 'ok' });
    const r = await registry.call(
      {
        type: 'tool_use',
        id: 'tu_seed',
        name: 'build_bulk',
        input: {
          arguments: { elements: ['Al'], bravais: 'fcc' },
          references: { latticeConstantAngstrom: lc!.id },
          reasons: {},
          context: 'a tighter EOS from the provisional a',
        },
      },
      'dft',
      ctx,
    );
    assert.equal(r.outcome.status, 'ok', r.toolResult.content);
    const made = r.outcome as { call: string; outputs: string[] };
    assert.deepEqual(run.registry.call(made.call)!.args.latticeConstantAngstrom, { value: 4.0412, ref: lc!.id, seed: true });
    assert.deepEqual(
      run.registry.artifact(made.outputs[0]!)!.inputs,
      [],
      'a seed is an input of nothing: a claim built on the structure does not rest on it',
    );
  });

  it('refuses a tier-1 failure and keeps the refused call traceable in the registry', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-refuse' });
    const ctx = ctxOf(run, 'auto-approve');
    const bulk = await registry.call(use('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 }), 'dft', ctx);
    const id = (bulk.outcome as { outputs: string[] }).outputs[0]!;
    const r = await registry.call(use('lattice_constant_from_volume', { eosFit: id, structure: id, bravais: 'fcc' }), 'dft', ctx);
    assert.equal(r.outcome.status, 'refused');
    const call = run.registry.call((r.outcome as { call: string }).call)!;
    assert.equal(call.status, 'refused');
    assert.ok(call.verdicts.some((v) => v.rule === 'reference-kinds' && v.level === 'fail'));
  });

  it("canvas tools read and write the run canvas; a framework key is refused with the canvas's reason", async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-canvas' });
    const ctx = ctxOf(run, 'auto-approve');
    const w = await registry.call(
      use('canvas_write', { key: 'notes/protocol', value: 'cutoff first, then k', reason: 'record the protocol' }),
      'dft',
      ctx,
    );
    assert.equal(w.outcome.status, 'ok', w.toolResult.content);
    const rd = await registry.call(use('canvas_read', { key: 'notes/protocol' }), 'dft', ctx);
    assert.match(rd.toolResult.content, /notes\/protocol v1\/1: "cutoff first, then k"/);
    const bad = await registry.call(use('canvas_write', { key: 'artifacts/a-1', value: 1, reason: 'forge' }), 'dft', ctx);
    assert.equal(bad.outcome.status, 'failed');
    assert.match(bad.toolResult.content, /artifacts/);
  });

  it('a judge outage fails open on a real run: the call runs and the outage is recorded per parameter', async () => {
    run = await createRun(root, { objective: 'guard test', slug: 'guard-infra' });
    rig = await startJudgeRig({ steps: [{ fault: { type: 'overloaded' } }] });
    const ctx = ctxOf(run, 'auto-approve', rig.judge);
    const bulk = await registry.call(use('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 }), 'dft', ctx);
    assert.equal(bulk.outcome.status, 'ok');
    const call = run.registry.call((bulk.outcome as { call: string }).call)!;
    const infra = call.verdicts.filter((v) => v.infraError);
    assert.equal(infra.length, 3);
    assert.ok(infra.every((v) => !v.judged));
    rig.api.assertScriptDone();
  });
});
