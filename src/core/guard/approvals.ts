/**
 * Approval requests and answers, as canvas events ('approval.request', 'approval.answer')
 * under the key approvals/<id>, 'approval.proceeded' once the call a request held goes on
 * to its tool, and 'approval.closed' when a request no longer asks anything of a person (the
 * result it was raised on was superseded by a rerun). The book is a fold over the log, so it
 * is the same after a reopen. An answer to an already-answered or closed request is refused
 * with who answered and when, or why it was closed.
 */
import { eventsOf, isEventOf, type Actor, type CanvasEvent, type EventWriter } from '../canvas/types';
import type { ProvenanceWriter } from '../provenance/view';
import type { ApprovalAnswer, ApprovalClosed, ApprovalRequest } from './types';
import { RunStopped } from './interruption';

/** The event log as the approval store uses it. */
export interface EventLogPort extends EventWriter {
  subscribe(listener: (e: CanvasEvent) => void): () => void;
}

export type AnswerResult = { ok: true; answer: ApprovalAnswer; alsoApproved?: string[] } | { ok: false; message: string };

export type { ApprovalClosed } from './types';

/** One request as the run's events leave it: its first answer, or why it was closed unanswered. */
export interface ApprovalState {
  request: ApprovalRequest;
  answer?: ApprovalAnswer;
  closed?: ApprovalClosed;
}

/**
 * The approvals of a run as a fold over its events, the one every host reads (the book below,
 * the run's progress, the CLI and the notebook): each request in order, with its first answer
 * (a later one lost a race) or its closing. Open: neither.
 */
export function foldApprovals(events: readonly CanvasEvent[]): ApprovalState[] {
  const states = new Map<string, ApprovalState>();
  for (const e of events) {
    if (e.kind === 'approval.request') states.set(e.payload.id, { request: e.payload });
    else if (e.kind === 'approval.answer') {
      const s = states.get(e.payload.id);
      if (s && !s.answer && !s.closed) s.answer = e.payload;
    } else if (e.kind === 'approval.closed') {
      const s = states.get(e.payload.id);
      if (s && !s.answer && !s.closed) s.closed = e.payload;
    }
  }
  return [...states.values()];
}

/** Requests still waiting for a person: neither answered nor closed. */
export const openApprovals = (events: readonly CanvasEvent[]): ApprovalRequest[] =>
  foldApprovals(events)
    .filter((s) => !s.answer && !s.closed)
    .map((s) => s.request);

const warnRules = (r: ApprovalRequest) => [...new Set(r.verdicts.filter((v) => v.level === 'warn').map((v) => v.rule))].sort().join(',');

/**
 * Two requests raise the same concern: the same parameter with the same value, warned by
 * the same rules (whatever the tool). A request with a failed verdict never matches.
 */
export function sameConcern(a: ApprovalRequest, b: ApprovalRequest): boolean {
  if ([a, b].some((r) => r.verdicts.some((v) => v.level === 'fail'))) return false;
  return (
    a.parameter === b.parameter &&
    JSON.stringify(a.value) === JSON.stringify(b.value) &&
    warnRules(a) !== '' &&
    warnRules(a) === warnRules(b)
  );
}

