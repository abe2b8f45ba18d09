/** A total energy as run_pw records it (meta and the make_pw_input input behind it), without a pw.x output file. */
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import type { PhysicalSettings, Structure } from '../../../../../src/core/dft/types';
import type { PwInputOptions } from '../../../../../src/core/dft/qe/pwInput';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';
import type { ProvenanceWriter } from '../../../../../src/core/provenance/view';
import { seedCall } from '../../guard/support/seedCall';

export async function seedEnergy(
  p: ProvenanceWriter,
  o: {
    structure: Structure;
    settings: PhysicalSettings;
    energyEv: number;
    calculation?: string;
    options?: Partial<PwInputOptions>;
    meta?: Record<string, unknown>;
    status?: 'final' | 'provisional';
  },
): Promise<ArtifactRecord> {
  const calculation = o.calculation ?? 'scf';
  const options = { purpose: 'production', calculation, nspin: o.settings.nspin, ...(o.options ?? {}) };
  const [input] = await seedCall(p, 'make_pw_input', {}, [
    {
      kind: 'qe-input',
      name: 'pw_input',
      value: { text: `! ${o.energyEv}`, calculation, structure: o.structure, settings: o.settings, options },
    },
  ]);
  const [energy] = await seedCall(p, 'run_pw', { input: input!.id }, [
    {
      kind: 'scalar',
      name: 'total_energy',
      value: o.energyEv,
      unit: 'eV',
      status: o.status ?? 'final',
      meta: {
        settings: o.settings,
        natoms: o.structure.symbols.length,
        volumeAngstrom3: cellVolume(o.structure.cell),
        formula: '',
        scfConverged: true,
        cellAngstrom: o.structure.cell,
        purpose: 'production',
        ...(o.meta ?? {}),
      },
    },
  ]);
  return energy!;
}
