/**
 * The runs this window shows, one per event log: a read-only view that follows the log
 * as its writer (the CLI, or an agent run in this extension host) appends, plus the write
 * path the UI needs — recording a user's approval answer. Notebooks, the provenance panel,
 * the approvals view, the jobs tree and the status bar all read from here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EventLog } from '../core/canvas/eventLog';
import { openRunLog } from '../core/run/directory';
import { EventLogError } from '../core/canvas/eventLogError';
import { logHealth, type LogHealth } from '../core/canvas/recoveryReport';
import type { CanvasEvent, EventWriter } from '../core/canvas/types';
import { ApprovalBook, type AnswerResult } from '../core/guard/approvals';
import { postAnswer, waitForOutcome } from '../core/run/answerInbox';

/** The parts of an event log the UI reads and, for runs driven here, writes. */
export interface RunLog {
  readonly path: string;
  events(): readonly CanvasEvent[];
  subscribe(listener: (e: CanvasEvent) => void): () => void;
}

export interface WritableRunLog extends RunLog, EventWriter {}

export class RunView implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CanvasEvent[]>();
  /** New events, in order, batched per refresh. */
  readonly onEvents = this.emitter.event;
  private timer: ReturnType<typeof setInterval> | undefined;
  private watcher: fs.FSWatcher | undefined;
  private unsubscribe: (() => void) | undefined;
  private batch: CanvasEvent[] = [];
  private flushQueued = false;
  private refCount = 0;
  private readonly healthEmitter = new vscode.EventEmitter<LogHealth | undefined>();
  /** Fires when what is known of the log's damage changes (found while following, or gone). */
  readonly onDidChangeHealth = this.healthEmitter.event;
  /**
   * What opening (and following) the log found: damaged lines not read, a torn last line no
   * process will finish (recoveryReport.ts logHealth, the CLI's wording); undefined when it is whole.
   */
  health: LogHealth | undefined;

  constructor(
    readonly logPath: string,
    private log: RunLog,
    private reader: EventLog | undefined,
    /** Set when this extension host drives the run (it holds the writer). */
    public writer: WritableRunLog | undefined,
  ) {
    this.follow();
  }

  get runDir(): string {
    return path.dirname(this.logPath);
  }

  events(): readonly CanvasEvent[] {
    return this.log.events();
  }

  retain(): this {
    this.refCount++;
    return this;
  }

  /** Returns true when the last holder let go. */
  release(): boolean {
    return --this.refCount <= 0;
  }

  private follow(): void {
    this.unsubscribe = this.log.subscribe((e) => {
      this.batch.push(e);
      if (!this.flushQueued) {
        this.flushQueued = true;
        queueMicrotask(() => {
          this.flushQueued = false;
          const b = this.batch;
          this.batch = [];
          if (b.length) this.emitter.fire(b);
        });
      }
    });
    if (this.reader) {
      const reader = this.reader;
      const refresh = () => {
        try {
          const { events, damage } = reader.refresh();
          if (damage) {
            // Found while following (a line changed or cut under us): said once per place.
            const found = logHealth({ eventsRead: this.log.events().length, damage }, this.logPath);
            if (found.line !== this.health?.line || !this.health?.damaged) this.setHealth(found);
          } else if (events.length && this.health?.damaged) {
            // Complete events past what looked torn: its writer finished or cut it (a resume).
            this.setHealth(undefined);
          }
        } catch {
          // The file is being replaced or was removed: the next tick tries again.
        }
      };
      // A file watcher reacts at once; the timer covers file systems where it does not fire.
      try {
        this.watcher = fs.watch(this.logPath, { persistent: false }, refresh);
      } catch {
        this.watcher = undefined;
      }
      this.timer = setInterval(refresh, 1000);
    }
  }

  setHealth(health: LogHealth | undefined): void {
    this.health = health?.damaged || health?.notes.length ? health : undefined;
    this.healthEmitter.fire(this.health);
  }

  /** A run this extension host now drives: read and write through its writer. */
  attachWriter(writer: WritableRunLog): void {
    this.stopFollowing();
    this.writer = writer;
    this.log = writer;
    this.reader = undefined;
    this.follow();
  }

  private stopFollowing(): void {
    this.unsubscribe?.();
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watcher = undefined;
  }

  dispose(): void {
    this.stopFollowing();
    void this.reader?.close();
    this.emitter.dispose();
    this.healthEmitter.dispose();
  }
}

