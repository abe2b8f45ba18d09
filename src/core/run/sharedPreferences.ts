/**
 * A shared file's run preferences laid over the user's own. An objective file or a canvas travels
 * with a repository; what it asks of the approval policy may make the user's stricter, never
 * looser (a file that approves its own warnings by policy would run what the user never saw).
 * Used by the extension (over the dreams.approvalPolicy setting) and the CLI (over --approval and
 * its default).
 */
import type { ApprovalPolicy } from '../guard/types';

/** Strictest first: a guard warning holds the call, counts only once approved, or is approved by policy. */
export const APPROVAL_STRICTNESS: Record<ApprovalPolicy, number> = { wait: 0, continue: 1, 'auto-approve': 2 };

export interface Tightened<T> {
  value: T;
  /** What the shared file asked for that was ignored, as sentences for the person running it. */
  ignored: string[];
}

/** How the host names the user's own policy and the shared file, for the sentence that says what was ignored. */
export interface PolicyWords {
  /** e.g. `your setting dreams.approvalPolicy is "wait"` — given the user's policy. */
  yours(user: ApprovalPolicy): string;
  /** e.g. "a canvas", "an objective file". */
  file: string;
  /** How to allow the looser policy, e.g. `change dreams.approvalPolicy in your user settings`. */
  allow(asked: ApprovalPolicy): string;
}

/** The file's policy when it is at least as strict as the user's; the user's otherwise, with why. */
export function tightenApprovalPolicy(
  user: ApprovalPolicy,
  asked: ApprovalPolicy | undefined,
  words: PolicyWords,
): Tightened<ApprovalPolicy> {
  if (asked === undefined || asked === user) return { value: user, ignored: [] };
  if (APPROVAL_STRICTNESS[asked] < APPROVAL_STRICTNESS[user]) return { value: asked, ignored: [] };
  const allowed = (Object.keys(APPROVAL_STRICTNESS) as ApprovalPolicy[])
    .filter((p) => APPROVAL_STRICTNESS[p] <= APPROVAL_STRICTNESS[user])
    .map((p) => `"${p}"`)
    .join(' or ');
  return {
    value: user,
    ignored: [
      `run.approval: ${asked} was ignored: ${words.yours(user)}, and ${words.file} may only make it stricter (${allowed}). ` +
        `The run uses "${user}". To allow "${asked}", ${words.allow(asked)}.`,
    ],
  };
}
