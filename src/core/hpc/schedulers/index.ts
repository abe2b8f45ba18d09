import type { ClusterProfile, SchedulerAdapter } from '../types';
import { SlurmAdapter } from './slurm';

/** The adapter for a profile's scheduler. PBS and LSF implement the same contract. */
export function schedulerFor(name: ClusterProfile['scheduler']): SchedulerAdapter {
  if (name === 'slurm') return new SlurmAdapter();
  throw new Error(
    `the ${name.toUpperCase()} scheduler is not supported yet; DREAMS drives SLURM clusters. Set "scheduler": "slurm" if the cluster runs SLURM.`,
  );
}
