/** Reading referenced total energies (value, settings, cell) inside tool bodies. */
import type { ArtifactRecord } from '../provenance/types';
import { ARTIFACT, type EnergyMeta } from '../artifacts/shapes';
import { service, type CatalogueContext } from './services';

export interface EnergyInput {
  ref: string;
  artifact: ArtifactRecord;
  energyEv: number;
  meta: EnergyMeta;
}

export function energyInputs(ctx: CatalogueContext, refs: string[], tool: string): EnergyInput[] {
  const view = service(ctx, 'provenance', tool, 'the guard passes the run provenance to every call');
  return refs.map((ref) => {
    const id = ref.split('.')[0]!;
    const artifact = view.artifact(id);
    if (!artifact || artifact.name !== ARTIFACT.totalEnergy || typeof artifact.value !== 'number' || !artifact.meta?.settings) {
      throw new Error(`${tool}: ${ref} is not a total energy from run_pw (with its settings); reference the energies run_pw returned.`);
    }
    return { ref, artifact, energyEv: artifact.value, meta: artifact.meta as EnergyMeta };
  });
}
