/**
 * The logger port: what the core tells an operator about the machinery under a run — SSH
 * logins, host keys, drops and reconnects; scheduler commands and their exit codes; job
 * transitions; API retries and why. The core never decides where lines go: the extension
 * writes them to its "DREAMS" output channel, the CLI to `dreams.log` in the run directory.
 *
 * Nothing logged may carry a key or a secret. Callers log no credentials in the first place
 * (no keys, passwords, one-time codes or prompt answers); every line also passes through
 * `redactSecrets` before it reaches a sink, as a second line of defence.
 */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Least to most severe. */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

/** Where lines go; the host implements it (an output channel, a file). */
export interface LogSink {
  log(level: LogLevel, message: string): void;
}

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The same sink, every line prefixed with `[scope]` (e.g. the cluster's name). */
  scoped(scope: string): Logger;
}

// An Anthropic key, a bearer token or an API-key header, and `NAME=value` for names that say secret.
const SECRET_PATTERNS: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{4,}/g,
  /\b(authorization\s*[:=]\s*(?:bearer|basic)\s+)[^\s'",]+/gi,
  /\b(x-api-key\s*[:=]\s*)[^\s'",]+/gi,
  /\b([A-Z0-9_]*(?:API_KEY|TOKEN|SECRET|PASSWORD|PASSPHRASE)\s*=\s*)[^\s'"]+/g,
];

/** The text with every known secret and every secret-shaped token replaced by "‹redacted›". */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('‹redacted›');
  for (const re of SECRET_PATTERNS) out = out.replace(re, (_m, keep?: string) => `${typeof keep === 'string' ? keep : ''}‹redacted›`);
  return out;
}

export interface LoggerOptions {
  scope?: string;
  /** Values that must never appear in a line (the API key the host holds). */
  secrets?: () => readonly string[];
}

export function createLogger(sink: LogSink, opts: LoggerOptions = {}): Logger {
  const prefix = opts.scope ? `[${opts.scope}] ` : '';
  const write = (level: LogLevel) => (message: string) => {
    try {
      sink.log(level, redactSecrets(prefix + message, opts.secrets?.() ?? []));
    } catch {
      // a broken sink must never break the run it describes
    }
  };
  return {
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    scoped: (scope) => createLogger(sink, { ...opts, scope: opts.scope ? `${opts.scope}/${scope}` : scope }),
  };
}

/** Says nothing: the default where no host gave a logger. */
export const silentLogger: Logger = createLogger({ log: () => undefined });

/** A shell command as logged: one line, cut to `max` characters. */
export function commandForLog(command: string, max = 400): string {
  const line = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
