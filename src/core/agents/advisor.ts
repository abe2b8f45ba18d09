/**
 * The convergence advisor: a tool the supervisor calls on a failed run. It reads the
 * run's pw.x input, output and error text, diagnoses the failure, and returns structured
 * suggestions (parameter, value now, new value, reason), each mapped to the tool argument
 * that applies it. A deterministic rule table always answers; with a model, the advisor
 * model may add to it. Every suggestion then passes the accuracy check, which refuses
 * any that would make the result less accurate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS } from '../artifacts/contracts';
import { defineToolWith } from '../tools/defineTool';
import type { ProvenanceView } from '../provenance/view';
import type { LlmProvider } from '../llm/types';
import { screenSuggestions, type Suggestion } from './advice/accuracyCheck';
import { diagnose, ruleSuggestions, type Diagnosis } from './advice/adviceRules';
import { currentValueOf, failureEvidence, type FailureEvidence } from './advice/failureEvidence';
import type { PwInputValue } from '../artifacts/shapes';
import { inputRefOfRun } from '../tools/runPw';
import { cellMoved, continuableFailure, movement } from '../tools/relaxedStructure';
import type { Vec3 } from '../dft/types';

export const ADVICE_ARTIFACT = ARTIFACTS.convergenceAdvice.name;

/** pw.x variable → make_pw_input argument, where the input tool can set it. */
const TOOL_ARGUMENT: Record<string, string> = {
  mixing_beta: 'mixingBeta',
  degauss: 'degaussRy',
  ecutwfc: 'ecutwfcRy',
  ecutrho: 'ecutrhoRy',
  conv_thr: 'convThrRy',
  nspin: 'nspin',
  occupations: 'occupations',
  smearing: 'smearing',
  electron_maxstep: 'electronMaxstep',
  mixing_mode: 'mixingMode',
  diagonalization: 'diagonalization',
};

export interface AppliedSuggestion extends Suggestion {
  /** How to apply it: the tool, argument and value; absent when no tool argument sets it. */
  apply?: { tool: string; argument: string; value: unknown };
  /** Why it cannot be applied through a tool (the user may still set it by hand). */
  notApplicable?: string;
}

export interface AdviceValue {
  failedCall: string;
  diagnosis: Diagnosis;
  suggestions: AppliedSuggestion[];
  rejected: (Suggestion & { rejectedBecause: string })[];
  /** 'rules', or 'rules+model' when the advisor model contributed. */
  source: string;
  /** The failure came from outside the calculation: repeat it unchanged. */
  rerun?: boolean;
  /**
   * An interrupted relaxation that had moved the atoms: relax again from the last geometry
   * it reached (interrupted_geometry on this energy) instead of from the start.
   */
  continueFrom?: { energy: string; ionicSteps?: number };
}

/**
 * The provisional energy of a relaxation to continue from its last geometry: one whose atoms (or
 * cell) had moved when it was cut short (stopped, killed, out of wall time), or that ended at a
 * geometry only a continuation improves on (its ionic steps ran out; a vc-relax whose final SCF,
 * in the basis of the final cell, is above its thresholds).
 */
export function interruptedRelaxation(view: ProvenanceView, callId: string, d: Diagnosis): AdviceValue['continueFrom'] {
  const call = view.call(callId);
  const energy = call?.outputs.map((id) => view.artifact(id)).find((a) => a?.name === 'total_energy' && a.status === 'provisional');
  const meta = energy?.meta as { finalPositionsAngstrom?: number[][]; ionicSteps?: number; cellAngstrom?: unknown } | undefined;
  // cut short, or ended at a geometry only a continuation improves on (steps run out; a vc-relax's final SCF off in the new basis)
  if (d.kind !== 'killed' && d.kind !== 'walltime' && !continuableFailure(meta)) return undefined;
  const inputRef = inputRefOfRun(call);
  const input = inputRef ? (view.artifact(inputRef.split('.')[0]!)?.value as PwInputValue | undefined) : undefined;
  if (!energy || !meta?.finalPositionsAngstrom || !input?.structure || (input.calculation !== 'relax' && input.calculation !== 'vc-relax'))
    return undefined;
  const start = input.structure.positions;
  if (meta.finalPositionsAngstrom.length !== start.length) return undefined;
  // the same test interrupted_geometry applies: a free atom moved (fixed atoms do not count)
  const moved =
    movement(input.structure, meta.finalPositionsAngstrom as Vec3[]).maxFree > 0 || cellMoved(input.structure.cell, meta.cellAngstrom);
  return moved ? { energy: energy.id, ...(meta.ionicSteps !== undefined ? { ionicSteps: meta.ionicSteps } : {}) } : undefined;
}

/** A model that proposes suggestions from the same evidence (see modelAdvisor). */
export type SuggestionModel = (ev: FailureEvidence, d: Diagnosis, fromRules: Suggestion[]) => Promise<Suggestion[]>;

