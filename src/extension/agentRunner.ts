/**
 * The agent runner behind the "DREAMS agents" controller: settings from VS Code, the API
 * key from secret storage, a run directory next to the canvas (`<name>.run/`), and the
 * core's RunController to start or continue the run. Approvals answered in the notebook
 * reach the running process through the run's answer inbox.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RunController } from '../core/run/controller';
import { progressLine } from '../core/run/progress';
import { notRuns, type RunSettings } from '../core/run/session';
import type { ApprovalPolicy } from '../core/guard/types';
import type { ClusterProfile } from '../core/hpc/types';
import { parseObjectiveFile, parseObjectiveText } from '../core/workflows/objective';
import type { AgentRunStarter, RunOutcome, RunRequest } from './controller';
import { getApiKey } from './secrets';
import type { Logger } from '../core/logger';
import { ignoredSettingsNotices, ignoredWorkspaceSettings } from './settings';
import { tightenApproval, tightenBudget } from './settingsPolicy';

const DEBIAN_PSEUDO_DIR = '/usr/share/espresso/pseudo';

/**
 * Run settings for an objective cell: the `dreams.*` settings, then the cell's own `run:` block
 * (backend, pseudoDir relative to the canvas, reuseFrom), which is the more specific. The cell's
 * approval policy and budget may only tighten the user's (a canvas is shared content): what it
 * asked for beyond them is ignored and listed in `notices`, which the notebook shows.
 */
export function settingsFromConfiguration(
  objectiveText: string,
  canvasDir?: string,
): { settings: RunSettings; clusters: ClusterProfile[]; notices: string[] } {
  const c = vscode.workspace.getConfiguration('dreams');
  const offline = c.get<string>('provider', 'anthropic') === 'offline';
  const qe = c.get<string>('qeVersion', 'auto');
  // An objective cell holds a sentence, or an objective file's YAML (workflow, inputs, run preferences).
  // Files the cell names (structure: { file: NaCl.cif }, or a file a sentence names) are relative to the canvas.
  const objective = /^\s*workflow\s*:/m.test(objectiveText)
    ? parseObjectiveFile(objectiveText, 'the objective cell', canvasDir)
    : parseObjectiveText(objectiveText, { forModel: !offline, ...(canvasDir ? { baseDir: canvasDir } : {}) });
  const prefs = objective.run ?? {};
  const cellPseudoDir = prefs.pseudoDir && canvasDir ? path.resolve(canvasDir, prefs.pseudoDir) : prefs.pseudoDir;
  const pseudoDir = cellPseudoDir || c.get<string>('pseudoDir', '') || process.env.DREAMS_PSEUDO_DIR || DEBIAN_PSEUDO_DIR;
  const approval = tightenApproval(c.get<ApprovalPolicy>('approvalPolicy', 'wait'), prefs.approval);
  const budget = tightenBudget(c.get<RunSettings['budget']>('budget', {}), prefs.budget);
  const settings: RunSettings = {
    objective,
    offline,
    backend: prefs.backend || c.get<string>('backend', 'local') || 'local',
    approval: approval.value,
    pseudoDir,
    pwCommand: c.get<string>('pwCommand', 'pw.x'),
    localConcurrency: 1,
    models: c.get<Record<string, string>>('models', {}),
    judges: !offline,
    budget: budget.value,
    // earlier runs named in the cell, relative to the canvas
    ...(prefs.reuseFrom?.length ? { reuseFrom: prefs.reuseFrom.map((d) => (canvasDir ? path.resolve(canvasDir, d) : d)) } : {}),
    ...(qe !== 'auto' ? { qeVersion: qe } : {}),
  };
  const clusters = c.get<ClusterProfile[]>('clusters', []);
  if (settings.backend !== 'local' && !clusters.some((p) => p.name === settings.backend)) {
    const known = clusters.map((p) => p.name);
    throw new Error(
      `No cluster profile named "${settings.backend}": ${known.length ? `the profiles in "dreams.clusters" are ${known.join(', ')}` : '"dreams.clusters" is empty'}. Add the profile, or set "dreams.backend" (or the cell's run.backend) to "local".`,
    );
  }
  return { settings, clusters, notices: [...approval.ignored, ...budget.ignored] };
}

