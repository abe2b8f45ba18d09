/** `dreams run <objective.yaml | "text">`: plan and run a DFT study, then write its notebook, report and bundle. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RunController } from '../../core/run/controller';
import { notRuns, type RunSettings } from '../../core/run/session';
import { tightenApprovalPolicy, type Tightened } from '../../core/run/sharedPreferences';
import type { ApprovalPolicy } from '../../core/guard/types';
import { workflowEnvironment } from '../../core/workflows/environment';
import { workflowTemplate } from '../../core/workflows';
import { prepareWorkflow } from '../../core/workflows/objective';
import { ObjectiveError } from '../../core/workflows/types';
import { registerCliCommand } from '../cli';
import { driveRun } from './driveRun';
import { openRunLog } from './runLog';
import { LOG_LEVEL_USAGE, parseLogLevel, runLogFile } from './logFile';
import {
  defaultPseudoDir,
  loadClusters,
  localPwVersion,
  parseBudget,
  parseLocalJobs,
  pwCommandArgv,
  pwProgramMissing,
  qeVersionFor,
  runsDirProblem,
  readObjective,
  sshConfigOption,
  UsageError,
} from './runOptions';

export const RUN_USAGE = `Usage: dreams run <objective.yaml | "objective text"> [options]

Plans and runs a DFT study with Quantum ESPRESSO, showing progress live, and writes the
run's notebook (canvas.dreams), event log, report (report.md with SVG plots) and a
reproducibility bundle into the run directory.

  --offline              no model: follow the objective's built-in workflow deterministically
                         (the LLM judge tiers are recorded as "not judged")
  --cluster NAME         run pw.x on this cluster profile (default: this machine)
  --clusters FILE        cluster profiles (default $DREAMS_CLUSTERS or ~/.config/dreams/clusters.json)
  --ssh-config FILE      ssh config for the clusters' hosts (default ~/.ssh/config)
  --approval POLICY      what a guard warning does: wait | continue | auto-approve (default continue;
                         an objective file's run.approval may make it stricter, never looser)
  --budget LIMITS        tokens=N,cost=USD,jobs=N,wall=MINUTES (any of them), e.g. cost=5,jobs=40,wall=90m
  --runs-dir DIR         where run directories go (default ./runs)
  --pseudo-dir DIR       pseudopotential (UPF) library (default: the objective file's run.pseudoDir,
                         $DREAMS_PSEUDO_DIR, $ESPRESSO_PSEUDO, /usr/share/espresso/pseudo)
  --pw-command CMD       how to run pw.x here (default "pw.x"; e.g. "mpirun -np 2 pw.x")
  --local-jobs N|auto    pw.x runs at a time on this machine (default 1; auto: one per core). Under
                         --pw-command "mpirun -np N pw.x" each run gets k-point pools (-nk) from its k-points
  --parallel-jobs N      run_pw calls (and pw.x plan steps) in flight at once (default 4); 1 takes them one
                         at a time, so the run's artifacts are numbered the same however long a model takes
  --model ROLE=ID        model for a role (supervisor, dft, hpc, advisor, param-judge, cross-judge,
                         report-judge); repeatable
  --no-judges            with a model: no LLM judge tiers (tier 1 only, recorded as not judged)
  --no-bundle            skip the reproducibility bundle
  --rerun-identical      run pw.x even for an input this run has already run with the same
                         pseudopotential files (by default that earlier result is reused,
                         linked to it in the provenance)
  --reuse-from RUN       also take pw.x results from this earlier run (its directory) for inputs
                         that are byte for byte the same with the same pseudopotential files, e.g.
                         the PBE relaxations a BEEF-vdW ensemble study repeats; repeatable
                         (default: the objective file's run.reuseFrom)
${LOG_LEVEL_USAGE}

The API key is read from ANTHROPIC_API_KEY (not needed with --offline).
Exit status: 0 completed, 1 failed, 2 bad usage, 3 stopped (budget or Ctrl-C; resume it).`;

const POLICIES: ApprovalPolicy[] = ['wait', 'continue', 'auto-approve'];

/**
 * The approval policy of a run: --approval (default continue), which the objective file's
 * run.approval may make stricter, never looser: the file may be someone else's, and a policy that
 * approves its own warnings would run what the user never saw.
 */
