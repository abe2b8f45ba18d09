/**
 * SLURM: sbatch --parsable to submit, one squeue for every job of a cluster per poll,
 * sacct (or `sacct -c` when accounting storage is off) for jobs squeue has forgotten,
 * the job's stable id as its name and comment so a retried submission finds it.
 */
import { outputNameFor, errorNameFor } from '../localRunner';
import { shellQuote } from '../shellQuote';
import { removeWavefunctionsCommand } from '../wavefunctions';
import { copyParentScratchCommand } from '../continuation';
import { programCommandLine } from '../pwCommand';
import type { ClusterProfile, JobRecord, JobState, PartitionLimits, SchedulerAdapter } from '../types';
import { batchDirectiveValue, SchedulerOutputError } from './common';
import type { SchedulerStatus } from '../types';

const STATE_MAP: Record<string, JobState> = {
  PENDING: 'queued',
  REQUEUED: 'queued',
  REQUEUE_FED: 'queued',
  REQUEUE_HOLD: 'queued',
  RESV_DEL_HOLD: 'queued',
  SUSPENDED: 'queued',
  STOPPED: 'queued',
  CONFIGURING: 'running',
  RUNNING: 'running',
  COMPLETING: 'running',
  STAGE_OUT: 'running',
  SIGNALING: 'running',
  RESIZING: 'running',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
  FAILED: 'failed',
  TIMEOUT: 'failed',
  NODE_FAIL: 'failed',
  OUT_OF_MEMORY: 'failed',
  BOOT_FAIL: 'failed',
  DEADLINE: 'failed',
  PREEMPTED: 'failed',
  REVOKED: 'failed',
  SPECIAL_EXIT: 'failed',
};

/** What a failed state means to a person, where SLURM's word alone is not enough. */
const STATE_EXPLAINED: Record<string, string> = {
  TIMEOUT: 'the job reached its walltime limit (TIMEOUT); give it more time or fewer k-points/atoms',
  OUT_OF_MEMORY: 'the job ran out of memory (OUT_OF_MEMORY); ask for more memory or more nodes',
  NODE_FAIL: 'a node failed while the job ran (NODE_FAIL); resubmit it',
  PREEMPTED: 'the job was preempted by the scheduler (PREEMPTED); resubmit it',
  BOOT_FAIL: 'the node failed to boot (BOOT_FAIL); resubmit it',
  DEADLINE: 'the job missed its deadline (DEADLINE)',
};

/**
 * Pending reasons that mean the job will not start as submitted: only a change of the request
 * (or of the cluster's limits) lets it run. Reasons that clear by themselves (Resources,
 * Priority, Dependency, ReqNodeNotAvail, PartitionDown, per-user job counts, …) are not here.
 */
const NEVER_STARTS: Record<string, string> = {
  PartitionTimeLimit:
    "its walltime is above the partition's time limit: ask for less time (set the profile's limits.maxWalltimeMinutes to the partition's MaxTime) or use another partition",
  PartitionNodeLimit: "its node count is outside the partition's limits: ask for fewer nodes or use another partition",
  PartitionConfig: "it asks for more than the partition's nodes have (cores, memory or GPUs): ask for less or use another partition",
  BadConstraints: 'no node can meet its constraints: change the request (tasks, memory, constraints)',
  InvalidAccount: "its account is not valid on this cluster: fix the profile's account",
  InvalidQOS: "its QOS is not valid on this cluster: fix the profile's qos",
  AccountNotAllowed: "its account may not use this partition: change the profile's account or partition",
  QOSNotAllowed: "its QOS may not be used in this partition: change the profile's qos or partition",
  DependencyNeverSatisfied: 'it depends on a job that can no longer succeed',
};

/** What a pending reason means when the job will never start as submitted; undefined when waiting may help. */
export function slurmNeverStarts(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const known = NEVER_STARTS[reason];
  if (known) return `${reason}: ${known}`;
  // QOSMax…PerJob… / AssocMax…PerJob…: one job's request is over a per-job maximum of its QOS or association
  if (/^(QOS|Assoc)Max\w*PerJob/.test(reason)) {
    return `${reason}: the job asks for more than the ${reason.startsWith('QOS') ? 'QOS' : "account's association"} allows one job (${/Wall/.test(reason) ? 'walltime' : /Node/.test(reason) ? 'nodes' : /Cpu/.test(reason) ? 'cores' : /Mem/.test(reason) ? 'memory' : 'resources'}): ask for less or use another ${reason.startsWith('QOS') ? 'QOS' : 'account'}`;
  }
  return undefined;
}

export const SCHEDULER_ID_FILE = '.dreams-scheduler-id';

export class SlurmAdapter implements SchedulerAdapter {
  readonly name = 'slurm' as const;

