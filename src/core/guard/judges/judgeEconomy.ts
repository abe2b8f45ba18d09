/**
 * Judge economy: when the per-parameter judge is not asked, and why (recorded with the call).
 *  - Every parameter is a reference to a final artifact: tier 1 checked each one against its
 *    record, and there is no value of the agent's own to judge ("not judged", with the reason).
 *  - An earlier call of the same tool had identical arguments (the same literal values, and
 *    references to artifacts of the same content: a run_pw whose result is then reused) and was
 *    judged: its verdicts stand, naming that call.
 *  - A series: calls of one step with the same shape (the same tool, literal values and their
 *    reasons, and references to artifacts of the same names) are judged once, in one request,
 *    for the first of them; the others take its verdicts, naming it. Calls of one turn that run
 *    side by side wait for that first judgement (JudgeMemo).
 *  - A value already judged: a literal parameter with the same value and the same reason as in an
 *    earlier call of the same tool, whose judge passed it (the smearing and spin settings every
 *    pw.x input of a study repeats), keeps that verdict, naming the call; the judge is asked about
 *    the rest only, and not at all when nothing is left.
 * A judgement that failed (judge unavailable) is never passed on: the next call asks itself.
 */
import crypto from 'node:crypto';
import type { ArtifactRecord, ToolCallRecord } from '../../provenance/types';
import { isRef, parseRef, type ProvenanceView } from '../../provenance/view';
import { artifactArguments } from '../schemaAnnotations';
import type { ProposedCall, Verdict } from '../types';

/** What a call's judge request was spared, or undefined when the judge is to be asked. */
export type Economy = { verdicts: Verdict[]; why: string };

/** In-flight and finished judgements of call shapes, for one run (the session keeps one). */
export class JudgeMemo {
  private readonly shapes = new Map<string, Promise<Verdict[] | undefined>>();

  /** The judgement of an earlier call of this shape, waited for while it is being made. */
  get(key: string): Promise<Verdict[] | undefined> | undefined {
    return this.shapes.get(key);
  }

  /** This call judges the shape: the others wait for `settle`. */
  claim(key: string): (verdicts: Verdict[] | undefined) => void {
    let settle!: (v: Verdict[] | undefined) => void;
    this.shapes.set(key, new Promise((resolve) => (settle = resolve)));
    return (verdicts) => {
      // a failed judgement is not passed on: the next call of the shape asks itself
      if (!verdicts || verdicts.some((v) => v.infraError || (!v.judged && v.rule !== 'judge-economy'))) this.shapes.delete(key);
      settle(verdicts);
    };
  }
}

/** Every call of the run in order (the registry lists them; a narrower view is walked by id). */
export function callsOf(view: ProvenanceView): readonly ToolCallRecord[] {
  const listed = (view as { calls?: unknown }).calls;
  if (typeof listed === 'function') return (listed as () => readonly ToolCallRecord[]).call(view);
  if (Array.isArray(listed)) return listed as ToolCallRecord[];
  const out: ToolCallRecord[] = [];
  for (let n = 1; ; n++) {
    const c = view.call(`c-${n}`);
    if (!c) return out;
    out.push(c);
  }
}

/** The references a parameter holds: its references entry, or its value when it names artifacts. */
function referencesOf(call: ProposedCall, p: string, artifactArgs: Map<string, { list: boolean }>): string[] | undefined {
  if (call.refs[p]) return [call.refs[p]!];
  const v = call.args[p];
  if (!artifactArgs.has(p)) return undefined;
  if (isRef(v)) return [v];
  if (Array.isArray(v) && v.length > 0 && v.every(isRef)) return v as string[];
  return undefined;
}

const artifactOf = (view: ProvenanceView, ref: string): ArtifactRecord | undefined => {
  const id = parseRef(ref)?.artifactId;
  return id ? view.artifact(id) : undefined;
};

