/**
 * The report judge: after a report is written, each claim is checked against its cited
 * artifact, then the provenance graph is walked upstream from the claims (only the calls
 * they depend on) and every contributing call is checked again: deterministically, all of
 * them; with a model, the calls that hold values of an agent's own. A call with references
 * only is left to tier 1; a call identical to another, or one of a series of one step, is
 * summarised under the call judged for it; and the audit is split into requests that fit.
 * A report the deterministic checks already refuse is not sent to the model: it goes back
 * with their reasons, and the model audits the corrected report. On a corrected report, a
 * call the model passed before and on which nothing has changed keeps its verdicts
 * (judges/keptVerdicts.ts); the model is sent the rest, and shown what was kept.
 * Its verdict decides whether the report is accepted. Call-time verdicts are kept beside
 * the report-time ones.
 */
import type { ArtifactRecord, ToolCallRecord } from '../provenance/types';
import type { ApprovalBook } from './approvals';
import { runTierOne, worstLevel } from './assessCall';
import type { GuardedToolSpec } from './toolSpec';
import { checkClaim, type ReportClaim } from './claimChecks';
import { askJudge, type JudgeConfig } from './judges/askJudge';
import { describeParameters } from './judges/describeCall';
import { citedSelectionTables } from './judges/selectionTables';
import { REPORT_VERDICT_TOOL } from './judges/judgePrompt';
import { judgeInfraVerdicts, notJudged } from './judges/paramJudge';
import { callIdentity, callShape, handedOn, referencesOnly } from './judges/judgeEconomy';
import {
  type AuditBasis,
  callDigest,
  claimDigest,
  type EarlierJudgement,
  type KeptVerdicts,
  keptLines,
  keptVerdicts,
  reportTextDigest,
} from './judges/keptVerdicts';
import { parseRef, type ProvenanceView } from '../provenance/view';
import { latestRuleText } from './rule-texts';
import { contributingCalls, upstreamPath } from '../provenance/upstream';
import type { ProposedCall, Verdict, VerdictLevel } from './types';

export interface CallJudgement {
  call: string;
  tool: string;
  /** The verdicts recorded when the call ran. */
  callTime: Verdict[];
  /** The verdicts of this report's audit. */
  reportTime: Verdict[];
  /** What its model verdicts rested on, to tell whether a corrected report may keep them. */
  basis?: AuditBasis;
}

export interface ReportJudgement {
  level: VerdictLevel;
  /** Accepted only on an overall pass: a warning needs a person, a fail refuses the report. */
  accepted: boolean;
  claims: { claim: ReportClaim; verdicts: Verdict[] }[];
  /** Status and approval state of every artifact upstream of the claims. */
  upstream: Verdict[];
  calls: CallJudgement[];
  /** Judge failures, counted apart from scientific verdicts. */
  infraErrors: number;
  /** Whether a model judged the contributing calls (false: deterministic checks only). */
  modelJudged: boolean;
  summary: string;
  /** Digest of the report text judged, so a corrected report can say whether its text changed. */
  textDigest?: string;
}

export interface ReportJudgeOptions {
  provenance: ProvenanceView;
  approvals?: ApprovalBook;
  /** The tool specs, to re-run each contributing call's tier-1 rules. */
  specOf(tool: string): GuardedToolSpec | undefined;
  judge?: JudgeConfig;
  /** The report's text, so the judge can weigh what it says around the claims (its caveats included). */
  text?: string;
  /** The run's earlier judgements ('report.judged', oldest first): unchanged calls keep their passes. */
  earlier?: readonly EarlierJudgement[];
}

const callNumber = (id: string): number => Number(id.replace(/^c-/, ''));

/** The registry as a call met it: artifacts made by earlier calls, with their statuses as they are now. */
export function viewAsOf(view: ProvenanceView, callId: string): ProvenanceView {
  const n = callNumber(callId);
  const before = (a: ArtifactRecord | undefined) => (a && callNumber(a.creator) < n ? a : undefined);
  return {
    artifact: (id) => before(view.artifact(id)),
    call: (id) => view.call(id),
    artifacts: () => view.artifacts().filter((a) => callNumber(a.creator) < n),
  };
}

