/**
 * A run on disk (docs/ARCHITECTURE.md): `<runs root>/<runId>/` with `events.jsonl`,
 * `events.lock` and `files/<sha256>/<name>`. runId is `<yyyymmdd-HHMMSS>-<slug>` in UTC.
 *
 *   const run = await createRun('./runs', { objective: 'lattice constant of fcc Al', software: { 'pw.x': '6.7' } });
 *   const again = await openRun(run.dir, { mode: 'reader' });   // or 'writer' to continue it
 *   ... run.log, run.canvas, run.registry, run.recovery ...
 *   await run.close();
 *
 * Opening folds the whole log into the canvas and the provenance registry; the canvas
 * answers artifacts/* and calls/* from the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ProvenanceRegistry } from '../provenance/registry';
import { Canvas, type CanvasOptions } from '../canvas/canvas';
import { EventLogError, openEventLog, type EventLog, type OpenEventLogOptions } from '../canvas/eventLog';
import type { Actor, DurabilityPolicy, RecoveryReport, RunStartPayload, RunState } from '../canvas/types';
import { eventProblem } from './eventCatalogue';

export const EVENT_LOG_FILE = 'events.jsonl';

export interface Run {
  runId: string;
  dir: string;
  log: EventLog;
  canvas: Canvas;
  registry: ProvenanceRegistry;
  recovery: RecoveryReport;
  /** Wait for pending appends and release the writer lock. */
  close(): Promise<void>;
}

export interface CreateRunOptions {
  objective: string;
  /** Lowercase letters, digits and "-"; derived from the objective when left out. */
  slug?: string;
  workflow?: string;
  settings?: Record<string, unknown>;
  /** Versions of the software the run uses ("pw.x": "6.7", "dreams": "0.1.0"); node's is added. */
  software?: Record<string, string>;
  actor?: Actor;
  durability?: DurabilityPolicy;
  canvas?: Omit<CanvasOptions, 'views'>;
  /** The start time (tests); default now. */
  now?: Date;
}

export interface OpenRunOptions {
  mode: 'writer' | 'reader';
  durability?: DurabilityPolicy;
  canvas?: Omit<CanvasOptions, 'views'>;
  /** Writers: what a damaged log gets (eventLog.ts OpenEventLogOptions.onDamage); default 'cut'. */
  onDamage?: 'cut' | 'refuse' | 'cut-last-line';
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export async function createRun(runsRoot: string, options: CreateRunOptions): Promise<Run> {
  if (typeof options.objective !== 'string' || options.objective.trim() === '') {
    throw new Error('a run needs an objective: say what the run should find out (e.g. "lattice constant of fcc Al with PBE").');
  }
  const slug = options.slug ?? slugOf(options.objective);
  if (!SLUG.test(slug)) {
    throw new Error(
      `run slug ${JSON.stringify(slug)} is not usable in a directory name: use lowercase letters, digits and "-" (at most 63), e.g. "al-lattice".`,
    );
  }
  fs.mkdirSync(runsRoot, { recursive: true });
  const stamp = runStamp(options.now ?? new Date());
  const { runId, dir } = makeRunDir(runsRoot, `${stamp}-${slug}`);
  const opened = await openRunDir(dir, runId, { mode: 'writer', durability: options.durability, canvas: options.canvas });
  const start: RunStartPayload = {
    runId,
    objective: options.objective,
    ...(options.workflow ? { workflow: options.workflow } : {}),
    settings: options.settings ?? {},
    software: { node: process.versions.node, ...options.software },
  };
  await opened.log.append({
    kind: 'run.start',
    key: 'run/start',
    payload: start,
    actor: options.actor ?? { kind: 'framework', id: 'run' },
  });
  return opened;
}

export async function openRun(runDir: string, options: OpenRunOptions): Promise<Run> {
  const logPath = path.join(runDir, EVENT_LOG_FILE);
  if (!fs.existsSync(logPath)) {
    throw new EventLogError(
      'not-a-log',
      `${runDir} is not a DREAMS run: it has no ${EVENT_LOG_FILE}. Pick the run directory (e.g. runs/20260101-120000-al-lattice).`,
    );
  }
  return openRunDir(runDir, path.basename(path.resolve(runDir)), options);
}

/** Record the run's state (run/state). */
export async function setRunState(
  run: Run,
  state: RunState,
  reason?: string,
  actor: Actor = { kind: 'framework', id: 'run' },
): Promise<void> {
  await run.log.append({ kind: 'run.state', key: 'run/state', payload: reason ? { state, reason } : { state }, actor });
}

/**
 * Open a run's event log with the event catalogue's check: a line of an unknown kind or with a
 * malformed payload refuses the log with its line number (run/eventCatalogue.ts).
 */
export function openRunLog(logPath: string, options: Omit<OpenEventLogOptions, 'check'>): ReturnType<typeof openEventLog> {
  return openEventLog(logPath, { ...options, check: eventProblem });
}

async function openRunDir(dir: string, fallbackId: string, options: OpenRunOptions): Promise<Run> {
  const { log, recovery } = await openRunLog(path.join(dir, EVENT_LOG_FILE), {
    mode: options.mode,
    durability: options.durability,
    ...(options.onDamage ? { onDamage: options.onDamage } : {}),
  });
  const registry = new ProvenanceRegistry(log, dir);
  const canvas = new Canvas(log, { ...options.canvas, views: registry.views() });
  const start = log.events().find((e) => e.kind === 'run.start')?.payload;
  return {
    runId: start?.runId ?? fallbackId,
    dir,
    log,
    canvas,
    registry,
    recovery,
    close: () => log.close(),
  };
}

function makeRunDir(root: string, base: string): { runId: string; dir: string } {
  for (let n = 1; ; n++) {
    const runId = n === 1 ? base : `${base}-${n}`;
    const dir = path.join(root, runId);
    try {
      fs.mkdirSync(dir);
      return { runId, dir };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

const pad = (n: number): string => String(n).padStart(2, '0');

function runStamp(d: Date): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** "Lattice constant of fcc Al (PBE)" → "lattice-constant-of-fcc-al-pbe", cut at a word. */
export function slugOf(objective: string): string {
  const words = objective
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const w of words) {
    if ((slug ? slug.length + 1 : 0) + w.length > 40) break;
    slug = slug ? `${slug}-${w}` : w;
  }
  return slug || 'run';
}
