/**
 * The guard's events: approval requests raised by a warning, their answers, a call that went
 * ahead under the 'continue' policy, a request closed unanswered (its result superseded), and
 * the report judge's verdict on a report. Declared into the event catalogue (canvas/types.ts
 * EventCatalogue), with what each must hold when read from disk.
 */
import Type from 'typebox';
import type { ReportJudgement } from './reportJudge';
import type { ApprovalAnswer, ApprovalClosed, ApprovalRequest } from './types';

/** The report judge's verdict on one write_report call, and the report it judged. */
export type ReportJudgedPayload = ReportJudgement & { call: string; report?: string };

declare module '../canvas/types' {
  interface EventCatalogue {
    'approval.request': ApprovalRequest;
    'approval.answer': ApprovalAnswer;
    /** A call whose warning is still open went ahead under the 'continue' policy. */
    'approval.proceeded': { id: string; call: string };
    'approval.closed': ApprovalClosed;
    'report.judged': ReportJudgedPayload;
  }
}

export const GUARD_EVENTS = {
  'approval.request': Type.Object({
    id: Type.String(),
    call: Type.String(),
    tool: Type.String(),
    parameter: Type.Optional(Type.String()),
    value: Type.Optional(Type.Unknown()),
    verdicts: Type.Array(
      Type.Object({ rule: Type.String(), level: Type.Enum(['pass', 'warn', 'fail']), reasons: Type.Array(Type.String()) }),
    ),
    provenancePath: Type.Array(Type.String()),
    createdAt: Type.String(),
  }),
  'approval.answer': Type.Object({ id: Type.String(), decision: Type.Enum(['approve', 'reject']), by: Type.String(), at: Type.String() }),
  'approval.proceeded': Type.Object({ id: Type.String(), call: Type.String() }),
  'approval.closed': Type.Object({
    id: Type.String(),
    reason: Type.String(),
    supersededBy: Type.Optional(Type.String()),
    at: Type.String(),
  }),
  'report.judged': Type.Object({
    call: Type.String(),
    report: Type.Optional(Type.String()),
    level: Type.Enum(['pass', 'warn', 'fail']),
    accepted: Type.Boolean(),
    summary: Type.String(),
  }),
};
