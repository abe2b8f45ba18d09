/**
 * Everything a run needs, opened from its directory: the event log, canvas and
 * provenance (directory.ts), the job service with its backends, approvals, the usage
 * ledger and budget, the model provider (Anthropic, or offline) and the agent runtime.
 * The CLI and the VS Code controller both open runs through here, so a run started in
 * one can be resumed in the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { calculatorsFile, isAllowedCalculatorCommand } from '../calculators/ipi/allowedCommands';
import { ipiCalculatorKey, type IpiClientSpec } from '../calculators/ipi/clientProcess';
import { DreamsError } from '../errors';
import { EVENT_LOG_FILE, openRun, type Run } from './directory';
import { eventsOf, type CanvasEvent } from '../canvas/types';
import { ApprovalBook } from '../guard/approvals';
import type { JudgeConfig } from '../guard/judges/askJudge';
import { JudgeMemo } from '../guard/judges/judgeEconomy';
import type { CatalogueServices, EarlierRunSource } from '../tools/services';
import type { ProposedCall } from '../guard/types';
import { JobBackends } from '../hpc/backends';
import { CanvasJobStore } from '../hpc/canvasJobStore';
import { JobService } from '../hpc/jobService';
import type { ClusterProfile } from '../hpc/types';
import type { SshConfigSource } from '../hpc/ssh/sshConfig';
import type { ConnectionOptions } from '../hpc/ssh/connection';
import { AnthropicProvider } from '../llm/anthropic';
import { llmBudgetMeters, RunBudget } from '../llm/budget';
import { meteredProvider } from '../llm/metered';
import { resolveRoleModels } from '../llm/models';
import type { Logger } from '../logger';
import type { RetryPolicy } from '../llm/retry';
import type { LlmProvider } from '../llm/types';
import { UsageLedger } from '../llm/usage';
import { workflowTemplate } from '../workflows';
import { consultAdvisorTool, modelAdvisor } from '../agents/advisor';
import { OfflineProvider } from '../agents/offlineProvider';
import { PlanStore } from '../plan/store';
import { pwVersionsOfSession } from './pwVersions';
import type { RunSettings } from './settings';
import { definitionsVersionFor } from '../dft/qe/definitions';
import { RunControl } from './checkpoint';
import { jobsMeter, wallTimeMeter } from './meters';
import { LlmPlanner } from '../agents/adsorptionPlanner';
import { DEFAULT_AGENT_LIMITS, type AgentRuntime } from '../agents/runtime';
import { stepContext } from '../agents/supervisor';
import { TOOL_CATALOGUE } from '../tools';
import { jobIdForCall } from '../tools/runPw';
import { ToolRegistry } from '../agents/toolRegistry';
import { registryContext } from '../agents/worker';

export type { RunSettings } from './settings';

/** The directories named in reuseFrom that hold no run (no event log): a new run refuses them before it starts. */
export function notRuns(dirs: readonly string[]): string[] {
  return dirs.filter((d) => !fs.existsSync(path.join(d, EVENT_LOG_FILE)));
}

/** The runs named in reuseFrom, open for reading; a run that is gone is left out with a warning (a resume must not stop on it). */
async function openEarlierRuns(
  dirs: readonly string[],
  self: string,
  warn: (m: string) => void,
): Promise<{ sources: EarlierRunSource[]; close: () => Promise<void> }> {
  const opened: Run[] = [];
  for (const dir of dirs) {
    if (path.resolve(dir) === path.resolve(self)) continue;
    try {
      opened.push(await openRun(dir, { mode: 'reader' }));
    } catch (e) {
      warn(`reuseFrom: ${dir} cannot be read (${(e as Error).message}); its pw.x results are not reused`);
    }
  }
  return {
    sources: opened.map((r) => ({ runId: r.runId, dir: r.dir, view: r.registry })),
    close: async () => {
      await Promise.all(opened.map((r) => r.close()));
    },
  };
}

/** How to reach things that are not part of the run's record (keys, hosts, test doubles). */
export interface SessionEnvironment {
  apiKey?: string;
  baseURL?: string;
  retry?: Partial<RetryPolicy>;
  /** A provider to use instead of the Anthropic one (tests, benchmarks). */
  provider?: LlmProvider;
  clusters?: ClusterProfile[];
  sshConfig?: SshConfigSource;
  connection?: ConnectionOptions;
  pollSeconds?: number;
  onWarning?: (message: string) => void;
  /** SSH, scheduler commands, job transitions and API retries go here (never a secret). */
  logger?: Logger;
  /** Wraps whichever provider the run uses (recording, tracing). */
  wrapProvider?: (provider: LlmProvider) => LlmProvider;
}

export const SETTINGS_EVENT = 'run.settings';

/**
 * The i-PI calculator the user declared in the objective (calculator: {kind: ipi, command}), by its key: the only commands a tool may start.
 * Throws when the user's calculators file does not list the command (checked before a run is made, and again when one is opened).
 */
