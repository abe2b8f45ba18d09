/**
 * The offline provider: an LlmProvider with no model behind it. It answers the same agent
 * loop as a model would, deterministically from the run's state: a worker gets the next
 * tool use of its running step (the template's hints resolved to artifact references,
 * with the template's per-parameter reasons), the supervisor reviews the template's plan,
 * replans a failed pw.x run from the convergence advisor's rule table, and writes the
 * response from the report. Every call goes through the same registry and guard; the
 * judge tiers record "not judged" because this provider does not judge.
 */
import {
  LlmError,
  type ContentBlock,
  type LlmMessage,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type ToolResultBlock,
  type ToolUseBlock,
} from '../llm/types';
import type { ProvenanceView } from '../provenance/view';
import { latestReportVerdict } from '../guard/reportVerdicts';
import { ADVICE_ARTIFACT, type AdviceValue } from './advisor';
import type { Objective } from '../workflows/objective';
import { assessStep, failedCallOf, pendingStepCalls, type StepContext } from '../plan/stepArguments';
import { EDIT_PLAN, START_WORKFLOW } from './supervisorTools';
import { extensionRefusal, extensionsSoFar, sweepExtensionEdits } from './sweepExtension';
import { ARTIFACT, type ConvergenceSelectionValue } from '../artifacts/shapes';
import { describeCriterion, judgesPressure } from '../dft/convergence';
import type { Plan, PlanStep } from '../plan/types';
import type { ToolCallRecord } from '../provenance/types';

export const OFFLINE_MODEL = 'offline';

/** What the offline provider reads: the run's state, never the conversation's prose. */
export interface OfflineView {
  plan(): Plan | undefined;
  stepContext(): StepContext;
  toolSchema(tool: string): object | undefined;
  objective: Objective;
  provenance: ProvenanceView;
}

const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

function lastToolResults(messages: LlmMessage[]): ToolResultBlock[] {
  const last = messages.at(-1);
  if (!last || last.role !== 'user' || typeof last.content === 'string') return [];
  return last.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

function toolUsesSoFar(messages: LlmMessage[]): ToolUseBlock[] {
  return messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content !== 'string' ? m.content.filter((b): b is ToolUseBlock => b.type === 'tool_use') : [],
  );
}

/** The nearest step upstream of `step` that writes the pw.x input its runs use. */
export function inputStepOf(plan: Plan, step: PlanStep): PlanStep | undefined {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const queue = [...(step.dependsOn ?? [])];
  const seen = new Set<string>();
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const s = byId.get(id);
    if (!s) continue;
    if (s.tool === 'make_pw_input') return s;
    queue.push(...(s.dependsOn ?? []));
  }
  return undefined;
}

const NO_GAP_QUANTITIES = new Set(['band_gap', 'direct_gap']);

/**
 * A band_gap step the guard refused because the bands of a smeared run cross the Fermi level
 * (no-gap-from-metal: a metal, or a half-metal with one spin channel gapped): the band structure
 * is the result, so the gap step goes and the report step reports the bands without a gap (its
 * text says metal or half-metal). Undefined for any other refusal, and for fixed occupations,
 * where a metal means the SCF itself was wrong and the run should stop.
 */
export function noGapEdits(plan: Plan, failed: PlanStep, call: ToolCallRecord, provenance: ProvenanceView): object[] | undefined {
  const refusal = call.verdicts.find((v) => v.level === 'fail' && v.rule.split('@')[0] === 'no-gap-from-metal');
  if (!refusal || call.status !== 'refused') return undefined;
  const arg = call.args.bands;
  const bandsRef = arg?.ref ?? (typeof arg?.value === 'string' ? arg.value : undefined);
  const bands = bandsRef ? (provenance.artifact(bandsRef)?.value as { occupations?: string } | undefined) : undefined;
  if (!bands || bands.occupations === 'fixed') return undefined;
  const users = plan.steps.filter((s) => (s.dependsOn ?? []).includes(failed.id));
  if (users.some((s) => s.tool !== 'write_report')) return undefined;
  const why = `${call.id} band_gap was refused by no-gap-from-metal: ${refusal.reasons.join(' ')}`;
  return [
    ...users.map((s) => ({
      op: 'modify',
      id: s.id,
      changes: {
        title: `${s.title.replace(/ the band gap and/, ' the band structure and')} (no gap of the crystal to claim)`,
        dependsOn: [...new Set([...(s.dependsOn ?? []).filter((d) => d !== failed.id), ...(failed.dependsOn ?? [])])],
        ...(s.reportQuantities ? { reportQuantities: s.reportQuantities.filter((q) => !NO_GAP_QUANTITIES.has(q)) } : {}),
        reasons: { text: `the band structure, and why no gap is claimed (${call.id} refused: no gap of the crystal)` },
      },
      reason: `report the band structure without a gap: ${call.id} found no gap of the crystal to claim`,
    })),
    { op: 'delete', id: failed.id, reason: why.slice(0, 900) },
  ];
}

