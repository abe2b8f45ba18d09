/**
 * A first guess at what a pw.x job needs on a cluster, from the size of its input, kept
 * inside the profile's limits. It is a rough cost model, stated in the reason so a person
 * can judge it; an agent may override it, and the override's reason is recorded next to
 * the suggestion it replaced.
 *
 * Model (per SCF iteration, one k-point): plane waves Npw ≈ V·Ecut^(3/2)/(6π²) with
 * V ≈ 135 bohr³ (20 Å³) per atom; bands ≈ 4·nat + 4; cost ∝ Npw·nbnd·log2(Npw).
 * k-points: the automatic mesh's product (an upper bound: symmetry reduces it).
 */
import type { PwJobSize } from '../dft/qe/jobFacts';
import type { ClusterProfile, JobResources, PartitionLimits } from './types';

const BOHR3_PER_ATOM = 135;
const SECONDS_PER_UNIT = 1e-8; // calibrated on fcc Al, 15 Ry, 6×6×6: ~0.4 s serial
const SCF_ITERATIONS = 15;
const GEOMETRY_STEPS = 25;
const SAFETY = 3;
const DEFAULT_MAX_NTASKS = 64;
const WORK_PER_TASK_SECONDS = 600;

export function suggestResources(size: PwJobSize, profile: Pick<ClusterProfile, 'limits' | 'partition' | 'account' | 'qos'>): JobResources {
  const limits = profile.limits ?? {};
  const planeWaves = (BOHR3_PER_ATOM * size.atoms * size.ecutwfcRy ** 1.5) / (6 * Math.PI ** 2);
  const bands = 4 * size.atoms + 4;
  const kSets = size.kPoints * size.nspin;
  const steps = /relax|md/.test(size.calculation) ? GEOMETRY_STEPS : 1;
  // k-point pools parallelise almost perfectly; plane waves are worth splitting from ~2000 per task
  const pools = Math.min(kSets, 8);
  const perPool = Math.min(16, Math.max(1, Math.ceil(planeWaves / 2000)));
  const maxTasks = limits.maxNtasks ?? DEFAULT_MAX_NTASKS;
  const serialSeconds = kSets * planeWaves * bands * Math.log2(Math.max(2, planeWaves)) * SCF_ITERATIONS * steps * SECONDS_PER_UNIT;
  // no more tasks than there is work for: each should get at least ~10 minutes
  const worthwhile = Math.max(1, Math.ceil(serialSeconds / WORK_PER_TASK_SECONDS));
  const ntasks = Math.max(1, Math.min(maxTasks, pools * perPool, worthwhile));
  const perNode = limits.coresPerNode;
  const nodes = Math.max(1, Math.min(limits.maxNodes ?? Infinity, perNode ? Math.ceil(ntasks / perNode) : 1));
  const minutes = roundUpMinutes(Math.max(10, (SAFETY * serialSeconds) / ntasks / 60));
  const walltimeMinutes = Math.min(limits.maxWalltimeMinutes ?? Infinity, minutes);
  // wavefunctions (with Davidson workspace ×4) for this task's share, plus a fixed base per task
  const wfcMb = (16 * planeWaves * bands * 4 * Math.ceil(kSets / pools)) / 1e6;
  const memoryMb = Math.min(limits.maxMemoryMb ?? Infinity, Math.ceil((ntasks * 300 + wfcMb * pools) / 100) * 100);
  return {
    ntasks,
    nodes,
    walltimeMinutes,
    memoryMb,
    ...(profile.partition ? { partition: profile.partition } : {}),
    ...(profile.account ? { account: profile.account } : {}),
    ...(profile.qos ? { qos: profile.qos } : {}),
    reason:
      `suggested from ${size.atoms} atom(s), ${size.kPoints} k-point(s) (mesh product, before symmetry)${size.nspin > 1 ? ` × ${size.nspin} spins` : ''}, ` +
      `ecutwfc ${size.ecutwfcRy} Ry, ${size.calculation}: ~${Math.round(planeWaves)} plane waves and ${bands} bands; ` +
      `${ntasks} task(s) (up to ${pools} k-pool(s) × ${perPool}, at most one per ~10 min of serial work); walltime ${SAFETY}× the estimate (${Math.round(serialSeconds)} s serial), at least 10 min` +
      (limits.maxNtasks || limits.maxWalltimeMinutes || limits.maxMemoryMb || limits.maxNodes ? '; capped at the profile limits' : ''),
  };
}

