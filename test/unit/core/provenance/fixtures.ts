import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRun, type Run } from '../../../../src/core/run/directory';
import type { NewCall } from '../../../../src/core/provenance/registry';
import type { ArgumentRecord } from '../../../../src/core/provenance/types';

/** Fresh runs in temp directories, closed and removed after the suite. */
export function useRuns(): () => Promise<Run> {
  const runs: Run[] = [];
  const dirs: string[] = [];
  after(async () => {
    for (const r of runs) await r.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-prov-'));
    dirs.push(root);
    const run = await createRun(root, { objective: 'lattice constant of fcc Al', slug: 'al', software: { 'pw.x': '6.7' } });
    runs.push(run);
    return run;
  };
}

export function call(tool: string, args: Record<string, ArgumentRecord> = {}, extra: Partial<NewCall> = {}): NewCall {
  const reasons = Object.fromEntries(Object.keys(args).map((k) => [k, `reason for ${k}`]));
  return { tool, args, reasons, context: `step ${tool}`, verdicts: [], agent: { role: 'dft', model: 'claude-test' }, ...extra };
}

export const AL_SCF_INPUT = (pseudoDir: string): string => `&control
  calculation = 'scf'
  pseudo_dir = '${pseudoDir}'
/
&system
  ibrav = 2, celldm(1) = 7.63, nat = 1, ntyp = 1, ecutwfc = 30
  occupations = 'smearing', smearing = 'mv', degauss = 0.02
/
&electrons
/
ATOMIC_SPECIES
  Al  26.98  Al.pz-vbc.UPF
ATOMIC_POSITIONS alat
  Al 0.0 0.0 0.0
K_POINTS automatic
  8 8 8 0 0 0
`;

/**
 * A small lattice-constant run through the real registry:
 *   c-1 converge_cutoff → a-1 (table)
 *   c-2 write_pw_input(ecutwfc ← a-1.chosen.ecutwfcRy) → a-2 (qe-input file)
 *   c-3 pw_scf(input ← a-2) → a-3 (qe-output file), a-4 (total_energy)
 *   c-4 fit_eos(energy ← a-4) → a-5 (lattice_constant)
 *   c-5 pw_scf of Si (unrelated) → a-6
 */
export async function latticeConstantRun(run: Run, pseudoDir: string, pseudoSha256?: string): Promise<void> {
  const r = run.registry;
  const c1 = await r.recordCall(call('converge_cutoff', { element: { value: 'Al' }, ecutwfcListRy: { value: [20, 25, 30] } }));
  await r.registerArtifacts(c1.id, [
    {
      kind: 'table',
      name: 'cutoff_convergence',
      value: {
        chosen: { ecutwfcRy: 30 },
        rows: [
          [20, -57.1],
          [25, -57.19],
          [30, -57.2],
        ],
      },
    },
  ]);
  await r.endCall(c1.id, { status: 'ok' });
  const c2 = await r.recordCall(call('write_pw_input', { ecutwfc: { value: 30, ref: 'a-1.chosen.ecutwfcRy' }, kspacing: { value: 0.2 } }));
  const pseudopotentials = { Al: { file: 'Al.pz-vbc.UPF', ...(pseudoSha256 ? { sha256: pseudoSha256 } : {}) } };
  await r.registerArtifacts(c2.id, [
    {
      kind: 'qe-input',
      name: 'pw_input',
      value: { calculation: 'scf' },
      file: { name: 'al.scf.in', bytes: AL_SCF_INPUT(pseudoDir) },
      meta: { settings: { pseudopotentials } },
    },
  ]);
  await r.endCall(c2.id, { status: 'ok' });
  const c3 = await r.recordCall(call('pw_scf', { input: { value: r.artifact('a-2')!.location, ref: 'a-2' } }));
  await r.registerArtifacts(c3.id, [
    {
      kind: 'qe-output',
      name: 'pw_output',
      value: { totalEnergyRy: -4.2, scfConverged: true },
      file: { name: 'al.scf.out', bytes: '!    total energy = -4.2 Ry\n' },
    },
    { kind: 'scalar', name: 'total_energy', value: -57.2, unit: 'eV' },
  ]);
  await r.endCall(c3.id, { status: 'ok' });
  const c4 = await r.recordCall(call('fit_eos', { energy: { value: -57.2, ref: 'a-4' } }));
  await r.registerArtifacts(c4.id, [{ kind: 'scalar', name: 'lattice_constant', value: 4.04, unit: 'Å' }]);
  await r.endCall(c4.id, { status: 'ok' });
  const c5 = await r.recordCall(call('pw_scf', { element: { value: 'Si' } }));
  await r.registerArtifacts(c5.id, [{ kind: 'scalar', name: 'total_energy', value: -310.1, unit: 'eV' }]);
  await r.endCall(c5.id, { status: 'ok' });
}
