/**
 * The one root of the errors a person can meet: DreamsError carries a code from a closed set
 * (ERROR_CODES: what kind of failure it is, so a host knows what to do with it) and an
 * action (what the person reading it should do). The message says what was wrong and the
 * input that caused it. The CLI turns a code into its exit status (EXIT_STATUSES, README
 * "Exit status") and prints the message (which says what was wrong and, by the project's rule, what
 * to do) and an action given apart from it, never a stack trace; an error that is
 * not a DreamsError exits 1 with its message.
 */

/** The exit statuses of `dreams`, each with what it means (README "Exit status" lists the same). */
export const EXIT_STATUSES = {
  0: 'completed (the run finished, the command did what it was asked)',
  1: 'failed: the run failed, the checked file has errors, a calculation cannot be done as asked, or an error without a code',
  2: 'bad usage or input: a command-line option, an objective, a structure, a pw.x input or a profile to fix',
  3: 'stopped, resumable: by the user, or a budget ran out (`dreams resume` continues it)',
  4: 'setup: something this machine or run lacks (pw.x, pseudopotentials, a cluster profile, a service)',
  5: 'the run cannot be opened or written: in use by another process, damaged, or written by a newer DREAMS',
  6: 'a service refused or failed: the cluster (SSH, scheduler) or the model provider',
  70: 'an internal error (a bug in DREAMS): please report it with the command and the run directory',
} as const;

export type ExitStatus = keyof typeof EXIT_STATUSES;

interface CodeSpec {
  exit: ExitStatus;
  /** What to do, when the error does not say more precisely. */
  action: string;
}

const FIX_INPUT = 'Correct what the message names and run the command again.';
const SCIENCE = 'Change the settings or the structure as the message says; nothing was recorded as a result.';
const RECORD = 'Nothing was recorded: fix the reference or the call as the message says.';
const RUN_FILE = 'Nothing was changed in the run: see the message for what to do with its files.';
const CLUSTER = 'Check the connection and the cluster as the message says, then resume the run; jobs already submitted keep running.';
const MODEL = 'Check the model provider as the message says, then resume the run; nothing done so far is lost.';

/** Every code a DreamsError may carry: its exit status and the action when the error gives none. */
export const ERROR_CODES = {
  // What the person gave.
  usage: { exit: 2, action: 'Run the command with --help for its options.' },
  'bad-input': { exit: 2, action: FIX_INPUT },
  // The science: a calculation that cannot give an answer as asked.
  science: { exit: 1, action: SCIENCE },
  // The provenance record refused a change.
  'single-creator': { exit: 1, action: RECORD },
  'unknown-reference': { exit: 1, action: RECORD },
  cycle: { exit: 1, action: RECORD },
  'value-mismatch': { exit: 1, action: RECORD },
  'unknown-call': { exit: 1, action: RECORD },
  immutable: { exit: 1, action: RECORD },
  'undeclared-artifact': {
    exit: 1,
    action: "Declare the artifact in the tool's outputs (defineTool) or stop making it; nothing was recorded.",
  },
  // What the machine or the run lacks.
  setup: { exit: 4, action: 'Configure what the message names, then resume the run.' },
  'untrusted-workspace': { exit: 4, action: 'Trust the workspace (Workspaces: Manage Workspace Trust) to run agents and jobs here.' },
  // The run's event log.
  locked: { exit: 5, action: 'Close the other window or command that has this run open, or wait for it to end, then try again.' },
  'newer-format': { exit: 5, action: 'Open the run with the newer DREAMS that wrote it.' },
  'unknown-event': { exit: 5, action: 'Open the run with the DREAMS that wrote it, or correct the line the message names.' },
  'not-a-log': { exit: 5, action: 'Check the path: it should be a run directory (with events.jsonl).' },
  damaged: { exit: 5, action: RUN_FILE },
  'read-only': { exit: 5, action: RUN_FILE },
  closed: { exit: 5, action: RUN_FILE },
  broken: { exit: 5, action: 'Reopen the run: it recovers to the last event that reached the disk.' },
  'oversized-event': { exit: 5, action: RUN_FILE },
  // The cluster.
  'ssh-refused': { exit: 6, action: CLUSTER },
  'connection-lost': { exit: 6, action: CLUSTER },
  'channel-refused': { exit: 6, action: CLUSTER },
  'scheduler-output': { exit: 6, action: CLUSTER },
  // The model provider.
  auth: { exit: 6, action: 'Set a valid API key (ANTHROPIC_API_KEY, or DREAMS: Set API Key), then resume the run.' },
  'rate-limit': { exit: 6, action: MODEL },
  overloaded: { exit: 6, action: MODEL },
  server: { exit: 6, action: MODEL },
  network: { exit: 6, action: MODEL },
  'bad-request': { exit: 6, action: MODEL },
  'incomplete-stream': { exit: 6, action: MODEL },
  // Stops: the run can be resumed.
  stopped: { exit: 3, action: 'Resume the run with `dreams resume` (or Run in the canvas) when you want it to continue.' },
  cancelled: { exit: 3, action: 'Resume the run with `dreams resume` (or Run in the canvas) when you want it to continue.' },
  budget: { exit: 3, action: 'Resume with a larger budget, e.g. `dreams resume <run> --budget jobs=100`.' },
  // Bugs: states the code never means to reach.
  'illegal-transition': { exit: 70, action: "This is a bug in DREAMS: please report it with the run's events.jsonl." },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The root of every error a person can meet. `code` says what kind of failure it is (a host
 * maps it to an exit status or a button); `action` says what to do (given, or the code's).
 */
export class DreamsError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** What to do: the one given with the error, else its code's. */
  readonly action: string;
  /** Whether the action was given apart from the message (a message may already say what to do). */
  readonly actionGiven: boolean;
  constructor(code: C, message: string, options: { action?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.action = options.action ?? ERROR_CODES[code].action;
    this.actionGiven = options.action !== undefined;
  }
}

/** The exit status of an error: its code's for a DreamsError, 1 (failed) for an error without a code. */
export function exitStatusOf(e: unknown): ExitStatus {
  return e instanceof DreamsError ? ERROR_CODES[e.code as ErrorCode].exit : 1;
}
