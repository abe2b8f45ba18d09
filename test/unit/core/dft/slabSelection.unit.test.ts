import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import type { GuardedOutcome } from '../../../../src/core/guard/types';
import { slab } from '../../../../src/core/dft/structure/surface';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';
import { selectConvergedSlab, type SlabVariant } from '../../../../src/core/dft/slabSelection';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const v = (layers: number, valueEv: number, vacuumAngstrom = 10): SlabVariant => ({
  layers,
  vacuumAngstrom,
  fixedLayers: Math.floor(layers / 2),
  valueEv,
  slab: `a-${layers}`,
  source: `a-${100 + layers}`,
});

describe('slab selection', () => {
  it('chooses the thinnest slab from which every thicker one is within the tolerance of the thickest', () => {
    const sel = selectConvergedSlab([v(5, 0.15), v(3, 0.21), v(4, 0.158), v(6, 0.152)], 'layers', 0.02);
    assert.equal(sel.converged, true);
    assert.equal(sel.chosen.layers, 4);
    assert.deepEqual(
      sel.tested.map((t) => t.layers),
      [3, 4, 5, 6],
    );
    assert.deepEqual(
      sel.tested.map((t) => Math.round(t.deviationEv * 1000)),
      [58, 6, 2, 0],
    );
  });

  it('does not take a lucky thin slab when a thicker one is off', () => {
    // 3 layers happens to agree with 6, but 4 does not: 3 cannot be trusted
    const sel = selectConvergedSlab([v(3, 0.151), v(4, 0.19), v(5, 0.155), v(6, 0.15)], 'layers', 0.02);
    assert.equal(sel.chosen.layers, 5);
  });

  it('says convergence is not shown when only the largest slab qualifies, and what to add', () => {
    const sel = selectConvergedSlab([v(3, 0.3), v(4, 0.2)], 'layers', 0.02);
    assert.equal(sel.converged, false);
    assert.match(sel.advice!, /Add slabs with layers 5 and 6/);
  });

  it('refuses sweeps that vary two things, repeat a slab, or have one slab', () => {
    assert.throws(() => selectConvergedSlab([v(3, 0.1, 8), v(4, 0.1, 10)], 'layers', 0.02), /keep the vacuum fixed/);
    assert.throws(() => selectConvergedSlab([v(3, 0.1), v(3, 0.12)], 'layers', 0.02), /same layers/);
    assert.throws(() => selectConvergedSlab([v(3, 0.1)], 'layers', 0.02), /at least two slabs/);
    assert.throws(() => selectConvergedSlab([v(3, 0.1), v(4, 0.1)], 'layers', 0), /tolerance 0 eV is not positive/);
  });
});

describe('select_converged_slab through the guard', () => {
  const registry = new ToolRegistry();
  const ctxFor = (p: MemoryProvenance): GuardContext => ({
    provenance: p,
    approvals: new ApprovalBook(new MemoryEventLog()),
    policy: 'auto-approve',
    run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
  });
  const settings = {
    code: 'pw.x',
    functional: 'PBE',
    ecutwfcRy: 47,
    ecutrhoRy: 402,
    pseudopotentials: { Pt: { file: 'Pt.UPF' } },
    kSpacingPerAngstrom: 0.3,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
  };

  /** A slab and a ΔBE computed from it, through an intermediate energy, as the workflow records them. */
  async function sweepPoint(p: MemoryProvenance, layers: number, dbe: number): Promise<{ slab: ArtifactRecord; dbe: ArtifactRecord }> {
    const [s] = await seedCall(p, 'build_slab', { layers }, [
      {
        kind: 'structure',
        name: 'slab',
        value: slab({
          facet: 'fcc111',
          symbol: 'Pt',
          aAngstrom: 3.98,
          size: [2, 2],
          layers,
          vacuumAngstrom: 10,
          fixedLayers: Math.floor(layers / 2),
        }),
      },
    ]);
    const [e] = await seedCall(p, 'run_pw', { input: s!.id }, [
      { kind: 'scalar', name: 'total_energy', value: -100 * layers, unit: 'eV', meta: { settings } },
    ]);
    const [d] = await seedCall(p, 'delta_be', { ontop: e!.id }, [
      { kind: 'scalar', name: 'delta_be', value: dbe, unit: 'eV', meta: { settings } },
    ]);
    return { slab: s!, dbe: d! };
  }

  it("finds each value's slab upstream, and returns the table and the chosen slab", async () => {
    const p = new MemoryProvenance();
    const pts = [await sweepPoint(p, 2, 0.31), await sweepPoint(p, 3, 0.17), await sweepPoint(p, 4, 0.16)];
    const out: GuardedOutcome = await guardedCall(
      registry.get('select_converged_slab')!,
      {
        tool: 'select_converged_slab',
        args: { values: pts.map((x) => x.dbe.id), dimension: 'layers', toleranceEv: 0.02 },
        refs: {},
        reasons: {},
        context: 'test',
        agent: { role: 'dft' },
      },
      ctxFor(p),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = (out as { outputs: string[] }).outputs.map((id) => p.artifact(id)!);
    const table = made.find((a) => a.name === 'converged_slab')!;
    const chosen = made.find((a) => a.name === 'slab')!;
    assert.equal((table.value as { chosen: { layers: number } }).chosen.layers, 3);
    assert.equal(chosen.contentHash, pts[1]!.slab.contentHash, 'the 3-layer slab, unchanged');
    assert.ok(chosen.inputs.includes(pts[1]!.slab.id), 'derived from the chosen slab');
    assert.equal(chosen.status, 'final');
  });

  it('an unconverged sweep gives provisional results, which later steps cannot use', async () => {
    const p = new MemoryProvenance();
    const pts = [await sweepPoint(p, 2, 0.31), await sweepPoint(p, 3, 0.17)];
    const out = await guardedCall(
      registry.get('select_converged_slab')!,
      {
        tool: 'select_converged_slab',
        args: { values: pts.map((x) => x.dbe.id), dimension: 'layers', toleranceEv: 0.02 },
        refs: {},
        reasons: {},
        context: 'test',
        agent: { role: 'dft' },
      },
      ctxFor(p),
    );
    assert.equal(out.status, 'ok');
    const made = (out as { outputs: string[] }).outputs.map((id) => p.artifact(id)!);
    assert.ok(made.every((a) => a.status === 'provisional'));
  });
});
