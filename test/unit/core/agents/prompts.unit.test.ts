// What the agents are told: a worker's planned call in full, earlier steps once each, a failed
// step from every side (tool, worker, suggestion), open approvals in the final round, and only
// the tools a plan needs.
import assert from 'node:assert/strict';
import { stepBrief } from '../../../../src/core/agents/prompts/stepBrief';
import {
  clipAtSentence,
  compactSummary,
  earlierSteps,
  planRoundMessage,
  replanMessage,
  responseMessage,
} from '../../../../src/core/agents/prompts/supervisor';
import { objectiveReading } from '../../../../src/core/agents/supervisor';
import { stepFailure } from '../../../../src/core/agents/stepFailure';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { RunProvenance, StepContext } from '../../../../src/core/plan/stepArguments';
import { STEP_START_EVENT } from '../../../../src/core/plan/stepRecords';
import type { Plan, PlanStep } from '../../../../src/core/plan/types';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../../../src/core/provenance/types';
import { workflowTemplates } from '../../../../src/core/workflows';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';

const registry = new ToolRegistry();
const event = (seq: number, kind: string, payload: unknown) =>
  ({ seq, ts: '2026-12-03T00:00:00.000Z', kind, payload }) as unknown as CanvasEvent;

function latticePlan(status: Record<string, PlanStep['status']> = {}, summaries: Record<string, string> = {}): Plan {
  const { steps } = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05 }, {});
  return {
    objective: 'a(Al)',
    workflow: 'lattice-constant',
    version: 7,
    steps: steps.map((s) => ({ ...s, status: status[s.id] ?? 'pending', ...(summaries[s.id] ? { summary: summaries[s.id] } : {}) })),
  };
}

