/**
 * The tool registry: per role, the tool definitions a model sees (each tool's schema
 * wrapped as {arguments, references, reasons, context}), and the route from a model's
 * tool use through the guarded call to a tool result. After a report is written, the
 * report judge audits it (given the run's earlier judgements, so that a corrected report
 * keeps the verdicts of calls unchanged since) and its judgement is recorded.
 */
import { type AgentRole, eventsOf } from '../canvas/types';
import { guardedCall, type GuardContext } from '../guard/guardedCall';
import type { GuardedToolSpec } from '../guard/toolSpec';
import type { JudgeToolInfo } from '../guard/judges/judgePrompt';
import type { EventLogPort } from '../guard/approvals';
import { judgeReport, type ReportJudgement } from '../guard/reportJudge';
import type { ReportClaim } from '../guard/claimChecks';
import { REFERENCES_FIELD } from '../guard/referenceRule';
import { REF_REGEX_SOURCE, stripAnnotations } from '../guard/schemaAnnotations';
import type { GuardedOutcome, ProposedCall } from '../guard/types';
import type { LlmToolDef, ToolResultBlock, ToolUseBlock } from '../llm/types';
import { TOOL_CATALOGUE } from '../tools';

export interface WrappedInput {
  arguments: Record<string, unknown>;
  references?: Record<string, string>;
  reasons: Record<string, string>;
  context: string;
}

export interface RegistryCallResult {
  outcome: GuardedOutcome | { status: 'invalid'; message: string };
  toolResult: ToolResultBlock;
  /** Present after write_report: the report judge's audit. */
  report?: ReportJudgement;
}

export interface RegistryContext extends GuardContext {
  /** Where the report judgement is recorded ('report.judged'). */
  events?: EventLogPort;
}

function wrapSchema(spec: GuardedToolSpec): object {
  return {
    type: 'object',
    properties: {
      arguments: stripAnnotations(spec.schema),
      references: {
        type: 'object',
        description: REFERENCES_FIELD,
        additionalProperties: { type: 'string', pattern: REF_REGEX_SOURCE },
      },
      reasons: { type: 'object', description: 'For each argument: why this value.', additionalProperties: { type: 'string' } },
      context: { type: 'string', description: 'The plan step and goal this call serves.' },
    },
    required: ['arguments', 'reasons', 'context'],
    additionalProperties: false,
  };
}

/** What every worker keeps whatever its step: reading the run's shared memory. */
const ALWAYS_OFFERED = ['canvas_read'];

const WRAPPER_FIELDS = ['arguments', 'references', 'reasons', 'context'];

/** What is wrong with a tool use's wrapper, or undefined: the fields the call format requires, and no others. */
function wrapperProblem(tool: string, input: unknown): string | undefined {
  const form = `{"arguments": {...}, "references": {...}, "reasons": {...}, "context": "step <id>: ..."}`;
  if (!input || typeof input !== 'object' || Array.isArray(input)) return `${tool}: send the call as one JSON object ${form}.`;
  const given = input as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => !WRAPPER_FIELDS.includes(k));
  if (unknown.length)
    return `${tool}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} beside arguments, references, reasons and context: put the tool's own arguments inside "arguments" (${form}).`;
  if (!given.arguments || typeof given.arguments !== 'object' || Array.isArray(given.arguments))
    return `${tool}: the tool's arguments go in "arguments", an object (${form}).`;
  if (typeof given.context !== 'string' || !given.context.trim())
    return `${tool}: "context" is missing: say, inside the call's input, which plan step and goal the call serves ("step eos-input: the production input"); the judges read it.`;
  if (!given.reasons || typeof given.reasons !== 'object' || Array.isArray(given.reasons))
    return `${tool}: "reasons" is missing: give, inside the call's input, a reason for each argument ({"<argument>": "why this value"}); the judges read them.`;
  if (
    given.references !== undefined &&
    (typeof given.references !== 'object' || Array.isArray(given.references) || given.references === null)
  )
    return `${tool}: "references" must be an object {"<argument>": "a-<n>[.<path>]"}.`;
  return undefined;
}

export class ToolRegistry {
  private readonly byName: Map<string, GuardedToolSpec>;

  constructor(specs: readonly GuardedToolSpec[] = TOOL_CATALOGUE) {
    this.byName = new Map(specs.map((s) => [s.name, s]));
  }

  get(name: string): GuardedToolSpec | undefined {
    return this.byName.get(name);
  }

  all(): GuardedToolSpec[] {
    return [...this.byName.values()];
  }

  forRole(role: AgentRole): GuardedToolSpec[] {
    return this.all().filter((s) => s.roles.includes(role));
  }

  /**
   * The tools a model in this role is offered: every tool of the role; given the plan, only those
   * its steps for this role name; given a step, only that step's tool. The canvas read always comes
   * along. A worker building a structure is not shown the input, sweep, fit and report tools (a
   * quarter of its prompt), and steps of one tool share their list as a cached prefix.
   */
  definitionsFor(
    role: AgentRole,
    opts: { plan?: { steps: readonly { worker: string; tool: string }[] }; step?: { tool: string } } = {},
  ): LlmToolDef[] {
    const planned = opts.step
      ? new Set([...ALWAYS_OFFERED, opts.step.tool])
      : opts.plan
        ? new Set([...ALWAYS_OFFERED, ...opts.plan.steps.filter((s) => s.worker === role).map((s) => s.tool)])
        : undefined;
    return this.forRole(role)
      .filter((s) => !planned || planned.has(s.name))
      .map((s) => ({ name: s.name, description: s.description, inputSchema: wrapSchema(s) }));
  }

