/**
 * Report-judge verdicts kept from one report to its correction. When a report is judged again
 * (the worker rewrote it after a refusal), a call the model passed in the latest audit that
 * judged it keeps those per-call verdicts, and is not sent again, only if nothing the judge read
 * about the call, and no claim resting on it, has changed:
 *  - the same rule text and the same judge model;
 *  - the same call record (tool, arguments with their references, reasons, context, status);
 *  - the same deterministic (tier-1) results when re-checked for this report;
 *  - the artifacts it read and made in the same state (status, concerns, and the answers to
 *    their approvals);
 *  - every claim that now rests on it (as stated: quantity, value, unit, citation, statement,
 *    with its own tier-1 result, but not its position in the report) rested on it when it was
 *    judged. A changed or added claim re-judges every call under it; a claim only dropped
 *    re-judges nothing.
 * The report text is not part of what is kept: every request carries the text and all the
 * claims, says they are judged in full, and says whether the text changed since the audit the
 * kept verdicts come from (ReportJudgement.textDigest).
 * Only passes are kept: a warning or a failure is judged again on the corrected report (the
 * correction may answer it). A judge outage or a "not judged" is never kept. The judge is shown
 * the kept verdicts with the report and may give a new verdict for any of them; when that request
 * fails, the kept calls get the outage's verdict instead (reportJudge.ts).
 */
import crypto from 'node:crypto';
import type { ToolCallRecord } from '../../provenance/types';
import { parseRef, type ProvenanceView } from '../../provenance/view';
import type { ApprovalBook } from '../approvals';
import type { ReportClaim } from '../claimChecks';
import type { Verdict } from '../types';

/** What a call's report-time model verdicts rested on, recorded with them (report.judged). */
export interface AuditBasis {
  /** Digest of the rule text, judge model, call record, its tier-1 results and what it read and made. */
  call: string;
  /** Digests of the claims resting on the call (each as stated, with its tier-1 result). */
  claims: string[];
}

/** An earlier judgement of the run, as a 'report.judged' event holds it. */
export interface EarlierJudgement {
  /** The write_report call whose report it judged. */
  call: string;
  calls: { call: string; reportTime: Verdict[]; basis?: AuditBasis }[];
  /** Digest of the report text it judged (reportTextDigest), absent in judgements recorded before. */
  textDigest?: string;
}

export interface KeptVerdicts {
  /** The write_report call of the audit that gave them. */
  from: string;
  verdicts: Verdict[];
}

const digest = (x: unknown): string => crypto.createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 32);

const tierOneFacts = (verdicts: readonly Verdict[]) => verdicts.map((v) => [v.rule, v.level, v.parameter ?? '', v.reasons]);

/** The digest of a report's text, to tell a corrected report's text from the one a kept verdict was given with. */
export const reportTextDigest = (text: string | undefined): string => digest(text ?? '');

/** A claim's tier-1 results without its position: the "claims[i]" label each carries says where it stood, not what it found. */
const claimFacts = (verdicts: readonly Verdict[]) =>
  verdicts.map((v) => [v.rule, v.level, v.reasons.map((r) => r.replace(/\bclaims\[\d+\]/g, 'claims[]'))]);

/** A claim as the judge read it: what it states and what tier 1 found of it, wherever it stands in the report. */
export function claimDigest(claim: ReportClaim, tierOne: readonly Verdict[]): string {
  const { quantity, value, unit, cites, statement } = claim;
  return digest({ quantity, value, unit, cites, statement: statement ?? '', tierOne: claimFacts(tierOne) });
}

