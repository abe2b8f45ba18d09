// Where a given bulk modulus came from: select_converged_settings keeps the reference a given B was taken
// from (the call's references), and the readers (the lattice-constant report, the report judge's selection
// tables) say where it came from by that record; the inference by equal values is left for runs recorded before.
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { bulkModulusSource } from '../../../../src/core/artifacts/bulkModulusSource';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall } from '../../../../src/core/guard/guardedCall';
import { citedSelectionTables } from '../../../../src/core/guard/judges/selectionTables';
import type { ProvenanceWriter } from '../../../../src/core/provenance/view';
import { energy } from '../guard/support/domain';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance, type SeedArtifact } from '../guard/support/memoryProvenance';

const registry = new ToolRegistry();

/** One guarded select_converged_settings call: its one selection artifact. */
async function select(p: ProvenanceWriter, args: Record<string, unknown>, refs: Record<string, string> = {}) {
  const out = await guardedCall(
    registry.get('select_converged_settings')!,
    { tool: 'select_converged_settings', args, refs, reasons: {}, context: 'test', agent: { role: 'dft' } },
    {
      provenance: p,
      approvals: new ApprovalBook(new MemoryEventLog()),
      policy: 'auto-approve',
      run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
    },
  );
  assert.equal(out.status, 'ok', JSON.stringify(out));
  const id = (out as { outputs: string[] }).outputs[0]!;
  return { id, value: p.artifact(id)!.value as ConvergenceSelectionValue };
}

// fcc Al, 14³: a cutoff sweep (Ry, eV, kbar) and a probe at 0.99 and 1.01 × a set for B ≈ 59 GPa (as bodies.unit.test.ts)
const V = 4.05 ** 3 / 4;
const run = (id: string, ecut: number, ev: number, p: number, volume = V): SeedArtifact => {
  const e = energy(id, ev, { settings: { ecutwfcRy: ecut, ecutrhoRy: 4 * ecut, kMesh: [14, 14, 14] }, volume });
  return { ...e, meta: { ...e.meta!, pressureKbar: p } };
};
const seeds = (): SeedArtifact[] => [
  run('a-1', 15, -56.95001, -57.75),
  run('a-2', 20, -56.97639, -50.8),
  run('a-3', 25, -56.98386, -51.5),
  run('a-4', 30, -56.98918, -51.29),
  run('a-5', 15, -56.9496, -57.75 + 590 * 3 * Math.log(1 / 0.99), V * 0.99 ** 3),
  run('a-6', 15, -56.9497, -57.75 - 590 * 3 * Math.log(1.01), V * 1.01 ** 3),
];
const byPressure = { parameter: 'ecutwfc', energies: ['a-1', 'a-2', 'a-3', 'a-4'], criterion: 'pressure', toleranceLatticePercent: 0.05 };

describe('select_converged_settings: where a given bulk modulus came from', () => {
  it("records the reference a given B was taken from, and the readers say it was handed on from that selection's probe", async () => {
    const p = new MemoryProvenance(seeds());
    const probed = await select(p, { ...byPressure, bulkModulusFrom: ['a-5', 'a-1', 'a-6'] });
    const b = probed.value.bulkModulus!.valueGPa;
    // B given by reference (as the lattice-constant template hands it on): the value is the record's, its reference kept
    const ref = `${probed.id}.criterion.bulkModulusGPa`;
    const handed = await select(p, { ...byPressure, bulkModulusGPa: ref });
    assert.deepEqual(handed.value.bulkModulus, { valueGPa: b, note: `B = ${b} GPa taken from ${ref}`, from: [], given: { ref } });
    assert.deepEqual(
      bulkModulusSource(handed.value, (id) => p.artifact(id)?.value, []),
      { from: 'selection', id: probed.id },
    );
    // the judge's table says so even when the probe's selection is not cited beside it
    const [alone] = citedSelectionTables(p, [handed.id]);
    assert.match(alone!, new RegExp(`handed on from ${probed.id}, which read it from the probe\\)`));
  });

  it('says a B typed as a number is given, even when it equals the B another cited selection read from its probe', async () => {
    const p = new MemoryProvenance(seeds());
    const probed = await select(p, { ...byPressure, bulkModulusFrom: ['a-5', 'a-1', 'a-6'] });
    const typed = await select(p, { ...byPressure, bulkModulusGPa: probed.value.bulkModulus!.valueGPa });
    assert.deepEqual(typed.value.bulkModulus!.given, {});
    assert.deepEqual(
      bulkModulusSource(typed.value, (id) => p.artifact(id)?.value, [probed.id]),
      { from: 'given' },
    );
    const [, table] = citedSelectionTables(p, [probed.id, typed.id]);
    assert.match(table!, /GPa as given\)/);
    assert.doesNotMatch(table!, /handed on/);
  });

  it('infers the hand-on for a selection recorded before the reference was kept: the same B read from a probe among the others', () => {
    const sel = (from: string[], given?: object): ConvergenceSelectionValue => ({
      parameter: 'ecutwfc',
      tested: [{ value: 30, energyEvPerAtom: -57, deltaMevPerAtom: 0 }],
      chosenValue: 30,
      chosen: {},
      criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 79.6 },
      bulkModulus: { valueGPa: 79.6, note: '', from, ...(given ? { given } : {}) },
      converged: true,
    });
    const values: Record<string, unknown> = { 'a-12': sel(['a-3']) };
    const valueOf = (id: string) => values[id];
    assert.deepEqual(bulkModulusSource(sel([]), valueOf, ['a-12']), { from: 'selection', id: 'a-12', inferred: true });
    assert.deepEqual(bulkModulusSource(sel([]), valueOf, []), { from: 'given' });
    // a reference to something that is not a probe's selection is said as the reference
    assert.deepEqual(bulkModulusSource(sel([], { ref: 'a-29.b0GPa' }), valueOf, ['a-12']), { from: 'given', ref: 'a-29.b0GPa' });
  });

  it('says handed on only for a reference to the B a selection read from its probe; another field of that selection is a given value', () => {
    const sel = (from: string[], valueGPa: number, given?: object): ConvergenceSelectionValue => ({
      parameter: 'ecutwfc',
      tested: [{ value: 30, energyEvPerAtom: -57, deltaMevPerAtom: 0 }],
      chosenValue: 30,
      chosen: {},
      criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: valueGPa },
      bulkModulus: { valueGPa, note: '', from, ...(given ? { given } : {}) },
      converged: true,
    });
    const valueOf = (id: string) => (id === 'a-12' ? sel(['a-3'], 79.6) : undefined);
    for (const ref of ['a-12.criterion.bulkModulusGPa', 'a-12.bulkModulus.valueGPa'])
      assert.deepEqual(bulkModulusSource(sel([], 79.6, { ref }), valueOf, []), { from: 'selection', id: 'a-12' }, ref);
    // the chosen cutoff (30 Ry) taken as B, the tolerance, the whole selection: given, said with the reference
    for (const [ref, b] of [
      ['a-12.chosenValue', 30],
      ['a-12.criterion.toleranceLatticePercent', 0.05],
      ['a-12', 79.6],
    ] as const)
      assert.deepEqual(bulkModulusSource(sel([], b, { ref }), valueOf, []), { from: 'given', ref }, ref);
    // the probe's path but not its value (a selection recorded otherwise): given
    assert.deepEqual(bulkModulusSource(sel([], 80, { ref: 'a-12.criterion.bulkModulusGPa' }), valueOf, []), {
      from: 'given',
      ref: 'a-12.criterion.bulkModulusGPa',
    });
  });
});