  /** The catalogue as the judges see it in their cached system prefix. */
  judgeCatalogue(): JudgeToolInfo[] {
    return this.all()
      .filter((s) => s.parameterJudge !== false || s.crossParameterJudge)
      .map((s) => {
        const props = (s.schema as { properties?: Record<string, { description?: string }> }).properties ?? {};
        const parameters: JudgeToolInfo['parameters'] = {};
        for (const [p, schema] of Object.entries(props)) {
          parameters[p] = {
            ...(schema.description ? { description: schema.description } : {}),
            ...(s.parameterNotes?.[p] ? { note: s.parameterNotes[p] } : {}),
          };
        }
        return { name: s.name, description: s.description, parameters };
      });
  }

  /** A model's tool use as a proposed call, or the error the model should correct. */
  parse(
    use: ToolUseBlock,
    role: AgentRole,
    model?: string,
    step?: string,
  ): { ok: true; proposed: ProposedCall; spec: GuardedToolSpec } | { ok: false; message: string } {
    const spec = this.byName.get(use.name);
    if (!spec)
      return {
        ok: false,
        message: `unknown tool "${use.name}". Tools available to ${role}: ${this.forRole(role)
          .map((s) => s.name)
          .join(', ')}.`,
      };
    if (!spec.roles.includes(role)) {
      return { ok: false, message: `tool ${use.name} is not available to the ${role} agent; it belongs to ${spec.roles.join(', ')}.` };
    }
    if (use.inputError)
      return {
        ok: false,
        message: `the input to ${use.name} was not valid JSON (${use.inputError}). Send {arguments, references, reasons, context} as one JSON object.`,
      };
    const problem = wrapperProblem(use.name, use.input);
    if (problem) return { ok: false, message: problem };
    const input = use.input as WrappedInput;
    return {
      ok: true,
      spec,
      proposed: {
        tool: use.name,
        args: input.arguments,
        refs: input.references ?? {},
        reasons: input.reasons,
        context: input.context,
        agent: { role, ...(model ? { model } : {}) },
        ...(step ? { step } : {}),
      },
    };
  }

  /** Route a tool use through the guard. The result block is what goes back to the model. */
  async call(
    use: ToolUseBlock,
    role: AgentRole,
    ctx: RegistryContext,
    opts: { model?: string; step?: string } = {},
  ): Promise<RegistryCallResult> {
    const parsed = this.parse(use, role, opts.model, opts.step);
    if (!parsed.ok) {
      return {
        outcome: { status: 'invalid', message: parsed.message },
        toolResult: { type: 'tool_result', toolUseId: use.id, content: parsed.message, isError: true },
      };
    }
    const outcome = await this.callProposed(parsed.spec, parsed.proposed, ctx);
    let report: ReportJudgement | undefined;
    let content: string;
    switch (outcome.status) {
      case 'ok':
        content = outcome.summary;
        break;
      case 'refused':
        content = outcome.message;
        break;
      case 'rejected':
        content = outcome.message;
        break;
      case 'failed':
        content = `${use.name} failed: ${outcome.error}`;
        break;
    }
    if (outcome.status === 'ok' && parsed.spec.name === 'write_report') {
      report = await this.judgeWrittenReport(parsed.proposed.args.claims as ReportClaim[], outcome.call, outcome.outputs[0], ctx);
      content +=
        `\nReport judge: ${report.accepted ? 'accepted' : report.level === 'warn' ? 'needs review' : 'not accepted'} (${report.summary}).` +
        (report.accepted ? '' : `\n${reportProblems(report)}`);
    }
    return {
      outcome,
      toolResult: { type: 'tool_result', toolUseId: use.id, content, isError: outcome.status !== 'ok' },
      ...(report ? { report } : {}),
    };
  }

  /** The guarded call for an already-proposed call (the offline provider and the CLI use this too). */
  callProposed(spec: GuardedToolSpec, proposed: ProposedCall, ctx: GuardContext): Promise<GuardedOutcome> {
    const judge = ctx.judge && ctx.judge.catalogue.length === 0 ? { ...ctx.judge, catalogue: this.judgeCatalogue() } : ctx.judge;
    return guardedCall(spec, proposed, { ...ctx, ...(judge ? { judge } : {}) });
  }

  async judgeWrittenReport(
    claims: ReportClaim[],
    call: string,
    report: string | undefined,
    ctx: RegistryContext,
  ): Promise<ReportJudgement> {
    const judge = ctx.judge && ctx.judge.catalogue.length === 0 ? { ...ctx.judge, catalogue: this.judgeCatalogue() } : ctx.judge;
    const text = ctx.provenance.call(call)?.args.text?.value;
    // the run's earlier judgements: a corrected report keeps the passes of calls unchanged since
    const earlier = eventsOf(ctx.events?.events() ?? [], 'report.judged').map((e) => e.payload);
    const judgement = await judgeReport(claims, {
      ...(typeof text === 'string' ? { text } : {}),
      earlier,
      provenance: ctx.provenance,
      approvals: ctx.approvals,
      specOf: (t) => this.get(t),
      ...(judge ? { judge } : {}),
    });
    await ctx.events?.append({
      kind: 'report.judged',
      key: report ? `reports/${report}` : undefined,
      actor: { kind: 'judge', id: 'report-judge' },
      payload: { call, report, ...judgement },
    });
    return judgement;
  }
}

function reportProblems(j: ReportJudgement): string {
  const all = [
    ...j.claims.flatMap((c) => c.verdicts),
    ...j.upstream,
    ...j.calls.flatMap((c) => c.reportTime.map((v) => ({ ...v, parameter: `${c.call}.${v.parameter ?? ''}` }))),
  ];
  return all
    .filter((v) => v.level !== 'pass')
    .map((v) => `- [${v.rule}${v.parameter ? ` · ${v.parameter}` : ''}] ${v.reasons.join(' ')}`)
    .join('\n');
}
