/**
 * pw.x's k-point parallelisation for a local job: when the configured command starts several MPI
 * processes ("mpirun -np 4 pw.x") and says nothing of pools, the processes are split into as many
 * k-point pools (-nk) as the job's k-point sets allow. Pools share no plane-wave work, so they
 * scale almost perfectly; pw.x needs the pool count to divide the process count. A job with fewer
 * k-point sets than processes gets the largest divisor that fits.
 */
import os from 'node:os';
import path from 'node:path';

const LAUNCHERS = new Set(['mpirun', 'mpiexec', 'orterun', 'srun']);
const POOL_FLAGS = new Set(['-nk', '-npool', '-npools', '-nkp']);

/** The process count an MPI launcher is asked for (-np N, -n N, --np N, -c N), or undefined. */
export function mpiProcesses(argv: readonly string[]): number | undefined {
  if (!argv[0] || !LAUNCHERS.has(path.basename(argv[0]))) return undefined;
  for (let i = 1; i < argv.length - 1; i++) {
    if (['-np', '-n', '--np', '-c', '--n'].includes(argv[i]!)) {
      const n = Number(argv[i + 1]);
      if (Number.isInteger(n) && n > 0) return n;
    }
  }
  return undefined;
}

/** The -nk to add for a job with `kSets` k-point sets (k-points × spins), or undefined when none should be added. */
export function kPoolsFor(argv: readonly string[], kSets: number): number | undefined {
  if (argv.some((a) => POOL_FLAGS.has(a))) return undefined; // the user chose
  const np = mpiProcesses(argv);
  if (!np || np < 2 || !(kSets >= 2)) return undefined;
  let pools = Math.min(np, Math.floor(kSets));
  while (pools > 1 && np % pools !== 0) pools--;
  return pools > 1 ? pools : undefined;
}

/** The argv with -nk appended for this job, or as it was. */
export function withKPools(argv: readonly string[], kSets: number): string[] {
  const pools = kPoolsFor(argv, kSets);
  return pools ? [...argv, '-nk', String(pools)] : [...argv];
}

/**
 * A conservative count of a job's irreducible k-point sets, from its input: the automatic mesh's
 * product over 48 (the most symmetry operations a crystal has), times the spins. Never more than
 * pw.x will find, so the pools never outnumber the k-points.
 */
export function kSetsAtLeast(kPoints: number, nspin: number): number {
  return Math.max(1, Math.ceil(kPoints / 48)) * (nspin === 2 ? 2 : 1);
}

/** `--local-jobs auto`: one pw.x per core this process may use. */
export function autoLocalJobs(): number {
  return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}
