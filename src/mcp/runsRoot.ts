/**
 * The runs directory an MCP server was started with, and the only place it acts: a run is
 * named by its id (or a unique prefix, or "latest") and must be a directory directly under
 * it; files an objective names must lie inside the workspace. Read-side views of a run
 * (canvas, approvals, jobs, report, PROV-JSON) come from its event log, opened for reading
 * unless this server drives it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DreamsError } from '../core/errors';
import { EVENT_LOG_FILE, openRun, type Run } from '../core/run/directory';
import { logHealth } from '../core/canvas/recoveryReport';
import { runProgress, type RunProgress } from '../core/run/progress';
import { renderRunReport } from '../core/report/runReport';
import { toProvJson, type ProvDocument } from '../core/provenance/export';
import { latestReportVerdict } from '../core/guard/reportVerdicts';
import type { ReportJudgedPayload } from '../core/guard/events';
import { foldJobEvents } from '../core/hpc/jobStore';
import type { JobRecord } from '../core/hpc/types';

/** A tool argument the client must correct (a run that is not there, a file outside the workspace). */
export class McpUsageError extends DreamsError<'bad-input'> {
  constructor(message: string) {
    super('bad-input', message);
  }
}

/** Run ids under the runs directory, oldest first. */
export function runIds(runsDir: string): string[] {
  if (!fs.existsSync(runsDir)) return [];
  return fs
    .readdirSync(runsDir)
    .filter((d) => fs.existsSync(path.join(runsDir, d, EVENT_LOG_FILE)))
    .sort();
}

/** The directory of a run named by id, unique prefix or "latest"; never a path outside the runs directory. */
export function runDirOf(runsDir: string, name: string | undefined, fallback?: string): string {
  const arg = name ?? fallback;
  if (!arg) throw new McpUsageError('name the run: its id (dreams_runs lists them) or "latest".');
  if (arg.includes('/') || arg.includes('\\') || arg.includes('..')) {
    throw new McpUsageError(
      `"${arg}" is a path; name a run by its id (dreams_runs lists the runs under ${runsDir}, the only directory this server acts in).`,
    );
  }
  const ids = runIds(runsDir);
  if (arg === 'latest') {
    if (!ids.length) throw new McpUsageError(`there are no runs under ${runsDir}; start one with dreams_start_run.`);
    return path.join(runsDir, ids.at(-1)!);
  }
  if (ids.includes(arg)) return path.join(runsDir, arg);
  const matches = ids.filter((r) => r.startsWith(arg) || r.endsWith(arg));
  if (matches.length === 1) return path.join(runsDir, matches[0]!);
  if (matches.length > 1)
    throw new McpUsageError(`"${arg}" matches ${matches.length} runs (${matches.slice(0, 5).join(', ')}); give more of the id.`);
  throw new McpUsageError(`no run "${arg}" under ${runsDir}; dreams_runs lists the runs.`);
}

/** A path inside `root` (the workspace), or why not; a symbolic link inside it that leads out counts as outside. */
export function insideRoot(root: string, file: string): string {
  const abs = path.resolve(root, file);
  const outside = (from: string, to: string) => {
    const rel = path.relative(from, to);
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel);
  };
  if (outside(path.resolve(root), abs)) {
    throw new McpUsageError(`${file} is outside the workspace ${root}; this server reads objective and structure files only inside it.`);
  }
  if (outside(realPathOf(root), realPathOf(abs))) {
    throw new McpUsageError(
      `${file} is outside the workspace ${root}: a symbolic link on its way leads to ${realPathOf(abs)}; this server reads objective and structure files only inside the workspace.`,
    );
  }
  return abs;
}

/** The real path of a file, or of its nearest existing folder with the rest appended (a file not made yet). */
function realPathOf(p: string): string {
  const rest: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const up = path.dirname(at);
      if (up === at) return path.resolve(p);
      rest.push(path.basename(at));
      at = up;
    }
  }
}

/** Every `file` an objective's inputs name (structure and slab files), so each can be checked to lie inside the workspace. */
export function namedFiles(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namedFiles);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    k === 'file' && typeof v === 'string' ? [v] : namedFiles(v),
  );
}

/** Open a run for reading, give it to `fn`, close it. */
export async function readingRun<T>(dir: string, fn: (run: Run) => T | Promise<T>): Promise<T> {
  const run = await openRun(dir, { mode: 'reader' });
  try {
    return await fn(run);
  } finally {
    await run.close();
  }
}

/** What opening a run's log found wrong with it (damage, a torn last line), as the CLI's commands say it; empty when it was read whole. */
export function logDamageNotes(run: Run): string[] {
  const health = logHealth(run.recovery, path.join(run.dir, EVENT_LOG_FILE));
  return health.damaged ? health.notes : [];
}

/**
 * A reading tool's or resource's answer from a damaged log, saying so first: a tool result and
 * report.md open with the damage; a run summary carries it; PROV-JSON, which has no place for
 * a notice, is refused rather than given from part of the run.
 */
export function sayingLogDamage<T>(value: T, notes: string[]): T {
  if (!notes.length || !value || typeof value !== 'object') return value;
  const said = `${notes.join('\n')}\nWhat follows is from the events before that line only; restore ${EVENT_LOG_FILE} from a copy to see the whole run.`;
  const v = value as { content?: unknown; contents?: unknown };
  if (Array.isArray(v.content)) return { ...value, content: [{ type: 'text', text: said }, ...v.content] };
  if (Array.isArray(v.contents)) {
    const contents = (v.contents as { uri: string; mimeType: string; text: string }[]).map((c) => {
      if (c.mimeType === 'text/markdown') return { ...c, text: `> **${notes.join(' ')}**\n\n${c.text}` };
      throw new McpUsageError(
        `${notes.join(' ')} ${c.uri} is not given from part of the run's provenance; restore ${EVENT_LOG_FILE} from a copy.`,
      );
    });
    return { ...value, contents };
  }
  if ('state' in value && 'objective' in value) return { ...value, log: notes[0] };
  return value;
}

export interface RunSummary {
  id: string;
  state: RunProgress['state'];
  objective: string;
  jobs: RunProgress['jobs'];
  /** What is wrong with the run's log, when it was damaged. */
  log?: string;
}

export function summaryOf(run: Run): RunSummary {
  const p = runProgress(run.log.events());
  return { id: run.runId, state: p.state, objective: p.objective, jobs: p.jobs };
}

export function reportOf(run: Run): { markdown: string; verdict?: ReportJudgedPayload } {
  const rendered = renderRunReport({
    runId: run.runId,
    events: run.log.events(),
    artifacts: () => run.registry.artifacts(),
    calls: () => run.registry.calls(),
    readFile: (location) => {
      const file = path.resolve(run.dir, location);
      return file.startsWith(path.resolve(run.dir) + path.sep) && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    },
  });
  const verdict = latestReportVerdict(run.log.events());
  return { markdown: rendered.markdown, ...(verdict ? { verdict } : {}) };
}

export function provenanceOf(run: Run): ProvDocument {
  const start = run.log.events().find((e) => e.kind === 'run.start')?.payload;
  return toProvJson(run.registry, run.runId, start);
}

export function jobsOf(run: Run): JobRecord[] {
  return foldJobEvents(run.log.events());
}
