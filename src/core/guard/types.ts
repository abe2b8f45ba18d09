/**
 * The guard contract: verdicts, approvals, and the shape of a proposed tool call.
 * Implementation: guardedCall.ts, rules/*.ts, judges.ts, reportJudge.ts, approvals.ts.
 */
import type { AgentRole } from '../canvas/types';
import type { Ref, Verdict, VerdictLevel } from '../provenance/types';

// Verdicts are recorded with each tool call, so provenance holds their type; the guard makes them.
export type { Verdict, VerdictLevel, VerdictTier } from '../provenance/types';

/** A tool call as an agent proposes it, before the guard. */
export interface ProposedCall {
  tool: string;
  /** Argument values as supplied. */
  args: Record<string, unknown>;
  /** For arguments taken from artifacts: argument name -> reference. */
  refs: Record<string, Ref>;
  /** The agent's reason for each argument. */
  reasons: Record<string, string>;
  /** The agent's declared context: the step and goal this call serves. */
  context: string;
  agent: { role: AgentRole | 'user'; model?: string };
  step?: string;
}

export type ApprovalPolicy =
  | 'wait' // a warn pauses the call until the user answers
  | 'continue' // a warn is stamped and raised; the run continues, the result counts only once approved
  | 'auto-approve'; // for tests and trusted batch runs: recorded as approved by policy

export interface ApprovalRequest {
  /** "ap-<n>" */
  id: string;
  call: string;
  tool: string;
  parameter?: string;
  value?: unknown;
  /** The verdicts that raised it. */
  verdicts: { rule: string; level: VerdictLevel; reasons: string[] }[];
  /** The upstream provenance path of the value in question (artifact and call ids). */
  provenancePath: string[];
  createdAt: string;
}

/** A request closed without an answer: the result it was raised on is no longer the run's. */
export interface ApprovalClosed {
  id: string;
  /** Why, in words: "superseded: step cutoff-choice ran again (c-45 made a-80)". */
  reason: string;
  /** The call whose results took the place of the one the request was raised on, when one did. */
  supersededBy?: string;
  at: string;
}

export interface ApprovalAnswer {
  id: string;
  decision: 'approve' | 'reject';
  comment?: string;
  /** Who answered and from where: "user@vscode", "user@cli", "policy". */
  by: string;
  at: string;
  /**
   * A standing approval: this answer also approves every later request of the run with the
   * same concern (parameter, value and warning rules; see `sameConcern`).
   */
  standing?: boolean;
  /** Set on an answer given by a standing approval: the request whose answer stood. */
  under?: string;
}

/** Result of a guarded call, as the agent sees it. */
export type GuardedOutcome =
  | { status: 'ok'; call: string; outputs: string[]; summary: string; verdicts: Verdict[]; pendingApprovals: string[] }
  | { status: 'refused'; call: string; verdicts: Verdict[]; message: string }
  | { status: 'rejected'; call: string; approval: string; comment?: string; message: string }
  | { status: 'failed'; call: string; error: string; verdicts: Verdict[] };
