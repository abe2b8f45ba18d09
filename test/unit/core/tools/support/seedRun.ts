/**
 * A finished pw.x run as make_pw_input and run_pw record it, seeded from a real pw.x output:
 * the input (structure, calculation, settings, options), the output file in a run directory,
 * and the total energy with the meta run_pw computes from that output (runFactsMeta).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output';
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import type { PhysicalSettings, Structure } from '../../../../../src/core/dft/types';
import type { PwInputOptions } from '../../../../../src/core/dft/qe/pwInput';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';
import { runFactsMeta } from '../../../../../src/core/tools/runFacts';
import { ryToEv } from '../../../../../src/core/units';
import type { MemoryProvenance } from '../../guard/support/memoryProvenance';
import { seedCall } from '../../guard/support/seedCall';

export const FIXTURES = path.resolve(__dirname, '../../../../fixtures');

export function runDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-tools-'));
}

export interface SeededRun {
  input: ArtifactRecord;
  output: ArtifactRecord;
  energy: ArtifactRecord;
}

export async function seedRun(
  p: MemoryProvenance,
  dir: string,
  o: {
    outputFile: string;
    structure: Structure;
    calculation: string;
    settings: PhysicalSettings;
    options?: Partial<PwInputOptions>;
    energyEv?: number;
    status?: 'final' | 'provisional';
  },
): Promise<SeededRun> {
  const text = fs.readFileSync(path.join(FIXTURES, o.outputFile), 'utf8');
  const out = parsePwOutput(text);
  const options = { purpose: 'production', calculation: o.calculation, ...(o.options ?? {}) } as PwInputOptions;
  const [input] = await seedCall(p, 'make_pw_input', {}, [
    {
      kind: 'qe-input',
      name: 'pw_input',
      value: { text: '', calculation: o.calculation, structure: o.structure, settings: o.settings, options },
    },
  ]);
  const facts = runFactsMeta({ calculation: o.calculation, structure: o.structure, settings: o.settings, options }, out);
  const last = out.ionicSteps.at(-1);
  const cell = last?.cellAngstrom ?? o.structure.cell;
  const [output, energy] = await seedCall(p, 'run_pw', { input: input!.id }, [
    { kind: 'file', name: 'pw_output', meta: { job: 'j-1', state: 'completed' } },
    {
      kind: 'scalar',
      name: 'total_energy',
      value: o.energyEv ?? ryToEv(out.totalEnergyRy!),
      unit: 'eV',
      status: o.status ?? 'final',
      meta: {
        settings: o.settings,
        natoms: o.structure.symbols.length,
        volumeAngstrom3: cellVolume(cell),
        formula: '',
        scfConverged: out.scfConverged,
        cellAngstrom: cell,
        purpose: 'production',
        ...(last && (o.calculation === 'relax' || o.calculation === 'vc-relax')
          ? { finalPositionsAngstrom: last.positionsAngstrom, ionicSteps: out.ionicSteps.length }
          : {}),
        ...facts,
      },
    },
  ]);
  const location = `files/${output!.id}/pw.out`;
  fs.mkdirSync(path.join(dir, 'files', output!.id), { recursive: true });
  fs.writeFileSync(path.join(dir, location), text);
  output!.location = location;
  return { input: input!, output: output!, energy: energy! };
}