/** Map suggestions onto the input tool's arguments, given its schema. */
export function mapToInputTool(suggestions: Suggestion[], inputToolSchema: object, inputTool = 'make_pw_input'): AppliedSuggestion[] {
  const props = (inputToolSchema as { properties?: Record<string, unknown> }).properties ?? {};
  return suggestions.map((s) => {
    const magnetization = /^starting_magnetization\((\w+)\)$/.exec(s.parameter);
    if (magnetization && props.startingMagnetization) {
      return { ...s, apply: { tool: inputTool, argument: 'startingMagnetization', value: { [magnetization[1]!]: s.newValue } } };
    }
    const argument = TOOL_ARGUMENT[s.parameter];
    if (argument && props[argument]) return { ...s, apply: { tool: inputTool, argument, value: s.newValue } };
    if (s.parameter.startsWith('resources.'))
      return { ...s, notApplicable: 'a job resource: give it to run_pw as resources with a reason' };
    return {
      ...s,
      notApplicable: `${inputTool} has no argument for ${s.parameter} in this build; set it in the input by hand if you agree`,
    };
  });
}

export async function adviseOnEvidence(
  ev: FailureEvidence,
  failedCall: string,
  inputToolSchema: object,
  model?: SuggestionModel,
): Promise<AdviceValue> {
  const diagnosis = diagnose(ev);
  const fromRules = ruleSuggestions(ev, diagnosis);
  let proposed = fromRules;
  let source = 'rules';
  if (model) {
    try {
      const extra = await model(ev, diagnosis, fromRules);
      const known = new Set(fromRules.map((s) => s.parameter));
      // The model's word on the value now is not taken: the input says what it was.
      proposed = [
        ...fromRules,
        ...extra
          .filter((s) => !known.has(s.parameter))
          .map((s) => {
            const currentValue = currentValueOf(s.parameter, ev.input);
            const { currentValue: _claimed, ...rest } = s;
            return currentValue === undefined ? rest : { ...rest, currentValue };
          }),
      ];
      source = 'rules+model';
    } catch {
      source = 'rules (the advisor model did not answer)';
    }
  }
  const { accepted, rejected } = screenSuggestions(proposed, { elements: ev.input.elements });
  return {
    failedCall,
    diagnosis,
    suggestions: mapToInputTool(accepted, inputToolSchema),
    rejected,
    source,
    ...(diagnosis.kind === 'killed' ? { rerun: true } : {}),
  };
}

