/** `dreams report <run>`: (re)write a run's report.md, plots, notebook link and bundle from its event log. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openRun } from '../../core/canvas/run';
import { settingsOf } from '../../core/agents/runSession';
import { writeRunOutputs } from '../../core/report/runOutputs';
import { registerCliCommand } from '../cli';
import { resolveRunDir, UsageError } from './runOptions';

const USAGE = `Usage: dreams report <run> [--runs-dir DIR] [--no-bundle]

Writes report.md (with plots/*.svg), canvas.dreams and bundle/ into the run directory from its
event log. Works on a finished run and on one still running (a snapshot). <run> is the run
directory, its id, or "latest".`;

export async function reportCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { 'runs-dir': { type: 'string' }, 'no-bundle': { type: 'boolean' } } }));
  } catch (e) {
    console.error(`dreams report: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const runDir = resolveRunDir(positionals[0], path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'));
    const run = await openRun(runDir, { mode: 'reader' });
    try {
      const settings = settingsOf(run.log.events());
      const out = await writeRunOutputs(run, { bundle: !values['no-bundle'], pseudoDirs: [settings.pseudoDir] });
      console.log(`report   ${out.report}\nplots    ${out.plots.length ? out.plots.join(', ') : '(none yet)'}\nnotebook ${out.notebook}`);
      if (out.bundle) console.log(`bundle   ${out.bundle}${out.bundleProblems.length ? `\n  problems: ${out.bundleProblems.join('\n  ')}` : ''}`);
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

registerCliCommand({ name: 'report', summary: "write a run's report, plots, notebook and bundle", usage: USAGE, run: reportCommand });
