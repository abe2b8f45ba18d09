/**
 * run_pw: a pw.x input through the job service, locally or on a configured cluster, and
 * its total energy back as an artifact carrying the physical settings. A run that did
 * not finish with a converged energy gives provisional results, never final ones.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cellVolume } from '../../dft/structure/cell';
import { outputNameFor } from '../../hpc/localRunner';
import { parsePwOutput } from '../../dft/qe/output';
import { describePwInputSize, overrideResources, suggestResources } from '../../hpc/resources';
import type { ClusterProfile, JobResources } from '../../hpc/types';
import { artifactRefSchema } from '../../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../../guard/assessCall';
import { ryToEv } from '../../units';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from './artifactShapes';
import { service } from './services';

interface Args {
  input: string;
  backend: string;
  resources?: Omit<JobResources, 'reason'> & { reason: string };
}

const formulaOf = (symbols: string[]): string => {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => (n === 1 ? el : `${el}${n}`)).join('');
};

/**
 * The job id of a run_pw call: stable for the call (a restarted run finds its job again)
 * and distinct between runs, since the scheduler looks jobs up by this name across every
 * run on the cluster.
 */
export function jobIdForCall(runId: string, callId: string): string {
  return `dreams-${crypto.createHash('sha256').update(runId).digest('hex').slice(0, 8)}-${callId}`;
}

/** The pw_input a run_pw call ran: its recorded reference, or the artifact id given as the value itself (as a plan step passes it). */
export function inputRefOfRun(call: { args: Record<string, { value: unknown; ref?: string }> } | undefined): string | undefined {
  const arg = call?.args.input;
  return arg?.ref ?? (typeof arg?.value === 'string' && /^a-\d+/.test(arg.value) ? arg.value : undefined);
}