/** The parameters that are references to final artifacts: tier 1 checked each against its record. */
export function finalReferences(call: ProposedCall, schema: object, view: ProvenanceView): string[] {
  const artifactArgs = artifactArguments(schema);
  return Object.keys(call.args).filter((p) => {
    const refs = referencesOf(call, p, artifactArgs);
    return !!refs && refs.every((r) => artifactOf(view, r)?.status === 'final');
  });
}

/** The parameters a judge is asked about: values of the agent's own (literals, references to what is not final). */
export function parametersToJudge(call: ProposedCall, schema: object, view: ProvenanceView): string[] {
  const refs = new Set(finalReferences(call, schema, view));
  return Object.keys(call.args).filter((p) => !refs.has(p));
}

/** Whether every parameter is a reference to a final artifact (nothing of the agent's own to judge). */
export function referencesOnly(call: ProposedCall, schema: object, view: ProvenanceView): boolean {
  return Object.keys(call.args).length > 0 && parametersToJudge(call, schema, view).length === 0;
}

/**
 * The literal parameters of a call that an earlier call of the same tool gave with the same value
 * and the same reason, and whose judge passed them: the call that judged each, and its verdict.
 */
export function alreadyPassed(call: ProposedCall, schema: object, view: ProvenanceView): Map<string, { from: string; verdict: Verdict }> {
  const out = new Map<string, { from: string; verdict: Verdict }>();
  const artifactArgs = artifactArguments(schema);
  const earlier = callsOf(view)
    .filter((c) => c.tool === call.tool && c.status !== 'refused')
    .reverse();
  for (const p of parametersToJudge(call, schema, view)) {
    if (referencesOf(call, p, artifactArgs) || isRef(call.args[p])) continue;
    const value = JSON.stringify(call.args[p]);
    const reason = call.reasons[p] ?? '';
    for (const c of earlier) {
      const a = c.args[p];
      if (!a || (a.ref && a.ref !== a.value) || JSON.stringify(a.value) !== value || (c.reasons[p] ?? '') !== reason) continue;
      const v = c.verdicts.find((x) => x.tier === 'tier2' && x.parameter === p);
      if (v && v.judged && !v.infraError && v.level === 'pass' && v.rule !== 'judge-economy') {
        out.set(p, { from: c.id, verdict: v });
        break;
      }
    }
  }
  return out;
}

/** The verdict of a parameter the judge was not asked about: a reference to a final artifact. */
export function notAskedReference(parameter: string, tier: 'tier2' | 'report' = 'tier2'): Verdict {
  return {
    tier,
    rule: 'judge-economy',
    parameter,
    level: 'pass',
    judged: false,
    reasons: ['not asked: a reference to a final artifact, which tier 1 checked against its record'],
  };
}

const digest = (s: string) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);

/** What an artifact holds, for identity: a pw.x input by its text, anything else by its content hash. */
function contentOf(a: ArtifactRecord | undefined): string {
  if (!a) return 'missing';
  const text = (a.value as { text?: unknown } | undefined)?.text;
  return a.kind === 'qe-input' && typeof text === 'string' ? `text:${digest(text)}` : a.contentHash;
}

/** Same tool, same literal values, references to the same content: a call that would compute the same thing. */
export function callIdentity(call: ProposedCall, schema: object, view: ProvenanceView): string {
  const artifactArgs = artifactArguments(schema);
  const parts = Object.keys(call.args)
    .sort()
    .map((p) => {
      const refs = referencesOf(call, p, artifactArgs);
      if (!refs) return `${p}=${JSON.stringify(call.args[p])}`;
      return `${p}@${refs.map((r) => `${contentOf(artifactOf(view, r))}${parseRef(r)?.path.length ? `.${parseRef(r)!.path.join('.')}` : ''}`).join(',')}`;
    });
  return `${call.tool}|${parts.join('|')}`;
}

