/**
 * How a run from an objective cell ended, told outside the cell: a run of hours ends while
 * the user looks at another file, and the cell's output is then out of sight.
 */
export interface RunNotice {
  level: 'info' | 'warning' | 'error';
  message: string;
}

const MAX_DETAIL = 240;

/** The first line of a summary, cut to a notification's length (the cell keeps all of it). */
function detail(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

/** ": detail." or ".": a sentence however the summary ends. */
const ending = (said: string) => (said ? `: ${said}${/[.!?…]$/.test(said) ? '' : '.'}` : '.');

/**
 * The notice for a run's outcome, or undefined when the user asked for it (paused) or it
 * waits on them in the notebook already (an approval card).
 */
export function runOutcomeNotice(outcome: { runId: string; state: string; summary: string }, canvasName: string): RunNotice | undefined {
  const said = detail(outcome.summary);
  const head = `DREAMS run ${outcome.runId} (${canvasName})`;
  switch (outcome.state) {
    case 'completed':
      return { level: 'info', message: `${head} completed${ending(said)}` };
    case 'failed':
      return {
        level: 'error',
        message: `${head} failed${ending(said)} Its log keeps everything done so far; the canvas shows the failed step.`,
      };
    case 'stopped':
      return { level: 'warning', message: `${head} stopped${ending(said)} Run the objective cell again to continue it.` };
    default:
      return undefined;
  }
}

/** The notice for a run that could not start or broke off with an error. */
export function runErrorNotice(message: string, canvasName: string): RunNotice {
  return { level: 'error', message: `DREAMS (${canvasName}): ${detail(message)}` };
}
