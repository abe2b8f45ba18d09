/**
 * `dreams mcp`: DREAMS as a Model Context Protocol server (the official SDK) bound to one runs
 * directory. An outside agent lists the workflows, starts or resumes a run and works its
 * steps: the tools of the running steps are offered as a worker is offered them, and each
 * call goes through the worker loop, the registry and the guarded call (schema, tier 1, and
 * the judges when a model key is configured), recorded with the client's name and version as
 * the actor. It reads canvases, approvals, jobs and reports, answers approvals (as the
 * client), and offers each run's report and PROV-JSON as resources. It acts only inside its
 * runs directory, runs no shell, and offers only the reading tools when read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  McpError,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { answerApproval, ApprovalBook, standingNote } from '../core/guard/approvals';
import { postAnswer, waitForOutcome } from '../core/run/answerInbox';
import { openRun } from '../core/run/directory';
import { notRuns, type RunSettings, type SessionEnvironment } from '../core/run/session';
import { EventLogError } from '../core/canvas/eventLogError';
import { DreamsError } from '../core/errors';
import type { WrappedInput } from '../core/agents/toolRegistry';
import { workflowTemplates } from '../core/workflows';
import { parseObjectiveFile, prepareWorkflow, type Objective } from '../core/workflows/objective';
import { workflowEnvironment } from '../core/workflows/environment';
import { DrivenRun } from './drivenRun';
import {
  insideRoot,
  jobsOf,
  logDamageNotes,
  McpUsageError,
  namedFiles,
  provenanceOf,
  readingRun,
  reportOf,
  runDirOf,
  runIds,
  sayingLogDamage,
  summaryOf,
} from './runsRoot';
import { errorResult, guardedResult, textResult } from './toolResults';
import { READ_TOOLS, WRITE_TOOLS, withStep } from './toolDefinitions';

export interface McpServerConfig {
  runsDir: string;
  /** Objective and structure files are read only inside it (default: the runs directory's parent). */
  workspace: string;
  /** Only the reading tools (an untrusted workspace). */
  readOnly: boolean;
  /** How runs reach models, clusters and loggers (as for `dreams run`). */
  session: SessionEnvironment;
  /** Settings of the runs this server starts, besides what the client chooses. */
  defaults: Pick<RunSettings, 'pseudoDir' | 'pwCommand' | 'localConcurrency' | 'qeVersion'> & { pwVersion?: string };
  version: string;
}

/**
 * The one approval policy an outside agent may set. Not wait: a warned call would hold until
 * its answer, which an agent calling one tool at a time could never give. Not auto-approve:
 * the agent whose calls are guarded would have its own warnings approved unseen, by policy;
 * it answers them itself (dreams_answer_approval, recorded with its name), and in VS Code the
 * user confirms that call.
 */
const POLICIES = ['continue'] as const;
/** The protocol's error code for a resource that is not there (MCP specification, "Resources": error handling). */
const RESOURCE_NOT_FOUND = -32002;

export class DreamsMcpServer {
  readonly server: Server;
  #driven?: DrivenRun;
  #offered = '';
  #unsubscribe?: () => void;

