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

const DEBIAN_PSEUDO_DIR = '/usr/share/espresso/pseudo';

/**
 * Run settings for an objective cell: the `dreams.*` settings, then the cell's own `run:` block
 * (backend, pseudoDir relative to the canvas, approval, budget), which is the more specific.
 */
export function settingsFromConfiguration(objectiveText: string, canvasDir?: string): { settings: RunSettings; clusters: ClusterProfile[] } {
  const c = vscode.workspace.getConfiguration('dreams');
  const offline = c.get<string>('provider', 'anthropic') === 'offline';
  const qe = c.get<string>('qeVersion', 'auto');
  // An objective cell holds a sentence, or an objective file's YAML (workflow, inputs, run preferences).
  const objective = /^\s*workflow\s*:/m.test(objectiveText) ? parseObjectiveFile(objectiveText, 'the objective cell') : parseObjectiveText(objectiveText, { forModel: !offline });
  const prefs = objective.run ?? {};
  const cellPseudoDir = prefs.pseudoDir && canvasDir ? path.resolve(canvasDir, prefs.pseudoDir) : prefs.pseudoDir;
  const pseudoDir = cellPseudoDir || c.get<string>('pseudoDir', '') || process.env.DREAMS_PSEUDO_DIR || DEBIAN_PSEUDO_DIR;
  const settings: RunSettings = {
    objective,
    offline,
    backend: prefs.backend || c.get<string>('backend', 'local') || 'local',
    approval: prefs.approval ?? c.get<ApprovalPolicy>('approvalPolicy', 'wait'),
    pseudoDir,
    pwCommand: c.get<string>('pwCommand', 'pw.x'),
    localConcurrency: 1,
    models: c.get<Record<string, string>>('models', {}),
    judges: !offline,
    budget: { ...c.get<RunSettings['budget']>('budget', {}), ...prefs.budget },
    // earlier runs named in the cell, relative to the canvas
    ...(prefs.reuseFrom?.length ? { reuseFrom: prefs.reuseFrom.map((d) => (canvasDir ? path.resolve(canvasDir, d) : d)) } : {}),
    ...(qe !== 'auto' ? { qeVersion: qe } : {}),
  };
  const clusters = c.get<ClusterProfile[]>('clusters', []);
  if (settings.backend !== 'local' && !clusters.some((p) => p.name === settings.backend)) {
    const known = clusters.map((p) => p.name);
    throw new Error(`No cluster profile named "${settings.backend}": ${known.length ? `the profiles in "dreams.clusters" are ${known.join(', ')}` : '"dreams.clusters" is empty'}. Add the profile, or set "dreams.backend" (or the cell's run.backend) to "local".`);
  }
  return { settings, clusters };
}

export class VsCodeAgentRunner implements AgentRunStarter {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async start(req: RunRequest): Promise<RunOutcome> {
    const canvasPath = req.canvas.fsPath;
    const { settings, clusters } = settingsFromConfiguration(req.objective, path.dirname(canvasPath));
    const env = { clusters, onWarning: (m: string) => req.progress(`warning: ${m}`) } as Parameters<typeof RunController.start>[1] & object;
    if (!settings.offline) {
      const apiKey = await getApiKey(this.secrets);
      if (!apiKey) throw new Error('No Anthropic API key: run "DREAMS: Set API Key", or set "dreams.provider" to "offline" to run the built-in workflows without a model.');
      Object.assign(env, { apiKey });
    }
    const runLog = req.runLog ? path.resolve(path.dirname(canvasPath), req.runLog) : undefined;
    const resuming = !!runLog && fs.existsSync(runLog);
    // A new run refuses a mistyped reuseFrom before it starts pw.x for results it meant to reuse; a
    // resume goes on without a run that has gone since (the core warns).
    const notARun = resuming ? undefined : notRuns(settings.reuseFrom ?? [])[0];
    if (notARun) {
      throw new Error(`run.reuseFrom: ${notARun} is not a DREAMS run (it has no events.jsonl). Name a run directory, relative to the canvas, e.g. ${path.basename(canvasPath, '.dreams')}.run/20260101-120000-al-lattice.`);
    }
    const controller = resuming
      ? await RunController.resume(path.dirname(runLog), env)
      : await RunController.start({ runsDir: canvasPath.replace(/\.dreams$/, '') + '.run', settings }, env);
    await req.linked({ runLog: path.join(controller.runDir, 'events.jsonl'), runId: controller.runId });
    let last = '';
    const off = controller.onProgress((p) => {
      const line = progressLine(p);
      if (line !== last) req.progress((last = line));
    });
    const onAbort = () => void controller.cancel('cancelled from the notebook');
    req.signal.addEventListener('abort', onAbort);
    try {
      const result = await controller.run();
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
