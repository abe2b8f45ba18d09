/**
 * Driving a run from the terminal: live progress, Ctrl-C (first: stop after the tool
 * call in flight, resumable; second: stop now, leaving jobs running for a resume to pick
 * up), the output files, and a closing summary with where everything is.
 */
import path from 'node:path';
import type { RunController, RunResult } from '../../core/run/controller';
import { writeRunOutputs } from '../../core/run/outputs';
import { ProgressView } from './progressView';
import { exitCodeOf } from './runOptions';

export interface DriveOptions {
  bundle: boolean;
  pseudoDirs: string[];
  out?: NodeJS.WriteStream;
}

export async function driveRun(controller: RunController, opts: DriveOptions): Promise<number> {
  const out = opts.out ?? process.stdout;
  const ref = path.relative(process.cwd(), controller.runDir) || controller.runDir;
  const view = new ProgressView(out, ref);
  out.write(`run ${controller.runId}\n  directory ${controller.runDir}\n`);
  const off = controller.onProgress((p, e) => view.onEvent(p, e));
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      view.print('stopping after the tool call in flight (Ctrl-C again to stop now; running jobs are picked up by dreams resume)…');
      controller.stop('stopped by the user (Ctrl-C)');
    } else {
      view.print('stopping now; jobs keep running and dreams resume picks them up.');
      void controller.abandon('stopped by the user (Ctrl-C twice)').finally(() => process.exit(3));
    }
  };
  process.on('SIGINT', onSigint);
  // Node ends a process whose event loop is empty even with the run unfinished: that would be
  // a run left waiting on nothing that can wake it. Never report that as an ending: record the
  // run as stopped, say so, and exit non-zero.
  const onIdle = () => {
    view.print(
      `the run is waiting on nothing that can wake it (a fault in DREAMS); its state is saved and dreams resume ${ref} continues it.`,
    );
    void controller.abandon('stopped: the run was waiting on nothing that could wake it').finally(() => process.exit(1));
  };
  process.once('beforeExit', onIdle);
  let result: RunResult;
  try {
    result = await controller.run();
  } finally {
    process.off('beforeExit', onIdle);
    process.off('SIGINT', onSigint);
    off();
    view.end();
  }
  const rel = (p: string) => path.relative(process.cwd(), p) || p;
  out.write(`\n${result.state.toUpperCase()}${result.reason && result.state !== 'completed' ? `: ${result.reason}` : ''}\n`);
  if (result.response) out.write(`\n${result.response}\n`);
  let outputs: Awaited<ReturnType<typeof writeRunOutputs>>;
  try {
    outputs = await writeRunOutputs(controller.session.run, { bundle: opts.bundle, pseudoDirs: opts.pseudoDirs });
  } catch (e) {
    // (a full disk): the run's record is its event log, whole up to its last saved event
    out.write(
      `\n  could not write the notebook, report and bundle (${(e as Error).message}).\n  The run is in its event log ${rel(path.join(controller.runDir, 'events.jsonl'))}; \`dreams report ${ref}\` writes them once that is fixed.\n`,
    );
    return Math.max(1, exitCodeOf(result.state));
  }
  out.write(
    `\n  notebook  ${rel(outputs.notebook)}\n  report    ${rel(outputs.report)}\n  event log ${rel(path.join(controller.runDir, 'events.jsonl'))}\n`,
  );
  if (outputs.bundle)
    out.write(
      `  bundle    ${rel(outputs.bundle)}${outputs.bundleProblems.length ? ` (${outputs.bundleProblems.length} problem(s): ${outputs.bundleProblems.join(' ')})` : ''}\n`,
    );
  if (result.state === 'stopped')
    out.write(`\nResume with: dreams resume ${ref}${/budget/.test(result.reason ?? '') ? ' --budget <higher limits>' : ''}\n`);
  return exitCodeOf(result.state);
}