export interface RunnerLog {
  logger: Logger;
  addSecret(value: string | undefined): void;
}

export class VsCodeAgentRunner implements AgentRunStarter {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log?: RunnerLog,
  ) {}

  async start(req: RunRequest): Promise<RunOutcome> {
    if (req.canvas.scheme !== 'file') {
      throw new Error(
        `This canvas is not saved (${req.canvas.toString()}): a run lives next to its canvas file, so save the canvas as a .dreams file first (File: Save As), then run the cell again.`,
      );
    }
    const canvasPath = req.canvas.fsPath;
    const { settings, clusters, notices } = settingsFromConfiguration(req.objective, path.dirname(canvasPath));
    for (const n of [...ignoredSettingsNotices(await ignoredWorkspaceSettings()), ...notices]) {
      req.notice(n);
      this.log?.logger.warn(`${path.basename(canvasPath)}: ${n}`);
    }
    const env = {
      clusters,
      onWarning: (m: string) => req.progress(`warning: ${m}`),
      ...(this.log ? { logger: this.log.logger } : {}),
    } as Parameters<typeof RunController.start>[1] & object;
    if (!settings.offline) {
      const apiKey = await getApiKey(this.secrets);
      if (!apiKey)
        throw new Error(
          'No Anthropic API key: run "DREAMS: Set API Key", or set "dreams.provider" to "offline" to run the built-in workflows without a model.',
        );
      this.log?.addSecret(apiKey);
      Object.assign(env, { apiKey });
    }
    const runLog = req.runLog ? path.resolve(path.dirname(canvasPath), req.runLog) : undefined;
    const resuming = !!runLog && fs.existsSync(runLog);
    // A new run refuses a mistyped reuseFrom before it starts pw.x for results it meant to reuse; a
    // resume goes on without a run that has gone since (the core warns).
    const notARun = resuming ? undefined : notRuns(settings.reuseFrom ?? [])[0];
    if (notARun) {
      throw new Error(
        `run.reuseFrom: ${notARun} is not a DREAMS run (it has no events.jsonl). Name a run directory, relative to the canvas, e.g. ${path.basename(canvasPath, '.dreams')}.run/20260101-120000-al-lattice.`,
      );
    }
    const controller = resuming
      ? await RunController.resume(path.dirname(runLog), env)
      : await RunController.start({ runsDir: canvasPath.replace(/\.dreams$/, '') + '.run', settings }, env);
    await req.linked({ runLog: path.join(controller.runDir, 'events.jsonl'), runId: controller.runId });
    this.log?.logger.info(
      `run ${controller.runId} ${resuming ? 'resumed' : 'started'} from ${path.basename(canvasPath)}: backend ${settings.backend}, approval policy ${settings.approval}, ${settings.offline ? 'offline' : 'with a model'}`,
    );
    let last = '';
    const off = controller.onProgress((p) => {
      const line = progressLine(p);
      if (line !== last) req.progress((last = line));
    });
    const onAbort = () => void controller.cancel('cancelled from the notebook');
    req.signal.addEventListener('abort', onAbort);
    try {
      const result = await controller.run();
      this.log?.logger[result.state === 'failed' ? 'warn' : 'info'](
        `run ${controller.runId}: ${result.state}${result.reason ? ` (${result.reason.split('\n')[0]})` : ''}`,
      );
      return {
        runLog: path.join(controller.runDir, 'events.jsonl'),
        runId: controller.runId,
        state: result.state,
        summary: result.response ?? result.reason ?? '',
      };
    } finally {
      req.signal.removeEventListener('abort', onAbort);
      off();
      await controller.close();
    }
  }
}
