/** `dreams resume <run>`: continue a stopped (or interrupted) run from its canvas state. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { logHealth } from '../../core/canvas/recoveryReport';
import type { RecoveryReport } from '../../core/canvas/types';
import { EVENT_LOG_FILE, openRun } from '../../core/run/directory';
import { RunController } from '../../core/run/controller';
import { settingsOf, type RunSettings } from '../../core/run/session';
import type { ApprovalPolicy } from '../../core/guard/types';
import { registerCliCommand } from '../cli';
import { driveRun } from './driveRun';
import { LOG_LEVEL_USAGE, parseLogLevel, runLogFile } from './logFile';
import { loadClusters, parseBudget, resolveRunDir, sshConfigOption, UsageError } from './runOptions';

const USAGE = `Usage: dreams resume <run> [--budget LIMITS] [--approval POLICY] [--clusters FILE] [--ssh-config FILE] [--runs-dir DIR] [--log-level LEVEL] [--no-bundle] [--cut-damaged]

Continues a run that stopped (budget reached, Ctrl-C) or whose process died, from the
state in its event log: finished steps are not redone, and pw.x jobs still running are
picked up, not resubmitted. <run> is the run directory, its id, or "latest".

  --budget LIMITS    new limits, e.g. cost=10,jobs=80 (a run stopped by a budget needs a higher one)
  --approval POLICY  wait | continue | auto-approve from now on
  --cut-damaged      the event log is damaged before its last line: copy the whole file aside and
                     cut it back to the last good event, then continue from there (a torn last
                     line, what a crash leaves, is cut without asking, after the same copy)
${LOG_LEVEL_USAGE}

Exit status as for dreams run.`;

export async function resumeCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        budget: { type: 'string' },
        approval: { type: 'string' },
        clusters: { type: 'string' },
        'ssh-config': { type: 'string' },
        'runs-dir': { type: 'string' },
        'no-bundle': { type: 'boolean' },
        'log-level': { type: 'string' },
        'cut-damaged': { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`dreams resume: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const runDir = resolveRunDir(positionals[0], path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'));
    // Read first: damage is said here only when the run is not resumed (the writer below says what it cut).
    const peek = await openRun(runDir, { mode: 'reader' });
    const health = logHealth(peek.recovery, path.join(runDir, EVENT_LOG_FILE));
    const events = peek.log.events();
    await peek.close();
    const refusal = health.damaged ? damagedResumeRefusal(peek.recovery, values['cut-damaged'] === true) : undefined;
    if (refusal) {
      for (const n of health.notes) console.error(`dreams resume: ${n}`);
      console.error(`dreams resume: ${refusal}`);
      return 1;
    }
    const state = [...events].reverse().find((e) => e.kind === 'run.state')?.payload;
    const old = settingsOf(events);
    if (state?.state === 'completed') {
      console.log(`run ${path.basename(runDir)} is already complete; rewrite its report with: dreams report ${positionals[0]}`);
      for (const n of health.notes) console.error(`dreams resume: ${n}`);
      return health.damaged ? 1 : 0;
    }
    const changes: Partial<RunSettings> = {};
    if (values.budget) changes.budget = { ...old.budget, ...parseBudget(values.budget as string) };
    if (values.approval) {
      if (!['wait', 'continue', 'auto-approve'].includes(values.approval as string))
        throw new UsageError(`--approval must be wait, continue or auto-approve (got "${values.approval}").`);
      changes.approval = values.approval as ApprovalPolicy;
    }
    const apiKey = process.env.ANTHROPIC_API_KEY;
    const logFile = runLogFile(parseLogLevel(values['log-level'] as string | undefined), apiKey ? [apiKey] : []);
    logFile.attach(runDir);
    if (!old.offline && !apiKey)
      throw new UsageError('this run uses a model: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-...) to resume it.');
    const controller = await RunController.resume(
      runDir,
      {
        ...(apiKey && !old.offline ? { apiKey } : {}),
        ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        clusters: loadClusters(values.clusters as string | undefined),
        ...sshConfigOption(values['ssh-config'] as string | undefined),
        logger: logFile.logger,
      },
      changes,
      { cutDamaged: values['cut-damaged'] === true },
    );
    for (const n of logHealth(controller.session.run.recovery, path.join(runDir, EVENT_LOG_FILE)).notes)
      console.error(`dreams resume: ${n}`);
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

/**
 * Why a damaged log is not resumed as it is, or undefined when resuming may cut it: a torn
 * or damaged last line (what a crash leaves) is cut after a copy of the whole file; damage
 * with good-looking lines after it is cut only with --cut-damaged; a log with no good event
 * before its damage is never resumed (nothing would be left).
 */
function damagedResumeRefusal(recovery: RecoveryReport, cutAllowed: boolean): string | undefined {
  const d = recovery.damage;
  const dropped = d ? d.linesDropped : 1;
  const line = d?.line ?? recovery.unfinishedTail?.line;
  if (recovery.eventsRead === 0) {
    return `there is no good event before line ${line}, so there is nothing to resume from. The log was not changed: restore ${EVENT_LOG_FILE} from a copy.`;
  }
  if (dropped <= 1 || cutAllowed) return undefined;
  return (
    `resuming would cut ${dropped} line(s) from line ${line} on, and lines after a damaged one may be good events. Nothing was changed. ` +
    `Restore ${EVENT_LOG_FILE} from a copy, or run again with --cut-damaged to continue from the ${recovery.eventsRead} event(s) before line ${line} ` +
    '(the whole file is copied aside first).'
  );
}

registerCliCommand({ name: 'resume', summary: 'continue a stopped or interrupted run', usage: USAGE, run: resumeCommand });