export function proposedFromRecord(rec: ToolCallRecord): ProposedCall {
  const args: Record<string, unknown> = {};
  const refs: Record<string, string> = {};
  for (const [k, a] of Object.entries(rec.args)) {
    args[k] = a.value;
    // A reference-valued argument records its value as its own reference: not a copied value to compare.
    if (a.ref && a.ref !== a.value) refs[k] = a.ref;
  }
  return {
    tool: rec.tool,
    args,
    refs,
    reasons: rec.reasons,
    context: rec.context,
    agent: { role: rec.agent.role === 'framework' ? 'user' : rec.agent.role, ...(rec.agent.model ? { model: rec.agent.model } : {}) },
  };
}

function upstreamVerdicts(view: ProvenanceView, cited: string[], approvals?: ApprovalBook): Verdict[] {
  const out: Verdict[] = [];
  const ids = upstreamPath(view, cited, 10_000).filter((id) => id.startsWith('a-'));
  for (const id of ids) {
    const a = view.artifact(id)!;
    if (a.status !== 'final') {
      out.push({
        tier: 'report',
        rule: 'upstream-final',
        level: 'fail',
        judged: true,
        parameter: id,
        reasons: [
          `${id} (${a.name}) upstream of the claims is ${a.status}` +
            `${a.concerns.length ? `: ${a.concerns.map((c) => c.message).join('; ')}` : ''}. Redo it and report from the new result.`,
        ],
      });
    }
    for (const c of a.concerns) {
      if (!c.approval || !approvals) continue;
      const ans = approvals.answerOf(c.approval);
      if (!ans) {
        out.push({
          tier: 'report',
          rule: 'upstream-approved',
          level: 'warn',
          judged: true,
          parameter: id,
          reasons: [`${id} (${a.name}) carries a concern awaiting approval ${c.approval}: ${c.message}`],
        });
      } else if (ans.decision === 'reject') {
        out.push({
          tier: 'report',
          rule: 'upstream-approved',
          level: 'fail',
          judged: true,
          parameter: id,
          reasons: [`${id} (${a.name}) was rejected in ${c.approval} by ${ans.by}${ans.comment ? `: ${ans.comment}` : ''}.`],
        });
      }
    }
  }
  if (!out.length)
    out.push({
      tier: 'report',
      rule: 'upstream-final',
      level: 'pass',
      judged: true,
      reasons: [`${ids.length} upstream artifact(s) are final and approved`],
    });
  return out;
}

interface ReportVerdicts {
  verdicts: { call: string; parameter: string; level: VerdictLevel; reasons: string[] }[];
}

/** How many parameters one audit request judges at most, and how long its call list may be. */
export const AUDIT_LIMITS = { parameters: 120, chars: 40_000 };

/** The contributing calls as the model audits them: which it judges, and which stand under another. */
export interface AuditPlan {
  /** Calls the model judges, each with the calls that take its verdicts (identical, or of its series). */
  judged: { call: ToolCallRecord; standsFor: { call: ToolCallRecord; why: string }[] }[];
  /** Calls holding references only (tier 1 re-checked them; nothing of an agent's own to judge). */
  referencesOnly: ToolCallRecord[];
}

