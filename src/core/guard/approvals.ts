/**
 * Approval requests and answers, as canvas events ('approval.request', 'approval.answer')
 * under the key approvals/<id>. The book is a fold over the log, so it is the same after a
 * reopen. An answer to an already-answered request is refused with who answered and when.
 */
import type { Actor, CanvasEvent } from '../canvas/types';
import type { EventLogPort, ProvenanceWriter } from './ports';
import type { ApprovalAnswer, ApprovalRequest } from './types';

export type AnswerResult = { ok: true; answer: ApprovalAnswer } | { ok: false; message: string };

export class ApprovalBook {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly log: EventLogPort) {}

  requests(): ApprovalRequest[] {
    return this.log.events().filter((e) => e.kind === 'approval.request').map((e) => e.payload as ApprovalRequest);
  }

  request(id: string): ApprovalRequest | undefined {
    return this.requests().find((r) => r.id === id);
  }

  /** The first answer recorded for the request: any later one lost a race and does not count. */
  answerOf(id: string): ApprovalAnswer | undefined {
    const e = this.log.events().find((ev) => ev.kind === 'approval.answer' && (ev.payload as ApprovalAnswer).id === id);
    return e?.payload as ApprovalAnswer | undefined;
  }

  pending(): ApprovalRequest[] {
    return this.requests().filter((r) => !this.answerOf(r.id));
  }

  async raise(draft: Omit<ApprovalRequest, 'id' | 'createdAt'>): Promise<ApprovalRequest> {
    return this.serialised(async () => {
      const req: ApprovalRequest = { ...draft, id: `ap-${this.requests().length + 1}`, createdAt: new Date().toISOString() };
      await this.log.append({ kind: 'approval.request', key: `approvals/${req.id}`, actor: { kind: 'framework', id: 'guard' }, payload: req });
      return req;
    });
  }

  /** `by`: "user@vscode", "user@cli", or "policy". */
  async answer(id: string, decision: ApprovalAnswer['decision'], by: string, comment?: string): Promise<AnswerResult> {
    return this.serialised(async () => {
      const req = this.request(id);
      if (!req) {
        const open = this.pending().map((r) => r.id);
        return { ok: false, message: `no approval request ${id} in this run` + (open.length ? `; open requests: ${open.join(', ')}` : '; none is open') + '.' };
      }
      const earlier = this.answerOf(id);
      if (earlier) {
        return {
          ok: false,
          message: `${id} was already answered: ${earlier.decision === 'approve' ? 'approved' : 'rejected'} by ${earlier.by} at ${earlier.at}` +
            `${earlier.comment ? ` ("${earlier.comment}")` : ''}. The first answer stands.`,
        };
      }
      const answer: ApprovalAnswer = { id, decision, by, at: new Date().toISOString(), ...(comment ? { comment } : {}) };
      const actor: Actor = by === 'policy' ? { kind: 'framework', id: 'approval-policy' } : { kind: 'user', id: by };
      await this.log.append({ kind: 'approval.answer', key: `approvals/${id}`, actor, payload: answer });
      return { ok: true, answer };
    });
  }

  /** Resolves with the answer once there is one (at once if answered already). */
  waitFor(id: string, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const now = this.answerOf(id);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const done = () => { unsubscribe(); signal?.removeEventListener('abort', onAbort); };
      const onAbort = () => { done(); reject(new Error(`stopped waiting for approval ${id}: the run was cancelled`)); };
      const unsubscribe = this.log.subscribe((e: CanvasEvent) => {
        if (e.kind === 'approval.answer' && (e.payload as ApprovalAnswer).id === id) {
          done();
          resolve(this.answerOf(id)!);
        }
      });
      signal?.addEventListener('abort', onAbort);
      const raced = this.answerOf(id);
      if (raced) { done(); resolve(raced); }
    });
  }

  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
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
): Promise<AnswerResult & { madeProvisional?: string[] }> {
  const result = await book.answer(id, decision, by, comment);
  if (!result.ok || decision !== 'reject') return result;
  const req = book.request(id)!;
  const outputs = (provenance.call(req.call)?.outputs ?? []).filter((a) => provenance.artifact(a)?.status === 'final');
  if (outputs.length) {
    await provenance.markStatus(outputs, 'provisional', `${id} rejected by ${by}${comment ? `: ${comment}` : ''}`);
  }
  return { ...result, madeProvisional: outputs };
}