export const runPwTool: GuardedToolSpec = {
  name: 'run_pw',
  description:
    "Run pw.x on an input (make_pw_input or generate_series output) on 'local' or a configured cluster profile, wait for it, " +
    'and return its total energy (eV) with the physical settings it was computed with. Resources default to a suggestion ' +
    'for the cell size; override them with a reason. An unconverged or failed run gives a provisional result.',
  roles: ['hpc', 'dft'],
  schema: {
    type: 'object',
    properties: {
      input: artifactRefSchema('The pw.x input to run.', { kinds: ['qe-input'], names: [ARTIFACT.pwInput] }),
      backend: { type: 'string', minLength: 1, description: "'local' or a cluster profile name." },
      resources: {
        type: 'object',
        properties: {
          ntasks: { type: 'integer', minimum: 1 }, nodes: { type: 'integer', minimum: 1 }, walltimeMinutes: { type: 'integer', minimum: 1 },
          memoryMb: { type: 'integer', minimum: 1 }, partition: { type: 'string' }, account: { type: 'string' }, qos: { type: 'string' },
          reason: { type: 'string', minLength: 1 },
        },
        required: ['ntasks', 'nodes', 'walltimeMinutes', 'reason'],
        additionalProperties: false,
      },
    },
    required: ['input', 'backend'],
    additionalProperties: false,
  },
  rules: [],
  parameterNotes: {
    backend: "'local' for small cells and tests; a cluster for slabs and large series.",
    resources: 'no more tasks than k-points × bands warrant; walltime with margin but not hours for a seconds-long SCF.',
  },
  async run(raw, ctx) {
    const args = raw as unknown as Args;
    const jobs = service(ctx, 'jobs', 'run_pw', 'the host opens the job service of the run');
    const pseudoDir = service(ctx, 'pseudoDir', 'run_pw', 'set the pseudopotential directory (dreams.pseudoDir)');
    const profiles = (ctx.services as { clusterProfiles?: Record<string, ClusterProfile> }).clusterProfiles ?? {};
    const backends = (ctx.services as { backends?: string[] }).backends ?? ['local', ...Object.keys(profiles)];
    if (!backends.includes(args.backend)) {
      throw new Error(`run_pw: backend "${args.backend}" is not configured; use one of ${backends.join(', ')}.`);
    }
    const input = ctx.resolve(args.input) as PwInputValue;
    const natoms = input.structure.symbols.length;
    const profile: Pick<ClusterProfile, 'name' | 'limits' | 'partition' | 'account' | 'qos'> = profiles[args.backend] ?? { name: args.backend };
    const suggested = suggestResources(describePwInputSize(input.text), profile);
    const resources: JobResources = args.resources
      ? overrideResources(suggested, (({ reason: _r, ...rest }) => rest)(args.resources), args.resources.reason, profile)
      : suggested;
    const job = await jobs.create({
      backend: args.backend,
      id: jobIdForCall(ctx.runId, ctx.callId),
      input: { name: 'pw.in', text: input.text, artifact: args.input },
      pseudopotentials: Object.values(input.settings.pseudopotentials).map((p) => ({ name: p.file, path: path.join(pseudoDir, p.file) })),
      resources,
      call: ctx.callId,
    });
    ctx.progress(`job ${job.id} created on ${args.backend}: ${resources.ntasks} task(s), ${resources.walltimeMinutes} min (${resources.reason})`);
    await jobs.validate(job.id);
    await jobs.submit(job.id);
    const done = await jobs.waitFor(job.id);
    const outFile = path.join(jobs.jobDir(done.id), outputNameFor(done.input));
    const text = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
    const out = parsePwOutput(text);
    const relaxing = input.calculation === 'relax' || input.calculation === 'vc-relax';
    const problems = [
      done.state !== 'completed' ? `the job ${done.state}${done.error ? `: ${done.error}` : ''}` : '',
      out.error ? `pw.x stopped in ${out.error.routine}: ${out.error.message}` : '',
      !out.jobDone ? 'pw.x did not reach JOB DONE' : '',
      !out.scfConverged ? 'the SCF did not converge' : '',
      relaxing && out.relaxation && !out.relaxation.converged ? 'the relaxation did not converge' : '',
    ].filter(Boolean);
    const converged = problems.length === 0 && out.totalEnergyRy !== undefined;
    const last = out.ionicSteps.at(-1);
    const finalCell = last?.cellAngstrom ?? input.structure.cell;
    const meta: EnergyMeta = {
      settings: { ...input.settings, ...(out.codeVersion ? { codeVersion: out.codeVersion } : {}) },
      natoms, volumeAngstrom3: cellVolume(finalCell), formula: formulaOf(input.structure.symbols),
      scfConverged: out.scfConverged, cellAngstrom: finalCell, job: done.id, backend: args.backend,
      purpose: input.options?.purpose ?? 'production',
      ...(last && relaxing ? { finalPositionsAngstrom: last.positionsAngstrom, ionicSteps: out.ionicSteps.length } : {}),
      ...(out.wallTimeSeconds !== undefined ? { wallTimeSeconds: out.wallTimeSeconds } : {}),
      ...(out.pressureKbar !== undefined ? { pressureKbar: out.pressureKbar } : {}),
    };
    const artifacts = [{ kind: 'file' as const, name: ARTIFACT.pwOutput, file: { name: 'pw.out', bytes: text }, status: converged ? 'final' as const : 'provisional' as const, meta: { job: done.id, state: done.state } }];
    if (out.totalEnergyRy === undefined) {
      return { artifacts, summary: `job ${done.id} ${done.state} with no total energy: ${problems.join('; ') || 'no "!" line in the output'}` };
    }
    const energyEv = ryToEv(out.totalEnergyRy);
    const status = converged ? 'final' as const : 'provisional' as const;
    const ensemble = out.beefEnsembleEv?.length
      ? [{ kind: 'vector' as const, name: 'beef_ensemble', value: out.beefEnsembleEv, unit: 'eV', status, meta }]
      : [];
    return {
      artifacts: [...artifacts, { kind: 'scalar', name: ARTIFACT.totalEnergy, value: energyEv, unit: 'eV', status, meta }, ...ensemble],
      summary: `job ${done.id} ${done.state}: E = ${energyEv.toFixed(6)} eV (${meta.formula}, ${natoms} atom(s))` +
        (converged ? '' : ` — provisional: ${problems.join('; ')}`),
    };
  },
};
