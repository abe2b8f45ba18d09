/**
 * A job that continues an earlier one: an NSCF or bands pw.x run reads its SCF's charge
 * density, and bands.x, dos.x and projwfc.x read the wavefunctions of the run before them,
 * all from <outdir>/<prefix>.save. The child gets its own copy of the parent's save
 * directory (the parent's files are never changed, and a second child of the same SCF starts
 * from the same charge density): copied by the local runner before the program starts, or by
 * the batch script on a cluster, with every path quoted. Both outdirs must be relative paths
 * inside their job directories and the prefixes equal, or the program would not find the files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { scratchPlaceOf } from '../dft/qe/jobFacts';
import { shellQuote } from './shellQuote';
import type { JobParent, JobProgram, JobRecord } from './types';

/** outdir normalised ('out', '.'), or undefined when it is not a relative path inside the job directory. */
function insideJob(outdir: string | undefined): string | undefined {
  const p = path.posix.normalize(outdir ?? './').replace(/\/+$/, '') || '.';
  if (path.posix.isAbsolute(p) || p === '..' || p.startsWith('../')) return undefined;
  return p;
}

/** The parent link of a new job, or an error that says what to change. */
export function continuation(
  parent: JobRecord,
  program: JobProgram,
  inputText: string,
  backend: string,
  jobDir: (id: string) => string,
): JobParent {
  if (parent.state !== 'completed') {
    throw new Error(
      `job ${parent.id} is ${parent.state}, not completed: a ${program} run can only continue a job that finished, since it reads that job's saved files. Wait for it, or run it again.`,
    );
  }
  if (parent.backend !== backend) {
    throw new Error(
      `job ${parent.id} ran on "${parent.backend}", so its files are there: run the ${program} job on "${parent.backend}" too (asked: "${backend}").`,
    );
  }
  const parentText = fs.readFileSync(path.join(jobDir(parent.id), parent.input), 'utf8');
  const from = scratchPlaceOf(parent.program, parentText);
  const to = scratchPlaceOf(program, inputText);
  const fromDir = insideJob(from.outdir);
  const toDir = insideJob(to.outdir);
  if (from.outdir === undefined || fromDir === undefined) {
    throw new Error(
      `job ${parent.id}'s input ${from.outdir === undefined ? 'leaves outdir to the program' : `sets outdir = '${from.outdir}'`}, so its saved files are not known to be inside its job directory; ` +
        "give the SCF an explicit relative outdir (e.g. './out') to continue it.",
    );
  }
  if (to.outdir === undefined || toDir === undefined) {
    throw new Error(
      `the ${program} input ${to.outdir === undefined ? 'leaves outdir to the program' : `sets outdir = '${to.outdir}'`}; give it a relative outdir inside its job directory (e.g. './out'), where job ${parent.id}'s files are copied.`,
    );
  }
  if (from.prefix !== to.prefix || from.prefix.includes('/') || from.prefix === '') {
    throw new Error(
      `the ${program} input has prefix '${to.prefix}' but job ${parent.id} wrote '${from.prefix}': ${program} reads <outdir>/<prefix>.save, so give it prefix '${from.prefix}'.`,
    );
  }
  const save = `${from.prefix}.save`;
  return {
    job: parent.id,
    save: fromDir === '.' ? save : `${fromDir}/${save}`,
    into: toDir === '.' ? save : `${toDir}/${save}`,
    ...(parent.workDir ? { workDir: parent.workDir } : {}),
  };
}

/** Copies the parent's save directory into a local job directory (replacing an earlier copy). */
export function copyParentScratch(link: JobParent, parentDir: string, jobDir: string): void {
  const source = path.join(parentDir, link.save);
  if (!fs.existsSync(source)) {
    throw new Error(
      `job ${link.job}'s saved files ${source} are gone (removed, or the job discarded them); run that job again, then this one.`,
    );
  }
  const target = path.join(jobDir, link.into);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(source, target, { recursive: true });
}

/** The same copy as shell lines for a batch script run in the job's directory on the cluster. */
export function copyParentScratchCommand(link: JobParent): string[] {
  if (!link.workDir)
    throw new Error(`job ${link.job} has no directory on the cluster recorded, so its files cannot be copied; run it again.`);
  const source = `${link.workDir.replace(/\/+$/, '')}/${link.save}`;
  const parentOfTarget = path.posix.dirname(link.into);
  return [
    `if [ ! -d ${shellQuote(source)} ]; then echo ${shellQuote(`job ${link.job}'s saved files ${source} are gone; run that job again`)} >&2; exit 2; fi`,
    `mkdir -p -- ${shellQuote(parentOfTarget)} && rm -rf -- ${shellQuote(link.into)} && cp -R -- ${shellQuote(source)} ${shellQuote(link.into)} || exit 2`,
  ];
}

/** Whether a file name matches one of the collected patterns ('*' = any run of characters). */
export function matchesCollected(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    new RegExp(
      `^${p
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(name),
  );
}
