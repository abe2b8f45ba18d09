// A cutoff sweep judged by the forces, through the guarded tools on the real pw.x 6.7 at toy settings:
// diamond Si (a = 5.43 Å, 2-atom cell, Si.pbe-rrkj.UPF) with its second atom 0.15 Å off the symmetric
// site, make_pw_input → generate_series (14, 18, 22, 30 Ry at a 3×3×3 mesh) → run_pw → select_converged_settings.
// Four SCFs of under a second each. The forces settle at 22 Ry, where the total energy is still 1.9 meV/atom
// from the finest run: by energy at 1 meV/atom this sweep shows no converged cutoff at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '../../src/core/agents/toolRegistry';
import type { ConvergenceSelectionValue, EnergyMeta, PwInputValue } from '../../src/core/artifacts/shapes';
import { ApprovalBook } from '../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../src/core/guard/guardedCall';
import type { ProposedCall } from '../../src/core/guard/types';
import type { Structure } from '../../src/core/dft/types';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { LocalRunner } from '../../src/core/hpc/localRunner';
import { MemoryProvenance } from '../unit/core/guard/support/memoryProvenance';
import { MemoryEventLog } from '../unit/core/guard/support/memoryEventLog';

const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const registry = new ToolRegistry();

const DISPLACED: Structure = {
  symbols: ['Si', 'Si'],
  positions: [
    [0, 0, 0],
    [1.5075, 1.3575, 1.3575],
  ],
  pbc: [true, true, true],
  cell: [
    [0, 2.715, 2.715],
    [2.715, 0, 2.715],
    [2.715, 2.715, 0],
  ],
};

describe('a cutoff sweep judged by the forces with pw.x: a displaced Si atom', function () {
  this.timeout(300_000);
  let runDir: string;
  let jobs: JobService;
  before(async () => {
    process.env.OMPI_ALLOW_RUN_AS_ROOT = '1';
    process.env.OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = '1';
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-force-qe-'));
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

  it('the force criterion picks 22 Ry from the forces pw.x printed, where 1 meV/atom of total energy shows no converged cutoff', async () => {
    const provenance = new MemoryProvenance([
      { id: 'a-1', kind: 'structure', name: 'bulk_structure', value: DISPLACED, creatorTool: 'build_bulk' },
    ]);
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
    const call = async (tool: string, args: Record<string, unknown>) => {
      const proposed: ProposedCall = { tool, args, refs: {}, reasons: {}, context: 'qe test', agent: { role: 'dft' } };
      return guardedCall(registry.get(tool)!, proposed, ctx);
    };
    const run = async (tool: string, args: Record<string, unknown>) => {
      const out = await call(tool, args);
      assert.equal(out.status, 'ok', JSON.stringify(out));
      return (out as { outputs: string[] }).outputs.map((id) => provenance.artifact(id)!);
    };
    const t0 = Date.now();
    const [table] = await run('select_pseudopotentials', { elements: ['Si'], functional: 'PBE', prefer: { Si: 'Si.pbe-rrkj.UPF' } });
    const [template] = await run('make_pw_input', {
      structure: 'a-1',
      pseudopotentials: table!.id,
      purpose: 'convergence-test',
      calculation: 'scf',
      ecutwfcRy: 30,
      ecutrhoRy: 120,
      kSpacingPerAngstrom: 0.9,
      occupations: 'fixed',
      nspin: 1,
    });
    // the sweep's inputs compute the forces
    assert.match((template!.value as PwInputValue).text, /tprnfor\s*=\s*\.true\./i);
    assert.deepEqual((template!.value as PwInputValue).settings.kMesh, [3, 3, 3]);
    const inputs = await run('generate_series', { template: template!.id, kind: 'ecutwfc', values: [14, 18, 22, 30] });
    const energies: string[] = [];
    for (const input of inputs.filter((a) => a.name === 'pw_input')) {
      const made = await run('run_pw', { input: input.id, backend: 'local' });
      const e = made.find((a) => a.name === 'total_energy')!;
      assert.equal(e.status, 'final');
      const f = (e.meta as EnergyMeta).forcesEvPerAngstrom as [number, number, number][];
      // the displaced atom is pushed back along x by about 2.2 eV/Å; the two forces sum to zero
      assert.ok(f.length === 2 && f[1]![0] < -2 && Math.abs(f[0]![0] + f[1]![0]) < 1e-5, JSON.stringify(f));
      energies.push(e.id);
    }
    const selection = async (args: Record<string, unknown>) => {
      const [sel] = await run('select_converged_settings', { parameter: 'ecutwfc', energies, ...args });
      return sel!.value as ConvergenceSelectionValue;
    };
    const byForce = await selection({ criterion: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.equal(byForce.converged, true);
    assert.equal(byForce.chosenValue, 22);
    const row = (v: number) => byForce.tested.find((t) => t.value === v)!;
    assert.ok(row(22).deltaForceEvPerAngstrom! < 0.005 && row(18).deltaForceEvPerAngstrom! > 0.005, JSON.stringify(byForce.tested));
    // by energy at 1 meV/atom: 22 Ry is more than 1 meV/atom from 30 Ry, so only the finest passes and the sweep must go on
    const byEnergy = await selection({ criterion: 'energy', toleranceMevPerAtom: 1 });
    assert.equal(byEnergy.converged, false);
    assert.ok(row(22).deltaMevPerAtom > 1, String(row(22).deltaMevPerAtom));
    // the relax template's pair (5 meV/atom beside the forces at half a 0.01-eV/Å threshold) also takes 22 Ry
    const both = await selection({ criterion: 'energy', toleranceMevPerAtom: 5, toleranceForceEvPerAngstrom: 0.005 });
    assert.equal(both.chosenValue, 22);
    console.log(
      `      forces ${byForce.tested.map((t) => `${t.value} Ry: ΔF ${t.deltaForceEvPerAngstrom!.toFixed(4)} eV/Å, ΔE ${t.deltaMevPerAtom.toFixed(2)} meV/atom`).join('; ')}; ` +
        `${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  });
});