export function auditPlan(calls: ToolCallRecord[], view: ProvenanceView, specOf: (tool: string) => GuardedToolSpec | undefined): AuditPlan {
  const out: AuditPlan = { judged: [], referencesOnly: [] };
  const byIdentity = new Map<string, AuditPlan['judged'][number]>();
  const byShape = new Map<string, AuditPlan['judged'][number]>();
  for (const c of calls) {
    const schema = specOf(c.tool)?.schema;
    const proposed = proposedFromRecord(c);
    if (!schema) {
      out.judged.push({ call: c, standsFor: [] });
      continue;
    }
    if (referencesOnly(proposed, schema, view)) {
      out.referencesOnly.push(c);
      continue;
    }
    const identity = callIdentity(proposed, schema, view);
    const shape = callShape({ ...proposed, ...(c.step ? { step: c.step } : {}) }, schema, view);
    const same = byIdentity.get(identity);
    if (same) {
      same.standsFor.push({ call: c, why: `identical arguments to ${same.call.id}` });
      continue;
    }
    const series = c.step ? byShape.get(shape) : undefined;
    if (series) {
      series.standsFor.push({ call: c, why: `one of the series of step ${c.step}, the same shape as ${series.call.id}` });
      continue;
    }
    const entry = { call: c, standsFor: [] };
    out.judged.push(entry);
    byIdentity.set(identity, entry);
    if (c.step) byShape.set(shape, entry);
  }
  return out;
}

function section(entry: AuditPlan['judged'][number], view: ProvenanceView): string {
  const c = entry.call;
  return [
    `## ${c.id} ${c.tool}${entry.standsFor.length ? ` (its verdicts also stand for ${entry.standsFor.map((s) => `${s.call.id}: ${s.why}`).join('; ')})` : ''}`,
    // referenced artifacts by name and status (their content was judged where they were made)
    `Context: ${c.context || '(none)'}`,
    ...describeParameters(
      proposedFromRecord(c),
      view,
      c.verdicts.filter((v) => v.tier === 'tier1'),
      { compact: true },
    ),
  ].join('\n');
}

/** The judged calls split into requests of at most AUDIT_LIMITS parameters and characters each. */
export function auditChunks(plan: AuditPlan, view: ProvenanceView): { entries: AuditPlan['judged']; text: string[] }[] {
  const chunks: { entries: AuditPlan['judged']; text: string[] }[] = [];
  let cur: { entries: AuditPlan['judged']; text: string[] } = { entries: [], text: [] };
  let params = 0;
  let chars = 0;
  for (const entry of plan.judged) {
    const text = section(entry, view);
    const n = Object.keys(entry.call.args).length;
    if (cur.entries.length && (params + n > AUDIT_LIMITS.parameters || chars + text.length > AUDIT_LIMITS.chars)) {
      chunks.push(cur);
      cur = { entries: [], text: [] };
      params = 0;
      chars = 0;
    }
    cur.entries.push(entry);
    cur.text.push(text);
    params += n;
    chars += text.length;
  }
  if (cur.entries.length) chunks.push(cur);
  return chunks;
}

/** Deterministic verdicts in a line: the checks that passed by name, what did not with its reasons. */
export function tierOneLine(verdicts: Verdict[]): string {
  const open = verdicts.filter((v) => v.level !== 'pass');
  return open.length
    ? open.map((v) => `${v.level} (${v.rule}): ${v.reasons.join('; ')}`).join('; ')
    : `pass (${[...new Set(verdicts.map((v) => v.rule))].join(', ')})`;
}

/** What the deterministic checks found, as the judge's request shows them: each claim's, then the upstream artifacts'. */
interface TierOneChecks {
  claims: Verdict[][];
  upstream: Verdict[];
}

/** A call that keeps its verdicts from the audit of an earlier report (judges/keptVerdicts.ts). */
interface KeptCall {
  call: ToolCallRecord;
  kept: KeptVerdicts;
}

/** One call's verdicts from the judge's answer: each parameter's own, else its call's ("*"), else `fallback`. */
function answeredVerdicts(
  c: ToolCallRecord,
  answer: { input: ReportVerdicts; model: string },
  rule: string,
  fallback?: (p: string) => Verdict | undefined,
): Verdict[] {
  return Object.keys(c.args).map((p) => {
    const v =
      answer.input.verdicts.find((x) => x.call === c.id && x.parameter === p) ??
      answer.input.verdicts.find((x) => x.call === c.id && x.parameter === '*');
    if (v) return { tier: 'report' as const, rule, parameter: p, level: v.level, reasons: v.reasons, judged: true, model: answer.model };
    return (
      fallback?.(p) ?? {
        ...judgeInfraVerdicts('tier2', rule, `the judge gave no verdict for ${c.id}.${p}`, [p], answer.model)[0]!,
        tier: 'report' as const,
      }
    );
  });
}