export class ApprovalBook {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly log: EventLogPort) {}

  requests(): ApprovalRequest[] {
    return eventsOf(this.log.events(), 'approval.request').map((e) => e.payload);
  }

  request(id: string): ApprovalRequest | undefined {
    return this.requests().find((r) => r.id === id);
  }

  /** The first answer recorded for the request: any later one lost a race and does not count. */
  answerOf(id: string): ApprovalAnswer | undefined {
    return eventsOf(this.log.events(), 'approval.answer').find((ev) => ev.payload.id === id)?.payload;
  }

  /** Why the request was closed without an answer, if it was. */
  closedOf(id: string): ApprovalClosed | undefined {
    return eventsOf(this.log.events(), 'approval.closed').find((ev) => ev.payload.id === id)?.payload;
  }

  /** Requests waiting for a person: neither answered nor closed. */
  pending(): ApprovalRequest[] {
    return this.requests().filter((r) => !this.answerOf(r.id) && !this.closedOf(r.id));
  }

  /**
   * Close an open request that no longer asks anything (its result was superseded): recorded
   * with the reason, shown in the notebook and `dreams approve --list`, and no longer open.
   * A request already answered or closed is left as it is.
   */
  async close(id: string, reason: string, supersededBy?: string): Promise<ApprovalClosed | undefined> {
    return this.serialised(async () => {
      if (!this.request(id) || this.answerOf(id) || this.closedOf(id)) return undefined;
      const closed: ApprovalClosed = { id, reason, ...(supersededBy ? { supersededBy } : {}), at: new Date().toISOString() };
      await this.log.append({
        kind: 'approval.closed',
        key: `approvals/${id}`,
        actor: { kind: 'framework', id: 'runner' },
        payload: closed,
      });
      return closed;
    });
  }

  async raise(draft: Omit<ApprovalRequest, 'id' | 'createdAt'>): Promise<ApprovalRequest> {
    return this.serialised(async () => {
      const req: ApprovalRequest = { ...draft, id: `ap-${this.requests().length + 1}`, createdAt: new Date().toISOString() };
      await this.log.append({
        kind: 'approval.request',
        key: `approvals/${req.id}`,
        actor: { kind: 'framework', id: 'guard' },
        payload: req,
      });
      const standing = this.standingFor(req);
      if (standing) await this.applyStanding(req, standing);
      return req;
    });
  }

  /** The standing approval (an answer with `standing`) that covers a request, if any. */
  standingFor(req: ApprovalRequest): ApprovalAnswer | undefined {
    return eventsOf(this.log.events(), 'approval.answer')
      .map((e) => e.payload)
      .filter((a) => a.standing)
      .find((a) => a.id !== req.id && a.decision === 'approve' && this.request(a.id) && sameConcern(this.request(a.id)!, req));
  }

  private async applyStanding(req: ApprovalRequest, standing: ApprovalAnswer): Promise<ApprovalAnswer> {
    const answer: ApprovalAnswer = {
      id: req.id,
      decision: 'approve',
      by: standing.by,
      at: new Date().toISOString(),
      under: standing.id,
      comment: `approved by the standing approval of ${standing.id}${standing.comment ? ` (“${standing.comment}”)` : ''}`,
    };
    await this.log.append({
      kind: 'approval.answer',
      key: `approvals/${req.id}`,
      actor: { kind: 'framework', id: 'standing-approval' },
      payload: answer,
    });
    return answer;
  }

  /**
   * `by`: "user@vscode", "user@cli", or "policy". `standing` approves, with this one, every
   * open and later request of the run with the same concern (only an approval can stand).
   */
  async answer(
    id: string,
    decision: ApprovalAnswer['decision'],
    by: string,
    comment?: string,
    opts: { standing?: boolean } = {},
  ): Promise<AnswerResult> {
    if (opts.standing && decision !== 'approve')
      return { ok: false, message: `only an approval can stand for later requests; reject ${id} on its own.` };
    return this.serialised(async () => {
      const req = this.request(id);
      if (!req) {
        const open = this.pending().map((r) => r.id);
        return {
          ok: false,
          message: `no approval request ${id} in this run` + (open.length ? `; open requests: ${open.join(', ')}` : '; none is open') + '.',
        };
      }
      const closed = this.closedOf(id);
      if (closed)
        return { ok: false, message: `${id} was closed without an answer at ${closed.at}: ${closed.reason}. Nothing is left to answer.` };
      const earlier = this.answerOf(id);
      if (earlier) {
        return {
          ok: false,
          message:
            `${id} was already answered: ${earlier.decision === 'approve' ? 'approved' : 'rejected'} by ${earlier.by} at ${earlier.at}` +
            `${earlier.comment ? ` ("${earlier.comment}")` : ''}. The first answer stands.`,
        };
      }
      const answer: ApprovalAnswer = {
        id,
        decision,
        by,
        at: new Date().toISOString(),
        ...(comment ? { comment } : {}),
        ...(opts.standing ? { standing: true } : {}),
      };
      const actor: Actor = by === 'policy' ? { kind: 'framework', id: 'approval-policy' } : { kind: 'user', id: by };
      await this.log.append({ kind: 'approval.answer', key: `approvals/${id}`, actor, payload: answer });
      if (!opts.standing) return { ok: true, answer };
      const alsoApproved: string[] = [];
      for (const other of this.pending().filter((r) => sameConcern(req, r)))
        alsoApproved.push((await this.applyStanding(other, answer)).id);
      return { ok: true, answer, alsoApproved };
    });
  }

  /**
   * The call a request held goes on to run its tool (approved, or not held: 'continue'). Until
   * this is on record the tool has not started, so a run stopped while the call waited can
   * pick the call up on resume instead of failing it (run/interruptedCalls.ts).
   */
  async proceeded(id: string, call: string): Promise<void> {
    // no key: the canvas's approvals/<id> stays the request and its answer
    await this.log.append({ kind: 'approval.proceeded', actor: { kind: 'framework', id: 'guard' }, payload: { id, call } });
  }

  /** Whether the call held by this request went on to run its tool (see proceeded). */
  hasProceeded(id: string): boolean {
    return eventsOf(this.log.events(), 'approval.proceeded').some((e) => e.payload.id === id);
  }

  /** Resolves with the answer once there is one (at once if answered already). */
  waitFor(id: string, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const now = this.answerOf(id);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const done = () => {
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
      };
      // the run's own reason when it gives one (a RunStopped: the call stays open for a resume)
      const onAbort = () => {
        done();
        reject(
          signal?.reason instanceof RunStopped ? signal.reason : new Error(`stopped waiting for approval ${id}: the run was cancelled`),
        );
      };
      const unsubscribe = this.log.subscribe((e: CanvasEvent) => {
        if (isEventOf(e, 'approval.answer') && e.payload.id === id) {
          done();
          resolve(this.answerOf(id)!);
        }
      });
      signal?.addEventListener('abort', onAbort);
      const raced = this.answerOf(id);
      if (raced) {
        done();
        resolve(raced);
      }
    });
  }

  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** How a standing approval is reported: what it also approved now, and that it stands. */