  batchScript(job: JobRecord, profile: ClusterProfile): string {
    const r = job.resources;
    if (!r) throw new Error(`job ${job.id} has no resources; suggest them (resources.ts) before writing its batch script.`);
    const directive = (flag: string, value: string | number | undefined) =>
      value === undefined ? [] : [`#SBATCH --${flag}=${batchDirectiveValue(String(value), flag)}`];
    const lines = [
      '#!/bin/bash',
      ...directive('job-name', job.id),
      ...directive('comment', job.id),
      ...directive('nodes', r.nodes),
      ...directive('ntasks', r.ntasks),
      ...directive('time', formatWalltime(r.walltimeMinutes)),
      ...directive('mem', r.memoryMb !== undefined ? `${Math.ceil(r.memoryMb)}M` : undefined),
      ...directive('partition', r.partition ?? profile.partition),
      ...directive('account', r.account ?? profile.account),
      ...directive('qos', r.qos ?? profile.qos),
      '#SBATCH --output=slurm-%j.out',
      ...(profile.batchOptions ?? []).map((o) => `#SBATCH ${batchOption(o)}`),
      '',
      'cd "$SLURM_SUBMIT_DIR" || exit 1',
      ...(job.pseudopotentials.length > 0 ? ['export ESPRESSO_PSEUDO="$SLURM_SUBMIT_DIR/pseudo"'] : []),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion in the batch script
      'export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"',
      ...(profile.prelude ?? []),
      // a continuation starts from its own copy of the earlier job's saved files
      ...(job.parent ? copyParentScratchCommand(job.parent) : []),
      `${programCommandLine(profile.pwCommand, job.program ?? 'pw.x')} -in ${shellQuote(job.input)} > ${shellQuote(outputNameFor(job.input))} 2> ${shellQuote(errorNameFor(job.input))}`,
      // pw.x's exit status stays the job's; a convergence test's wavefunctions go once it succeeded
      ...(job.discardWavefunctions
        ? ['status=$?', `if [ "$status" -eq 0 ]; then ${removeWavefunctionsCommand(job.discardWavefunctions)}; fi`, 'exit "$status"']
        : []),
      '',
    ];
    return lines.join('\n');
  }

  submitCommand(dir: string, scriptName: string): string {
    return `cd -- ${shellQuote(dir)} && sbatch --parsable -- ${shellQuote(scriptName)}`;
  }

  parseSubmitOutput(stdout: string): string {
    // "<id>" or "<id>;<cluster>"
    const m = /^\s*(\d+(?:_\d+)?)(?:;\S+)?\s*$/m.exec(stdout);
    if (!m) throw new SchedulerOutputError('sbatch --parsable', stdout, 'a job id such as "12345" or "12345;cluster"');
    return m[1]!;
  }

  statusCommand(schedulerIds: string[]): string {
    // squeue exits 1 when none of the ids is still known; that case is read from its message.
    return `squeue -h --states=all -o '%i|%T|%r' -j ${schedulerIds.map(checkId).join(',')} 2>&1`;
  }

  parseStatus(stdout: string): Map<string, SchedulerStatus> {
    const map = new Map<string, SchedulerStatus>();
    for (const line of stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (/Invalid job id specified/i.test(line)) continue;
      const [id, state, reason] = line.split('|');
      const mapped = state ? STATE_MAP[state.replace(/\s.*$/, '')] : undefined;
      if (!id || !/^\d/.test(id) || !mapped) throw new SchedulerOutputError('squeue', stdout, 'lines "<id>|<STATE>|<reason>"');
      const never = mapped === 'queued' && state === 'PENDING' ? slurmNeverStarts(reason) : undefined;
      map.set(id, {
        state: mapped,
        ...(reason && reason !== 'None' ? { reason: `${state}: ${reason}` } : {}),
        ...(mapped === 'failed' ? { reason: explain(state!, reason) } : {}),
        ...(never ? { neverStarts: never } : {}),
      });
    }
    return map;
  }

  finishedCommand(schedulerIds: string[]): string {
    const ids = schedulerIds.map(checkId).join(',');
    const fields = '-n -P -X -o JobID,State,ExitCode';
    // Without accounting storage sacct says so and exits 1; `sacct -c` reads the job
    // completion log instead.
    return `sacct ${fields} -j ${ids} 2>/dev/null || sacct -c ${fields} -j ${ids}`;
  }