/**
 * The suggestion, kept inside the partition's own per-job limits as the scheduler states
 * them too (a profile need not repeat them). A walltime cut to the partition's limit is said
 * in the reason: the job may not finish in it, but a longer request would never start.
 */
export function suggestResourcesWithin(
  size: PwJobSize,
  profile: Pick<ClusterProfile, 'limits' | 'partition' | 'account' | 'qos'>,
  partition: PartitionLimits | undefined,
): JobResources {
  const free = suggestResources(size, profile);
  if (!partition) return free;
  const limits = { ...(profile.limits ?? {}) };
  if (partition.maxWalltimeMinutes !== undefined)
    limits.maxWalltimeMinutes = Math.min(limits.maxWalltimeMinutes ?? Infinity, partition.maxWalltimeMinutes);
  if (partition.maxNodes !== undefined) limits.maxNodes = Math.min(limits.maxNodes ?? Infinity, partition.maxNodes);
  const capped = suggestResources(size, { ...profile, limits });
  const cuts = [
    ...(capped.walltimeMinutes < free.walltimeMinutes ? [`walltime ${free.walltimeMinutes} → ${capped.walltimeMinutes} min`] : []),
    ...(capped.nodes < free.nodes ? [`nodes ${free.nodes} → ${capped.nodes}`] : []),
  ];
  return cuts.length
    ? { ...capped, reason: `${capped.reason}; cut to the limits of partition "${partition.name}" (${cuts.join(', ')})` }
    : free;
}

/**
 * An override of the suggestion. The reason is required and recorded with the suggestion
 * it replaced; a value beyond the profile's limits is refused, not silently capped.
 */
export function overrideResources(
  suggested: JobResources,
  override: Partial<Omit<JobResources, 'reason' | 'suggested'>>,
  reason: string,
  profile: Pick<ClusterProfile, 'limits' | 'name'>,
): JobResources {
  if (!reason.trim())
    throw new Error(
      'overriding the suggested resources needs a reason (e.g. "the previous run hit the walltime at 28 min"); it is recorded with the job.',
    );
  const next = { ...suggested, ...override };
  const over = beyondLimits(next, profile);
  if (over.length > 0)
    throw new Error(
      `the override exceeds the limits of cluster profile "${profile.name}": ${over.join(', ')}. Ask for less, or raise the limits in the profile if the cluster allows it.`,
    );
  for (const k of ['ntasks', 'nodes', 'walltimeMinutes'] as const) {
    if (!Number.isInteger(next[k]) || next[k] < 1) throw new Error(`${k} must be a whole number ≥ 1; the override gave ${next[k]}.`);
  }
  const { suggested: _drop, ...plain } = suggested;
  return { ...next, reason: `override: ${reason.trim()}`, suggested: plain };
}

/** What in `resources` exceeds the profile's limits ("memory 2400 MB > 1500 MB"), empty when nothing does. */
export function beyondLimits(resources: Omit<JobResources, 'reason'>, profile: Pick<ClusterProfile, 'limits'>): string[] {
  const limits = profile.limits ?? {};
  const over: string[] = [];
  if (limits.maxNtasks !== undefined && resources.ntasks > limits.maxNtasks) over.push(`ntasks ${resources.ntasks} > ${limits.maxNtasks}`);
  if (limits.maxNodes !== undefined && resources.nodes > limits.maxNodes) over.push(`nodes ${resources.nodes} > ${limits.maxNodes}`);
  if (limits.maxWalltimeMinutes !== undefined && resources.walltimeMinutes > limits.maxWalltimeMinutes)
    over.push(`walltime ${resources.walltimeMinutes} min > ${limits.maxWalltimeMinutes} min`);
  if (limits.maxMemoryMb !== undefined && resources.memoryMb !== undefined && resources.memoryMb > limits.maxMemoryMb)
    over.push(`memory ${resources.memoryMb} MB > ${limits.maxMemoryMb} MB`);
  return over;
}

function roundUpMinutes(m: number): number {
  const step = m <= 60 ? 5 : m <= 240 ? 15 : 60;
  return Math.ceil(m / step) * step;
}