export function standingNote(r: AnswerResult): string {
  if (!r.ok || !r.answer.standing) return '';
  const also = r.alsoApproved ?? [];
  return `; it stands for later requests of the same concern in this run${also.length ? `, and also approved ${also.join(', ')}` : ''}`;
}

/**
 * The one way a person answers an approval (VS Code and the CLI both call it): records
 * the answer, and when a call that already ran under the 'continue' policy is rejected,
 * its outputs become provisional, so nothing downstream can count them.
 */
export async function answerApproval(
  book: ApprovalBook,
  provenance: Pick<ProvenanceWriter, 'call' | 'artifact' | 'markStatus'>,
  id: string,
  decision: ApprovalAnswer['decision'],
  by: string,
  comment?: string,
  opts: { standing?: boolean } = {},
): Promise<AnswerResult & { madeProvisional?: string[] }> {
  const result = await book.answer(id, decision, by, comment, opts);
  if (!result.ok || decision !== 'reject') return result;
  const req = book.request(id)!;
  const outputs = (provenance.call(req.call)?.outputs ?? []).filter((a) => provenance.artifact(a)?.status === 'final');
  if (outputs.length) {
    await provenance.markStatus(outputs, 'provisional', `${id} rejected by ${by}${comment ? `: ${comment}` : ''}`);
  }
  return { ...result, madeProvisional: outputs };
}