export class OfflineProvider implements LlmProvider {
  readonly name = 'offline';
  readonly judges = false;
  #uses = 0;

  constructor(private readonly view: () => OfflineView) {}

  async complete(req: LlmRequest): Promise<LlmResponse> {
    const view = this.view();
    if (req.role === 'supervisor')
      return req.category === 'summarise' ? this.reply([this.text(this.response(view))]) : this.supervise(req, view);
    if (req.role === 'dft' || req.role === 'hpc') return this.work(req, view);
    throw new LlmError(
      'bad-request',
      `the offline provider answers the supervisor and the workers, not the ${req.role} role; with no model, ${req.role} is recorded as not judged or answered by rules.`,
    );
  }

  private reply(content: ContentBlock[]): LlmResponse {
    return {
      content,
      stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      usage: { ...zero },
      model: OFFLINE_MODEL,
      attempts: 1,
    };
  }

  private text(text: string): ContentBlock {
    return { type: 'text', text };
  }

  private use(name: string, input: unknown): ToolUseBlock {
    return { type: 'tool_use', id: `toolu_offline_${++this.#uses}`, name, input };
  }

  private work(req: LlmRequest, view: OfflineView): LlmResponse {
    const plan = view.plan();
    // Steps can run side by side: the request names its step (else the one running step).
    const step = req.step
      ? plan?.steps.find((s) => s.id === req.step && s.status === 'running')
      : plan?.steps.find((s) => s.status === 'running');
    if (!step) return this.reply([this.text('No step is running, so there is nothing to do.')]);
    const errors = lastToolResults(req.messages).filter((r) => r.isError);
    if (errors.length)
      return this.reply([this.text(`Step ${step.id} could not be completed: ${errors.map((e) => e.content).join(' | ')}`)]);
    const schema = view.toolSchema(step.tool);
    if (!schema) return this.reply([this.text(`Step ${step.id} names the tool ${step.tool}, which is not in the catalogue.`)]);
    const ctx = view.stepContext();
    const state = assessStep(step, schema, ctx);
    if (state.state === 'done') {
      const results = req.messages.flatMap((m) =>
        m.role === 'user' && typeof m.content !== 'string' ? m.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : [],
      );
      const said = results.map((r) => r.content.split('\n')[0]).join('; ');
      return this.reply([
        this.text(`Step ${step.id} done: ${said || `${step.tool} succeeded (${state.calls.join(', ')})`}`.slice(0, 1200)),
      ]);
    }
    if (state.state === 'failed') return this.reply([this.text(`Step ${step.id} failed: ${state.reason}`)]);
    const pending = pendingStepCalls(step, schema, ctx);
    if (!pending.ok) return this.reply([this.text(`Step ${step.id} cannot run yet: ${pending.problem}`)]);
    if (!pending.calls.length) return this.reply([this.text(`Step ${step.id}: every call has been made.`)]);
    return this.reply(pending.calls.map((c) => this.use(step.tool, c)));
  }

  private supervise(req: LlmRequest, view: OfflineView): LlmResponse {
    const plan = view.plan();
    const results = lastToolResults(req.messages);
    if (results.length && toolUsesSoFar(req.messages).at(-1)?.name === EDIT_PLAN) {
      const refused = results.filter((r) => r.isError);
      return this.reply([
        this.text(
          refused.length
            ? `The plan edit was refused: ${refused.map((r) => r.content).join(' | ')}. The run stops here.`
            : `Replanned: ${results.map((r) => r.content).join(' ')}`,
        ),
      ]);
    }
    const failed = plan?.steps.find((s) => s.status === 'failed');
    if (plan && failed) return this.replan(req, view, plan, failed);
    if ((!plan || plan.steps.length === 0) && results.length === 0) {
      const o = view.objective;
      if (o.workflow && o.inputs) return this.reply([this.use(START_WORKFLOW, { workflow: o.workflow, inputs: o.inputs })]);
      return this.reply([
        this.text(
          `Offline runs follow a built-in workflow, and "${o.text}" names none. Use an objective file that names a workflow (see examples/), or run with a model.`,
        ),
      ]);
    }
    if (results.some((r) => r.isError))
      return this.reply([this.text(`The plan could not be made: ${results.map((r) => r.content).join(' | ')}`)]);
    const p = view.plan();
    return this.reply([
      this.text(
        p
          ? `The plan follows ${p.workflow ? `the ${p.workflow} template` : 'the objective'}: ${p.steps.length} steps, run as planned.`
          : 'There is no plan.',
      ),
    ]);
  }