async function modelVerdicts(
  calls: ToolCallRecord[],
  total: number,
  kept: KeptCall[],
  view: ProvenanceView,
  claims: ReportClaim[],
  checks: TierOneChecks,
  judge: JudgeConfig,
  specOf: (tool: string) => GuardedToolSpec | undefined,
  reportText?: string,
  textChanged?: (from: string) => boolean | undefined,
): Promise<{ byCall: Map<string, Verdict[]>; requests: number; plan: AuditPlan; rejudged: string[]; unconfirmed: string[] }> {
  const rule = latestRuleText('report-judge').id;
  const plan = auditPlan(calls, view, specOf);
  const chunks = auditChunks(plan, view);
  // with every call kept, one request still judges the corrected report as a whole
  if (!chunks.length && kept.length) chunks.push({ entries: [], text: [] });
  const out = new Map<string, Verdict[]>();
  const rejudged: string[] = [];
  const unconfirmed: string[] = [];
  const refsOnly = plan.referencesOnly.map((c) => c.id);
  // the convergence selections the claims cite, with the tables they chose from
  const tables = citedSelectionTables(
    view,
    claims.map((c) => parseRef(c.cites)?.artifactId).filter((id): id is string => !!id),
  );
  const keptFrom = [...new Set(kept.map((k) => k.kept.from))];
  // whether the text changed since each report whose audit gave kept verdicts (undefined: not on record)
  const changed = keptFrom.map((f) => ({ from: f, changed: textChanged?.(f) }));
  const textState = !kept.length
    ? ''
    : changed.every((c) => c.changed === false)
      ? ` (the same text as ${keptFrom.map((f) => `${f}'s report`).join(', ')}, whose audit gave the kept verdicts below; judge it in full)`
      : changed.some((c) => c.changed)
        ? ` (CHANGED since ${changed
            .filter((c) => c.changed)
            .map((c) => `${c.from}'s report`)
            .join(', ')}, whose audit gave the kept verdicts below: judge it in full, as new)`
        : ` (judge it in full: the text of ${keptFrom.map((f) => `${f}'s report`).join(', ')}, whose audit gave the kept verdicts below, is not on record to compare)`;
  for (const [i, chunk] of chunks.entries()) {
    const standing = chunk.entries.reduce((n, e) => n + e.standsFor.length, 0);
    const showKept = i === 0 && kept.length > 0;
    const text = [
      ...(reportText && i === 0
        ? [
            `Report text${textState}:`,
            reportText.length > 6000 ? `${reportText.slice(0, 6000)}… (${reportText.length} chars)` : reportText,
            '',
          ]
        : []),
      'Claims, with the deterministic checks of each (tier 1):',
      ...claims.map(
        (c, k) => `- claims[${k}] ${c.quantity} = ${c.value} ${c.unit}, cites ${c.cites}; tier 1: ${tierOneLine(checks.claims[k] ?? [])}`,
      ),
      `Upstream artifacts (tier 1): ${checks.upstream.map((v) => `${v.level}: ${v.reasons.join('; ')}`).join('; ')}`,
      ...(tables.length
        ? [
            '',
            'Convergence selections the claims cite, each with the table it chose from (as recorded; "within" is against its recorded criterion):',
            ...tables,
          ]
        : []),
      '',
      `The claims depend on ${total} call(s). ` +
        (kept.length
          ? `${kept.length} keep the per-call verdicts the audit of the earlier report (${keptFrom.join(', ')}) gave them, listed after the calls to judge; the report text and claims above are this report's and are judged in full. `
          : '') +
        `${chunks.length > 1 ? `This is request ${i + 1} of ${chunks.length}: it` : 'This request'} judges ${chunk.entries.length ? `the ${chunk.entries.length} below` : 'none of them anew'}` +
        `${standing ? ` (their verdicts also stand for ${standing} identical call(s) or calls of the same series, named with each)` : ''}` +
        `${refsOnly.length ? `; ${refsOnly.length} call(s) hold only references to final artifacts, which tier 1 re-checked, and are not listed (${refsOnly.join(', ')})` : ''}.`,
      '',
      'Calls to judge:',
      ...(chunk.entries.length ? chunk.text : ['(none: every call the claims depend on keeps its verdict, below)']),
      ...(showKept
        ? [
            '',
            `Verdicts kept from the audit of the earlier report: only these per-call verdicts were kept (each call, what it read and the claims resting on it are as they were when it was judged). The report text and its claims are new to this request: judge them in full, and a kept verdict with them. A kept verdict stands unless this report's text or claims make it wrong (a caveat dropped, a claim now resting on it unsupported): then give that call a new verdict (parameter "*"); otherwise give none for it.`,
            ...keptLines(kept),
          ]
        : []),
      '',
      chunk.entries.length
        ? 'Give one verdict per call above (parameter "*"), and a verdict for a single parameter only where you judge it differently from its call.'
        : 'Give a verdict only for a kept call you judge differently now; none if every kept verdict stands.',
    ].join('\n');
    // One verdict (~80 tokens) per call and room for the parameters singled out, with room to think.
    const pairs =
      chunk.entries.length * 2 +
      chunk.entries.reduce((n, e) => n + Object.keys(e.call.args).length, 0) / 2 +
      (showKept ? kept.length / 2 : 0);
    const tools = [...new Set(chunk.entries.map((e) => e.call.tool))];
    // the tools named and described, not each parameter: the calls carry their own reasons
    const answer = await askJudge<ReportVerdicts>(judge, 'report-judge', 'judge-report', REPORT_VERDICT_TOOL, text, {
      maxTokens: Math.min(32_000, 2048 + 80 * pairs),
      tools,
      parameters: [],
    });
    for (const { call: c, standsFor } of chunk.entries) {
      const verdicts: Verdict[] = !answer.ok
        ? judgeInfraVerdicts('tier2', rule, answer.error, Object.keys(c.args), answer.model).map((v) => ({ ...v, tier: 'report' as const }))
        : answeredVerdicts(c, answer, rule);
      out.set(c.id, verdicts);
      for (const s of standsFor) out.set(s.call.id, handedOn(verdicts, `(as judged for ${c.id}: ${s.why})`));
    }
    // the request that was to judge the report with its kept verdicts failed: no model saw this report,
    // so the kept calls get the outage's verdicts (fail open, counted), as calls sent to it do
    if (showKept && !answer.ok)
      for (const k of kept) {
        out.set(
          k.call.id,
          judgeInfraVerdicts('tier2', rule, answer.error, Object.keys(k.call.args), answer.model).map((v) => ({
            ...v,
            tier: 'report' as const,
            reasons: [...v.reasons, `(the pass kept from the audit of ${k.kept.from}'s report was not confirmed on this report)`],
          })),
        );
        unconfirmed.push(k.call.id);
      }
    // a kept verdict the judge now gives anew replaces it (a parameter it leaves keeps its own)
    if (showKept && answer.ok)
      for (const k of kept) {
        if (!answer.input.verdicts.some((x) => x.call === k.call.id)) continue;
        out.set(
          k.call.id,
          answeredVerdicts(k.call, answer, rule, (p) => k.kept.verdicts.find((v) => v.parameter === p)),
        );
        rejudged.push(k.call.id);
      }
  }
  for (const k of kept) if (!out.has(k.call.id)) out.set(k.call.id, k.kept.verdicts);
  for (const c of plan.referencesOnly) {
    out.set(
      c.id,
      Object.keys(c.args).map((parameter) => ({
        tier: 'report' as const,
        rule: 'judge-economy',
        parameter,
        level: 'pass' as const,
        judged: false,
        reasons: ['not asked: every parameter is a reference to a final artifact, re-checked by tier 1 against its record'],
      })),
    );
  }
  return { byCall: out, requests: chunks.length, plan, rejudged, unconfirmed };
}