function readRunFile(runDir: string, location: string | undefined): string | undefined {
  if (!location) return undefined;
  const file = path.resolve(runDir, location);
  if (!file.startsWith(path.resolve(runDir) + path.sep)) return undefined;
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** The evidence of a failed run_pw call, from the provenance and the run's files. */
export function evidenceOfCall(
  view: ProvenanceView,
  callId: string,
  runDir: string,
  jobError?: (callId: string) => { error?: string; state?: string } | undefined,
): FailureEvidence {
  const call = view.call(callId);
  if (!call) throw new Error(`no tool call ${callId} in this run; give the id of the failed run_pw call (e.g. from the step summary).`);
  const inputRef = inputRefOfRun(call);
  const inputArtifact = inputRef ? view.artifact(inputRef.split('.')[0]!) : undefined;
  const input = inputArtifact?.value as PwInputValue | undefined;
  if (!input?.text) throw new Error(`${callId} (${call.tool}) has no pw.x input to read; the advisor reads failed run_pw calls.`);
  const output = call.outputs.map((id) => view.artifact(id)).find((a) => a?.name === 'pw_output');
  const job = jobError?.(callId);
  // pw.x's CRASH file beside the output (the job's directory, where the local and cluster runners leave it)
  const crash = output?.location ? readRunFile(runDir, path.join(path.dirname(output.location), 'CRASH')) : undefined;
  const ev = failureEvidence(input.text, readRunFile(runDir, output?.location), [call.error, job?.error], job?.state, crash);
  const s = input.structure;
  // A cell with atoms tagged as layers, or not periodic in some direction, has vacuum.
  ev.input.hasVacuum = !!s && (s.pbc?.some((p) => !p) || (s.tags?.some((t) => t > 0) ?? false));
  return ev;
}

export interface AdvisorServices {
  provenance: ProvenanceView;
  /** The job record of a run_pw call, for its error and state. */
  jobOfCall?: (callId: string) => { error?: string; state?: string } | undefined;
  /** The input tool's schema (make_pw_input), to map suggestions to its arguments. */
  inputToolSchema?: object;
  suggestionModel?: SuggestionModel;
}

export const consultAdvisorTool = defineToolWith<AdvisorServices>()({
  name: 'consult_convergence_advisor',
  description:
    'Diagnose a failed or unconverged pw.x run (a run_pw call) from its input, output and error text, and get suggestions ' +
    '(parameter, value now, new value, reason) with the tool argument that applies each. Suggestions that would lower ' +
    'accuracy (looser conv_thr, lower cutoff, coarser k) are refused and listed with the reason.',
  roles: ['supervisor', 'advisor'],
  input: {
    type: 'object',
    properties: { call: { type: 'string', pattern: '^c-[0-9]+$', description: 'The id of the failed run_pw call.' } },
    required: ['call'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.convergenceAdvice],
  parameterJudge: false,
  async run({ call }, ctx) {
    const services = ctx.services;
    const ev = evidenceOfCall(services.provenance, call, ctx.runDir, services.jobOfCall);
    const advice = await adviseOnEvidence(ev, call, services.inputToolSchema ?? {}, services.suggestionModel);
    const continueFrom = interruptedRelaxation(services.provenance, call, advice.diagnosis);
    if (continueFrom) advice.continueFrom = continueFrom;
    const record = services.provenance.call(call)!;
    const inputs = [
      record.args.input?.ref ?? String(record.args.input?.value),
      ...record.outputs.filter((id) => services.provenance.artifact(id)?.name === 'pw_output'),
    ].filter((r): r is string => !!r && /^a-\d+/.test(r));
    const lines = advice.suggestions.map(
      (s) =>
        `- ${s.parameter}: ${JSON.stringify(s.currentValue)} → ${JSON.stringify(s.newValue)} (${s.reason})${s.apply ? ` [${s.apply.tool}.${s.apply.argument}]` : ` [${s.notApplicable}]`}`,
    );
    const refused = advice.rejected.map((s) => `- refused ${s.parameter} → ${JSON.stringify(s.newValue)}: ${s.rejectedBecause}`);
    if (continueFrom) {
      lines.push(
        `- continue the relaxation from the last geometry it reached${continueFrom.ionicSteps !== undefined ? ` (geometry ${continueFrom.ionicSteps})` : ''}, not from the start: ` +
          `interrupted_geometry on ${continueFrom.energy}, then the same make_pw_input with that structure`,
      );
    }
    return {
      artifacts: [ctx.artifact(ARTIFACTS.convergenceAdvice, { value: advice, inputs })],
      summary: [
        `${call}: ${advice.diagnosis.finding}`,
        ...(lines.length
          ? lines
          : [
              advice.rerun
                ? '- repeat the run unchanged (modify the step that ran it so it runs again)'
                : '- no change the advisor can suggest; ask the user',
            ]),
        ...refused,
      ].join('\n'),
    };
  },
});

/** An advisor model: proposes suggestions through a forced tool, from the same evidence as the rules. */
export function modelAdvisor(provider: LlmProvider, model: string, signal?: AbortSignal): SuggestionModel {
  return async (ev, d, fromRules) => {
    const tool = {
      name: 'record_suggestions',
      description: 'Record parameter changes for the failed pw.x run.',
      inputSchema: {
        type: 'object',
        properties: {
          suggestions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { parameter: { type: 'string' }, newValue: {}, reason: { type: 'string' } },
              required: ['parameter', 'newValue', 'reason'],
            },
          },
        },
        required: ['suggestions'],
      },
    };
    const history = (ev.output?.scfCycles.at(-1)?.iterations ?? [])
      .map((i) => i.estimatedAccuracyRy)
      .filter((a) => a !== undefined)
      .slice(-20);
    const res = await provider.complete(
      {
        role: 'advisor',
        category: 'advise',
        model,
        maxTokens: 4096,
        system: [
          {
            text: 'You are the convergence advisor of a DFT workflow (Quantum ESPRESSO pw.x). Suggest pw.x parameter changes that make a failed run succeed without lowering accuracy: never a looser conv_thr, a lower cutoff or coarser k-points. Answer by calling record_suggestions.',
            cache: true,
          },
        ],
        tools: [tool],
        cacheTools: true,
        toolChoice: { type: 'tool', name: tool.name },
        messages: [
          {
            role: 'user',
            content: [
              `Diagnosis: ${d.finding}`,
              `Error text: ${ev.errorText || '(none)'}`,
              `Input settings: ${JSON.stringify(ev.input)}`,
              `SCF accuracy history (Ry): ${history.join(', ') || '(none)'}`,
              `Rule-table suggestions: ${JSON.stringify(fromRules)}`,
              'Add suggestions the table missed (use pw.x variable names), or none.',
            ].join('\n'),
          },
        ],
      },
      signal ? { signal } : {},
    );
    const use = res.content.find((b) => b.type === 'tool_use' && b.name === tool.name);
    if (!use || use.type !== 'tool_use' || use.inputError) throw new Error('the advisor model did not record suggestions');
    const list = (use.input as { suggestions?: unknown }).suggestions;
    return Array.isArray(list)
      ? list.filter(
          (s): s is Suggestion => !!s && typeof (s as Suggestion).parameter === 'string' && typeof (s as Suggestion).reason === 'string',
        )
      : [];
  };
}