describe('agent prompts', () => {
  it('hands the worker its planned call in full, as the input to send: a long report text and its claims are not cut', () => {
    const text = `Lattice constant of fcc Al. ${'The cutoff sweep ran at 20, 30, 40 and 50 Ry. '.repeat(60)}B0' = 4.70 from the fit.`;
    const claims = Array.from({ length: 5 }, (_, i) => ({
      quantity: `q${i}`,
      value: 3.9557 + i,
      unit: 'Å',
      cites: `a-${50 + i}`,
      statement: `claim ${i} citing a-${50 + i}`,
    }));
    const step: PlanStep = {
      id: 'report',
      title: 'Report',
      worker: 'dft',
      tool: 'write_report',
      status: 'running',
      reportQuantities: ['lattice_constant'],
    };
    const call = {
      arguments: { title: 'a(Al)', text, claims },
      references: {},
      reasons: { title: 't', text: 'the result', claims: 'one per number' },
      context: 'step report: Report',
    };
    const brief = stepBrief({
      objective: 'a(Al)',
      step,
      index: 19,
      total: 19,
      calls: { ok: true, calls: [call] },
      ctx: { events: [], provenance: { calls: () => [] } as unknown as RunProvenance, settings: {} },
      plan: latticePlan(),
    });
    const line = brief.split('\n').find((l) => l.startsWith('{"arguments"'))!;
    assert.deepEqual(JSON.parse(line), { arguments: call.arguments, reasons: call.reasons, context: call.context });
    assert.ok(brief.includes("B0' = 4.70 from the fit."), 'the end of the text arrives');
    assert.doesNotMatch(brief, /\.\.\.|…/);
  });

  it('lists each earlier step once, in its latest state, cut at a sentence end', () => {
    const long = `${'job dreams-7bceced1-c-5 completed: E = -56.97 eV (Al, 1 atom). '.repeat(12)}The end.`;
    const plan = latticePlan(
      { structure: 'done', pseudopotentials: 'done', 'cutoff-input': 'failed' },
      { structure: 'built a-1', pseudopotentials: long, 'cutoff-input': 'refused twice' },
    );
    const lines = earlierSteps(plan);
    assert.deepEqual(
      lines.map((l) => l.trim().split(':')[0]),
      ['structure done', 'pseudopotentials done', 'cutoff-input FAILED'],
    );
    assert.match(lines[1]!, /^ {2}pseudopotentials done: c-5: E = -56\.97 eV \(Al, 1 atom\)\. c-5: /, 'jobs named by their call');
    assert.match(lines[1]!, /\(Al, 1 atom\)\. …$/);
    assert.ok(lines[1]!.length < 360);
    assert.equal(clipAtSentence('short.', 100), 'short.');
  });

  it('shows every run of a five-run sweep with its total_energy reference: a reused result by the call that ran it, the formula once', () => {
    const runs = [7, 8, 9, 10, 11]
      .map((c, i) =>
        c === 9
          ? `identical input already run by c-7 (job dreams-606207b7-c-7); its result reused, pw.x not run again: E = -56.969821 eV (Al, 1 atom(s)) [a-${20 + 2 * i} pw_output, a-${21 + 2 * i} total_energy]`
          : `job dreams-606207b7-c-${c} completed: E = -56.98${c}000 eV (Al, 1 atom(s)) [a-${20 + 2 * i} pw_output, a-${21 + 2 * i} total_energy]`,
      )
      .join(' ');
    const plan = latticePlan({ structure: 'done' }, { structure: runs });
    const line = earlierSteps(plan)[0]!;
    assert.doesNotMatch(line, /…/);
    for (const n of [21, 23, 25, 27, 29]) assert.ok(line.includes(`a-${n} total_energy]`), `a-${n} on the line: ${line}`);
    assert.match(
      line,
      /c-7: E = -56\.987000 eV \(Al, 1 atom\(s\)\) \[a-20, a-21 total_energy\] c-8: E = -56\.988000 eV \[a-22, a-23 total_energy\] as c-7 \(result reused\): E = -56\.969821 eV \[a-24, a-25 total_energy\]/,
    );
    assert.equal(compactSummary('fcc Al (Al, 1 atom(s)) [a-1 bulk_structure]'), 'fcc Al (Al, 1 atom(s)) [a-1 bulk_structure]');
  });

  it("tells the supervisor why a step failed: the tool's words, the worker's, the suggestion stored on the provisional result, and the step as planned", () => {
    const plan = latticePlan({ 'cutoff-choice': 'failed' });
    const step = plan.steps.find((s) => s.id === 'cutoff-choice')!;
    const call = {
      id: 'c-33',
      tool: 'select_converged_settings',
      step: step.id,
      status: 'ok',
      args: {},
      reasons: {},
      outputs: ['a-67'],
      summary: 'ecutwfc not converged: only 50 Ry is within 0.05 % of a of 50 Ry [a-67 converged_settings (provisional)]',
    } as unknown as ToolCallRecord;
    const sel = {
      id: 'a-67',
      kind: 'table',
      name: 'converged_settings',
      status: 'provisional',
      creator: 'c-33',
      inputs: [],
      value: {
        parameter: 'kspacing',
        converged: false,
        extension: {
          value: 0.11,
          kMesh: [26, 26, 26],
          predictedSeconds: 41,
          predictedFrom: '2.2 × the 19 s of the run at 0.15 1/Å',
          budgetSeconds: 1800,
          withinBudget: true,
        },
      },
    } as unknown as ArtifactRecord;
    const ctx: StepContext = {
      events: [event(1, STEP_START_EVENT, { id: step.id, attempt: 1, worker: 'dft', tool: step.tool }), event(2, 'provenance.call', call)],
      settings: {},
      plan,
      provenance: {
        call: (id: string) => (id === 'c-33' ? call : undefined),
        artifact: (id: string) => (id === 'a-67' ? sel : undefined),
        calls: () => [call],
      } as unknown as RunProvenance,
    };
    const failure = stepFailure(
      plan,
      step,
      'c-33 select_converged_settings gave provisional a-67 converged_settings',
      ctx,
      'The sweep did not converge; it needs one more value.',
    );
    const text = replanMessage({ objective: 'a(Al)', plan, failure, replans: 1, maxReplans: 2 });
    assert.match(text, /- the call: c-33 select_converged_settings \(ok; provisional a-67 converged_settings\)/);
    assert.match(text, /- the tool said: ecutwfc not converged: only 50 Ry/);
    assert.match(text, /- the worker said: The sweep did not converge; it needs one more value\./);
    assert.match(
      text,
      /- the tool suggests: a-67: extend the kspacing sweep with 0\.11 1\/Å \(26×26×26\): predicted ~41 s of pw\.x \(2\.2 × the 19 s of the run at 0\.15 1\/Å\), within the extension budget of 1800 s/,
    );
    assert.match(
      text,
      /As planned \(edit_plan modify changes only the arguments it names; null removes one\):\n {2}\{"id":"cutoff-choice","tool":"select_converged_settings"/,
    );
    const over = stepFailure(plan, step, 'r', {
      ...ctx,
      provenance: {
        ...ctx.provenance,
        artifact: () => ({
          ...sel,
          value: { ...(sel.value as object), extension: { value: 0.08, withinBudget: false, budgetSeconds: 600, predictedSeconds: 900 } },
        }),
      } as unknown as RunProvenance,
    });
    assert.match(over.suggestion!, /over the extension budget of 600 s: not to be run without asking the user/);
  });

  it('lists the open approvals in the final round, and says when none is', () => {
    const plan = latticePlan();
    const open = [
      {
        id: 'ap-2',
        call: 'c-40',
        tool: 'fit_eos',
        parameter: 'form',
        verdicts: [{ rule: 'param-judge@1', level: 'warn' as const, reasons: ['why Birch–Murnaghan?'] }],
        provenancePath: [],
        createdAt: '',
      },
    ];
    assert.match(
      responseMessage({ objective: 'a', plan, openApprovals: open }),
      /Open approvals .*:\n {2}ap-2 on c-40 fit_eos\.form: \[param-judge@1\] why Birch–Murnaghan\?/,
    );
    assert.match(responseMessage({ objective: 'a', plan, openApprovals: [] }), /No approval is open\./);
  });

  it('gives the supervisor one line per workflow and, for an objective a template reads, that one schema with what is missing', () => {
    const reading = objectiveReading('Lattice constant of fcc Al with LDA');
    assert.equal(reading!.template.id, 'lattice-constant');
    assert.deepEqual(reading!.missing, ['latticeConstantAngstrom is missing; add it.']);
    const all = planRoundMessage('x', undefined, workflowTemplates());
    const read = planRoundMessage('Lattice constant of fcc Al with LDA', undefined, workflowTemplates(), reading);
    assert.doesNotMatch(all, /inputs schema|"properties"/, 'no schema without a reading');
    assert.match(
      read,
      /The objective reads as lattice-constant, with \{"element":"Al","structure":"fcc","functional":"PZ"\}\. Still to give: latticeConstantAngstrom is missing; add it\. Its input schema:\n\{/,
    );
    assert.ok(
      all.length < 900 * workflowTemplates().length,
      `${all.length} characters for ${workflowTemplates().length} workflows: a paragraph each, no schema`,
    );
  });

  it("offers a worker only its step's tool and the canvas read; given a plan, only the tools its steps name", () => {
    const plan = latticePlan();
    const dft = registry
      .definitionsFor('dft', { plan })
      .map((d) => d.name)
      .sort();
    assert.deepEqual(dft, [...new Set(['canvas_read', ...plan.steps.filter((s) => s.worker === 'dft').map((s) => s.tool)])].sort());
    assert.ok(!dft.includes('place_adsorbate') && !dft.includes('adsorption_energy'));
    const step = plan.steps.find((s) => s.id === 'structure')!;
    assert.deepEqual(
      registry
        .definitionsFor('dft', { step })
        .map((d) => d.name)
        .sort(),
      ['build_bulk', 'canvas_read'],
    );
    assert.deepEqual(
      registry
        .definitionsFor('hpc', { step: { tool: 'run_pw' } })
        .map((d) => d.name)
        .sort(),
      ['canvas_read', 'run_pw'],
    );
    const size = (defs: unknown) => JSON.stringify(defs).length;
    assert.ok(
      size(registry.definitionsFor('dft', { step })) * 4 < size(registry.definitionsFor('dft', { plan })),
      "a step's list is a fraction of the plan's",
    );
  });

  it('refuses a call whose context is missing from its input, saying where it goes', () => {
    const use = {
      type: 'tool_use' as const,
      id: 't1',
      name: 'fit_eos',
      input: { arguments: { energies: ['a-1', 'a-2', 'a-3'], form: 'birch-murnaghan' }, reasons: { energies: 'x' } },
    };
    const parsed = registry.parse(use, 'dft');
    assert.equal(parsed.ok, false);
    assert.match(
      (parsed as { message: string }).message,
      /"context" is missing: say, inside the call's input, which plan step and goal the call serves/,
    );
  });
});