  private replan(req: LlmRequest, view: OfflineView, plan: Plan, failed: PlanStep): LlmResponse {
    const ctx = view.stepContext();
    const call = failedCallOf(failed, ctx);
    const uses = toolUsesSoFar(req.messages);
    const results = lastToolResults(req.messages);
    const lastUse = uses.at(-1);
    if (!lastUse && call?.tool === 'select_converged_settings') return this.extendSweep(view, plan, failed, call.outputs);
    if (!lastUse && call?.tool === 'band_gap') {
      const edits = noGapEdits(plan, failed, call, view.provenance);
      if (edits) return this.reply(edits.map((e) => this.use(EDIT_PLAN, e)));
    }
    if (!lastUse) {
      if (!call || call.tool !== 'run_pw') {
        return this.reply([
          this.text(
            `Step ${failed.id} failed without a pw.x run to diagnose${call ? ` (${call.id} ${call.tool})` : ''}; the offline planner cannot fix it. The run stops here.`,
          ),
        ]);
      }
      return this.reply([
        this.use('consult_convergence_advisor', {
          arguments: { call: call.id },
          reasons: { call: `the failed run of step ${failed.id}` },
          context: `replanning step ${failed.id}`,
        }),
      ]);
    }
    if (results.some((r) => r.isError))
      return this.reply([
        this.text(`Replanning step ${failed.id} failed: ${results.map((r) => r.content).join(' | ')}. The run stops here.`),
      ]);
    const advice = [...view.provenance.artifacts()]
      .reverse()
      .find((a) => a.name === ADVICE_ARTIFACT && (a.value as AdviceValue).failedCall === call?.id);
    const value = advice?.value as AdviceValue | undefined;
    const restartFrom = value?.continueFrom ? inputStepOf(plan, failed) : undefined;
    if (advice && value?.continueFrom && restartFrom) {
      // Relax again from where the interrupted run stopped: a step takes its last geometry,
      // and the input step is made again from it (so it and the run step run again).
      const { energy, ionicSteps } = value.continueFrom;
      const id = `${restartFrom.id}-from-${call!.id}`;
      const at = plan.steps.findIndex((s) => s.id === restartFrom.id);
      const why = `${call!.id} was interrupted${ionicSteps !== undefined ? ` at geometry ${ionicSteps}` : ''} (${advice.id}: ${value.diagnosis.finding})`;
      return this.reply([
        this.use(EDIT_PLAN, {
          op: 'insert',
          ...(at > 0 ? { after: plan.steps[at - 1]!.id } : {}),
          step: {
            id,
            title: `Last geometry of the interrupted ${call!.id}`,
            worker: 'dft',
            tool: 'interrupted_geometry',
            args: { relaxation: energy },
            reasons: { relaxation: `${why}: continue the relaxation from the last geometry it reached` },
          },
          reason: `continue ${failed.id} from where ${call!.id} stopped instead of from the start`,
        }),
        this.use(EDIT_PLAN, {
          op: 'modify',
          id: restartFrom.id,
          changes: {
            args: { ...(restartFrom.args ?? {}), structure: `$step.${id}.${ARTIFACT.restartStructure}` },
            reasons: {
              ...(restartFrom.reasons ?? {}),
              structure: `the last geometry of ${call!.id}, which was interrupted: the ionic steps it made are not redone`,
            },
            dependsOn: [...new Set([...(restartFrom.dependsOn ?? []), id])],
          },
          reason: `relax from the last geometry of ${call!.id}: ${value.diagnosis.finding}`,
        }),
      ]);
    }
    if (advice && value?.rerun) {
      return this.reply([
        this.use(EDIT_PLAN, {
          op: 'modify',
          id: failed.id,
          changes: {
            reasons: {
              ...(failed.reasons ?? {}),
              rerun: `${call!.id} was stopped from outside (${advice.id}): run the remaining items again`,
            },
          },
          reason: `rerun step ${failed.id}: ${value.diagnosis.finding}`,
        }),
      ]);
    }
    const applicable = (value?.suggestions ?? []).filter((s) => s.apply?.tool === 'make_pw_input');
    const inputStep = inputStepOf(plan, failed);
    if (!advice || !value || !applicable.length || !inputStep) {
      const why = !value
        ? 'the advisor gave no advice'
        : !applicable.length
          ? `the advisor found "${value.diagnosis.finding}" but no change the input tool can make`
          : `no step upstream of ${failed.id} writes its input`;
      return this.reply([this.text(`Step ${failed.id} cannot be fixed offline: ${why}. The run stops here.`)]);
    }
    // modify merges: only the arguments named change, null removes one (plan/edits.ts)
    const args: Record<string, unknown> = {};
    const reasons: Record<string, string | null> = {};
    for (const s of applicable) {
      const { argument, value: v } = s.apply!;
      args[argument] =
        argument === 'startingMagnetization'
          ? { ...((inputStep.args?.[argument] as object) ?? {}), ...((args[argument] as object) ?? {}), ...(v as object) }
          : v;
      reasons[argument] = `convergence advisor ${advice.id}: ${s.reason}`;
      if (argument === 'nspin' && v === 1) {
        args.startingMagnetization = null;
        reasons.startingMagnetization = null;
      }
    }
    return this.reply([
      this.use(EDIT_PLAN, {
        op: 'modify',
        id: inputStep.id,
        changes: { args, reasons },
        reason: `apply ${advice.id} (${applicable.map((s) => `${s.parameter} → ${JSON.stringify(s.newValue)}`).join(', ')}) after ${call!.id} failed: ${value.diagnosis.finding}`,
      }),
    ]);
  }