/** The artifacts a call read (its references) and made, each in its present state. */
function artifactState(call: ToolCallRecord, view: ProvenanceView, approvals?: ApprovalBook): unknown[] {
  const ids = new Set<string>(call.outputs);
  const visit = (x: unknown): void => {
    if (typeof x === 'string') {
      const id = parseRef(x)?.artifactId;
      if (id && view.artifact(id)) ids.add(id);
    } else if (Array.isArray(x)) x.forEach(visit);
  };
  for (const a of Object.values(call.args)) {
    visit(a.ref);
    visit(a.value);
  }
  return [...ids].sort().map((id) => {
    const a = view.artifact(id);
    return [
      id,
      a?.status ?? 'absent',
      (a?.concerns ?? []).map((c) => [
        c.message,
        c.approval ?? '',
        c.approval ? (approvals?.answerOf(c.approval)?.decision ?? 'open') : '',
      ]),
    ];
  });
}

/** The digest of everything about a call, but its claims, that its report-time model verdicts rest on. */
export function callDigest(
  call: ToolCallRecord,
  tierOne: readonly Verdict[],
  view: ProvenanceView,
  judge: { rule: string; model: string },
  approvals?: ApprovalBook,
): string {
  const args = Object.entries(call.args)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, a]) => [k, a.value, a.ref ?? '']);
  const reasons = Object.entries(call.reasons).sort(([a], [b]) => a.localeCompare(b));
  return digest({
    judge,
    id: call.id,
    tool: call.tool,
    args,
    reasons,
    context: call.context,
    status: call.status,
    tierOne: tierOneFacts(tierOne),
    artifacts: artifactState(call, view, approvals),
  });
}

const KEPT_NOTE = '(kept from the audit of ';

/**
 * The verdicts a call keeps from the latest earlier audit that judged it with a model, or
 * undefined when it must be judged again (see the file's head for what "unchanged" is).
 */
export function keptVerdicts(
  earlier: readonly EarlierJudgement[],
  call: ToolCallRecord,
  basis: AuditBasis,
  rule: string,
): KeptVerdicts | undefined {
  for (let i = earlier.length - 1; i >= 0; i--) {
    const j = earlier[i]!.calls.find((c) => c.call === call.id);
    const model = j?.reportTime.filter((v) => v.tier === 'report' && v.rule === rule && v.judged);
    if (!j || !model?.length) continue; // not judged by a model there: look further back
    // the latest model judgement of the call decides: it is kept whole or judged again
    if (!j.basis || j.basis.call !== basis.call) return undefined;
    if (!basis.claims.every((c) => j.basis!.claims.includes(c))) return undefined;
    if (model.some((v) => v.level !== 'pass' || v.infraError)) return undefined;
    if (!Object.keys(call.args).every((p) => model.some((v) => v.parameter === p))) return undefined;
    const from = earlier[i]!.call;
    return {
      from,
      verdicts: model.map((v) =>
        v.reasons.some((r) => r.startsWith(KEPT_NOTE))
          ? v
          : { ...v, reasons: [...v.reasons, `${KEPT_NOTE}${from}'s report: the call, what it read and the claims on it unchanged)`] },
      ),
    };
  }
  return undefined;
}

/** The kept calls as the judge is shown them: a line per tool and reason, naming the calls (a series is one line). */
export function keptLines(kept: readonly { call: ToolCallRecord; kept: KeptVerdicts }[]): string[] {
  const lines = new Map<string, { tool: string; reasons: string; calls: string[] }>();
  for (const { call, kept: k } of kept) {
    const reasons = [
      ...new Set(k.verdicts.flatMap((v) => v.reasons.filter((r) => !r.startsWith(KEPT_NOTE) && !r.startsWith('(as judged for ')))),
    ].join(' ');
    const text = reasons.length > 240 ? `${reasons.slice(0, 240)}…` : reasons;
    const key = `${call.tool}\n${text}`;
    const line = lines.get(key) ?? { tool: call.tool, reasons: text, calls: [] };
    line.calls.push(call.id);
    lines.set(key, line);
  }
  return [...lines.values()].map((l) => `- ${l.calls.join(', ')} ${l.tool}: pass: ${l.reasons}`);
}
