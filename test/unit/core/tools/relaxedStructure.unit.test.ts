import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import { placeAdsorbate } from '../../../../src/core/dft/structure/placement';
import { slab } from '../../../../src/core/dft/structure/surface';
import type { Structure, Vec3 } from '../../../../src/core/dft/types';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const start = placeAdsorbate(
  slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.98, size: [2, 2], layers: 2, vacuumAngstrom: 5, fixedLayers: 1 }),
  { adsorbate: 'CO', site: 'fcc' },
).structure;

/** An input and the energy of its run, as make_pw_input and run_pw record them. */
async function relaxation(p: MemoryProvenance, calculation: string, final: Vec3[], recordRef = true) {
  const [input] = await seedCall(p, 'make_pw_input', {}, [
    { kind: 'qe-input', name: 'pw_input', value: { text: '', calculation, structure: start, settings: {} } },
  ]);
  const [energy] = await seedCall(
    p,
    'run_pw',
    { input: input!.id },
    [{ kind: 'scalar', name: 'total_energy', value: -7000, unit: 'eV', meta: { finalPositionsAngstrom: final, cellAngstrom: start.cell } }],
    recordRef ? { input: input!.id } : {},
  );
  return energy!;
}

describe('relaxed_structure', () => {
  it("gives the final geometry with the input structure's tags, fixed atoms and info, and measures the displacements", async () => {
    const p = new MemoryProvenance();
    const final = start.positions.map((r, i) => (start.fixed![i] ? r : [r[0], r[1], r[2] + 0.05]) as Vec3);
    const e = await relaxation(p, 'relax', final);
    const out = await guardedCall(
      registry.get('relaxed_structure')!,
      { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } },
      ctxFor(p),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = p.artifact((out as { outputs: string[] }).outputs[0]!)!;
    const s = made.value as Structure;
    assert.deepEqual(s.positions, final);
    assert.deepEqual(s.tags, start.tags);
    assert.deepEqual(s.fixed, start.fixed);
    assert.equal(s.info?.site, 'fcc');
    assert.ok(Math.abs((made.meta!.maxDisplacementAngstrom as number) - 0.05) < 1e-12);
    assert.equal(made.meta!.fixedAtomsMoved, 0);
  });

  it('finds the input when run_pw recorded the artifact id as the argument value only (as a plan step passes it)', async () => {
    const p = new MemoryProvenance();
    const e = await relaxation(p, 'relax', start.positions, false);
    const out = await guardedCall(
      registry.get('relaxed_structure')!,
      { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } },
      ctxFor(p),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
  });

  it('refuses the energy of a run that does not move atoms, saying what to reference', async () => {
    const p = new MemoryProvenance();
    const e = await relaxation(p, 'scf', start.positions);
    const out = await guardedCall(
      registry.get('relaxed_structure')!,
      { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } },
      ctxFor(p),
    );
    assert.equal(out.status, 'failed');
    assert.match((out as { error: string }).error, /calculation='scf' run, which does not move the atoms; reference the energy of a relax/);
  });
});

