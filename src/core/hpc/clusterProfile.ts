/**
 * Cluster profiles as the user writes them (a JSON file, or VS Code settings), checked
 * with ajv so a typo is reported with its place and a fix, not found at submission.
 *
 *   { "clusters": [ { "name": "hpc1", "sshHost": "hpc1", "scheduler": "slurm",
 *                     "workRoot": "~/dreams", "pwCommand": "srun pw.x",
 *                     "prelude": ["module load qe/6.7"], "partition": "standard" } ] }
 */
import fs from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv';
import type { ClusterProfile } from './types';

const name = { type: 'string', pattern: '^[A-Za-z0-9_.:,+=@%-]+$' };
const positive = { type: 'integer', minimum: 1 };

export const CLUSTER_PROFILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'sshHost', 'scheduler', 'workRoot', 'pwCommand'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', description: 'how jobs and the jobs view name this cluster' },
    sshHost: { type: 'string', minLength: 1, description: 'a Host alias from ~/.ssh/config, or a host name/address' },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    user: { type: 'string', minLength: 1 },
    identityFile: { type: 'string', minLength: 1 },
    scheduler: { enum: ['slurm', 'pbs', 'lsf'] },
    workRoot: { type: 'string', minLength: 1, description: 'remote directory for job directories; ~/ is the login home' },
    partition: name,
    account: name,
    qos: name,
    prelude: { type: 'array', items: { type: 'string', pattern: '^[^\\n\\r]*$' } },
    pwCommand: { type: 'string', minLength: 1, pattern: '^[^\\n\\r]*$' },
    remotePseudoDir: { type: 'string', minLength: 1 },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: { maxNtasks: positive, maxNodes: positive, maxWalltimeMinutes: positive, maxMemoryMb: positive, coresPerNode: positive },
    },
    pollSeconds: { type: 'number', minimum: 1 },
    batchOptions: { type: 'array', items: { type: 'string', pattern: '^--?[A-Za-z][A-Za-z0-9-]*(=[A-Za-z0-9_.:,+=@%/-]+)?$' } },
  },
} as const;

const ajv = new Ajv({ allErrors: true, verbose: true });
const validateProfile = ajv.compile<ClusterProfile>(CLUSTER_PROFILE_SCHEMA);

function describe(e: ErrorObject, where: string): string {
  const at = `${where}${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties')
    return `${at}: unknown setting "${(e.params as { additionalProperty: string }).additionalProperty}" (allowed: ${Object.keys(CLUSTER_PROFILE_SCHEMA.properties).join(', ')})`;
  if (e.keyword === 'required') return `${at}: missing "${(e.params as { missingProperty: string }).missingProperty}"`;
  if (e.keyword === 'enum') return `${at}: must be one of ${(e.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  if (e.keyword === 'pattern') return `${at}: ${JSON.stringify(e.data)} has characters that are not allowed here`;
  return `${at}: ${e.message}`;
}

/** pw.x keeps a directory name (pseudo_dir, outdir) in 256 characters with its final "/" (trimcheck). */
export const PW_DIRECTORY_MAX_BYTES = 255;
/** What a job adds under the work root: "/job-YYYYMMDDHHMMSS-xxxxxxxx/pseudo" (jobModel.newJobId). */
const JOB_PSEUDO_SUFFIX_BYTES = '/job-20260101000000-00000000/pseudo'.length;

/**
 * Why a work root cannot work, or undefined. SLURM and LSF expand "%" patterns (%j, %u, %x …)
 * in the job's output path, which lies under the work root, and read a backslash there as an
 * escape: the job fails to launch (SLURM: "JobLaunchFailure", tried on the test cluster).
 * pw.x reads the job's pseudopotential directory
 * (<workRoot>/<job>/pseudo) only up to 255 characters.
 */
export function workRootProblem(profile: Pick<ClusterProfile, 'workRoot' | 'scheduler'>): string | undefined {
  const w = profile.workRoot;
  if (profile.scheduler !== 'pbs') {
    const c = /[%\\]/.exec(w)?.[0];
    if (c) {
      return (
        `workRoot ${JSON.stringify(w)} contains "${c}": ${profile.scheduler === 'slurm' ? 'SLURM' : 'LSF'} ${c === '%' ? 'expands "%" patterns (%j, %u, …) in the job\'s output path, which lies under the work root' : 'reads "\\" in the job\'s output path as an escape'}, ` +
        'so the job would fail to launch. Choose a work root without "%" and "\\".'
      );
    }
  }
  const literal = Buffer.byteLength(w.replace(/^~\/?/, '').replace(/\/+$/, ''));
  if (literal + JOB_PSEUDO_SUFFIX_BYTES > PW_DIRECTORY_MAX_BYTES) {
    return (
      `workRoot ${JSON.stringify(w.length > 60 ? `${w.slice(0, 57)}…` : w)} is ${literal} bytes long; a job's pseudopotential directory under it (<workRoot>/<job>/pseudo) ` +
      `would be over the ${PW_DIRECTORY_MAX_BYTES} characters pw.x reads for a directory name (its "input name too long" error). Choose a shorter work root.`
    );
  }
  return undefined;
}

/** Check one profile; throws with every problem listed. */
export function checkClusterProfile(value: unknown, where = 'cluster profile'): ClusterProfile {
  if (validateProfile(value)) {
    const problem = workRootProblem(value);
    if (!problem) return value;
    throw new Error(`${where} is not valid:\n  ${where}.workRoot: ${problem}\nFix this in the profile and try again.`);
  }
  const problems = (validateProfile.errors ?? []).map((e) => describe(e, where));
  throw new Error(`${where} is not valid:\n  ${problems.join('\n  ')}\nFix these in the profile and try again.`);
}

/** Profiles from a JSON file holding { "clusters": [...] } or a bare array. */
export function loadClusterProfiles(file: string): ClusterProfile[] {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(
      `could not read cluster profiles from ${file}: ${(e as Error).message}. It must be JSON: { "clusters": [ { "name": ..., "sshHost": ..., ... } ] }.`,
    );
  }
  const list = Array.isArray(data) ? data : (data as { clusters?: unknown })?.clusters;
  if (!Array.isArray(list))
    throw new Error(`${file} has no "clusters" list; write { "clusters": [ { "name": ..., "sshHost": ..., ... } ] }.`);
  const profiles = list.map((p, i) => checkClusterProfile(p, `${file}: clusters[${i}]`));
  const seen = new Set<string>();
  for (const p of profiles) {
    if (seen.has(p.name))
      throw new Error(`${file}: two clusters are named "${p.name}"; names must be unique (jobs refer to their cluster by name).`);
    seen.add(p.name);
  }
  return profiles;
}
