/** What the validator reports: where, how bad, a stable code, what to do, and a mechanical fix when there is one. */
import type { TextEdit } from '../input/edit';
import type { Range } from '../input/model';

export type Severity = 'error' | 'warning' | 'info';

export interface QuickFix {
  title: string;
  edits: TextEdit[];
}

export interface Diagnostic {
  /** Stable identifier (e.g. "unknown-variable", "nat-mismatch"); tests, tools and suppressions key on it. */
  code: string;
  severity: Severity;
  /** What is wrong, with the offending input, and what to do. */
  message: string;
  range: Range;
  fixes?: QuickFix[];
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
