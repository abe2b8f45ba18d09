/** `dreams report <run>`: (re)write a run's report.md, plots, notebook link and bundle from its event log. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { consultAdvisorTool } from '../../core/agents/advisor';
import { settingsOf, type RunSettings } from '../../core/run/session';
import { ToolRegistry } from '../../core/agents/toolRegistry';
import { TOOL_CATALOGUE } from '../../core/tools';
import type { Run } from '../../core/run/directory';
import { ApprovalBook } from '../../core/guard/approvals';
import type { ReportClaim } from '../../core/guard/claimChecks';
import { AnthropicProvider } from '../../core/llm/anthropic';
import { resolveRoleModels } from '../../core/llm/models';
import { writeRunOutputs } from '../../core/run/outputs';
import { registerCliCommand } from '../cli';
import { EventLogError } from '../../core/canvas/eventLogError';
import { DAMAGED_LOG_ADVICE, openRunLog } from './runLog';
import { resolveRunDir, UsageError } from './runOptions';

const USAGE = `Usage: dreams report <run> [--rejudge] [--runs-dir DIR] [--no-bundle] [--from-damaged]

Writes report.md (with plots/*.svg), canvas.dreams and bundle/ into the run directory from its
event log. Works on a finished run and on one still running (a snapshot). <run> is the run
directory, its id, or "latest".

  --rejudge       run the report judge again on the run's report (e.g. after answering the approvals
                  it was waiting for); with a model run this needs ANTHROPIC_API_KEY for the model tiers.
  --from-damaged  the event log is damaged: write the outputs anyway from the events before the
                  damage (report.md says so). Without it a damaged log rewrites nothing.

Exit status: 0 written, 1 the log is damaged (nothing rewritten) or a run error, 2 bad usage.`;

export async function reportCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'runs-dir': { type: 'string' },
        'no-bundle': { type: 'boolean' },
        rejudge: { type: 'boolean' },
        'from-damaged': { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`dreams report: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const runDir = resolveRunDir(positionals[0], path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'));
    // A judgement is added to a log only when it is whole: only a crash's torn last line is cut
    // (with a backup); other damage leaves the log untouched.
    let opened;
    try {
      opened = await openRunLog('report', runDir, { mode: values.rejudge ? 'writer' : 'reader', onDamage: 'cut-last-line' });
    } catch (e) {
      if (!(e instanceof EventLogError) || e.code !== 'damaged') throw e;
      console.error(`dreams report: ${e.message} The report was not judged again and nothing was rewritten. ${DAMAGED_LOG_ADVICE}`);
      return 1;
    }
    const { run, health } = opened;
    try {
      if (health.damaged && !health.cut && !values['from-damaged']) {
        console.error(
          `dreams report: report.md, plots, canvas.dreams and the bundle were not rewritten: they would show only the events before line ${health.line}. ` +
            `Restore events.jsonl from a copy, or write them from the events that were read with --from-damaged (report.md then says so).`,
        );
        return 1;
      }
      const settings = settingsOf(run.log.events());
      if (values.rejudge) console.log(await rejudgeReport(run, settings));
      const notice =
        health.damaged && !health.cut
          ? `Written from a damaged event log: only the ${run.log.events().length} events before line ${health.line} of events.jsonl were read (${health.notes[0]})`
          : undefined;
      const out = await writeRunOutputs(run, {
        bundle: !values['no-bundle'],
        pseudoDirs: [settings.pseudoDir],
        ...(notice ? { notice } : {}),
      });
      console.log(`report   ${out.report}\nplots    ${out.plots.length ? out.plots.join(', ') : '(none yet)'}\nnotebook ${out.notebook}`);
      if (out.bundle)
        console.log(`bundle   ${out.bundle}${out.bundleProblems.length ? `\n  problems: ${out.bundleProblems.join('\n  ')}` : ''}`);
      return 0;
    } finally {
      await run.close();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dreams report: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

/** The report judge again on the run's last report, with the judges the run had. */
async function rejudgeReport(run: Run, settings: RunSettings): Promise<string> {
  const call = [...run.registry.calls()].reverse().find((c) => c.tool === 'write_report' && c.status === 'ok');
  if (!call) throw new UsageError(`run ${run.runId} has no written report to judge; it has to reach its report step first.`);
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (!settings.offline && settings.judges && !apiKey) {
    throw new UsageError(
      'this run was judged by a model: set ANTHROPIC_API_KEY to judge its report again, so the model tiers are not recorded as not judged.',
    );
  }
  const registry = new ToolRegistry([...TOOL_CATALOGUE, consultAdvisorTool]);
  const models = resolveRoleModels(settings.models);
  const provider =
    !settings.offline && settings.judges && apiKey
      ? new AnthropicProvider({ apiKey, ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}) })
      : undefined;
  const judgement = await registry.judgeWrittenReport(call.args.claims!.value as ReportClaim[], call.id, call.outputs[0], {
    provenance: run.registry,
    approvals: new ApprovalBook(run.log),
    policy: settings.approval,
    events: run.log,
    ...(provider
      ? {
          judge: {
            provider,
            models: { 'param-judge': models['param-judge'], 'cross-judge': models['cross-judge'], 'report-judge': models['report-judge'] },
            catalogue: [],
            maxTokens: 4096,
          },
        }
      : {}),
    run: { runId: run.runId, runDir: run.dir, signal: new AbortController().signal, progress: () => undefined, services: {} },
  });
  return `report ${call.outputs[0]}: ${judgement.accepted ? 'accepted' : judgement.level === 'warn' ? 'needs review' : 'not accepted'} by the report judge (${judgement.summary})`;
}

registerCliCommand({ name: 'report', summary: "write a run's report, plots, notebook and bundle", usage: USAGE, run: reportCommand });
