/**
 * What the band-structure and DOS rules read of the SCF a call names: its total_energy, the
 * pw_input its run_pw call ran, and the settings both carry. Read from the provenance only.
 */
import type { EnergyMeta, PwInputValue } from '../../artifacts/shapes';
import { ARTIFACT } from '../../artifacts/shapes';
import type { ArtifactRecord } from '../../provenance/types';
import { isRef, resolveRef, type ProvenanceView } from '../../provenance/view';

export interface ScfRecord {
  energy: ArtifactRecord;
  meta: EnergyMeta;
  input?: PwInputValue;
}

/** The SCF behind a total_energy reference, or why there is none. */
export function scfOfEnergy(view: ProvenanceView, ref: unknown): ScfRecord | string {
  if (!isRef(ref)) return `no SCF referenced (got ${JSON.stringify(ref)})`;
  const r = resolveRef(view, ref);
  if (!r.ok) return `${ref} does not resolve: ${r.problem}`;
  if (r.artifact.name !== ARTIFACT.totalEnergy) return `${ref} is a "${r.artifact.name}", not the total_energy of an SCF`;
  const call = view.call(r.artifact.creator);
  const arg = call?.args.input;
  const inputRef = arg?.ref ?? (typeof arg?.value === 'string' && isRef(arg.value) ? arg.value : undefined);
  const input = inputRef ? resolveRef(view, inputRef) : undefined;
  return { energy: r.artifact, meta: r.artifact.meta as EnergyMeta, ...(input?.ok ? { input: input.value as PwInputValue } : {}) };
}
