/** The scheduler printed something its adapter cannot read: say what and what was expected. */
import { DreamsError } from '../../errors';
export class SchedulerOutputError extends DreamsError<'scheduler-output'> {
  constructor(
    readonly command: string,
    readonly output: string,
    expected: string,
  ) {
    super(
      'scheduler-output',
      `could not read the output of ${command}: expected ${expected}, got:\n${output.trim().slice(0, 500) || '(nothing)'}\nCheck that the scheduler commands work in a login shell on the cluster.`,
    );
    this.name = 'SchedulerOutputError';
  }
}

/**
 * A value for a #SBATCH/#PBS/#BSUB line. Directives are read line by line without a
 * shell, so only characters that cannot end or extend the line are allowed.
 */
export function batchDirectiveValue(value: string, what: string): string {
  if (!/^[A-Za-z0-9_.:,+=@%-]+$/.test(value)) {
    throw new Error(
      `the ${what} ${JSON.stringify(value)} cannot go into a batch-script directive; use letters, digits and . _ : , + = @ % - only.`,
    );
  }
  return value;
}