/** Same step, tool, literal values and reasons, and references to artifacts of the same names: one of a series. */
export function callShape(call: ProposedCall, schema: object, view: ProvenanceView): string {
  const artifactArgs = artifactArguments(schema);
  const parts = Object.keys(call.args)
    .sort()
    .map((p) => {
      const refs = referencesOf(call, p, artifactArgs);
      if (!refs) return `${p}=${JSON.stringify(call.args[p])}:${JSON.stringify(call.reasons[p] ?? '')}`;
      return `${p}@${refs.map((r) => `${artifactOf(view, r)?.name ?? '?'}${parseRef(r)?.path.length ? `.${parseRef(r)!.path.join('.')}` : ''}`).join(',')}`;
    });
  return `${call.step ?? ''}|${call.tool}|${parts.join('|')}`;
}

/** A recorded call as the guard proposed it (values with their references). */
function proposedOf(rec: ToolCallRecord): ProposedCall {
  const args: Record<string, unknown> = {};
  const refs: Record<string, string> = {};
  for (const [k, a] of Object.entries(rec.args)) {
    args[k] = a.value;
    if (a.ref && a.ref !== a.value) refs[k] = a.ref;
  }
  return {
    tool: rec.tool,
    args,
    refs,
    reasons: rec.reasons,
    context: rec.context,
    agent: { role: 'user' },
    ...(rec.step ? { step: rec.step } : {}),
  };
}

/** A judgement worth passing on: the verdicts a judge gave (those of parameters it was not asked about aside) all came back. */
const judgedWell = (vs: Verdict[]) => {
  const asked = vs.filter((v) => v.rule !== 'judge-economy');
  return asked.length > 0 && asked.every((v) => v.judged && !v.infraError);
};

/** The tier-2 verdicts of a call, handed on to another with a note saying from where. */
export function handedOn(verdicts: Verdict[], note: string): Verdict[] {
  return verdicts.map((v) => ({ ...v, reasons: [...v.reasons, note] }));
}

/**
 * Whether the per-parameter judge may be spared for this call, with the verdicts it gets
 * instead; undefined when it must be asked. `memo` (the run's) makes calls of one series that
 * run side by side wait for the first one's judgement.
 */
export async function spareParameterJudge(
  call: ProposedCall,
  schema: object,
  view: ProvenanceView,
  memo?: JudgeMemo,
): Promise<Economy | { ask: true; settle: (v: Verdict[] | undefined) => void } | undefined> {
  const params = Object.keys(call.args);
  if (referencesOnly(call, schema, view)) {
    const why = 'every parameter is a reference to a final artifact, which tier 1 checked against its record';
    return {
      why,
      verdicts: params.map((parameter) => ({
        tier: 'tier2' as const,
        rule: 'judge-economy',
        parameter,
        level: 'pass' as const,
        judged: false,
        reasons: [`not asked: ${why}`],
      })),
    };
  }
  const tier2 = (c: ToolCallRecord) => c.verdicts.filter((v) => v.tier === 'tier2');
  const earlier = callsOf(view).filter((c) => c.tool === call.tool && c.status !== 'refused' && judgedWell(tier2(c)));
  const identity = callIdentity(call, schema, view);
  const same = [...earlier].reverse().find((c) => callIdentity(proposedOf(c), schema, view) === identity);
  if (same) {
    const why = `identical arguments to ${same.id}, which was judged`;
    return { why, verdicts: handedOn(tier2(same), `(judged with ${same.id}: identical arguments)`) };
  }
  if (!call.step) return undefined;
  const shape = callShape(call, schema, view);
  const sibling = [...earlier].reverse().find((c) => c.step === call.step && callShape(proposedOf(c), schema, view) === shape);
  if (sibling) {
    const why = `one of a series of step ${call.step}: the same shape as ${sibling.id}, which was judged`;
    return { why, verdicts: handedOn(tier2(sibling), `(judged once for the series of step ${call.step}, with ${sibling.id})`) };
  }
  if (!memo) return undefined;
  const inFlight = memo.get(shape);
  if (inFlight) {
    const verdicts = await inFlight;
    if (verdicts && judgedWell(verdicts)) {
      return {
        why: `one of a series of step ${call.step}, judged once`,
        verdicts: handedOn(verdicts, `(judged once for the series of step ${call.step})`),
      };
    }
    return undefined;
  }
  return { ask: true, settle: memo.claim(shape) };
}