describe('interrupted_geometry', () => {
  // The real output of a PBE CO/Pt(111) ontop relaxation cut short mid-SCF after three ionic steps.
  const fixtures = path.resolve(__dirname, '../../../fixtures/agents/pw-failures');
  const out = parsePwOutput(fs.readFileSync(path.join(fixtures, 'interrupted-relax.out'), 'utf8'));
  const text = fs.readFileSync(path.join(fixtures, 'interrupted-relax.in'), 'utf8');
  // The structure DREAMS wrote that input from: p(2×2) Pt(111), 3 layers, bottom fixed, CO on top at 1.85 Å.
  const copt = placeAdsorbate(
    slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.9787, size: [2, 2], layers: 3, vacuumAngstrom: 6, fixedLayers: 1 }),
    { adsorbate: 'CO', site: 'ontop', heightAngstrom: 1.85 },
  ).structure;
  const last = out.ionicSteps.at(-1)!;

  /** The place_adsorbate → make_pw_input → run_pw chain of the interrupted run, as DREAMS records it. */
  async function interrupted(p: MemoryProvenance, opts: { state?: string; status?: 'final' | 'provisional'; final?: Vec3[] } = {}) {
    const [structure] = await seedCall(p, 'place_adsorbate', {}, [{ kind: 'structure', name: 'slab_with_adsorbate', value: copt }]);
    const [input] = await seedCall(p, 'make_pw_input', { structure: structure!.id }, [
      { kind: 'qe-input', name: 'pw_input', value: { text, calculation: 'relax', structure: copt, settings: {} } },
    ]);
    const [, energy] = await seedCall(p, 'run_pw', { input: input!.id }, [
      { kind: 'table', name: 'pw_output', value: {}, status: 'provisional', meta: { state: opts.state ?? 'failed' } },
      {
        kind: 'scalar',
        name: 'total_energy',
        value: -11274.9,
        unit: 'eV',
        status: opts.status ?? 'provisional',
        meta: { finalPositionsAngstrom: opts.final ?? last.positionsAngstrom, cellAngstrom: copt.cell, ionicSteps: out.ionicSteps.length },
      },
    ]);
    return { structure: structure!, input: input!, energy: energy! };
  }
  const call = (tool: string, relaxation: string) => ({
    tool,
    args: { relaxation },
    refs: {},
    reasons: {},
    context: 't',
    agent: { role: 'dft' as const },
  });

  it('reads the real interrupted output: three ionic steps with energies, then the positions of a fourth', () => {
    assert.equal(out.jobDone, false);
    assert.equal(out.ionicSteps.length, 4);
    assert.deepEqual(
      out.ionicSteps.map((s) => s.energyRy !== undefined),
      [true, true, true, false],
    );
    // the structure rebuilt here is the one the input was written from
    assert.equal(copt.symbols.length, 14);
    assert.ok(Math.abs(out.ionicSteps[0]!.positionsAngstrom[12]![2] - copt.positions[12]![2]) < 1e-4);
  });

  it("gives the last geometry with the constraints and site of the input, derived from the input's structure so nothing provisional is upstream", async () => {
    const p = new MemoryProvenance();
    const { structure, energy } = await interrupted(p);
    const o = await guardedCall(registry.get('interrupted_geometry')!, call('interrupted_geometry', energy.id), ctxFor(p));
    assert.equal(o.status, 'ok', JSON.stringify(o));
    const made = p.artifact((o as { outputs: string[] }).outputs[0]!)!;
    assert.equal(made.name, 'restart_structure');
    assert.equal(made.status, 'final');
    assert.deepEqual(made.inputs, [structure.id]);
    const s = made.value as Structure;
    // the free atoms where the run stopped; the fixed ones exactly where the input had them
    s.positions.forEach((r, i) => assert.deepEqual(r, copt.fixed![i] ? copt.positions[i] : last.positionsAngstrom[i], `atom ${i}`));
    assert.deepEqual(s.fixed, copt.fixed);
    assert.deepEqual(s.tags, copt.tags);
    assert.equal(s.info?.site, 'ontop');
    assert.deepEqual(made.meta!.continues, { call: energy.creator, energy: energy.id, ionicSteps: 4 });
    // the fixed bottom layer did not move; the CO did
    assert.equal(copt.fixed!.filter(Boolean).length, 4);
    assert.ok((made.meta!.maxDisplacementAngstrom as number) > 0.01);
    // the guard let the provisional energy through because the argument only seeds a relaxation, and said so
    const verdict = (o as { verdicts: { rule: string; level: string; reasons: string[] }[] }).verdicts.find(
      (v) => v.rule === 'no-provisional-support',
    )!;
    assert.equal(verdict.level, 'pass');
    assert.match(verdict.reasons[0]!, /provisional; relaxation only seeds the calculation/);
  });

  it('the seed may have gone stale by the time a report is judged: the guard still passes it, a seed is not an input', async () => {
    const p = new MemoryProvenance();
    const { energy } = await interrupted(p);
    await p.markStatus([energy.id], 'stale', 'the input it came from was made again');
    const o = await guardedCall(registry.get('interrupted_geometry')!, call('interrupted_geometry', energy.id), ctxFor(p));
    assert.equal(o.status, 'ok', JSON.stringify(o));
    const verdict = (o as { verdicts: { rule: string; level: string; reasons: string[] }[] }).verdicts.find(
      (v) => v.rule === 'no-provisional-support',
    )!;
    assert.match(verdict.reasons[0]!, /which is stale; relaxation only seeds/);
    // relaxed_structure, whose argument is an input, refuses it
    const refused = await guardedCall(registry.get('relaxed_structure')!, call('relaxed_structure', energy.id), ctxFor(p));
    assert.equal(refused.status, 'refused');
  });

  it('relaxed_structure still refuses the same provisional energy: its geometry would be taken as a result', async () => {
    const p = new MemoryProvenance();
    const { energy } = await interrupted(p);
    const o = await guardedCall(registry.get('relaxed_structure')!, call('relaxed_structure', energy.id), ctxFor(p));
    assert.equal(o.status, 'refused', JSON.stringify(o));
  });

  it('refuses a finished relaxation, a job that completed without converging, and a run that stopped before any atom moved', async () => {
    const cases: [Parameters<typeof interrupted>[1], RegExp][] = [
      [{ status: 'final' }, /finished; take its geometry with relaxed_structure/],
      [{ state: 'completed' }, /was not interrupted but did not converge; consult the convergence advisor/],
      [{ final: copt.positions }, /stopped before any atom or the cell moved; run the relaxation again from its input structure/],
    ];
    for (const [opts, message] of cases) {
      const p = new MemoryProvenance();
      const { energy } = await interrupted(p, opts);
      const o = await guardedCall(registry.get('interrupted_geometry')!, call('interrupted_geometry', energy.id), ctxFor(p));
      assert.equal(o.status, 'failed', JSON.stringify(o));
      assert.match((o as { error: string }).error, message);
    }
  });
});

