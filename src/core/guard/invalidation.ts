/**
 * A changed cutoff invalidates the tests that depended on the old one: when a cutoff
 * selection chooses a new ecutwfc, every k-point convergence test run at another cutoff,
 * and everything computed from it, becomes stale and must be redone.
 */
import type { ArtifactRecord } from '../provenance/types';
import type { PhysicalSettings } from '../dft/types';
import { ARTIFACT, type ConvergenceSelectionValue } from '../artifacts/shapes';
import type { ProvenanceWriter } from '../provenance/view';
import { downstreamArtifacts } from '../provenance/upstream';

const selection = (a: ArtifactRecord): ConvergenceSelectionValue | undefined =>
  a.name === ARTIFACT.convergedSettings ? (a.value as ConvergenceSelectionValue) : undefined;

export async function invalidateAfterCutoffChange(provenance: ProvenanceWriter, registered: ArtifactRecord[]): Promise<string[]> {
  const newCutoff = registered.find((a) => a.status === 'final' && selection(a)?.parameter === 'ecutwfc');
  const ecut = newCutoff ? selection(newCutoff)!.chosen.ecutwfcRy : undefined;
  if (!newCutoff || ecut === undefined) return [];
  const outdated = provenance
    .artifacts()
    .filter(
      (a) =>
        a.status === 'final' &&
        selection(a)?.parameter === 'kspacing' &&
        (a.meta?.settings as PhysicalSettings | undefined)?.ecutwfcRy !== ecut,
    );
  if (outdated.length === 0) return [];
  const ids = outdated.map((a) => a.id);
  const stale = [...ids, ...downstreamArtifacts(provenance, ids)].filter((id) => provenance.artifact(id)?.status === 'final');
  const at = outdated.map((a) => `${a.id} at ${(a.meta?.settings as PhysicalSettings | undefined)?.ecutwfcRy} Ry`).join(', ');
  await provenance.markStatus(
    stale,
    'stale',
    `the cutoff changed to ${ecut} Ry (${newCutoff.id}); k-point tests ${at} must be redone at the new cutoff`,
  );
  return stale;
}
