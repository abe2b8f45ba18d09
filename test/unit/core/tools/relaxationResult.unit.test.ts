import assert from 'node:assert/strict';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { readStructureFile } from '../../../../src/core/dft/io/structureFile';
import type { PhysicalSettings } from '../../../../src/core/dft/types';
import type { RelaxationValue } from '../../../../src/core/artifacts/relaxation';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { FIXTURES, runDir, seedRun } from './support/seedRun';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance, dir: string): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: dir, signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (tool: string, args: Record<string, unknown>) => ({
  tool,
  args,
  refs: {},
  reasons: {},
  context: 't',
  agent: { role: 'dft' as const },
});
const settings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 16,
  ecutrhoRy: 64,
  pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF' } },
  kMesh: [3, 3, 3],
  occupations: 'fixed',
  nspin: 1,
};
const structure = (name: string) => {
  const { source: _s, ...s } = readStructureFile(path.join(FIXTURES, 'qe/runs', name));
  return s;
};

describe('relaxation_result', () => {
  it('a converged vc-relax: final energy, forces, stress, volume, trajectory and the checks, final', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-vc-relax.out',
      structure: structure('si-vc-relax.in'),
      calculation: 'vc-relax',
      settings,
    });
    const out = await guardedCall(
      registry.get('relaxation_result')!,
      call('relaxation_result', { relaxation: run.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = p.artifact((out as { outputs: string[] }).outputs[0]!)!;
    assert.equal(made.name, 'relaxation');
    assert.equal(made.status, 'final');
    const v = made.value as RelaxationValue;
    assert.equal(v.converged, true);
    assert.equal(v.steps.length, 8);
    assert.equal(v.pressureKbar, -0.09);
    assert.ok(Math.abs(v.volumeAngstrom3 - 41.59082) < 1e-3);
    assert.ok(v.startVolumeAngstrom3 !== v.volumeAngstrom3);
    assert.equal(v.kpointCount, 10);
    assert.equal(v.formula, 'Si2');
    // what the relaxation lowered: the final energy against the first geometry's, both as pw.x printed them
    assert.equal(v.initialEnergyEv, v.steps[0]!.energyEv);
    assert.ok(v.initialEnergyEv !== undefined && v.relaxationEnergyEv !== undefined);
    assert.equal(v.relaxationEnergyEv, v.finalEnergyEv - v.initialEnergyEv);
    assert.ok(v.relaxationEnergyEv < 0, String(v.relaxationEnergyEv));
    assert.deepEqual(
      v.checks.map((c) => [c.quantity, c.within]),
      [
        ['force', true],
        ['stress', true],
      ],
    );
    assert.match((out as { summary: string }).summary, /converged: largest force component/);
  });

  it('a vc-relax above its thresholds in the final SCF gives a provisional result naming why, even from an energy left final', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    // run_pw marks such a run provisional; an energy recorded final (a run from before it did) is read again here
    const run = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-vc-final.out',
      structure: structure('si-vc-final.in'),
      calculation: 'vc-relax',
      settings: { ...settings, ecutwfcRy: 10, ecutrhoRy: 40 },
    });
    const out = await guardedCall(
      registry.get('relaxation_result')!,
      call('relaxation_result', { relaxation: run.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = p.artifact((out as { outputs: string[] }).outputs[0]!)!;
    assert.equal(made.status, 'provisional');
    assert.equal((made.value as RelaxationValue).failureKind, 'final-scf-above-thresholds');
    assert.match((out as { summary: string }).summary, /NOT converged \(provisional\): final-scf-above-thresholds/);
  });

  it('refuses a provisional relaxation energy: the advisor, not a result, is what an unconverged run needs', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-relax-nstep.out',
      structure: structure('si-relax-nstep.in'),
      calculation: 'relax',
      settings,
      status: 'provisional',
    });
    const out = await guardedCall(
      registry.get('relaxation_result')!,
      call('relaxation_result', { relaxation: run.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(out.status, 'refused');
    assert.match(JSON.stringify(out), /no-provisional-support/);
  });

  it('refuses the energy of an SCF, which relaxes nothing', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const run = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-relax.out',
      structure: structure('si-relax.in'),
      calculation: 'scf',
      settings,
    });
    const out = await guardedCall(
      registry.get('relaxation_result')!,
      call('relaxation_result', { relaxation: run.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(out.status, 'failed');
    assert.match((out as { error: string }).error, /calculation='scf' run, which does not relax anything/);
  });
});

describe('relaxed_structure under the relaxation-under-thresholds rule', () => {
  it('takes the geometry of a converged relax and refuses one whose output is above its thresholds', async () => {
    const p = new MemoryProvenance();
    const dir = runDir();
    const good = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-relax.out',
      structure: structure('si-relax.in'),
      calculation: 'relax',
      settings,
    });
    const ok = await guardedCall(
      registry.get('relaxed_structure')!,
      call('relaxed_structure', { relaxation: good.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(ok.status, 'ok', JSON.stringify(ok));
    // BFGS said converged, but the final SCF at the relaxed cell is 6.5 kbar off; the energy was (wrongly) left final
    const bad = await seedRun(p, dir, {
      outputFile: 'qe/runs/si-vc-final.out',
      structure: structure('si-vc-final.in'),
      calculation: 'vc-relax',
      settings,
    });
    const refused = await guardedCall(
      registry.get('relaxed_structure')!,
      call('relaxed_structure', { relaxation: bad.energy.id }),
      ctxFor(p, dir),
    );
    assert.equal(refused.status, 'refused', JSON.stringify(refused));
    assert.match(JSON.stringify(refused), /relaxation-under-thresholds.*final-scf-above-thresholds.*above press_conv_thr 0\.2 kbar/);
  });
});