export function approvalFor(flag: string | undefined, fromFile: ApprovalPolicy | undefined): Tightened<ApprovalPolicy> {
  const given = flag ?? 'continue';
  if (!POLICIES.includes(given as ApprovalPolicy))
    throw new UsageError(`--approval must be one of ${POLICIES.join(', ')} (got "${given}").`);
  return tightenApprovalPolicy(given as ApprovalPolicy, fromFile, {
    yours: (u) => (flag === undefined ? `without --approval the policy is "${u}"` : `--approval is "${u}"`),
    file: 'an objective file',
    allow: (asked) => `pass --approval ${asked}`,
  });
}

export async function runCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        offline: { type: 'boolean' },
        cluster: { type: 'string' },
        clusters: { type: 'string' },
        'ssh-config': { type: 'string' },
        approval: { type: 'string' },
        budget: { type: 'string' },
        'runs-dir': { type: 'string' },
        'pseudo-dir': { type: 'string' },
        'pw-command': { type: 'string' },
        'local-jobs': { type: 'string' },
        'parallel-jobs': { type: 'string' },
        model: { type: 'string', multiple: true },
        'no-judges': { type: 'boolean' },
        'no-bundle': { type: 'boolean' },
        'rerun-identical': { type: 'boolean' },
        'reuse-from': { type: 'string', multiple: true },
        'log-level': { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`dreams run: ${(e as Error).message}\n\n${RUN_USAGE}`);
    return 2;
  }
  try {
    if (positionals.length !== 1)
      throw new UsageError(`give one objective (a YAML file or a sentence in quotes); got ${positionals.length}.`);
    const objective = readObjective(positionals[0]!, { forModel: !values.offline });
    const prefs = objective.run ?? {};
    const tightened = approvalFor(values.approval as string | undefined, prefs.approval);
    for (const line of tightened.ignored) console.error(`dreams run: ${line}`);
    const approval = tightened.value;
    const budget = { ...prefs.budget, ...(values.budget ? parseBudget(values.budget as string) : {}) };
    const localJobs = parseLocalJobs(values['local-jobs'] as string | undefined);
    const parallelJobs = values['parallel-jobs'] === undefined ? undefined : Number(values['parallel-jobs']);
    if (parallelJobs !== undefined && (!Number.isInteger(parallelJobs) || parallelJobs < 1))
      throw new UsageError(`--parallel-jobs must be a whole number ≥ 1 (got "${values['parallel-jobs']}").`);
    const models: Record<string, string> = {};
    for (const m of (values.model as string[] | undefined) ?? []) {
      const [role, id] = m.split('=');
      if (!role || !id) throw new UsageError(`--model takes ROLE=MODEL_ID (e.g. --model dft=claude-sonnet-5-5); got "${m}".`);
      models[role] = id;
    }
    const offline = !!values.offline;
    const pwCommand = (values['pw-command'] as string | undefined) ?? 'pw.x';
    const fromObjective =
      prefs.pseudoDir && /\.(ya?ml|json)$/i.test(positionals[0]!)
        ? path.resolve(path.dirname(positionals[0]!), prefs.pseudoDir)
        : prefs.pseudoDir;
    const pseudoDir = path.resolve((values['pseudo-dir'] as string | undefined) ?? fromObjective ?? defaultPseudoDir());
    // The workflow's inputs against the pseudopotential library (a dual below a file's suggested density
    // cutoff, a file that is not there): refused here, before a run directory is made.
    if (objective.workflow) prepareWorkflow(objective.workflow, objective.inputs ?? {}, workflowEnvironment({ pseudoDir }));
    const fromFile = (p: string) =>
      /\.(ya?ml|json)$/i.test(positionals[0]!) ? path.resolve(path.dirname(positionals[0]!), p) : path.resolve(p);
    const reuseFrom = (values['reuse-from'] as string[] | undefined)?.map((d) => path.resolve(d)) ?? (prefs.reuseFrom ?? []).map(fromFile);
    const notARun = notRuns(reuseFrom)[0];
    if (notARun)
      throw new UsageError(
        `--reuse-from: ${notARun} is not a DREAMS run (it has no events.jsonl); name a run directory, e.g. runs/20260101-120000-al-lattice.`,
      );
    if (reuseFrom.length && values['rerun-identical'])
      throw new UsageError('--reuse-from and --rerun-identical contradict each other: drop one.');
    for (const dir of reuseFrom) {
      // An earlier run's log is read for its results: damage there is said, and refused.
      const { run: earlier, health } = await openRunLog('run', dir, { mode: 'reader' });
      await earlier.close();
      if (health.damaged)
        throw new UsageError(
          `--reuse-from: the event log of ${dir} is damaged (above), so results recorded after line ${health.line} would not be found. Restore its events.jsonl from a copy, or leave it out.`,
        );
    }
    const clusters = loadClusters(values.clusters as string | undefined);
    const backend = (values.cluster as string | undefined) ?? prefs.backend ?? 'local';
    const apiKey = process.env.ANTHROPIC_API_KEY;
    const logFile = runLogFile(parseLogLevel(values['log-level'] as string | undefined), apiKey ? [apiKey] : []);
    if (!offline && !apiKey) {
      throw new UsageError(
        'no Anthropic API key: set it with  export ANTHROPIC_API_KEY=sk-ant-...  (the key is never written to the run), or run the built-in workflow without a model with --offline.',
      );
    }
    // A command that cannot be parsed (a ';', a '$VAR') is refused with the parser's reason; a program
    // that is not there, with that.
    const pwProblem = backend === 'local' ? pwProgramMissing(pwCommand, pwCommandArgv(pwCommand)[0]!) : undefined;
    const pwVersion = backend === 'local' && !pwProblem ? localPwVersion(pwCommand) : undefined;
    const runsDirTooLong = backend === 'local' ? runsDirProblem((values['runs-dir'] as string | undefined) ?? 'runs') : undefined;
    const template = objective.workflow ? workflowTemplate(objective.workflow) : undefined;
    const needsPwx = !template?.usesPwx || template.usesPwx(objective.inputs ?? {});
    if (backend === 'local' && !pwVersion && needsPwx) {
      throw new UsageError(
        `"${pwCommand}" does not run here (${pwProblem ?? 'it ran but printed no pw.x banner within 20 s: is it pw.x?'}). Install Quantum ESPRESSO (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data), pass --pw-command, or run on a cluster with --cluster NAME.`,
      );
    }
    if (runsDirTooLong && needsPwx) throw new UsageError(runsDirTooLong);
    const qeVersion = qeVersionFor(pwVersion);
    const settings: RunSettings = {
      objective,
      offline,
      backend,
      approval: approval as ApprovalPolicy,
      pseudoDir,
      pwCommand,
      localConcurrency: localJobs,
      models,
      judges: !values['no-judges'],
      budget,
      ...(qeVersion ? { qeVersion } : {}),
      ...(parallelJobs !== undefined ? { limits: { maxParallelJobs: parallelJobs } } : {}),
      ...(values['rerun-identical'] ? { reuseIdenticalRuns: false } : {}),
      ...(reuseFrom.length ? { reuseFrom } : {}),
    };
    const controller = await RunController.start(
      {
        runsDir: path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'),
        settings,
        ...(pwVersion ? { software: { 'pw.x': pwVersion } } : {}),
      },
      {
        ...(apiKey && !offline ? { apiKey } : {}),
        ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        clusters,
        ...sshConfigOption(values['ssh-config'] as string | undefined),
        onWarning: (m) => console.error(`warning: ${m}`),
        logger: logFile.logger,
      },
    );
    logFile.attach(controller.runDir);
    try {
      return await driveRun(controller, { bundle: !values['no-bundle'], pseudoDirs: [pseudoDir] });
    } finally {
      await controller.close().catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ObjectiveError) {
      console.error(`dreams run: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

registerCliCommand({ name: 'run', summary: 'plan and run a DFT study (objective file or sentence)', usage: RUN_USAGE, run: runCommand });
