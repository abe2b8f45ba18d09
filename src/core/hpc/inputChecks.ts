/**
 * Checks that tie a pw.x input to the files the job stages. Full input validation
 * belongs to the QE input module; these catch what would make a job run with other
 * files than the ones recorded for it.
 */
import type { JobRecord } from './types';

/** Pseudopotential file names named in ATOMIC_SPECIES (third column). */
export function speciesPseudopotentials(input: string): string[] {
  const lines = input.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*ATOMIC_SPECIES\b/i.test(l));
  if (start < 0) return [];
  const files: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const t = line.replace(/[!#].*$/, '').trim();
    if (!t) continue;
    const cols = t.split(/\s+/);
    if (cols.length < 3 || /^[A-Z_]+(\s|$|\()/.test(t) || t.startsWith('&') || t === '/') break;
    files.push(cols[2]!);
  }
  return files;
}

export function checkPwInputForJob(input: string, job: Pick<JobRecord, 'id' | 'pseudopotentials'>): void {
  if (job.pseudopotentials.length === 0) return;
  const setting = /^\s*pseudo_dir\s*=\s*(['"])(.*?)\1/im.exec(input);
  if (setting) {
    throw new Error(
      `job ${job.id}: the input sets pseudo_dir = '${setting[2]}', so pw.x would read pseudopotentials from there instead of the ${job.pseudopotentials.length} file(s) staged with the job. ` +
        `Remove pseudo_dir from &CONTROL (the runner points pw.x at the staged files), or stage no pseudopotentials with the job.`,
    );
  }
  const staged = new Set(job.pseudopotentials.map((p) => p.name));
  const missing = speciesPseudopotentials(input).filter((f) => !staged.has(f));
  if (missing.length > 0) {
    throw new Error(`job ${job.id}: ATOMIC_SPECIES names ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not among the staged pseudopotentials (${[...staged].join(', ')}); add ${missing.length === 1 ? 'it' : 'them'} to the job.`);
  }
}
