/**
 * The argument hints of plan steps (grammar in workflows/types.ts), parsed. Resolution
 * against a run's provenance is in stepArguments.ts.
 */

export type Hint =
  | { kind: 'step'; step: string; name: string; path: string[] }
  | { kind: 'all' | 'each'; step: string; name: string }
  | { kind: 'run'; setting: string }
  | { kind: 'compose'; composer: string };

const STEP_HINT = /^\$(step|all|each)\.([a-z0-9][a-z0-9-]*)\.([A-Za-z0-9_]+)((?:\.[A-Za-z0-9_]+)*)$/;
const RUN_HINT = /^\$run\.([A-Za-z][A-Za-z0-9_]*)$/;

export function parseHint(value: unknown): Hint | undefined {
  if (typeof value === 'string') {
    const m = STEP_HINT.exec(value);
    if (m) {
      const kind = m[1] as 'step' | 'all' | 'each';
      const path = m[4] ? m[4].slice(1).split('.') : [];
      if (kind === 'step') return { kind, step: m[2]!, name: m[3]!, path };
      return path.length ? undefined : { kind, step: m[2]!, name: m[3]! };
    }
    const r = RUN_HINT.exec(value);
    if (r) return { kind: 'run', setting: r[1]! };
    return undefined;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const c = (value as Record<string, unknown>).$compose;
    if (keys.length === 1 && typeof c === 'string') return { kind: 'compose', composer: c };
  }
  return undefined;
}

/**
 * The items of a list argument that holds "$step" or "$all" hints (a formation energy's
 * energies of several single-run steps, a sweep extended by a second series): each hint is
 * resolved in place, anything else written out beside them (a reference, a number) stays as
 * written, and a string that looks like a hint but is none of these two is "bad". Undefined
 * when the value is not a list or holds no hint.
 */
export type ListItem =
  | { kind: 'hint'; hint: { kind: 'step'; step: string; name: string; path: string[] } | { kind: 'all'; step: string; name: string } }
  | { kind: 'literal'; value: unknown }
  | { kind: 'bad'; value: unknown };

export function hintList(value: unknown): ListItem[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = value.map((v): ListItem => {
    const h = parseHint(v);
    if (h?.kind === 'step') return { kind: 'hint', hint: h };
    if (h?.kind === 'all') return { kind: 'hint', hint: { kind: 'all', step: h.step, name: h.name } };
    return h || looksLikeHint(v) ? { kind: 'bad', value: v } : { kind: 'literal', value: v };
  });
  return items.some((i) => i.kind !== 'literal') ? items : undefined;
}

/** A string that looks like a hint but does not parse: a typo the author should hear about. */
export const looksLikeHint = (value: unknown): boolean => typeof value === 'string' && /^\$(step|all|each|run)\b/.test(value);

/** Step ids the arguments refer to. */
export function hintedSteps(args: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const v of Object.values(args)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      const h = parseHint(item);
      if (h && (h.kind === 'step' || h.kind === 'all' || h.kind === 'each')) out.add(h.step);
    }
  }
  return [...out];
}

/** The argument a step iterates over ("$each..."), if any. */
export function eachArgument(args: Record<string, unknown> | undefined): { argument: string; step: string; name: string } | undefined {
  for (const [argument, v] of Object.entries(args ?? {})) {
    const h = parseHint(v);
    if (h?.kind === 'each') return { argument, step: h.step, name: h.name };
  }
  return undefined;
}