describe('interrupted_geometry on a vc-relax whose final SCF is above its thresholds', () => {
  it('continues from the relaxed cell the run ended at, though the job completed and no atom moved', async () => {
    const { readStructureFile } = await import('../../../../src/core/dft/io/structureFile');
    const { FIXTURES, runDir, seedRun } = await import('./support/seedRun');
    const p = new MemoryProvenance();
    const { source: _s, ...si } = readStructureFile(path.join(FIXTURES, 'qe/runs/si-vc-final.in'));
    const settings = {
      code: 'pw.x' as const,
      functional: 'PBE',
      ecutwfcRy: 10,
      ecutrhoRy: 40,
      pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF' } },
      kMesh: [3, 3, 3] as [number, number, number],
      occupations: 'fixed',
      nspin: 1 as const,
    };
    const run = await seedRun(p, runDir(), {
      outputFile: 'qe/runs/si-vc-final.out',
      structure: si,
      calculation: 'vc-relax',
      settings,
      status: 'provisional',
    });
    const use = {
      tool: 'interrupted_geometry',
      args: { relaxation: run.energy.id },
      refs: {},
      reasons: {},
      context: 't',
      agent: { role: 'dft' as const },
    };
    const o = await guardedCall(registry.get('interrupted_geometry')!, use, ctxFor(p));
    assert.equal(o.status, 'ok', JSON.stringify(o));
    const s = p.artifact((o as { outputs: string[] }).outputs[0]!)!.value as Structure;
    const out = parsePwOutput(fs.readFileSync(path.join(FIXTURES, 'qe/runs/si-vc-final.out'), 'utf8'));
    assert.deepEqual(s.cell, out.ionicSteps.at(-1)!.cellAngstrom);
    assert.notDeepEqual(s.cell, si.cell);
  });
});