  /** A selection that found no converged value: extend its sweep past the finest value. */
  private extendSweep(view: OfflineView, plan: Plan, failed: PlanStep, outputs: string[]): LlmResponse {
    const sel = outputs.map((id) => view.provenance.artifact(id)).find((a) => a?.name === 'converged_settings');
    const value = sel?.value as ConvergenceSelectionValue | undefined;
    const refused = value && !value.converged ? extensionRefusal(value, extensionsSoFar(failed)) : undefined;
    if (refused)
      return this.reply([
        this.text(`Step ${failed.id} failed (${sel!.id} shows no converged ${value!.parameter}) and ${refused} The run stops here.`),
      ]);
    const within = toleranceText(value);
    const edits =
      value && !value.converged
        ? sweepExtensionEdits(plan, failed, value, `no tested value was within ${within} of the finest (${sel!.id})`)
        : undefined;
    if (!edits) return this.reply([this.text(`Step ${failed.id} failed and its sweep cannot be extended offline. The run stops here.`)]);
    return this.reply(
      edits.map((e) => this.use(EDIT_PLAN, { ...e, reason: `extend the sweep: ${sel!.id} shows no converged ${value!.parameter}` })),
    );
  }

  private response(view: OfflineView): string {
    const events = view.stepContext().events;
    const judged = latestReportVerdict(events);
    const report = judged?.report ? view.provenance.artifact(judged.report) : undefined;
    const claims = (
      (report?.value as { claims?: { statement?: string; quantity: string; value: number; unit: string; cites: string }[] } | undefined)
        ?.claims ?? []
    ).map((c) => `${c.statement ?? `${c.quantity} = ${c.value} ${c.unit}`} (${c.cites})`);
    const title = (report?.value as { title?: string } | undefined)?.title ?? view.objective.text;
    if (!judged) return `${title}: the plan is done; no report was written.`;
    const verdict = judged.accepted
      ? 'accepted'
      : judged.level === 'warn'
        ? 'holds back (it needs review: answer the open approvals, then judge it again with dreams report --rejudge)'
        : 'did not accept';
    return `${title}: ${claims.join('; ')}. The report judge ${verdict} report ${judged.report} (${judged.summary}).`;
  }
}

/** A selection's tolerances in words: "1 meV/atom", "0.05 % of a and 1 meV/atom", "5 meV/atom and within 0.02 μB/atom in the magnetization". */
function toleranceText(value: ConvergenceSelectionValue | undefined): string {
  const c = value?.criterion;
  if (
    c &&
    (c.toleranceMomentMuBPerAtom !== undefined ||
      c.toleranceGapEv !== undefined ||
      c.toleranceForceEvPerAngstrom !== undefined ||
      c.kind === 'moment' ||
      c.kind === 'gap' ||
      c.kind === 'force')
  )
    return describeCriterion(c).replace(/^within /, '');
  if (c && judgesPressure(c.kind))
    return `${c.toleranceLatticePercent} % of a${c.kind === 'both' ? ` and ${value!.toleranceMevPerAtom} meV/atom` : ''}`;
  return `${value?.toleranceMevPerAtom} meV/atom`;
}
