// The catalogue's pw.x path through the guarded call on the real pw.x 6.7: build_bulk →
// make_pw_input → run_pw (JobService, local runner), and the energy artifact it registers.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '../../src/core/agents/toolRegistry';
import type { EnergyMeta, PwInputValue } from '../../src/core/artifacts/shapes';
import { ApprovalBook } from '../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../src/core/guard/guardedCall';
import type { ProposedCall } from '../../src/core/guard/types';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { LocalRunner } from '../../src/core/hpc/localRunner';
import { probeLocalPwVersion } from '../../src/core/hpc/pwCommand';
import { MemoryProvenance } from '../unit/core/guard/support/memoryProvenance';
import { MemoryEventLog } from '../unit/core/guard/support/memoryEventLog';

const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const registry = new ToolRegistry();

describe('guarded pw.x tools on the real pw.x', () => {
  let runDir: string;
  let jobs: JobService;
  before(async () => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-guard-qe-'));
    jobs = await JobService.open({
      store: new MemoryJobStore(),
      runDir,
      progressIntervalMs: 0,
      backend: (_name, updates) => new LocalRunner(updates, { pwCommand: 'pw.x', maxConcurrent: 1, watchIntervalMs: 100 }),
    });
  });
  after(async () => {
    await jobs.dispose();
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('select_pseudopotentials reads headers: refuses a functional the library lacks, and a path where a file name goes', async () => {
    const provenance = new MemoryProvenance();
    const ctx: GuardContext = {
      provenance,
      approvals: new ApprovalBook(new MemoryEventLog()),
      policy: 'auto-approve',
      run: { runId: 'qe', runDir, signal: new AbortController().signal, progress: () => {}, services: { pseudoDir } },
    };
    const call = (args: Record<string, unknown>): ProposedCall => ({
      tool: 'select_pseudopotentials',
      args,
      refs: {},
      reasons: {},
      context: 'qe test',
      agent: { role: 'dft' },
    });
    const none = await guardedCall(registry.get('select_pseudopotentials')!, call({ elements: ['Al'], functional: 'PBEsol' }), ctx);
    assert.equal(none.status, 'failed');
    assert.match((none as { error: string }).error, /no Al pseudopotential for PBEsol in .*found Al\.pz-vbc\.UPF \(PZ\)/);
    const pathy = await guardedCall(
      registry.get('select_pseudopotentials')!,
      call({ elements: ['Al'], functional: 'PZ', prefer: { Al: '../etc/passwd' } }),
      ctx,
    );
    assert.equal(pathy.status, 'refused');
    const ok = await guardedCall(registry.get('select_pseudopotentials')!, call({ elements: ['Fe'], functional: 'PBE' }), ctx);
    assert.equal(ok.status, 'ok');
    const fe = (
      provenance.artifact((ok as { outputs: string[] }).outputs[0]!)!.value as {
        byElement: Record<string, { file: string; suggestedEcutwfcRy?: number }>;
      }
    ).byElement.Fe!;
    assert.ok(fe.suggestedEcutwfcRy !== undefined, `the file with stated cutoffs is preferred, got ${fe.file}`);
  });

  it('computes a final total energy of fcc Al carrying the settings of its input', async function () {
    this.timeout(120_000);
    const provenance = new MemoryProvenance();
    const ctx: GuardContext = {
      provenance,
      approvals: new ApprovalBook(new MemoryEventLog()),
      policy: 'auto-approve',
      run: {
        runId: 'qe',
        runDir,
        signal: new AbortController().signal,
        progress: () => {},
        services: { jobs, pseudoDir, backends: ['local'] },
      },
    };
    const run = async (tool: string, args: Record<string, unknown>) => {
      const call: ProposedCall = { tool, args, refs: {}, reasons: {}, context: 'qe test', agent: { role: 'dft' } };
      const out = await guardedCall(registry.get(tool)!, call, ctx);
      assert.equal(out.status, 'ok', JSON.stringify(out));
      return (out as { outputs: string[] }).outputs.map((id) => provenance.artifact(id)!);
    };
    const [bulk] = await run('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 });
    const [table] = await run('select_pseudopotentials', { elements: ['Al'], functional: 'PZ' });
    const upf = fs.readFileSync(path.join(pseudoDir, 'Al.pz-vbc.UPF'));
    assert.deepEqual(table!.value, {
      directory: pseudoDir,
      byElement: {
        Al: { file: 'Al.pz-vbc.UPF', sha256: crypto.createHash('sha256').update(upf).digest('hex'), functional: 'PZ', type: 'NC' },
      },
    });
    const [input] = await run('make_pw_input', {
      structure: bulk!.id,
      pseudopotentials: table!.id,
      purpose: 'production',
      calculation: 'scf',
      ecutwfcRy: 15,
      ecutrhoRy: 60,
      kSpacingPerAngstrom: 0.3,
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 1,
    });
    const made = await run('run_pw', { input: input!.id, backend: 'local' });
    const energy = made.find((a) => a.name === 'total_energy')!;
    assert.equal(energy.status, 'final');
    assert.equal(energy.unit, 'eV');
    // fcc Al with this LDA pseudopotential: about -4.19 Ry per atom; the exact figure is pw.x's.
    assert.ok((energy.value as number) < -50 && (energy.value as number) > -65, `E = ${energy.value} eV`);
    const meta = energy.meta as EnergyMeta;
    assert.deepEqual(meta.settings.kMesh, (input!.value as PwInputValue).settings.kMesh);
    assert.equal(meta.settings.ecutwfcRy, 15);
    assert.match(String(meta.settings.codeVersion), /^6\.7/);
    assert.equal(meta.purpose, 'production');
    assert.ok(energy.inputs.includes(input!.id));
    const out = made.find((a) => a.name === 'pw_output')!;
    assert.equal(out.status, 'final');
    const job = jobs.list().find((j) => j.call === energy.creator)!;
    assert.match(job.resources!.reason, /^suggested from 1 atom\(s\)/);
    assert.deepEqual(meta.pseudopotentialSha256, { 'Al.pz-vbc.UPF': crypto.createHash('sha256').update(upf).digest('hex') });

    // The same input again (a sweep's run at the chosen settings, an EOS middle point): reused, not rerun.
    const jobsBefore = jobs.list().length;
    const [again] = await run('make_pw_input', {
      structure: bulk!.id,
      pseudopotentials: table!.id,
      purpose: 'convergence-test',
      calculation: 'scf',
      ecutwfcRy: 15,
      ecutrhoRy: 60,
      kSpacingPerAngstrom: 0.3,
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 1,
    });
    assert.equal((again!.value as PwInputValue).text, (input!.value as PwInputValue).text, 'the purpose is not part of the pw.x input');
    const reused = await run('run_pw', { input: again!.id, backend: 'local' });
    assert.equal(jobs.list().length, jobsBefore, 'no pw.x job for an input already run');
    const e2 = reused.find((a) => a.name === 'total_energy')!;
    assert.equal(e2.value, energy.value);
    assert.equal(e2.status, 'final');
    assert.deepEqual((e2.meta as EnergyMeta).reusedFrom, { call: energy.creator, job: job.id });
    assert.equal((e2.meta as EnergyMeta).purpose, 'convergence-test', "the reused energy carries its own input's purpose");
    assert.ok(
      e2.inputs.includes(again!.id) && e2.inputs.includes(energy.id),
      `inputs ${e2.inputs.join(', ')}: its input and the run it reuses`,
    );
    assert.ok(reused.find((a) => a.name === 'pw_output')!.inputs.includes(out.id));
    // an input that differs (a cutoff) runs pw.x
    const [other] = await run('make_pw_input', {
      structure: bulk!.id,
      pseudopotentials: table!.id,
      purpose: 'production',
      calculation: 'scf',
      ecutwfcRy: 16,
      ecutrhoRy: 64,
      kSpacingPerAngstrom: 0.3,
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 1,
    });
    await run('run_pw', { input: other!.id, backend: 'local' });
    assert.equal(jobs.list().length, jobsBefore + 1);
    // a stale original is not reused: the same input runs pw.x again
    await provenance.markStatus([energy.id], 'stale', 'a setting upstream changed (test)');
    const rerun = await run('run_pw', { input: input!.id, backend: 'local' });
    assert.equal(jobs.list().length, jobsBefore + 2);
    assert.equal((rerun.find((a) => a.name === 'total_energy')!.meta as EnergyMeta).reusedFrom, undefined);
    // and a run asked to rerun identical inputs does so
    const noReuse: GuardContext = { ...ctx, run: { ...ctx.run, services: { ...ctx.run.services, reuseIdenticalRuns: false } } };
    const forced = await guardedCall(
      registry.get('run_pw')!,
      { tool: 'run_pw', args: { input: again!.id, backend: 'local' }, refs: {}, reasons: {}, context: 'qe test', agent: { role: 'hpc' } },
      noReuse,
    );
    assert.equal(forced.status, 'ok', JSON.stringify(forced));
    assert.equal(jobs.list().length, jobsBefore + 3);
    // the convergence test's wavefunctions are removed once its energy is read; a production run keeps them
    const wfc = (id: string) => fs.readdirSync(path.join(jobs.jobDir(id), 'tmp', 'dreams.save')).filter((f) => f.startsWith('wfc'));
    const [production, test] = [jobs.list()[jobsBefore]!, jobs.list().at(-1)!];
    assert.ok(wfc(production.id).length > 0, 'production keeps its wavefunctions');
    assert.deepEqual(wfc(test.id), []);
    assert.ok(fs.existsSync(path.join(jobs.jobDir(test.id), 'tmp', 'dreams.save', 'charge-density.dat')));
  });

  it('takes the result of an identical input from an earlier run named in reuseFrom, and runs pw.x for anything else', async function () {
    this.timeout(120_000);
    const ctxOf = (provenance: MemoryProvenance, runId: string, services: Record<string, unknown> = {}): GuardContext => ({
      provenance,
      approvals: new ApprovalBook(new MemoryEventLog()),
      policy: 'auto-approve',
      run: {
        runId,
        runDir,
        signal: new AbortController().signal,
        progress: () => {},
        services: { jobs, pseudoDir, backends: ['local'], provenance, ...services },
      },
    });
    const runIn = async (ctx: GuardContext, tool: string, args: Record<string, unknown>) => {
      const out = await guardedCall(
        registry.get(tool)!,
        { tool, args, refs: {}, reasons: {}, context: 'qe test', agent: { role: 'dft' } },
        ctx,
      );
      assert.equal(out.status, 'ok', JSON.stringify(out));
      return (out as { outputs: string[] }).outputs.map((id) => ctx.provenance.artifact(id)!);
    };
    const study = async (ctx: GuardContext, ecutwfcRy: number) => {
      const [bulk] = await runIn(ctx, 'build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.03 });
      const [table] = await runIn(ctx, 'select_pseudopotentials', { elements: ['Al'], functional: 'PZ' });
      const [input] = await runIn(ctx, 'make_pw_input', {
        structure: bulk!.id,
        pseudopotentials: table!.id,
        purpose: 'production',
        calculation: 'scf',
        ecutwfcRy,
        ecutrhoRy: 4 * ecutwfcRy,
        kSpacingPerAngstrom: 0.3,
        occupations: 'smearing',
        smearing: 'mv',
        degaussRy: 0.02,
        nspin: 1,
      });
      return runIn(ctx, 'run_pw', { input: input!.id, backend: 'local' });
    };
    const first = new MemoryProvenance();
    const original = (await study(ctxOf(first, 'run-a'), 19)).find((a) => a.name === 'total_energy')!;
    const before = jobs.list().length;
    const second = new MemoryProvenance();
    // the version check on: the local pw.x, probed as a session does, is the one that ran run-a
    const later = ctxOf(second, 'run-b', {
      earlierRuns: [{ runId: 'run-a', dir: runDir, view: first }],
      pwVersionOf: () => probeLocalPwVersion('pw.x'),
    });
    const again = await study(later, 19);
    assert.equal(jobs.list().length, before, 'no pw.x job for an input run-a ran');
    const e = again.find((a) => a.name === 'total_energy')!;
    assert.equal(e.value, original.value);
    assert.equal(e.status, 'final');
    assert.deepEqual((e.meta as EnergyMeta).reusedFrom, {
      run: 'run-a',
      call: original.creator,
      job: (original.meta as EnergyMeta).job,
      energy: original.id,
    });
    assert.equal(
      (again.find((a) => a.name === 'pw_output')!.meta as { reusedFrom?: { run?: string } }).reusedFrom?.run,
      'run-a',
      'the output says where it was computed',
    );
    // another cutoff is another input: pw.x runs
    await study(later, 20);
    assert.equal(jobs.list().length, before + 1);
    // and a run told to rerun identical inputs ignores the earlier run
    await study(
      ctxOf(new MemoryProvenance(), 'run-c', { earlierRuns: [{ runId: 'run-a', dir: runDir, view: first }], reuseIdenticalRuns: false }),
      19,
    );
    assert.equal(jobs.list().length, before + 2);
    // and a run whose backend now runs another pw.x runs it again, saying why
    const said: string[] = [];
    const upgraded = ctxOf(new MemoryProvenance(), 'run-d', {
      earlierRuns: [{ runId: 'run-a', dir: runDir, view: first }],
      pwVersionOf: async () => '7.2',
    });
    upgraded.run.progress = (m: string) => said.push(m);
    const rerun = (await study(upgraded, 19)).find((a) => a.name === 'total_energy')!;
    assert.equal(jobs.list().length, before + 3);
    assert.equal((rerun.meta as EnergyMeta).reusedFrom, undefined);
    assert.ok(
      said.some((m) => /in run run-a, but with pw\.x 6\.7\S*; this backend runs pw\.x 7\.2, so pw\.x runs again/.test(m)),
      said.join('\n'),
    );
  });

  it('runs pw.x once for identical inputs that arrive while the first is running; a failed first run leaves the next to run', async function () {
    this.timeout(180_000);
    const provenance = new MemoryProvenance();
    const said: string[] = [];
    const ctx: GuardContext = {
      provenance,
      approvals: new ApprovalBook(new MemoryEventLog()),
      policy: 'auto-approve',
      run: {
        runId: 'qe-inflight',
        runDir,
        signal: new AbortController().signal,
        progress: (m) => said.push(m),
        services: { jobs, pseudoDir, backends: ['local'], provenance },
      },
    };
    const call = (tool: string, args: Record<string, unknown>): ProposedCall => ({
      tool,
      args,
      refs: {},
      reasons: {},
      context: 'qe test',
      agent: { role: 'dft' },
    });
    const run = async (tool: string, args: Record<string, unknown>) => {
      const out = await guardedCall(registry.get(tool)!, call(tool, args), ctx);
      assert.equal(out.status, 'ok', JSON.stringify(out));
      return (out as { outputs: string[] }).outputs.map((id) => provenance.artifact(id)!);
    };
    const [bulk] = await run('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.04 });
    const [table] = await run('select_pseudopotentials', { elements: ['Al'], functional: 'PZ' });
    const input = async (extra: Record<string, unknown> = {}) =>
      (
        await run('make_pw_input', {
          structure: bulk!.id,
          pseudopotentials: table!.id,
          purpose: 'convergence-test',
          calculation: 'scf',
          ecutwfcRy: 17,
          ecutrhoRy: 68,
          kSpacingPerAngstrom: 0.3,
          occupations: 'smearing',
          smearing: 'mv',
          degaussRy: 0.02,
          nspin: 1,
          ...extra,
        })
      )[0]!;
    // three steps reach the same input at once (a sweep point and an EOS point, say)
    const inputs = [await input(), await input(), await input()];
    const before = jobs.list().length;
    const made = await Promise.all(inputs.map((i) => run('run_pw', { input: i.id, backend: 'local' })));
    assert.equal(jobs.list().length, before + 1, 'one pw.x job for three identical inputs');
    const energies = made.map((m) => m.find((a) => a.name === 'total_energy')!);
    const original = energies.filter((e) => !(e.meta as EnergyMeta).reusedFrom);
    assert.equal(original.length, 1, 'one call ran pw.x');
    for (const e of energies.filter((x) => x !== original[0])) {
      assert.deepEqual((e.meta as EnergyMeta).reusedFrom, { call: original[0]!.creator, job: jobs.list().at(-1)!.id });
      assert.equal(e.value, original[0]!.value);
      assert.ok(e.inputs.includes(original[0]!.id), 'linked to the run it reuses');
    }
    assert.equal(said.filter((m) => m.startsWith(`identical input is being run by ${original[0]!.creator}`)).length, 2, said.join('\n'));

    // a first run that does not give a final energy (one SCF iteration) is not reused: the waiting call runs pw.x itself
    const short = [await input({ electronMaxstep: 1 }), await input({ electronMaxstep: 1 })];
    const failed = await Promise.all(short.map((i) => run('run_pw', { input: i.id, backend: 'local' })));
    assert.equal(jobs.list().length, before + 3, 'the waiting call ran its own job');
    for (const f of failed) {
      assert.equal(
        f.find((a) => a.name === 'total_energy'),
        undefined,
        'no converged energy',
      );
      const out = f.find((a) => a.name === 'pw_output')!;
      assert.equal(out.status, 'provisional');
      assert.equal((out.meta as { reusedFrom?: unknown }).reusedFrom, undefined);
    }

    // a waiting call that is stopped ends at once; the call it waited for goes on
    const ac = new AbortController();
    const stoppable: GuardContext = {
      ...ctx,
      run: { ...ctx.run, signal: ac.signal, progress: (m) => (m.startsWith('identical input is being run') ? ac.abort() : undefined) },
    };
    const pair = [await input({ ecutwfcRy: 18, ecutrhoRy: 72 }), await input({ ecutwfcRy: 18, ecutrhoRy: 72 })];
    const [going, stopped] = await Promise.all([
      run('run_pw', { input: pair[0]!.id, backend: 'local' }),
      guardedCall(registry.get('run_pw')!, call('run_pw', { input: pair[1]!.id, backend: 'local' }), stoppable),
    ]);
    assert.equal(stopped.status, 'failed');
    assert.match((stopped as { error: string }).error, /stopped while waiting for an identical run/);
    assert.equal(going.find((a) => a.name === 'total_energy')!.status, 'final');
    assert.equal(jobs.list().length, before + 4);
  });
});
