import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../src/core/guard/guardedCall';
import { placeAdsorbate } from '../../../src/core/dft/structure/placement';
import { slab } from '../../../src/core/dft/structure/surface';
import type { Structure, Vec3 } from '../../../src/core/dft/types';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance): GuardContext => ({
  provenance: p, approvals: new ApprovalBook(new MemoryEventLog()), policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const start = placeAdsorbate(slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.98, size: [2, 2], layers: 2, vacuumAngstrom: 5, fixedLayers: 1 }), { adsorbate: 'CO', site: 'fcc' }).structure;

/** An input and the energy of its run, as make_pw_input and run_pw record them. */
async function relaxation(p: MemoryProvenance, calculation: string, final: Vec3[], recordRef = true) {
  const [input] = await seedCall(p, 'make_pw_input', {}, [{ kind: 'qe-input', name: 'pw_input', value: { text: '', calculation, structure: start, settings: {} } }]);
  const [energy] = await seedCall(p, 'run_pw', { input: input!.id }, [{ kind: 'scalar', name: 'total_energy', value: -7000, unit: 'eV', meta: { finalPositionsAngstrom: final, cellAngstrom: start.cell } }], recordRef ? { input: input!.id } : {});
  return energy!;
}

describe('relaxed_structure', () => {
  it('gives the final geometry with the input structure\'s tags, fixed atoms and info, and measures the displacements', async () => {
    const p = new MemoryProvenance();
    const final = start.positions.map((r, i) => (start.fixed![i] ? r : [r[0], r[1], r[2] + 0.05]) as Vec3);
    const e = await relaxation(p, 'relax', final);
    const out = await guardedCall(registry.get('relaxed_structure')!, { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } }, ctxFor(p));
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
    const out = await guardedCall(registry.get('relaxed_structure')!, { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } }, ctxFor(p));
    assert.equal(out.status, 'ok', JSON.stringify(out));
  });

  it('refuses the energy of a run that does not move atoms, saying what to reference', async () => {
    const p = new MemoryProvenance();
    const e = await relaxation(p, 'scf', start.positions);
    const out = await guardedCall(registry.get('relaxed_structure')!, { tool: 'relaxed_structure', args: { relaxation: e.id }, refs: {}, reasons: {}, context: 't', agent: { role: 'dft' } }, ctxFor(p));
    assert.equal(out.status, 'failed');
    assert.match((out as { error: string }).error, /calculation='scf' run, which does not move the atoms; reference the energy of a relax/);
  });
});
