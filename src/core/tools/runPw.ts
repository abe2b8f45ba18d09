/**
 * run_pw: a pw.x input through the job service, locally or on a configured cluster, and
 * its total energy back as an artifact carrying the physical settings. A run that did
 * not finish with a converged energy gives provisional results, never final ones.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cellVolume } from '../dft/structure/cell';
import { outputNameFor } from '../hpc/localRunner';
import { parsePwOutput } from '../dft/qe/output';
import { overrideResources, suggestResources } from '../hpc/resources';
import { describePwInputSize } from '../dft/qe/jobFacts';
import type { JobResources } from '../hpc/types';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import type { ToolOutput } from '../guard/toolSpec';
import { ryToEv } from '../units';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from '../artifacts/shapes';
import { resolveRef, type ProvenanceView } from '../provenance/view';
import type { ArtifactRecord } from '../provenance/types';
import { backendsOf, clusterProfileOf, service } from './services';
import { runFactsMeta, scfForcesMeta } from './runFacts';

interface Args {
  input: string;
  /** Default: the backend the run was started with. */
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

export const runPwTool = defineTool({
  name: 'run_pw',
  description:
    "Run pw.x on an input (make_pw_input or generate_series output) where the run runs (or on 'local' or a configured cluster profile named as backend), wait for it, " +
    'and return its total energy (eV) with the physical settings it was computed with. Resources default to a suggestion ' +
    'for the cell size; override them with a reason. An unconverged or failed run gives a provisional result.',
  roles: ['hpc', 'dft'],
  input: {
    type: 'object',
    properties: {
      input: artifactRefSchema('The pw.x input to run.', { kinds: ['qe-input'], names: [ARTIFACT.pwInput] }),
      backend: {
        type: 'string',
        minLength: 1,
        description: "'local' or a cluster profile name; leave it out to run where the run was started to run (the user's choice).",
      },
      resources: {
        type: 'object',
        properties: {
          ntasks: { type: 'integer', minimum: 1 },
          nodes: { type: 'integer', minimum: 1 },
          walltimeMinutes: { type: 'integer', minimum: 1 },
          memoryMb: { type: 'integer', minimum: 1 },
          partition: { type: 'string' },
          account: { type: 'string' },
          qos: { type: 'string' },
          reason: { type: 'string', minLength: 1 },
        },
        required: ['ntasks', 'nodes', 'walltimeMinutes', 'reason'],
        additionalProperties: false,
      },
    },
    required: ['input'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.pwOutput, ARTIFACTS.totalEnergy, ARTIFACTS.beefEnsemble],
  parameterNotes: {
    backend: "'local' for small cells and tests; a cluster for slabs and large series.",
    resources: 'no more tasks than k-points × bands warrant; walltime with margin but not hours for a seconds-long SCF.',
  },
  async run(given, ctx) {
    const backends = backendsOf(ctx);
    // no backend named: where the user started the run
    const args: Args = { ...given, backend: given.backend ?? ctx.services.runBackend ?? backends[0] ?? 'local' };
    const jobs = service(ctx, 'jobs', 'run_pw', 'the host opens the job service of the run');
    const pseudoDir = service(ctx, 'pseudoDir', 'run_pw', 'set the pseudopotential directory (dreams.pseudoDir)');
    if (!backends.includes(args.backend)) {
      throw new Error(`run_pw: backend "${args.backend}" is not configured; use one of ${backends.join(', ')}.`);
    }
    const input = ctx.resolve(args.input) as PwInputValue;
    const profile = clusterProfileOf(ctx, args.backend, 'run_pw');
    const suggested = suggestResources(describePwInputSize(input.text), profile);
    const resources: JobResources = args.resources
      ? overrideResources(suggested, (({ reason: _r, ...rest }) => rest)(args.resources), args.resources.reason, profile)
      : suggested;
    const pseudoSha256 = pseudopotentialHashes(pseudoDir, input);
    const view: ProvenanceView | undefined = ctx.services.provenance;
    const reuse = ctx.services.reuseIdenticalRuns !== false;
    const key = reuse && view ? runKey(input.text, pseudoSha256) : undefined;
    // the pw.x this backend runs now, asked for only when there is a result to reuse (one probe per backend and session)
    const pwVersionNow = ctx.services.pwVersionOf;
    const versionNow = async (): Promise<string | undefined> => pwVersionNow?.(args.backend);
    const reusable = async (): Promise<ToolOutput | undefined> => {
      const earlier =
        reuse && view ? await identicalEarlierRunOfVersion(view, input.text, pseudoSha256, versionNow, ctx.progress) : undefined;
      const job = String(earlier?.energy.meta?.job ?? '');
      const earlierJob = job ? jobs.get(job) : undefined;
      const text =
        earlier &&
        outputOfEarlierRun(
          earlier,
          ctx.runDir,
          earlierJob ? path.join(jobs.jobDir(earlierJob.id), outputNameFor(earlierJob.input)) : undefined,
        );
      if (earlier && text) {
        ctx.progress(`identical input already run by ${earlier.energy.creator} (job ${job}): its result is reused, pw.x is not run again`);
        const result = runArtifacts(input, args.backend, { id: job, state: 'completed' }, text, pseudoSha256, {
          call: earlier.energy.creator,
          job,
        });
        const from = (name: string) => earlier.artifacts.find((a) => a.name === name)?.id;
        return {
          artifacts: result.artifacts.map((d) => ({
            ...d,
            inputs: [...(d.inputs ?? []), ...[from(d.name)].filter((x): x is string => !!x)],
          })),
          summary: `identical input already run by ${earlier.energy.creator} (job ${job}); its result reused, pw.x not run again: ${result.summary.replace(/^job \S+ completed: /, '')}`,
        };
      }
      // the same input run by an earlier run this one was told to reuse (reuseFrom)
      for (const source of reuse ? (ctx.services.earlierRuns ?? []) : []) {
        const found = await identicalEarlierRunOfVersion(
          source.view,
          input.text,
          pseudoSha256,
          versionNow,
          ctx.progress,
          `run ${source.runId}`,
        );
        const foundJob = String(found?.energy.meta?.job ?? '');
        const out =
          found &&
          outputOfEarlierRun(found, source.dir, foundJob ? path.join(source.dir, 'jobs', foundJob, outputNameFor('pw.in')) : undefined);
        if (!found || !out) continue;
        const from = { run: source.runId, call: found.energy.creator, job: foundJob, energy: found.energy.id };
        const where = `run ${source.runId} (${from.call}, job ${foundJob}, energy ${from.energy})`;
        ctx.progress(`identical input already run by ${where}: its result is reused, pw.x is not run again`);
        const result = runArtifacts(input, args.backend, { id: foundJob, state: 'completed' }, out, pseudoSha256, from);
        return {
          artifacts: result.artifacts,
          summary: `identical input already run by ${where}; its result reused, pw.x not run again: ${result.summary.replace(/^job \S+ completed: /, '')}`,
        };
      }
      return undefined;
    };
    for (;;) {
      // an identical input already running in this study: wait for it rather than run pw.x twice
      // (checking again after each wait: a run that failed leaves the next waiter to run it)
      for (let running = key && inFlight(jobs).get(key); running && view; running = key && inFlight(jobs).get(key)) {
        ctx.progress(`identical input is being run by ${running.call}: waiting for its result instead of running pw.x twice`);
        await settledRun(view, running, ctx.signal);
      }
      const reused = await reusable();
      if (reused) return reused;
      // the look-up may have waited (the pw.x version probe): claim the input only if no identical call has meanwhile
      if (!(key && view && inFlight(jobs).get(key))) break;
    }
    // identical calls that arrive while this one runs wait for it (settledRun) instead of running pw.x again
    const release = key ? claimRun(jobs, key, ctx.callId) : undefined;
    try {
      const created = await jobs.create({
        backend: args.backend,
        id: jobIdForCall(ctx.runId, ctx.callId),
        input: { name: 'pw.in', text: input.text, artifact: args.input },
        pseudopotentials: Object.values(input.settings.pseudopotentials).map((p) => ({ name: p.file, path: path.join(pseudoDir, p.file) })),
        resources,
        call: ctx.callId,
        // a convergence test's wavefunctions are never read again: they go once pw.x succeeds (wavefunctions.ts)
        discardWavefunctions: input.options?.purpose === 'convergence-test',
      });
      ctx.progress(
        `job ${created.id} created on ${args.backend}: ${resources.ntasks} task(s), ${resources.walltimeMinutes} min (${resources.reason})` +
          (created.discardWavefunctions ? '; a convergence test: its wavefunction files are removed once pw.x succeeds' : ''),
      );
      await jobs.validate(created.id);
      await jobs.submit(created.id);
      const done = await jobs.waitFor(created.id);
      const outFile = path.join(jobs.jobDir(done.id), outputNameFor(done.input));
      return runArtifacts(input, args.backend, done, fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '', pseudoSha256);
    } finally {
      release?.();
    }
  },
});

/** Where a reused result was computed: a call of this run, or (with `run`) of an earlier run named in reuseFrom. */
export interface ReusedFrom {
  call: string;
  job: string;
  /** The earlier run's id, when the result comes from another run. */
  run?: string;
  /** That run's energy artifact. */
  energy?: string;
}

/** A run_pw call of this study that is running pw.x on an input, and when its run() has returned. */
interface InFlightRun {
  call: string;
  returned: Promise<void>;
}

// Per job service, i.e. per open study: calls of one study run in one process.
const inFlightByService = new WeakMap<object, Map<string, InFlightRun>>();

function inFlight(jobs: object): Map<string, InFlightRun> {
  let map = inFlightByService.get(jobs);
  if (!map) inFlightByService.set(jobs, (map = new Map()));
  return map;
}

/** What makes two runs the same run: the input text byte for byte and each pseudopotential file by content. */
function runKey(text: string, pseudoSha256: Record<string, string>): string {
  const files = Object.entries(pseudoSha256).sort(([a], [b]) => a.localeCompare(b));
  return crypto.createHash('sha256').update(text).update('\0').update(JSON.stringify(files)).digest('hex');
}

/** Marks `key` as being run by `call` until the returned release is called. */
function claimRun(jobs: object, key: string, call: string): () => void {
  let release!: () => void;
  const entry: InFlightRun = { call, returned: new Promise<void>((resolve) => (release = resolve)) };
  const map = inFlight(jobs);
  map.set(key, entry);
  return () => {
    if (map.get(key) === entry) map.delete(key);
    release();
  };
}

const REGISTRATION_WAIT_MS = 60_000;

/**
 * Resolves once the running call has ended in the provenance (its artifacts registered,
 * so identicalEarlierRun can find them), or a minute after its run() returned if it has
 * not: then the waiting call decides for itself. Rejects when the waiting call is aborted.
 */
async function settledRun(view: ProvenanceView, running: InFlightRun, signal: AbortSignal): Promise<void> {
  let fail: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    fail = () => reject(new Error('run_pw: stopped while waiting for an identical run'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  try {
    await Promise.race([running.returned, aborted]);
    const until = Date.now() + REGISTRATION_WAIT_MS;
    while (view.call(running.call)?.status === 'running' && Date.now() < until) {
      await Promise.race([new Promise((r) => setTimeout(r, 50)), aborted]);
    }
  } finally {
    signal.removeEventListener('abort', fail);
  }
}

/** sha256 of each pseudopotential file the input names, by file name: a rerun with other files is not the same run. */
export function pseudopotentialHashes(pseudoDir: string, input: PwInputValue): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of Object.values(input.settings.pseudopotentials)) {
    const file = path.join(pseudoDir, p.file);
    if (fs.existsSync(file)) out[p.file] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

const sameHashes = (a: Record<string, string>, b: Record<string, string>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export interface EarlierRun {
  energy: ArtifactRecord;
  output: ArtifactRecord;
  /** Every artifact the earlier call made (output, energy, ensemble). */
  artifacts: ArtifactRecord[];
}

/**
 * A completed pw.x run of this study with byte-identical input text and the same
 * pseudopotential files (by content), whose energy is still final: running pw.x again
 * would only reproduce it. Reused results are not themselves sources (the original is).
 * With pwVersion, only a result of that pw.x version (as its output's banner gave it).
 */
export function identicalEarlierRun(
  view: ProvenanceView,
  inputText: string,
  pseudoSha256: Record<string, string>,
  pwVersion?: string,
): EarlierRun | undefined {
  for (const energy of view.artifacts()) {
    if (energy.name !== ARTIFACT.totalEnergy || energy.status !== 'final') continue;
    const meta = energy.meta as EnergyMeta | undefined;
    if (!meta?.pseudopotentialSha256 || meta.reusedFrom || !sameHashes(meta.pseudopotentialSha256 as Record<string, string>, pseudoSha256))
      continue;
    if (pwVersion !== undefined && codeVersionOf(energy) !== pwVersion) continue;
    const call = view.call(energy.creator);
    if (call?.tool !== 'run_pw' || call.status !== 'ok') continue;
    const ref = inputRefOfRun(call);
    const value = ref ? resolveRef(view, ref) : undefined;
    if (!value?.ok || (value.value as PwInputValue | undefined)?.text !== inputText) continue;
    const artifacts = view.artifacts().filter((a) => a.creator === call.id);
    const output = artifacts.find((a) => a.name === ARTIFACT.pwOutput);
    if (output) return { energy, output, artifacts };
  }
  return undefined;
}

/** The pw.x version an energy was computed with (from its output's banner), if recorded. */
export const codeVersionOf = (energy: ArtifactRecord): string | undefined =>
  ((energy.meta as EnergyMeta | undefined)?.settings as { codeVersion?: string } | undefined)?.codeVersion;

/**
 * identicalEarlierRun, of the pw.x version the backend runs now: a result of another pw.x
 * (a resume after an upgrade, a reuseFrom run made elsewhere) is run again rather than mixed
 * with this one's energies; so is one whose version was not recorded. When the version now
 * cannot be told (a cluster's pw.x before its first run here, a pw.x without a banner), the
 * match is by input and files alone, as before.
 */
export async function identicalEarlierRunOfVersion(
  view: ProvenanceView,
  inputText: string,
  pseudoSha256: Record<string, string>,
  versionNow: () => Promise<string | undefined>,
  progress: (message: string) => void = () => undefined,
  where = 'this run',
): Promise<EarlierRun | undefined> {
  const found = identicalEarlierRun(view, inputText, pseudoSha256);
  if (!found) return undefined;
  const now = await versionNow();
  if (!now) return found;
  const same = identicalEarlierRun(view, inputText, pseudoSha256, now);
  if (!same) {
    progress(
      `identical input already run by ${found.energy.creator} in ${where}, but with ${codeVersionOf(found.energy) ? `pw.x ${codeVersionOf(found.energy)}` : 'a pw.x of unrecorded version'}; ` +
        `this backend runs pw.x ${now}, so pw.x runs again rather than mix versions`,
    );
  }
  return same;
}

/** The earlier run's pw.x output: its registered file, else the job's own (undefined if neither is at hand: then pw.x runs). */
function outputOfEarlierRun(earlier: EarlierRun, runDir: string, jobOutput: string | undefined): string | undefined {
  const file = [earlier.output.location && path.join(runDir, earlier.output.location), jobOutput].find(
    (f): f is string => !!f && fs.existsSync(f),
  );
  return file && fs.readFileSync(file, 'utf8');
}

/** The artifacts of a finished run: its output file, its total energy (and BEEF ensemble), final only when pw.x converged. */
function runArtifacts(
  input: PwInputValue,
  backend: string,
  done: { id: string; state: string; error?: string },
  text: string,
  pseudoSha256: Record<string, string>,
  reusedFrom?: ReusedFrom,
): ToolOutput {
  const natoms = input.structure.symbols.length;
  const out = parsePwOutput(text);
  const relaxing = input.calculation === 'relax' || input.calculation === 'vc-relax';
  // relaxation convergence (forces, stress against the output's thresholds), magnetization, k-point count
  const facts = runFactsMeta(input, out);
  const problems = [
    done.state !== 'completed' ? `the job ${done.state}${done.error ? `: ${done.error}` : ''}` : '',
    out.error ? `pw.x stopped in ${out.error.routine}: ${out.error.message}` : '',
    !out.jobDone ? 'pw.x did not reach JOB DONE' : '',
    !out.scfConverged ? 'the SCF did not converge' : '',
    relaxing && out.relaxation && !out.relaxation.converged ? 'the relaxation did not converge' : '',
    // BFGS converged, but the last forces or stress printed are above the output's thresholds (final-scf-above-thresholds)
    relaxing && out.relaxation?.converged && facts.relaxation && !facts.relaxation.converged
      ? `the relaxation is not converged: ${facts.relaxation.problems.join('; ')}`
      : '',
  ].filter(Boolean);
  const converged = problems.length === 0 && out.totalEnergyRy !== undefined;
  const last = out.ionicSteps.at(-1);
  const finalCell = last?.cellAngstrom ?? input.structure.cell;
  const meta: EnergyMeta = {
    settings: { ...input.settings, ...(out.codeVersion ? { codeVersion: out.codeVersion } : {}) },
    natoms,
    volumeAngstrom3: cellVolume(finalCell),
    formula: formulaOf(input.structure.symbols),
    scfConverged: out.scfConverged,
    cellAngstrom: finalCell,
    job: done.id,
    backend,
    pseudopotentialSha256: pseudoSha256,
    ...(reusedFrom ? { reusedFrom } : {}),
    purpose: input.options?.purpose ?? 'production',
    ...(last && relaxing ? { finalPositionsAngstrom: last.positionsAngstrom, ionicSteps: out.ionicSteps.length } : {}),
    ...(out.wallTimeSeconds !== undefined ? { wallTimeSeconds: out.wallTimeSeconds } : {}),
    ...(out.cpuTimeSeconds !== undefined ? { cpuTimeSeconds: out.cpuTimeSeconds } : {}),
    // the band edges of the SCF's own k-mesh (fixed occupations, or bands above the occupied ones): a gap sweep judges by them
    ...(out.highestOccupiedEv !== undefined ? { highestOccupiedEv: out.highestOccupiedEv } : {}),
    ...(out.lowestUnoccupiedEv !== undefined ? { lowestUnoccupiedEv: out.lowestUnoccupiedEv } : {}),
    ...(out.pressureKbar !== undefined ? { pressureKbar: out.pressureKbar } : {}),
    ...facts,
    // last: a judge reads meta up to a length, and the relaxation facts matter more to it than the tensor
    ...(out.stressKbar ? { stressKbar: out.stressKbar } : {}),
    // an SCF's forces (tprnfor), eV/Å, in the structure's order: a sweep judged by the force criterion compares them
    ...scfForcesMeta(input, out),
  };
  const artifacts = [
    {
      kind: 'file' as const,
      name: ARTIFACT.pwOutput,
      file: { name: 'pw.out', bytes: text },
      status: converged ? ('final' as const) : ('provisional' as const),
      meta: { job: done.id, state: done.state, ...(reusedFrom ? { reusedFrom } : {}) },
    },
  ];
  if (out.totalEnergyRy === undefined) {
    return {
      artifacts,
      summary: `job ${done.id} ${done.state} with no total energy: ${problems.join('; ') || 'no "!" line in the output'}`,
    };
  }
  const energyEv = ryToEv(out.totalEnergyRy);
  const status = converged ? ('final' as const) : ('provisional' as const);
  const ensemble = out.beefEnsembleEv?.length
    ? [{ kind: 'vector' as const, name: 'beef_ensemble', value: out.beefEnsembleEv, unit: 'eV', status, meta }]
    : [];
  return {
    artifacts: [...artifacts, { kind: 'scalar', name: ARTIFACT.totalEnergy, value: energyEv, unit: 'eV', status, meta }, ...ensemble],
    summary:
      `job ${done.id} ${done.state}: E = ${energyEv.toFixed(6)} eV (${meta.formula}, ${natoms} atom(s))` +
      (converged ? '' : ` — provisional: ${problems.join('; ')}`),
  };
}