/**
 * A deterministic warning a person (or the approval policy) already approved for this call
 * is settled: the audit finds the same warning again, and records who approved it instead
 * of holding the report back a second time.
 */
function settledWarning(v: Verdict, call: string, approvals?: ApprovalBook): Verdict {
  if (v.level !== 'warn' || !approvals) return v;
  const approved = approvals
    .requests()
    .filter((r) => r.call === call && r.verdicts.some((x) => x.rule === v.rule))
    .map((r) => ({ r, a: approvals.answerOf(r.id) }))
    .find((x) => x.a?.decision === 'approve');
  if (!approved) return v;
  return { ...v, level: 'pass', reasons: [...v.reasons, `approved in ${approved.r.id} by ${approved.a!.by}`] };
}

/** What each contributing call's model verdicts rest on: its own digest, and the claims resting on it. */
function auditBases(
  calls: ToolCallRecord[],
  claims: { claim: ReportClaim; verdicts: Verdict[] }[],
  judgements: CallJudgement[],
  view: ProvenanceView,
  judge: { rule: string; model: string },
  approvals?: ApprovalBook,
): Map<string, AuditBasis> {
  const resting = new Map<string, string[]>(calls.map((c) => [c.id, []]));
  for (const { claim, verdicts } of claims) {
    const id = parseRef(claim.cites)?.artifactId;
    if (!id || !view.artifact(id)) continue;
    const d = claimDigest(claim, verdicts);
    for (const c of contributingCalls(view, [id])) resting.get(c.id)?.push(d);
  }
  return new Map(
    calls.map((c) => {
      const tierOne = judgements.find((j) => j.call === c.id)?.reportTime ?? [];
      return [c.id, { call: callDigest(c, tierOne, view, judge, approvals), claims: [...new Set(resting.get(c.id))].sort() }];
    }),
  );
}

