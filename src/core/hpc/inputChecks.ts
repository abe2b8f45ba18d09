/**
 * Checks that tie a pw.x input to the files the job stages. Full input validation
 * belongs to the QE input module; these catch what would make a job run with other
 * files than the ones recorded for it.
 */
import { pseudopotentialsNamed } from '../dft/qe/jobFacts';
import type { JobRecord } from './types';

export function checkPwInputForJob(text: string, job: Pick<JobRecord, 'id' | 'pseudopotentials'>): void {
  if (job.pseudopotentials.length === 0) return;
  const { pseudoDir, files: named } = pseudopotentialsNamed(text);
  if (pseudoDir !== undefined) {
    throw new Error(
      `job ${job.id}: the input sets pseudo_dir = '${pseudoDir}', so pw.x would read pseudopotentials from there instead of the ${job.pseudopotentials.length} file(s) staged with the job. ` +
        `Remove pseudo_dir from &CONTROL (the runner points pw.x at the staged files), or stage no pseudopotentials with the job.`,
    );
  }
  const staged = new Set(job.pseudopotentials.map((p) => p.name));
  const missing = named.filter((f) => !staged.has(f));
  if (missing.length > 0) {
    throw new Error(
      `job ${job.id}: ATOMIC_SPECIES names ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not among the staged pseudopotentials (${[...staged].join(', ')}); add ${missing.length === 1 ? 'it' : 'them'} to the job.`,
    );
  }
}