  parseFinished(stdout: string): Map<string, SchedulerStatus> {
    const map = new Map<string, SchedulerStatus>();
    for (const line of stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const [id, stateText, exit] = line.split('|');
      const state = stateText?.split(/\s/)[0] ?? '';
      const mapped = STATE_MAP[state];
      if (!id || !mapped) throw new SchedulerOutputError('sacct', stdout, 'lines "<id>|<STATE>|<exit>:<signal>"');
      if (id.includes('.')) continue; // job steps
      const exitCode = exit ? Number(exit.split(':')[0]) : undefined;
      // the completion log may list a requeued job twice: the last line is the latest
      map.set(id, {
        state: mapped,
        ...(exitCode !== undefined && Number.isFinite(exitCode) ? { exitCode } : {}),
        ...(mapped === 'failed' ? { reason: explain(state, undefined, exit) } : {}),
      });
    }
    return map;
  }

  findByNameCommand(jobId: string): string {
    return `squeue -h --states=all -n ${shellQuote(jobId)} -o '%i'`;
  }

  parseFindByName(stdout: string): string | undefined {
    const ids = stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^\d+(_\d+)?$/.test(l));
    return ids.sort((a, b) => Number(b.split('_')[0]) - Number(a.split('_')[0]))[0];
  }

  cancelCommand(schedulerId: string): string {
    return `scancel ${checkId(schedulerId)}`;
  }

  partitionsCommand(): string {
    return "sinfo -h -o '%P|%l|%s'";
  }

  /** `sinfo -h -o '%P|%l|%s'`: name (`*` marks the default), time limit, job size in nodes ("1-infinite"). */
  parsePartitions(stdout: string): PartitionLimits[] {
    const byName = new Map<string, PartitionLimits>();
    for (const line of stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const [rawName, time, size] = line.split('|');
      if (!rawName || time === undefined) throw new SchedulerOutputError('sinfo', stdout, 'lines "<partition>|<time limit>|<job size>"');
      const name = rawName.replace(/\*$/, '');
      const minutes = slurmDurationMinutes(time);
      const maxNodes = /^\d+-(\d+)$/.exec(size ?? '')?.[1];
      // a partition over several node sets is listed once per set: keep the first line
      if (!byName.has(name)) {
        byName.set(name, {
          name,
          isDefault: rawName.endsWith('*'),
          ...(minutes !== undefined ? { maxWalltimeMinutes: minutes } : {}),
          ...(maxNodes ? { maxNodes: Number(maxNodes) } : {}),
        });
      }
    }
    return [...byName.values()];
  }
}

/** A SLURM duration ("infinite", "30:00" min:s, "2:00:00" h:m:s, "1-12:00:00" d-h:m:s, "45" min) in whole minutes; undefined when unlimited. */
export function slurmDurationMinutes(text: string): number | undefined {
  const t = text.trim();
  if (/^(infinite|unlimited|n\/a)$/i.test(t)) return undefined;
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(t);
  if (!m) throw new Error(`"${text}" is not a SLURM time limit (days-hours:minutes:seconds)`);
  const [, d, a, b, c] = m;
  const n = (x: string | undefined) => Number(x ?? 0);
  let seconds: number;
  if (c !== undefined)
    seconds = n(a) * 3600 + n(b) * 60 + n(c); // h:m:s
  else if (b !== undefined)
    seconds = d !== undefined ? n(a) * 3600 + n(b) * 60 : n(a) * 60 + n(b); // d-h:m, or m:s
  else seconds = d !== undefined ? n(a) * 3600 : n(a) * 60; // d-h, or minutes
  return Math.floor((n(d) * 86400 + seconds) / 60);
}

/** A profile's extra option: one `--name[=value]` the directive line can hold. */
function batchOption(option: string): string {
  if (!/^--?[A-Za-z][A-Za-z0-9-]*(=[A-Za-z0-9_.:,+=@%/-]+)?$/.test(option)) {
    throw new Error(
      `the batch option ${JSON.stringify(option)} is not a single --name or --name=value of letters, digits and . _ : , + = @ % / -; write each option as its own entry, e.g. "--constraint=haswell".`,
    );
  }
  return option;
}

function explain(state: string, reason?: string, exit?: string): string {
  return (
    STATE_EXPLAINED[state] ??
    `SLURM reports ${state}${reason && reason !== 'None' ? ` (${reason})` : ''}${exit ? `, exit code ${exit}` : ''}`
  );
}

function checkId(id: string): string {
  if (!/^\d+(_\d+)?$/.test(id)) throw new Error(`"${id}" is not a SLURM job id (digits, or digits_digits for an array task).`);
  return id;
}

/** SLURM's D-HH:MM:SS. */
export function formatWalltime(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`walltime ${minutes} min is not a positive number of minutes.`);
  const total = Math.ceil(minutes);
  const d = Math.floor(total / 1440);
  const h = Math.floor((total % 1440) / 60);
  const m = total % 60;
  const hhmm = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
  return d > 0 ? `${d}-${hhmm}` : hhmm;
}