export function declaredIpiCalculators(calculator: unknown): Record<string, IpiClientSpec> {
  const c = calculator as { kind?: string; command?: unknown; port?: number; unixSocket?: string; timeoutSeconds?: number } | undefined;
  if (c?.kind !== 'ipi' || !Array.isArray(c.command) || !c.command.every((a) => typeof a === 'string')) return {};
  const command = c.command as string[];
  // A shared objective names a calculator; the user decides which commands may start.
  if (!isAllowedCalculatorCommand(command)) {
    throw new DreamsError(
      'setup',
      `the objective names the i-PI client command ${JSON.stringify(command)}, which is not in your calculators file (${calculatorsFile()}): ` +
        `DREAMS starts only the i-PI clients you list there. To allow it, add {"ipi": [{"command": ${JSON.stringify(command)}}]} to that file (or point $DREAMS_CALCULATORS at such a file), then run again.`,
    );
  }
  return {
    [ipiCalculatorKey(command)]: {
      command,
      ...(c.port !== undefined ? { port: c.port } : {}),
      ...(c.unixSocket ? { unixSocket: c.unixSocket } : {}),
      ...(c.timeoutSeconds !== undefined ? { timeoutSeconds: c.timeoutSeconds } : {}),
    },
  };
}

/** The run's settings: run.start's, with every later run.settings change laid over them. */
export function settingsOf(events: readonly CanvasEvent[]): RunSettings {
  const start = events.find((e) => e.kind === 'run.start')?.payload;
  if (!start) throw new Error('the run has no run.start event: it is not a run DREAMS started.');
  // run.start's settings are the RunSettings a session writes (createRunSession); the canvas keeps them opaque.
  let s = start.settings as unknown as RunSettings;
  for (const e of events) if (e.kind === SETTINGS_EVENT) s = { ...s, ...e.payload };
  return s;
}

export interface RunSession {
  run: Run;
  runtime: AgentRuntime<RunControl>;
  jobs: JobService;
  ledger: UsageLedger;
  budget: RunBudget;
  settings: RunSettings;
  close(): Promise<void>;
}

function jobsSubmitted(jobs: JobService): number {
  return jobs.list().filter((j) => j.state !== 'draft' && j.state !== 'validated').length;
}

