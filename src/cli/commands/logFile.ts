/**
 * The CLI's side of the core's logger port: `dreams.log` in the run directory, one line per
 * entry (time, level, text), from `--log-level` up (default info; `off` writes nothing).
 * Lines logged before the run directory exists are kept and written once it is known.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createLogger, LOG_LEVELS, type Logger, type LogLevel } from '../../core/logger';
import { UsageError } from './runOptions';

export const LOG_FILE_NAME = 'dreams.log';
export const LOG_LEVEL_USAGE = `  --log-level LEVEL      what goes to ${LOG_FILE_NAME} in the run directory: trace | debug | info | warn |
                         error | off (default info: SSH logins and reconnects, scheduler submissions,
                         job transitions, API retries; debug adds every poll and API answer)`;

export interface RunLogFile {
  logger: Logger;
  /** Start writing to `<runDir>/dreams.log` (earlier lines first). */
  attach(runDir: string): void;
}

export function parseLogLevel(value: string | undefined): LogLevel | 'off' {
  const v = (value ?? 'info').toLowerCase();
  if (v === 'off' || (LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel | 'off';
  throw new UsageError(`--log-level must be one of ${[...LOG_LEVELS, 'off'].join(', ')} (got "${value}").`);
}

export function runLogFile(level: LogLevel | 'off', secrets: readonly string[] = []): RunLogFile {
  const least = level === 'off' ? Infinity : LOG_LEVELS.indexOf(level);
  let file: string | undefined;
  const early: string[] = [];
  const write = (line: string) => {
    if (file) fs.appendFileSync(file, line);
    else early.push(line);
  };
  const logger = createLogger(
    {
      log: (l, m) => {
        if (LOG_LEVELS.indexOf(l) >= least) write(`${new Date().toISOString()} ${l.padEnd(5)} ${m}\n`);
      },
    },
    { secrets: () => secrets },
  );
  return {
    logger,
    attach(runDir) {
      if (level === 'off') return;
      file = path.join(runDir, LOG_FILE_NAME);
      fs.appendFileSync(file, early.splice(0).join(''));
    },
  };
}
