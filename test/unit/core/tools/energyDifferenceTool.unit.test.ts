import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { bulk } from '../../../../src/core/dft/structure/bulk';
import { moleculeInBox } from '../../../../src/core/dft/structure/molecules';
import { slab } from '../../../../src/core/dft/structure/surface';
import type { PhysicalSettings } from '../../../../src/core/dft/types';
import type { EnergyDifferenceValue } from '../../../../src/core/artifacts/relaxation';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedEnergy } from './support/seedEnergy';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (args: Record<string, unknown>) => ({
  tool: 'energy_difference',
  args,
  refs: {},
  reasons: {},
  context: 't',
  agent: { role: 'dft' as const },
});
type Out = { status: string; outputs?: string[]; summary?: string; error?: string };
const rulesFailed = (o: unknown) =>
  ((o as { verdicts?: { rule: string; level: string }[] }).verdicts ?? [])
    .filter((v) => v.level === 'fail')
    .map((v) => v.rule)
    .sort();

const mgo: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PZ',
  ecutwfcRy: 30,
  ecutrhoRy: 240,
  kSpacingPerAngstrom: 0.3,
  pseudopotentials: { Mg: { file: 'Mg.pz-n-vbc.UPF', sha256: 'm' }, O: { file: 'O.pz-rrkjus.UPF', sha256: 'o' } },
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.01,
  nspin: 2,
};
const o2Settings: PhysicalSettings = {
  ...mgo,
  kSpacingPerAngstrom: undefined,
  kMesh: [1, 1, 1],
  pseudopotentials: { O: mgo.pseudopotentials.O! },
} as PhysicalSettings;
delete (o2Settings as { kSpacingPerAngstrom?: number }).kSpacingPerAngstrom;
const magnetization = (total: number, order: string) => ({
  magnetization: { totalBohrMagnetonPerCell: total, absoluteBohrMagnetonPerCell: Math.abs(total), order },
});

async function formationSet(p: MemoryProvenance, over: { mgKind?: 'hcp' | 'fcc'; o2Moment?: number } = {}) {
  const compound = await seedEnergy(p, {
    structure: bulk({ kind: 'rocksalt', symbols: ['Mg', 'O'], aAngstrom: 4.2, cell: 'primitive' }),
    settings: mgo,
    energyEv: -1000,
    meta: magnetization(0, 'non-magnetic'),
  });
  const mg = await seedEnergy(p, {
    structure: bulk({
      kind: over.mgKind ?? 'hcp',
      symbols: ['Mg'],
      aAngstrom: over.mgKind === 'fcc' ? 4.5 : 3.2,
      cell: 'primitive',
      ...(over.mgKind === 'fcc' ? {} : { cAngstrom: 5.2 }),
    }),
    settings: mgo,
    energyEv: -1500,
    meta: magnetization(0, 'non-magnetic'),
  });
  const o2 = await seedEnergy(p, {
    structure: moleculeInBox('O2', 8),
    settings: o2Settings,
    energyEv: -860,
    meta: magnetization(over.o2Moment ?? 2, 'ferromagnetic'),
    options: { startingMagnetization: { O: 0.5 } },
  });
  return { compound, mg, o2 };
}

