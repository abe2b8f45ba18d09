/** `dreams resume <run>`: continue a stopped (or interrupted) run from its canvas state. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openRun } from '../../core/run/directory';
import { RunController } from '../../core/run/controller';
import { settingsOf, type RunSettings } from '../../core/run/session';
import type { ApprovalPolicy } from '../../core/guard/types';
import { registerCliCommand } from '../cli';
import { driveRun } from './driveRun';
import { LOG_LEVEL_USAGE, parseLogLevel, runLogFile } from './logFile';
import { loadClusters, parseBudget, resolveRunDir, sshConfigOption, UsageError } from './runOptions';

const USAGE = `Usage: dreams resume <run> [--budget LIMITS] [--approval POLICY] [--clusters FILE] [--ssh-config FILE] [--runs-dir DIR] [--log-level LEVEL] [--no-bundle]

Continues a run that stopped (budget reached, Ctrl-C) or whose process died, from the
state in its event log: finished steps are not redone, and pw.x jobs still running are
picked up, not resubmitted. <run> is the run directory, its id, or "latest".

  --budget LIMITS    new limits, e.g. cost=10,jobs=80 (a run stopped by a budget needs a higher one)
  --approval POLICY  wait | continue | auto-approve from now on
${LOG_LEVEL_USAGE}

Exit status as for dreams run.`;

export async function resumeCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
      budget: { type: 'string' }, approval: { type: 'string' }, clusters: { type: 'string' }, 'ssh-config': { type: 'string' }, 'runs-dir': { type: 'string' }, 'no-bundle': { type: 'boolean' }, 'log-level': { type: 'string' },
    } }));
  } catch (e) {
    console.error(`dreams resume: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const runDir = resolveRunDir(positionals[0], path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'));
    const peek = await openRun(runDir, { mode: 'reader' });
    const events = peek.log.events();
    const state = [...events].reverse().find((e) => e.kind === 'run.state')?.payload as { state: string } | undefined;
    const old = settingsOf(events);
    await peek.close();
    if (state?.state === 'completed') {
      console.log(`run ${path.basename(runDir)} is already complete; rewrite its report with: dreams report ${positionals[0]}`);
      return 0;
    }
    const changes: Partial<RunSettings> = {};
    if (values.budget) changes.budget = { ...old.budget, ...parseBudget(values.budget as string) };
    if (values.approval) {
      if (!['wait', 'continue', 'auto-approve'].includes(values.approval as string)) throw new UsageError(`--approval must be wait, continue or auto-approve (got "${values.approval}").`);
      changes.approval = values.approval as ApprovalPolicy;
    }
    const apiKey = process.env.ANTHROPIC_API_KEY;
    const logFile = runLogFile(parseLogLevel(values['log-level'] as string | undefined), apiKey ? [apiKey] : []);
    logFile.attach(runDir);
    if (!old.offline && !apiKey) throw new UsageError('this run uses a model: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-...) to resume it.');
    const controller = await RunController.resume(runDir, {
      ...(apiKey && !old.offline ? { apiKey } : {}), ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
      clusters: loadClusters(values.clusters as string | undefined), ...sshConfigOption(values['ssh-config'] as string | undefined), logger: logFile.logger,
    }, changes);
    try {
      return await driveRun(controller, { bundle: !values['no-bundle'], pseudoDirs: [old.pseudoDir] });
    } finally {
      await controller.close().catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dreams resume: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

registerCliCommand({ name: 'resume', summary: 'continue a stopped or interrupted run', usage: USAGE, run: resumeCommand });