  constructor(private readonly config: McpServerConfig) {
    this.server = new Server(
      { name: 'dreams', version: config.version },
      {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
        instructions: [
          'DREAMS runs DFT studies with Quantum ESPRESSO; every number traces to the tool call that made it, and a guard checks every call.',
          'Start a run of a built-in workflow (dreams_workflows, dreams_start_run), then work its steps: dreams_status shows each running step,',
          'its planned call in full and the tools it takes; call that tool with {arguments, references, reasons, context} (add "step" when several',
          "running steps take the same tool). A refused call returns the guard's reasons: fix them and call again. A warned call returns its result",
          "with the concern and an approval id, answered with dreams_answer_approval. The report step ends with the report judge's verdict.",
          config.readOnly ? 'This server is read-only (an untrusted workspace): it reads runs but starts nothing.' : '',
        ]
          .filter(Boolean)
          .join(' '),
      },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools() }));
    this.server.setRequestHandler(CallToolRequestSchema, async (req) =>
      this.safely(() => this.callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>)),
    );
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: runIds(config.runsDir).flatMap((id) => [
        {
          uri: `dreams://runs/${id}/report.md`,
          name: `${id} report`,
          mimeType: 'text/markdown',
          description: `The report of run ${id}, with the report judge's verdict`,
        },
        {
          uri: `dreams://runs/${id}/provenance.json`,
          name: `${id} provenance`,
          mimeType: 'application/json',
          description: `Every artifact and tool call of run ${id} as PROV-JSON`,
        },
      ]),
    }));
    this.server.setRequestHandler(ReadResourceRequestSchema, async (req) => this.readResource(req.params.uri));
  }

  connect(transport: Transport): Promise<void> {
    return this.server.connect(transport);
  }

  async close(): Promise<void> {
    this.#unsubscribe?.();
    await this.#driven?.close();
    await this.server.close();
  }

  /** The run this server drives (tests). */
  get driven(): DrivenRun | undefined {
    return this.#driven;
  }

  /** "mcp:<name>@<version>" of the connected client: the actor of its calls, the party of its answers and stops. */
  clientId(): string {
    const c = this.server.getClientVersion();
    return `mcp:${c?.name ?? 'unknown-client'}@${c?.version ?? '?'}`;
  }

  tools(): Tool[] {
    const fixed = this.config.readOnly ? READ_TOOLS : [...READ_TOOLS, ...WRITE_TOOLS];
    const live =
      this.config.readOnly || !this.#driven || this.#driven.result
        ? []
        : this.#driven.offeredTools().map((d) => ({
            name: d.name,
            description: `${d.description}\n(Guarded DREAMS tool of step ${d.steps.join(', ')}: give {arguments, references, reasons, context}; dreams_status shows the planned call.)`,
            inputSchema: withStep(d.inputSchema) as Tool['inputSchema'],
          }));
    return [...fixed, ...live];
  }

  private async safely(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof McpUsageError || e instanceof DreamsError) return errorResult(e.message);
      return errorResult(`${(e as Error).message || String(e)}`);
    }
  }

  private async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const cfg = this.config;
    switch (name) {
      case 'dreams_workflows':
        return textResult(
          workflowTemplates()
            .map((t) => `${t.id}: ${t.title}\n  ${t.description}`)
            .join('\n\n') + "\n\nEach workflow's input schema is in the structured content.",
          {
            workflows: workflowTemplates().map((t) => ({
              id: t.id,
              title: t.title,
              description: t.description,
              inputSchema: t.inputSchema,
            })),
          },
        );
      case 'dreams_runs': {
        const rows = [];
        for (const id of runIds(cfg.runsDir)) rows.push(await this.withRun(id, summaryOf));
        return textResult(
          rows.length
            ? rows
                .map(
                  (r) =>
                    `${r.id}  ${r.state}  ${r.objective}${this.#driven?.runId === r.id ? '  (driven here)' : ''}${r.log ? `\n  ${r.log}` : ''}`,
                )
                .join('\n')
            : `no runs under ${cfg.runsDir}`,
          { runs: rows },
        );
      }
      case 'dreams_status': {
        const d = this.#driven;
        if (d && (!args.run || runDirOf(cfg.runsDir, args.run as string) === d.controller.runDir)) {
          return textResult(d.statusText(), { run: d.runId, state: d.result?.state ?? d.controller.progress().state, steps: d.steps() });
        }
        return this.withRun((args.run as string | undefined) ?? 'latest', (run) => {
          const s = summaryOf(run);
          return textResult(`run ${s.id}: ${s.state} (not driven by this server; dreams_resume_run continues it)\n${s.objective}`, {
            run: s.id,
            state: s.state,
          });
        });
      }
      case 'dreams_canvas_inspect':
        return this.withRun(args.run as string | undefined, (run) => {
          const rows = run.canvas.inspect(args.prefix as string | undefined);
          return textResult(rows.length ? rows.map((r) => `${r.key} [${r.mode}, v${r.versions}] ${r.summary}`).join('\n') : 'no keys');
        });
      case 'dreams_canvas_read':
        return this.withRun(args.run as string | undefined, (run) => {
          const r = run.canvas.read(String(args.key ?? ''), args.version as number | undefined);
          // the message names the closest keys itself
          if (!r.ok) return errorResult(r.message);
          return textResult(`${r.key} v${r.version}/${r.versions}: ${JSON.stringify(r.value, null, 1)}`, {
            key: r.key,
            version: r.version,
            value: r.value as Record<string, unknown>,
          });
        });
      case 'dreams_approvals':
        return this.withRun(args.run as string | undefined, (run) => {
          const book = new ApprovalBook(run.log);
          const rows = book.requests().map((r) => {
            const a = book.answerOf(r.id);
            const closed = a ? undefined : book.closedOf(r.id);
            return {
              id: r.id,
              call: r.call,
              tool: r.tool,
              ...(r.parameter ? { parameter: r.parameter } : {}),
              verdicts: r.verdicts,
              state: a ? a.decision : closed ? 'closed' : 'open',
              ...(a ? { by: a.by, at: a.at } : {}),
            };
          });
          return textResult(
            rows.length
              ? rows
                  .map(
                    (r) =>
                      `${r.id}  ${r.call} ${r.tool}${r.parameter ? `.${r.parameter}` : ''}  ${r.state.toUpperCase()}${r.by ? ` by ${r.by}` : ''}\n  ${r.verdicts.map((v) => `[${v.rule}] ${v.reasons.join(' ')}`).join('\n  ')}`,
                  )
                  .join('\n')
              : 'no approval requests in this run',
            { approvals: rows },
          );
        });
      case 'dreams_jobs':
        return this.withRun(args.run as string | undefined, (run) => {
          const jobs = jobsOf(run);
          return textResult(
            jobs.length
              ? jobs.map((j) => `${j.id} ${j.backend} ${j.state}${j.error ? `: ${j.error.split('\n')[0]}` : ''}`).join('\n')
              : 'this run has no jobs yet',
            {
              jobs: jobs.map((j) => ({
                id: j.id,
                backend: j.backend,
                state: j.state,
                ...(j.call ? { call: j.call } : {}),
                ...(j.error ? { error: j.error } : {}),
              })),
            },
          );
        });
      case 'dreams_report':
        return this.withRun(args.run as string | undefined, (run) => {
          const r = reportOf(run);
          const verdict = r.verdict
            ? `Report judge: ${r.verdict.accepted ? 'accepted' : r.verdict.level === 'warn' ? 'needs review' : 'not accepted'} (${r.verdict.summary}).`
            : 'The report has not been judged yet (the run has not written it).';
          return textResult(`${verdict}\n\n${r.markdown}`, {
            ...(r.verdict
              ? { verdict: { accepted: r.verdict.accepted, level: r.verdict.level, summary: r.verdict.summary, report: r.verdict.report } }
              : {}),
          });
        });
    }
    if (cfg.readOnly)
      return errorResult(
        `${name} is not offered: this server is read-only (an untrusted workspace). It reads runs; trust the workspace to start or work them.`,
      );
    switch (name) {
      case 'dreams_start_run':
        return this.startRun(args);
      case 'dreams_resume_run':
        return this.resumeRun(args);
      case 'dreams_answer_approval':
        return this.answer(args);
      case 'dreams_end_step': {
        const d = this.requireDriven();
        if (!d.endStep(String(args.step), String(args.summary ?? 'ended by the outside agent')))
          return errorResult(`step ${args.step} is not waiting for a call; dreams_status shows the running steps.`);
        return textResult(`step ${args.step}: its turn ended; the step is judged from what it made.`);
      }
      case 'dreams_stop_run': {
        const d = this.requireDriven();
        await d.stop(String(args.reason ?? `stopped by ${this.clientId()}`));
        const r = await d.finished;
        return textResult(`run ${d.runId} ${r.state}${r.reason ? `: ${r.reason}` : ''}; dreams_resume_run continues it.`);
      }
    }
    return this.catalogueCall(name, args);
  }

  private async catalogueCall(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const d = this.#driven;
    if (!d)
      return errorResult(
        `unknown tool "${name}": no run is driven by this server; start one with dreams_start_run (or dreams_resume_run), then call the tools of its steps.`,
      );
    const { step, ...input } = args;
    const r = await d.call({ id: '', tool: name, input: input as unknown as WrappedInput, ...(typeof step === 'string' ? { step } : {}) });
    if (r.kind === 'refused') return errorResult(r.message);
    const rt = d.controller.session.runtime;
    const callId = 'call' in r.result.outcome ? r.result.outcome.call : undefined;
    const approval = callId ? rt.approvals.requests().find((a) => a.call === callId) : undefined;
    const answer = approval ? rt.approvals.answerOf(approval.id) : undefined;
    this.refreshTools();
    return guardedResult(
      r.result,
      approval,
      answer ? `${answer.decision === 'approve' ? 'approved' : 'rejected'} by ${answer.by}` : undefined,
      this.nextLine(d),
    );
  }

  private nextLine(d: DrivenRun): string {
    if (d.result) return `The run ${d.runId} has ${d.result.state}${d.result.response ? `: ${d.result.response}` : ''}`;
    const steps = d.steps();
    if (!steps.length) return 'The run is between steps; dreams_status shows what comes next.';
    return `Now running: ${steps.map((s) => `step ${s.id} (${s.tool}${s.waiting ? ', waiting for your call' : ', a call in flight'})`).join('; ')}. dreams_status shows the planned calls.`;
  }

  private requireDriven(): DrivenRun {
    if (!this.#driven || this.#driven.result)
      throw new McpUsageError(
        'no run is being driven by this server; start one with dreams_start_run or continue one with dreams_resume_run.',
      );
    return this.#driven;
  }

  private async withRun<T>(name: string | undefined, fn: (run: import('../core/run/directory').Run) => T | Promise<T>): Promise<T> {
    const dir = runDirOf(this.config.runsDir, name, this.#driven?.runId ?? 'latest');
    if (this.#driven && path.resolve(this.#driven.controller.runDir) === path.resolve(dir)) return fn(this.#driven.controller.session.run);
    // a run read from its log: damage is said first, as the CLI's commands say it
    return readingRun(dir, async (run) => sayingLogDamage(await fn(run), logDamageNotes(run)));
  }

  /** The objective the client gives, and the folder its relative paths are read from (the objective file's, else the workspace). */
  private objectiveOf(args: Record<string, unknown>): { objective: Objective; base: string } {
    const ws = this.config.workspace;
    let objective: Objective;
    let base = ws;
    if (typeof args.objectiveFile === 'string') {
      const file = insideRoot(ws, args.objectiveFile);
      if (!fs.existsSync(file)) throw new McpUsageError(`no objective file ${args.objectiveFile} in ${ws}.`);
      const text = fs.readFileSync(file, 'utf8');
      this.checkFiles(text, path.dirname(file));
      objective = parseObjectiveFile(text, args.objectiveFile, path.dirname(file));
      base = path.dirname(file);
    } else if (args.objective && typeof args.objective === 'object') {
      const text = JSON.stringify(args.objective);
      this.checkFiles(text, ws);
      objective = parseObjectiveFile(text, 'the objective', ws);
    } else {
      throw new McpUsageError(
        'give the objective: {workflow, inputs[, objective]} as for an objective file (dreams_workflows lists the workflows and their inputs), or objectiveFile, a YAML objective inside the workspace.',
      );
    }
    if (!objective.workflow || !objective.inputs)
      throw new McpUsageError(
        'an outside agent works the steps of a built-in workflow: name one in the objective (dreams_workflows lists them).',
      );
    // An i-PI command the user's calculators file does not list is refused by the run's own preflight, as on every route.
    return { objective, base };
  }

  /** Structure files an objective names must lie inside the workspace (checked before any is read). */
  private checkFiles(text: string, base: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      // YAML: read it the way the objective reader will, only for its file names
      data = parseYaml(text);
    }
    for (const f of namedFiles((data as { inputs?: unknown } | null)?.inputs)) insideRoot(this.config.workspace, path.resolve(base, f));
  }

  private async startRun(args: Record<string, unknown>): Promise<CallToolResult> {
    if (this.#driven && !this.#driven.result)
      throw new McpUsageError(
        `run ${this.#driven.runId} is still being driven by this server; finish or stop it (dreams_stop_run) before starting another.`,
      );
    const cfg = this.config;
    if (args.judges === false)
      throw new McpUsageError(
        "judges: false is refused: the calls of an outside agent are judged as a DREAMS worker's are, whenever this server has a model key (ANTHROPIC_API_KEY when dreams mcp starts). Whether it has one is the choice of the user who starts the server, not of the agent.",
      );
    const { objective, base } = this.objectiveOf(args);
    const prefs = objective.run ?? {};
    // The objective's run.pseudoDir and run.reuseFrom as `dreams run` reads them (relative to the objective file), inside the workspace.
    const pseudoDir = prefs.pseudoDir ? insideRoot(cfg.workspace, path.resolve(base, prefs.pseudoDir)) : cfg.defaults.pseudoDir;
    const reuseFrom = (prefs.reuseFrom ?? []).map((d) => insideRoot(cfg.workspace, path.resolve(base, d)));
    const notARun = notRuns(reuseFrom)[0];
    if (notARun)
      throw new McpUsageError(
        `run.reuseFrom: ${notARun} is not a DREAMS run (it has no events.jsonl); name a run directory relative to the objective, e.g. runs/20260101-120000-al-lattice.`,
      );
    const approval = this.approvalOf(
      (args.approval as string | undefined) ?? (prefs.approval === 'wait' ? undefined : prefs.approval) ?? 'continue',
    );
    const backend = (args.cluster as string | undefined) ?? prefs.backend ?? 'local';
    const profiles = (cfg.session.clusters ?? []).map((c) => c.name);
    if (backend !== 'local' && !profiles.includes(backend))
      throw new McpUsageError(
        `no cluster profile named "${backend}" among the user's (${profiles.join(', ') || 'none configured'}): give cluster as one of them, or leave it out to run pw.x on this machine. The profiles are the user's own file (dreams mcp --cluster-profiles, $DREAMS_CLUSTERS or ~/.config/dreams/clusters.json).`,
      );
    prepareWorkflow(objective.workflow!, objective.inputs!, workflowEnvironment({ pseudoDir }));
    const client = this.clientId();
    const keyed = !!cfg.session.apiKey || !!cfg.session.provider;
    const settings: RunSettings = {
      objective: { ...objective, run: { ...prefs, approval: approval as RunSettings['approval'] } },
      offline: !keyed,
      backend,
      approval: approval as RunSettings['approval'],
      pseudoDir,
      pwCommand: cfg.defaults.pwCommand,
      localConcurrency: cfg.defaults.localConcurrency,
      models: { dft: client, hpc: client },
      judges: keyed,
      budget: { ...prefs.budget, ...(args.budget as RunSettings['budget'] | undefined) },
      ...(cfg.defaults.qeVersion ? { qeVersion: cfg.defaults.qeVersion } : {}),
      ...(typeof args.parallelJobs === 'number' ? { limits: { maxParallelJobs: args.parallelJobs } } : {}),
      ...(reuseFrom.length ? { reuseFrom } : {}),
    };
    await this.#driven?.close();
    this.#driven = await DrivenRun.start(
      { runsDir: cfg.runsDir, settings, ...(cfg.defaults.pwVersion ? { software: { 'pw.x': cfg.defaults.pwVersion } } : {}) },
      cfg.session,
      client,
    );
    this.watch(this.#driven);
    await this.server.sendResourceListChanged().catch(() => undefined);
    await this.settle(this.#driven);
    return textResult(
      `run ${this.#driven.runId} started in ${this.#driven.controller.runDir}, worked by ${client}.\n\n${this.#driven.statusText()}`,
      { run: this.#driven.runId, steps: this.#driven.steps() },
    );
  }

  private approvalOf(approval: string): RunSettings['approval'] {
    if ((POLICIES as readonly string[]).includes(approval)) return approval as RunSettings['approval'];
    if (approval === 'auto-approve')
      throw new McpUsageError(
        "approval auto-approve is refused: an outside agent's warnings are not approved by policy. Answer each with dreams_answer_approval (recorded with your name and version; allLikeThis approves a concern that recurs).",
      );
    throw new McpUsageError(
      `approval must be continue (got "${approval}"): under wait a warned call would hold until its answer, which an agent calling one tool at a time could never give.`,
    );
  }

  private async resumeRun(args: Record<string, unknown>): Promise<CallToolResult> {
    if (this.#driven && !this.#driven.result)
      throw new McpUsageError(`run ${this.#driven.runId} is still being driven by this server; it is already going.`);
    const asked = args.approval === undefined ? undefined : this.approvalOf(String(args.approval));
    const dir = runDirOf(this.config.runsDir, args.run as string | undefined);
    const { settings, state } = await readingRun(dir, (run) => {
      const events = run.log.events();
      const start = events.find((e) => e.kind === 'run.start')?.payload;
      const last = [...events].reverse().find((e) => e.kind === 'run.state')?.payload;
      return { settings: start?.settings as unknown as RunSettings | undefined, state: last?.state };
    });
    if (!settings) throw new McpUsageError(`${path.basename(dir)} has no run settings: it is not a run DREAMS started.`);
    if (state === 'completed') return textResult(`run ${path.basename(dir)} is already complete; dreams_report shows its report.`);
    if (!settings.offline && !this.config.session.apiKey && !this.config.session.provider) {
      throw new McpUsageError('this run is judged by a model: start dreams mcp with ANTHROPIC_API_KEY set to resume it.');
    }
    const client = this.clientId();
    const changes: Partial<RunSettings> = { models: { ...settings.models, dft: client, hpc: client } };
    const approval = asked ?? (settings.approval === 'wait' ? 'continue' : undefined);
    if (approval) changes.approval = approval;
    if (args.budget) changes.budget = { ...settings.budget, ...(args.budget as RunSettings['budget']) };
    await this.#driven?.close();
    this.#driven = await DrivenRun.resume(dir, this.config.session, client, changes);
    this.watch(this.#driven);
    await this.settle(this.#driven);
    return textResult(`run ${this.#driven.runId} resumed, worked by ${client}.\n\n${this.#driven.statusText()}`, {
      run: this.#driven.runId,
      steps: this.#driven.steps(),
    });
  }

  /** Until the run waits for the client (or ends), so the first status names the steps. */
  private settle(d: DrivenRun, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (d.result || d.workers.waiting().length) finish();
      };
      const finish = () => {
        off();
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      };
      const off = d.workers.onChange(check);
      const poll = setInterval(check, 100);
      const timer = setTimeout(finish, timeoutMs);
      void d.finished.then(finish, finish);
      check();
    });
  }

  private watch(d: DrivenRun): void {
    this.#unsubscribe?.();
    const offLog = d.controller.session.run.log.subscribe((e) => {
      if (e.kind === 'key.write' && e.key === 'plan') this.refreshTools();
    });
    const offWorkers = d.workers.onChange(() => this.refreshTools());
    void d.finished.then(
      () => this.refreshTools(),
      () => this.refreshTools(),
    );
    this.#unsubscribe = () => {
      offLog();
      offWorkers();
    };
    this.refreshTools();
  }

  /** Tell the client when the tools of the running steps change. */
  private refreshTools(): void {
    const names = this.tools()
      .map((t) => t.name)
      .join(',');
    if (names === this.#offered) return;
    this.#offered = names;
    void this.server.sendToolListChanged().catch(() => undefined);
  }

  private async answer(args: Record<string, unknown>): Promise<CallToolResult> {
    const id = String(args.id ?? '');
    const decision = args.decision === 'reject' ? 'reject' : args.decision === 'approve' ? 'approve' : undefined;
    if (!id || !decision)
      throw new McpUsageError('give the request id (e.g. ap-3, from dreams_approvals) and decision: approve or reject.');
    const comment = args.comment as string | undefined;
    const standing = args.allLikeThis === true;
    if (standing && decision === 'reject') throw new McpUsageError('allLikeThis approves; a rejection answers one request only.');
    if (decision === 'reject' && !comment)
      throw new McpUsageError('say why in comment when you reject: the reason is recorded with the rejection.');
    const by = this.clientId();
    const dir = runDirOf(this.config.runsDir, args.run as string | undefined, this.#driven?.runId ?? 'latest');
    const said = (r: Awaited<ReturnType<typeof answerApproval>>) =>
      r.ok
        ? textResult(
            `${id} ${decision === 'approve' ? 'approved' : 'rejected'} by ${by}${standingNote(r)}${r.madeProvisional?.length ? `; now provisional: ${r.madeProvisional.join(', ')}` : ''}.`,
          )
        : errorResult(r.message);
    if (this.#driven && path.resolve(this.#driven.controller.runDir) === path.resolve(dir) && !this.#driven.result) {
      const rt = this.#driven.controller.session.runtime;
      return said(await answerApproval(rt.approvals, rt.provenance, id, decision, by, comment, { standing }));
    }
    if (this.#driven?.result && path.resolve(this.#driven.controller.runDir) === path.resolve(dir)) {
      await this.#driven.close();
      this.#driven = undefined;
    }
    let run;
    try {
      run = await openRun(dir, { mode: 'writer', onDamage: 'cut-last-line' });
    } catch (e) {
      if (!(e instanceof EventLogError) || e.code !== 'locked') throw e;
      // another process runs it: it records the answer
      const name = postAnswer(dir, { id, decision, by, ...(comment ? { comment } : {}), ...(standing ? { standing } : {}) });
      const outcome = await waitForOutcome(dir, name);
      if (!outcome)
        return errorResult(
          `the process running ${path.basename(dir)} did not pick up the answer within 15 s; it waits in the run's inbox.`,
        );
      return outcome.ok ? textResult(outcome.message) : errorResult(outcome.message);
    }
    try {
      return said(await answerApproval(new ApprovalBook(run.log), run.registry, id, decision, by, comment, { standing }));
    } finally {
      await run.close();
    }
  }

  private async readResource(uri: string): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
    const m = /^dreams:\/\/runs\/([^/]+)\/(report\.md|provenance\.json)$/.exec(uri);
    const notFound = (why: string) =>
      new McpError(
        RESOURCE_NOT_FOUND,
        `${why}; resources are dreams://runs/<run id>/report.md and dreams://runs/<run id>/provenance.json.`,
        { uri },
      );
    if (!m) throw notFound(`no resource ${uri}`);
    try {
      runDirOf(this.config.runsDir, m[1]!);
    } catch (e) {
      if (e instanceof McpUsageError) throw notFound(e.message.replace(/[.;]\s*$/, ''));
      throw e;
    }
    return this.withRun(m[1]!, (run) =>
      m[2] === 'report.md'
        ? { contents: [{ uri, mimeType: 'text/markdown', text: reportOf(run).markdown }] }
        : { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(provenanceOf(run), null, 1) }] },
    );
  }
}