export async function openSession(run: Run, env: SessionEnvironment): Promise<RunSession> {
  const openedAt = new Date().toISOString();
  const settings = settingsOf(run.log.events());
  const backends = new JobBackends({
    local: { pwCommand: settings.pwCommand, maxConcurrent: settings.localConcurrency },
    profiles: env.clusters ?? [],
    ...(env.sshConfig ? { sshConfig: env.sshConfig } : {}),
    ...(env.connection ? { connection: env.connection } : {}),
    ...(env.pollSeconds ? { pollSeconds: env.pollSeconds } : {}),
    ...(env.logger ? { logger: env.logger } : {}),
  });
  const jobs = await JobService.open({ store: new CanvasJobStore(run.log), runDir: run.dir, backend: backends.create });
  const stopLoggingJobs = env.logger ? logJobTransitions(jobs, env.logger.scoped('jobs')) : () => undefined;
  const usage = eventsOf(run.log.events(), 'llm.usage').map((e) => e.payload);
  const ledger = UsageLedger.fromRecords(usage, {
    sink: (r) => void run.log.append({ kind: 'llm.usage', key: `usage/${r.role}`, actor: { kind: 'framework', id: 'llm' }, payload: r }),
  });
  const budget = new RunBudget(
    llmBudgetMeters(ledger, {
      ...(settings.budget.maxTokens ? { maxTokens: settings.budget.maxTokens } : {}),
      ...(settings.budget.maxCostUsd ? { maxCostUsd: settings.budget.maxCostUsd } : {}),
    }),
  );
  if (settings.budget.maxJobs) budget.add(jobsMeter(settings.budget.maxJobs, () => jobsSubmitted(jobs)));
  if (settings.budget.maxWallMinutes) budget.add(wallTimeMeter(settings.budget.maxWallMinutes, () => run.log.events()));

  const registry = new ToolRegistry([...TOOL_CATALOGUE, consultAdvisorTool]);
  const models = resolveRoleModels(settings.models);
  const control = new RunControl();
  let runtime: AgentRuntime<RunControl> | undefined;
  let provider: LlmProvider;
  if (settings.offline) {
    provider = new OfflineProvider(() => ({
      plan: () => new PlanStore(run.canvas).current(),
      stepContext: () => stepContext(runtime!),
      toolSchema: (tool) => registry.get(tool)?.schema,
      objective: settings.objective,
      provenance: run.registry,
    }));
  } else {
    const inner =
      env.provider ??
      new AnthropicProvider({
        apiKey: env.apiKey,
        ...(env.baseURL ? { baseURL: env.baseURL } : {}),
        ...(env.retry ? { retry: env.retry } : {}),
        ...(env.onWarning ? { onWarning: env.onWarning } : {}),
        ...(env.logger ? { logger: env.logger } : {}),
      });
    provider = meteredProvider(inner, { ledger, budget });
  }
  if (env.wrapProvider) provider = env.wrapProvider(provider);
  const judge: JudgeConfig | undefined =
    provider.judges && settings.judges
      ? {
          provider,
          models: { 'param-judge': models['param-judge'], 'cross-judge': models['cross-judge'], 'report-judge': models['report-judge'] },
          catalogue: [],
          maxTokens: 4096,
          memo: new JudgeMemo(),
        }
      : undefined;
  if (settings.pseudoDir && !fs.existsSync(settings.pseudoDir)) {
    throw new Error(
      `the pseudopotential directory ${settings.pseudoDir} does not exist; pass --pseudo-dir with the folder of your UPF files (Debian: /usr/share/espresso/pseudo).`,
    );
  }
  const earlier = await openEarlierRuns(
    settings.reuseIdenticalRuns === false ? [] : (settings.reuseFrom ?? []),
    run.dir,
    env.onWarning ?? (() => {}),
  );
  // the description the validator uses for the pw.x version the run was started with (7.3 reads 'develop')
  const qeVersion = settings.qeVersion ? definitionsVersionFor(settings.qeVersion) : undefined;
  // Typed where the catalogue declares a service (tools/services.ts), so a service given in the wrong shape does not compile.
  const services: Partial<CatalogueServices> & Record<string, unknown> = {
    canvas: run.canvas,
    jobs,
    pseudoDir: settings.pseudoDir,
    backends: ['local', ...(env.clusters ?? []).map((c) => c.name)],
    runBackend: settings.backend,
    clusterProfiles: env.clusters ?? [],
    ipiCalculators: declaredIpiCalculators(settings.objective?.inputs?.calculator),
    ...(qeVersion ? { qeVersion } : {}),
    inputToolSchema: registry.get('make_pw_input')?.schema,
    jobOfCall: (callId: string) => jobs.get(jobIdForCall(run.runId, callId)),
    reuseIdenticalRuns: settings.reuseIdenticalRuns !== false,
    // a result reused from an earlier run must come from the pw.x that runs now (tools/runPw.ts)
    pwVersionOf: pwVersionsOfSession(settings.pwCommand, jobs, openedAt),
    earlierRuns: earlier.sources,
    ...(provider.judges ? { suggestionModel: modelAdvisor(provider, models.advisor, control.signal) } : {}),
  };
  // An adsorption search makes each hypothesis a guarded call of its own, through this run's registry and guard.
  services.childCall = (proposed: ProposedCall) => {
    const spec = registry.get(proposed.tool);
    if (!spec) throw new Error(`no tool ${proposed.tool} in the catalogue`);
    return registry.callProposed(spec, proposed, registryContext(runtime!));
  };
  if (!settings.offline) services.modelPlanner = () => new LlmPlanner({ provider, model: models.planner });
  // Long tool bodies (a search of many relaxations) pause, stop and meet budgets between their own calls.
  services.checkpoint = () => runtime!.control.checkpoint();
  const workflowEvent = [...run.log.events()].reverse().find((e) => e.kind === 'workflow.inputs')?.payload;
  const template = workflowEvent ? workflowTemplate(workflowEvent.workflow) : undefined;
  runtime = {
    runId: run.runId,
    runDir: run.dir,
    log: run.log,
    canvas: run.canvas,
    provenance: run.registry,
    approvals: new ApprovalBook(run.log),
    policy: settings.approval,
    registry,
    provider,
    models,
    ...(judge ? { judge } : {}),
    services,
    settings: { backend: settings.backend },
    objective: settings.objective,
    ...(template && workflowEvent ? { workflow: { template, inputs: workflowEvent.inputs } } : {}),
    control,
    limits: { ...DEFAULT_AGENT_LIMITS, ...settings.limits },
    jobAllowance: () => (settings.budget.maxJobs ? settings.budget.maxJobs - jobsSubmitted(jobs) : Infinity),
  };
  return {
    run,
    runtime,
    jobs,
    ledger,
    budget,
    settings,
    close: async () => {
      stopLoggingJobs();
      await jobs.dispose();
      await backends.close();
      await earlier.close();
      await run.close();
    },
  };
}

/** One line per job state change (progress updates are not transitions). */
function logJobTransitions(jobs: JobService, log: Logger): () => void {
  const last = new Map(jobs.list().map((j) => [j.id, j.state]));
  return jobs.onDidChange((j) => {
    const was = last.get(j.id);
    if (was === j.state) return;
    last.set(j.id, j.state);
    const where = `${j.backend}${j.schedulerId ? ` #${j.schedulerId}` : ''}`;
    const line = `job ${j.id} (${where}): ${was ?? 'new'} → ${j.state}${j.exitCode !== undefined ? `, exit ${j.exitCode}` : ''}${j.error ? `: ${j.error.split('\n')[0]}` : ''}`;
    if (j.state === 'failed') log.warn(line);
    else log.info(line);
  });
}