export async function judgeReport(claims: ReportClaim[], opts: ReportJudgeOptions): Promise<ReportJudgement> {
  const view = opts.provenance;
  const claimResults = claims.map((claim, i) => ({ claim, verdicts: checkClaim(claim, i, view) }));
  const cited = claims.map((c) => parseRef(c.cites)?.artifactId).filter((id): id is string => !!id && !!view.artifact(id));
  const upstream = upstreamVerdicts(view, cited, opts.approvals);
  const calls = contributingCalls(view, cited);

  const judgements: CallJudgement[] = calls.map((c) => {
    const spec = opts.specOf(c.tool);
    const reportTime = spec
      ? runTierOne(spec, proposedFromRecord(c), viewAsOf(view, c.id)).map((v) =>
          settledWarning({ ...v, tier: 'report' as const }, c.id, opts.approvals),
        )
      : [
          {
            tier: 'report' as const,
            rule: 'known-tool',
            level: 'fail' as const,
            judged: true,
            reasons: [`${c.id} used tool ${c.tool}, which is not in the catalogue`],
          },
        ];
    return { call: c.id, tool: c.tool, callTime: c.verdicts, reportTime };
  });

  const judge = opts.judge;
  const rule = latestRuleText('report-judge').id;
  let modelJudged = false;
  let audit = '';
  // what the deterministic checks refuse, the model cannot accept: the report goes back with their reasons
  const refusedByTierOne = [...claimResults.flatMap((c) => c.verdicts), ...upstream, ...judgements.flatMap((j) => j.reportTime)].some(
    (v) => v.level === 'fail',
  );
  if (judge?.provider.judges && calls.length && !refusedByTierOne) {
    const bases = auditBases(calls, claimResults, judgements, view, { rule, model: judge.models['report-judge'] }, opts.approvals);
    const kept: KeptCall[] = [];
    for (const c of calls) {
      const k = keptVerdicts(opts.earlier ?? [], c, bases.get(c.id)!, rule);
      if (k) kept.push({ call: c, kept: k });
    }
    // a pass handed on from the call judged for it is kept only with that call's own (else it is judged with it again)
    const keptIds = new Set(kept.map((k) => k.call.id));
    for (let i = kept.length - 1; i >= 0; i--) {
      const k = kept[i]!;
      const under = k.kept.verdicts.flatMap((v) => v.reasons.map((r) => /^\(as judged for (c-\d+):/.exec(r)?.[1]).filter((x) => !!x));
      if (under.some((id) => !keptIds.has(id!))) {
        kept.splice(i, 1);
        keptIds.delete(k.call.id);
      }
    }
    const textDigest = reportTextDigest(opts.text);
    const { byCall, requests, plan, rejudged, unconfirmed } = await modelVerdicts(
      calls.filter((c) => !keptIds.has(c.id)),
      calls.length,
      kept,
      view,
      claims,
      { claims: claimResults.map((c) => c.verdicts), upstream },
      judge,
      opts.specOf,
      opts.text,
      (from) => {
        const was = [...(opts.earlier ?? [])].reverse().find((e) => e.call === from)?.textDigest;
        return was === undefined ? undefined : was !== textDigest;
      },
    );
    for (const j of judgements) {
      j.reportTime.push(...(byCall.get(j.call) ?? []));
      j.basis = bases.get(j.call)!;
    }
    modelJudged = true;
    const standing = plan.judged.reduce((n, e) => n + e.standsFor.length, 0);
    audit =
      ` (${plan.judged.length} judged by the model in ${requests} request(s)${standing ? `, ${standing} identical or of a series under them` : ''}` +
      `${kept.length ? `, ${kept.length} kept from the audit of the earlier report${rejudged.length ? ` (${rejudged.length} of them judged anew)` : ''}${unconfirmed.length ? ` (${unconfirmed.length} of them not confirmed: the judge was unavailable)` : ''}` : ''}` +
      `${plan.referencesOnly.length ? `, ${plan.referencesOnly.length} with references only` : ''})`;
  } else {
    const why = !judge
      ? 'no judge model is configured'
      : !judge.provider.judges
        ? `provider ${judge.provider.name} does not judge`
        : 'the deterministic checks refused the report; the model audits the corrected one';
    if (judge?.provider.judges && refusedByTierOne) audit = ' (not sent to the model: the deterministic checks refused it)';
    for (const j of judgements) {
      j.reportTime.push(
        ...notJudged('tier2', rule, why, Object.keys(view.call(j.call)!.args)).map((v) => ({ ...v, tier: 'report' as const })),
      );
    }
  }

  const all = [...claimResults.flatMap((c) => c.verdicts), ...upstream, ...judgements.flatMap((j) => j.reportTime)];
  const level = claims.length === 0 ? 'fail' : worstLevel(all);
  const infraErrors = all.filter((v) => v.infraError).length;
  const fails = all.filter((v) => v.level === 'fail').length;
  const warns = all.filter((v) => v.level === 'warn').length;
  const summary =
    claims.length === 0
      ? 'the report states no claims: cite at least one artifact for each quantity it reports'
      : `${claims.length} claim(s), ${calls.length} contributing call(s)${audit}: ${fails} fail, ${warns} warn` +
        `${modelJudged || audit ? '' : ', model tiers not judged'}${infraErrors ? `, ${infraErrors} judge error(s) (failed open)` : ''}`;
  return {
    level,
    accepted: level === 'pass',
    claims: claimResults,
    upstream,
    calls: judgements,
    infraErrors,
    modelJudged,
    summary,
    textDigest: reportTextDigest(opts.text),
  };
}
