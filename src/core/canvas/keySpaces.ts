/**
 * Key spaces of the canvas and the named conditions that protect keys.
 *
 * A spec's pattern is either an exact key ("plan") or a prefix ending in "/*"
 * ("notes/*", matching "notes/a" and "notes/a/b"). The most specific pattern wins:
 * an exact key over any prefix, a longer prefix over a shorter one.
 */
import type { Actor, KeySpec } from './types';

/** The condition that makes a report immutable once the report judge verified it. */
export const REPORT_NOT_VERIFIED = 'report not yet verified';

export const DEFAULT_KEY_SPECS: readonly KeySpec[] = [
  { pattern: 'notes/*', mode: 'versioned', description: 'working notes of agents and the user; each write is a new version' },
  { pattern: 'plan', mode: 'versioned', description: "the supervisor's plan; each edit is a new version" },
  {
    pattern: 'reports/*',
    mode: 'versioned',
    protectedBy: REPORT_NOT_VERIFIED,
    description: 'reports citing artifacts; immutable once the report judge verified them',
  },
  { pattern: 'artifacts/*', mode: 'framework', description: 'values created by tool calls (the provenance registry); read-only' },
  { pattern: 'calls/*', mode: 'framework', description: 'tool-call records: arguments, references, reasons, verdicts; read-only' },
  { pattern: 'jobs/*', mode: 'framework', description: 'job records; each state transition is a version' },
  { pattern: 'approvals/*', mode: 'framework', description: 'approval requests raised by the guard and their answers' },
  { pattern: 'usage/*', mode: 'framework', description: 'token and cost accounting per role' },
  { pattern: 'run/*', mode: 'framework', description: "the run's start record and state" },
];

/** The versions and verification a condition may look at. */
export interface KeyVersion {
  value: unknown;
  seq: number;
  ts: string;
  actor: Actor;
  kind: string;
  reason?: string;
}

export interface KeyState {
  versions: KeyVersion[];
  /** Set once the key was verified (reports). */
  verified?: { version: number; seq: number; reason: string };
}

export interface ConditionContext {
  key: string;
  current: KeyState | undefined;
  value: unknown;
  actor: Actor;
}

/** undefined when the condition holds; otherwise why it does not, and what to do instead. */
export type KeyCondition = (ctx: ConditionContext) => string | undefined;

export const DEFAULT_CONDITIONS: Readonly<Record<string, KeyCondition>> = {
  [REPORT_NOT_VERIFIED]: ({ key, current }) =>
    current?.verified
      ? `${key} was verified at version ${current.verified.version} (seq ${current.verified.seq}: ${current.verified.reason}) and is now immutable. Write a new report key (e.g. ${key}-revised) that cites it instead.`
      : undefined,
};

export function patternMatches(pattern: string, key: string): boolean {
  return pattern.endsWith('/*') ? key.startsWith(pattern.slice(0, -1)) && key.length > pattern.length - 1 : key === pattern;
}

/** The most specific spec for a key, or undefined when no space holds it. */
export function specFor(specs: readonly KeySpec[], key: string): KeySpec | undefined {
  let best: KeySpec | undefined;
  for (const s of specs) {
    if (!patternMatches(s.pattern, key)) continue;
    if (!best || specificity(s.pattern) > specificity(best.pattern)) best = s;
  }
  return best;
}

const specificity = (pattern: string): number => (pattern.endsWith('/*') ? pattern.length : Number.MAX_SAFE_INTEGER);

/** Keys are paths of letters, digits and . _ - separated by "/". */
export const KEY_SYNTAX = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
