import assert from 'node:assert/strict';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { readStructureFile } from '../../../../src/core/dft/io/structureFile';
import type { PhysicalSettings } from '../../../../src/core/dft/types';
import type { MagnetizationValue } from '../../../../src/core/artifacts/relaxation';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';
import { FIXTURES, runDir, seedRun } from './support/seedRun';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance, dir: string): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: dir, signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (args: Record<string, unknown>) => ({
  tool: 'magnetization',
  args,
  refs: {},
  reasons: {},
  context: 't',
  agent: { role: 'dft' as const },
});
const settings = (nspin: 1 | 2): PhysicalSettings => ({
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 25,
  ecutrhoRy: 200,
  pseudopotentials: { Fe: { file: 'Fe.pbe-nd-rrkjus.UPF' } },
  kMesh: [6, 6, 6],
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin,
});
const afm = () => {
  const { source: _s, ...s } = readStructureFile(path.join(FIXTURES, 'dft/magnetism/fe-bcc-afm.in'));
  return s;
};

describe('magnetization', () => {
  it('an antiferromagnet: total, absolute and site moments with the labels of its species', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'dft/magnetism/fe-bcc-afm.out',
      structure: afm(),
      calculation: 'scf',
      settings: settings(2),
      options: { nspin: 2, startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    });
    const out = await guardedCall(registry.get('magnetization')!, call({ energy: run.energy.id }), ctxFor(p, dir));
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const v = p.artifact((out as { outputs: string[] }).outputs[0]!)!.value as MagnetizationValue;
    assert.equal(v.order, 'antiferromagnetic');
    assert.equal(v.siteSource, 'pw.x');
    assert.deepEqual(
      v.sites.map((s) => s.label),
      ['Fe1', 'Fe2'],
    );
    assert.ok(v.absoluteBohrMagnetonPerCell > 3);
    assert.match((out as { summary: string }).summary, /antiferromagnetic, total 0\.01 μB\/cell/);
  });

  it("Löwdin moments from a projwfc.x result of the same SCF replace the sphere moments; another SCF's are refused", async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'dft/magnetism/fe-bcc-afm.out',
      structure: afm(),
      calculation: 'scf',
      settings: settings(2),
      options: { nspin: 2, startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    });
    const lowdin = [
      { atom: 2, total: 7.9, byL: {}, polarization: -2.05 },
      { atom: 1, total: 7.9, byL: {}, polarization: 2.06 },
    ];
    const [pdos] = await seedCall(p, 'run_projwfc', {}, [
      { kind: 'table', name: 'pdos', value: { energiesEv: [], total: [], lowdin }, meta: { scf: run.energy.id } },
    ]);
    const out = await guardedCall(registry.get('magnetization')!, call({ energy: run.energy.id, lowdin: pdos!.id }), ctxFor(p, dir));
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const v = p.artifact((out as { outputs: string[] }).outputs[0]!)!.value as MagnetizationValue;
    assert.equal(v.siteSource, 'löwdin');
    assert.deepEqual(
      v.sites.map((s) => s.momentBohrMagneton),
      [2.06, -2.05],
    );
    const [other] = await seedCall(p, 'run_projwfc', {}, [
      { kind: 'table', name: 'pdos', value: { energiesEv: [], total: [], lowdin }, meta: { scf: 'a-999' } },
    ]);
    const refused = await guardedCall(registry.get('magnetization')!, call({ energy: run.energy.id, lowdin: other!.id }), ctxFor(p, dir));
    assert.equal(refused.status, 'failed');
    assert.match((refused as { error: string }).error, /computed from the SCF a-999/);
  });

  it('refuses an nspin = 1 energy before reading anything (magnetization-needs-spin)', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'dft/magnetism/fe-bcc-afm.out',
      structure: afm(),
      calculation: 'scf',
      settings: settings(1),
    });
    const out = await guardedCall(registry.get('magnetization')!, call({ energy: run.energy.id }), ctxFor(p, dir));
    assert.equal(out.status, 'refused');
    assert.match(JSON.stringify(out), /magnetization-needs-spin.*an nspin = 1 run: it has no magnetization/);
  });
});