export class RunRegistry implements vscode.Disposable {
  private readonly views = new Map<string, Promise<RunView>>();
  private readonly changed = new vscode.EventEmitter<RunView>();
  /** Fires when any open run gets new events (or a run is opened or closed). */
  readonly onDidChange = this.changed.event;

  /** Open (or share) the view of the run whose log is at `logPath`. */
  open(logPath: string): Promise<RunView> {
    const key = path.resolve(logPath);
    let v = this.views.get(key);
    if (!v) {
      v = (async () => {
        const { log, recovery } = await openRunLog(key, { mode: 'reader' });
        const view = new RunView(key, Object.assign(log, { path: key }) as unknown as RunLog, log, undefined);
        const health = logHealth(recovery, key);
        if (health.damaged) view.setHealth(health);
        view.onEvents(() => this.changed.fire(view));
        this.changed.fire(view);
        return view;
      })();
      this.views.set(key, v);
      v.catch(() => this.views.delete(key));
    }
    return v.then((view) => view.retain());
  }

  /** A run driven in this extension host (agent runner, tests): the UI writes through its log. */
  async attach(writer: WritableRunLog): Promise<RunView> {
    const key = path.resolve(writer.path);
    const existing = this.views.get(key);
    if (existing) {
      const view = await existing;
      view.attachWriter(writer);
      this.changed.fire(view);
      return view.retain();
    }
    const view = new RunView(key, writer, undefined, writer);
    view.onEvents(() => this.changed.fire(view));
    this.views.set(key, Promise.resolve(view));
    this.changed.fire(view);
    return view.retain();
  }

  async close(view: RunView): Promise<void> {
    if (!view.release() || view.writer) return;
    this.views.delete(view.logPath);
    view.dispose();
    this.changed.fire(view);
  }

  async all(): Promise<RunView[]> {
    const out: RunView[] = [];
    for (const v of this.views.values()) {
      try {
        out.push(await v);
      } catch {
        // a log that failed to open is reported where it was opened
      }
    }
    return out;
  }

  /**
   * Record a user's answer to an approval request. Through the run's writer when this
   * extension host drives the run (the waiting call is released at once); otherwise by
   * taking the writer lock for the one append — refused, with who holds it, when another
   * process is writing the run.
   */
  async answerApproval(
    view: RunView,
    id: string,
    decision: 'approve' | 'reject',
    comment?: string,
    opts: { standing?: boolean } = {},
  ): Promise<AnswerResult> {
    const by = 'user@vscode';
    if (view.writer) return new ApprovalBook(view.writer).answer(id, decision, by, comment, opts);
    let writer: EventLog;
    try {
      // A damaged log is not cut for an answer: only a crash's torn last line (copied aside first), as `dreams approve` does.
      ({ log: writer } = await openRunLog(view.logPath, { mode: 'writer', onDamage: 'cut-last-line' }));
    } catch (e) {
      if (e instanceof EventLogError && e.code === 'locked')
        return this.answerThroughInbox(view, id, decision, by, comment, opts.standing === true);
      return { ok: false, message: `Could not record the answer to ${id}: ${(e as Error).message}` };
    }
    try {
      return await new ApprovalBook(writer).answer(id, decision, by, comment, opts);
    } finally {
      await writer.close();
    }
  }

  /** The run's writer is another process (the CLI, or a run this window drives): it records posted answers. */
  private async answerThroughInbox(
    view: RunView,
    id: string,
    decision: 'approve' | 'reject',
    by: string,
    comment?: string,
    standing = false,
  ): Promise<AnswerResult> {
    const name = postAnswer(view.runDir, { id, decision, by, ...(comment ? { comment } : {}), ...(standing ? { standing } : {}) });
    const outcome = await waitForOutcome(view.runDir, name, 15_000);
    if (!outcome) {
      return {
        ok: false,
        message: `The process running this run did not take the answer to ${id} within 15 s (is it still running?). The answer waits in ${path.join(view.runDir, 'inbox')}; it is recorded when the run resumes.`,
      };
    }
    if (!outcome.ok) return { ok: false, message: outcome.message };
    const answer = new ApprovalBook(view as unknown as WritableRunLog).answerOf(id);
    return answer
      ? { ok: true, answer }
      : { ok: true, answer: { id, decision, by, at: new Date().toISOString(), ...(comment ? { comment } : {}) } };
  }

  dispose(): void {
    for (const v of this.views.values())
      void v.then(
        (x) => x.dispose(),
        () => undefined,
      );
    this.views.clear();
    this.changed.dispose();
  }
}
