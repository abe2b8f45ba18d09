/** `dreams jobs [<run>]`: the pw.x jobs of a run, or a line per run with its job counts. */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runProgress } from '../../core/run/progress';
import { foldJobEvents } from '../../core/hpc/jobStore';
import { registerCliCommand } from '../cli';
import { openRunLog, partialReadNote } from './runLog';
import { resolveRunDir, UsageError } from './runOptions';

const USAGE = `Usage: dreams jobs [<run>] [--runs-dir DIR] [--json]

Without <run>: each run under the runs directory with its state and job counts.
With <run> (directory, id or "latest"): its jobs with backend, scheduler id, state, run time
and error. Reads the event log only, so it is safe while the run is going.
Exit status: 0, or 1 when a log is damaged (what it says is from the events before the damage).`;

const dur = (a?: string, b?: string): string => {
  if (!a) return '';
  const s = ((b ? Date.parse(b) : Date.now()) - Date.parse(a)) / 1000;
  return s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`;
};

export async function jobsCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'runs-dir': { type: 'string' }, json: { type: 'boolean' } },
    }));
  } catch (e) {
    console.error(`dreams jobs: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const runsDir = path.resolve((values['runs-dir'] as string | undefined) ?? 'runs');
  try {
    if (!positionals[0]) {
      const runs = fs.existsSync(runsDir)
        ? fs
            .readdirSync(runsDir)
            .filter((d) => fs.existsSync(path.join(runsDir, d, 'events.jsonl')))
            .sort()
        : [];
      if (!runs.length) {
        console.log(`no runs under ${runsDir}`);
        return 0;
      }
      const rows = [];
      let damaged = 0;
      for (const r of runs) {
        const { run, health } = await openRunLog('jobs', path.join(runsDir, r), { mode: 'reader' });
        const p = runProgress(run.log.events());
        await run.close();
        if (health.damaged) damaged++;
        rows.push({ run: r, state: p.state, jobs: p.jobs, ...(health.damaged ? { damagedAtLine: health.line } : {}) });
      }
      if (values.json) console.log(JSON.stringify(rows, null, 1));
      else
        for (const x of rows)
          console.log(
            `${x.run}  ${x.state.padEnd(10)} jobs ${x.jobs.total}: ${x.jobs.completed} done, ${x.jobs.running} running, ${x.jobs.queued} queued, ${x.jobs.failed} failed, ${x.jobs.cancelled} cancelled${x.damagedAtLine ? `  (log damaged at line ${x.damagedAtLine}: counts from the events before it)` : ''}`,
          );
      return damaged ? 1 : 0;
    }
    const runDir = resolveRunDir(positionals[0], runsDir);
    const { run, health } = await openRunLog('jobs', runDir, { mode: 'reader' });
    try {
      if (health.damaged) console.error(`dreams jobs: ${partialReadNote(health)}`);
      const status = health.damaged ? 1 : 0;
      const jobs = foldJobEvents(run.log.events());
      if (values.json) {
        console.log(JSON.stringify(jobs, null, 1));
        return status;
      }
      if (!jobs.length) console.log('this run has no jobs yet');
      for (const j of jobs) {
        console.log(
          `${j.id.padEnd(16)} ${j.backend.padEnd(10)} ${j.state.padEnd(10)} ${(j.schedulerId ?? '').padEnd(8)} ${dur(j.startedAt, j.endedAt).padStart(9)}${j.progress?.scfIteration && !j.endedAt ? `  scf #${j.progress.scfIteration}` : ''}${j.error ? `  ${j.error.split('\n')[0]}` : ''}`,
        );
      }
      return status;
    } finally {
      await run.close();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dreams jobs: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

registerCliCommand({ name: 'jobs', summary: 'list the pw.x jobs of a run (or of every run)', usage: USAGE, run: jobsCommand });