describe('energy_difference', () => {
  it('formation energy of MgO per formula unit from hcp Mg and triplet O2, the formula stated', async () => {
    const p = new MemoryProvenance();
    const { compound, mg, o2 } = await formationSet(p);
    const out = (await guardedCall(
      registry.get('energy_difference')!,
      call({
        quantity: 'formation_energy',
        energies: [compound.id, mg.id, o2.id],
        coefficients: [1, -0.5, -0.5],
        per: 'formula-unit',
        count: 1,
      }),
      ctxFor(p),
    )) as Out;
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const v = p.artifact(out.outputs![0]!)!.value as EnergyDifferenceValue;
    assert.equal(v.value, -1000 + 750 + 430);
    assert.equal(v.formula, `ΔH_f = [E(MgO, ${compound.id}) − 0.5 × E(Mg2, ${mg.id}) − 0.5 × E(O2, ${o2.id})] / 1 formula unit`);
    assert.deepEqual(
      v.terms.map((t) => t.natoms),
      [2, 2, 2],
    );
  });

  it('refuses a formation energy against fcc Mg (not its ground state) or a non-magnetic O2', async () => {
    const p = new MemoryProvenance();
    const fcc = await formationSet(p, { mgKind: 'fcc' });
    const a = await guardedCall(
      registry.get('energy_difference')!,
      call({
        quantity: 'formation_energy',
        energies: [fcc.compound.id, fcc.mg.id, fcc.o2.id],
        coefficients: [1, -1, -0.5],
        per: 'formula-unit',
        count: 1,
      }),
      ctxFor(p),
    );
    assert.equal(a.status, 'refused');
    assert.deepEqual(rulesFailed(a), ['formation-references-elemental']);
    assert.match(JSON.stringify(a), /Mg's ground state is hcp \(space group 194\), but the reference is in space group 225/);
    const singlet = await formationSet(p, { o2Moment: 0 });
    const b = await guardedCall(
      registry.get('energy_difference')!,
      call({
        quantity: 'formation_energy',
        energies: [singlet.compound.id, singlet.mg.id, singlet.o2.id],
        coefficients: [1, -0.5, -0.5],
        per: 'atom',
        count: 2,
      }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(b), ['formation-references-elemental']);
    assert.match(JSON.stringify(b), /O2 should hold 2 μB \(diatomic molecule, triplet\) but the run converged to 0 μB/);
  });

  it('refuses coefficients that leave atoms over', async () => {
    const p = new MemoryProvenance();
    const { compound, mg, o2 } = await formationSet(p);
    const out = await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'energy_difference', energies: [compound.id, mg.id, o2.id], coefficients: [1, -1, -0.5], per: 'cell' }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(out), ['energy-formula-balanced']);
    assert.match(JSON.stringify(out), /-1 Mg left over/);
  });

  it('surface energy of Al(111): slab minus N bulk atoms over two faces, in eV/Å² and J/m²', async () => {
    const p = new MemoryProvenance();
    const al: PhysicalSettings = {
      code: 'pw.x',
      functional: 'PZ',
      ecutwfcRy: 15,
      ecutrhoRy: 60,
      kSpacingPerAngstrom: 0.3,
      pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF' } },
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 1,
    };
    const s = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.99, size: [1, 1], layers: 3, vacuumAngstrom: 6 });
    const eSlab = await seedEnergy(p, { structure: s, settings: al, energyEv: -171.6 });
    const eBulk = await seedEnergy(p, {
      structure: bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.99, cell: 'primitive' }),
      settings: al,
      energyEv: -57.3,
    });
    const out = (await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'surface_energy', energies: [eSlab.id, eBulk.id], coefficients: [1, -3], per: 'area' }),
      ctxFor(p),
    )) as Out;
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const v = p.artifact(out.outputs![0]!)!.value as EnergyDifferenceValue;
    const area = (((Math.sqrt(3) / 4) * 3.99 ** 2) / 2) * 2;
    assert.ok(Math.abs(v.areaAngstrom2! - area) < 1e-6, `area ${v.areaAngstrom2} vs ${area}`);
    assert.ok(Math.abs(v.value - 0.3 / (2 * area)) < 1e-9);
    assert.equal(v.unit, 'eV/Å^2');
    assert.ok(Math.abs(v.valueJPerM2! - v.value * 16.02176634) < 1e-9);
    // a bulk at another cutoff, or sampled by a mesh with no spacing
    const lowCut = await seedEnergy(p, {
      structure: bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.99, cell: 'primitive' }),
      settings: { ...al, ecutwfcRy: 12, ecutrhoRy: 48 },
      energyEv: -57.2,
    });
    const r1 = await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'surface_energy', energies: [eSlab.id, lowCut.id], coefficients: [1, -3], per: 'area' }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(r1), ['settings-comparable', 'surface-energy-bulk-matches']);
    const { kSpacingPerAngstrom: _k, ...meshOnly } = al;
    const mesh = await seedEnergy(p, {
      structure: bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.99, cell: 'primitive' }),
      settings: { ...meshOnly, kMesh: [12, 12, 12] },
      energyEv: -57.3,
    });
    const r2 = await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'surface_energy', energies: [eSlab.id, mesh.id], coefficients: [1, -3], per: 'area' }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(r2), ['surface-energy-bulk-matches']);
    assert.match(JSON.stringify(r2), /a mesh without a spacing/);
  });

  it('magnetic ordering energy: spin-polarised FM and AFM runs that kept their orders; the same order twice is refused', async () => {
    const p = new MemoryProvenance();
    const fe: PhysicalSettings = {
      code: 'pw.x',
      functional: 'PBE',
      ecutwfcRy: 25,
      ecutrhoRy: 200,
      kSpacingPerAngstrom: 0.3,
      pseudopotentials: { Fe: { file: 'Fe.pbe-nd-rrkjus.UPF' } },
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 2,
    };
    const cell = bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'conventional' });
    const fm = await seedEnergy(p, {
      structure: cell,
      settings: fe,
      energyEv: -1517.8,
      meta: magnetization(4.6, 'ferromagnetic'),
      options: { startingMagnetization: { Fe: 0.5 } },
    });
    const afm = await seedEnergy(p, {
      structure: { ...cell, labels: ['Fe1', 'Fe2'] },
      settings: fe,
      energyEv: -1517.0,
      meta: magnetization(0, 'antiferromagnetic'),
      options: { startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    });
    const ok = (await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'magnetic_ordering_energy', energies: [afm.id, fm.id], coefficients: [1, -1], per: 'magnetic-atom', count: 2 }),
      ctxFor(p),
    )) as Out;
    assert.equal(ok.status, 'ok', JSON.stringify(ok));
    assert.ok(Math.abs((p.artifact(ok.outputs![0]!)!.value as EnergyDifferenceValue).value - 0.4) < 1e-9);
    const collapsed = await seedEnergy(p, {
      structure: { ...cell, labels: ['Fe1', 'Fe2'] },
      settings: fe,
      energyEv: -1517.8,
      meta: magnetization(4.6, 'ferromagnetic'),
      options: { startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    });
    const same = await guardedCall(
      registry.get('energy_difference')!,
      call({
        quantity: 'magnetic_ordering_energy',
        energies: [collapsed.id, fm.id],
        coefficients: [1, -1],
        per: 'magnetic-atom',
        count: 2,
      }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(same), ['magnetization-needs-spin']);
    assert.match(JSON.stringify(same), /ended in the same magnetic order/);
  });

  it('refuses the energy of a relaxation whose output is above its thresholds', async () => {
    const p = new MemoryProvenance();
    const al: PhysicalSettings = {
      code: 'pw.x',
      functional: 'PZ',
      ecutwfcRy: 15,
      ecutrhoRy: 60,
      kSpacingPerAngstrom: 0.3,
      pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF' } },
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.02,
      nspin: 1,
    };
    const s = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.99, size: [1, 1], layers: 3, vacuumAngstrom: 6 });
    const relaxation = {
      calculation: 'relax',
      converged: false,
      problems: ['steps-exhausted'],
      failureKind: 'steps-exhausted',
      maxForceEvPerAngstrom: 0.4,
      forceThresholdEvPerAngstrom: 0.0257,
    };
    const eSlab = await seedEnergy(p, { structure: s, settings: al, energyEv: -171.6, calculation: 'relax', meta: { relaxation } });
    const eBulk = await seedEnergy(p, {
      structure: bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.99, cell: 'primitive' }),
      settings: al,
      energyEv: -57.3,
    });
    const out = await guardedCall(
      registry.get('energy_difference')!,
      call({ quantity: 'surface_energy', energies: [eSlab.id, eBulk.id], coefficients: [1, -3], per: 'area' }),
      ctxFor(p),
    );
    assert.deepEqual(rulesFailed(out), ['relaxation-under-thresholds']);
    assert.match(JSON.stringify(out), /largest force component 0\.4 eV\/Å is above forc_conv_thr 0\.0257 eV\/Å/);
  });
});
