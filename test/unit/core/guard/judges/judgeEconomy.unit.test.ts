// Judge economy and per-role judge context, through the real SDK against the fake Messages API:
// which calls the per-parameter judge is not asked about (and the reason recorded), a series
// judged once, and what a judge request carries.
import assert from 'node:assert/strict';
import { assessCall } from '../../../../../src/core/guard/assessCall';
import { JudgeMemo } from '../../../../../src/core/guard/judges/judgeEconomy';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import type { ProposedCall } from '../../../../../src/core/guard/types';
import { MemoryProvenance, type SeedArtifact } from '../support/memoryProvenance';
import { cutoffSweep, eosSeries, proposed } from '../support/domain';
import { crossVerdict, paramVerdicts, startJudgeRig, type JudgeRig } from '../support/judgeRig';

const registry = new ToolRegistry();
const runPw = registry.get('run_pw')!;

const input = (id: string, text: string, status: SeedArtifact['status'] = 'final'): SeedArtifact => ({
  id,
  kind: 'qe-input',
  name: 'pw_input',
  value: { text },
  creatorTool: 'generate_series',
  status,
});

const run = (inputId: string, step: string, reason = 'the run this study was started with'): ProposedCall => ({
  ...proposed('run_pw', { input: inputId, backend: 'local' }, {}, { input: `the input ${inputId}`, backend: reason }),
  step,
});

type Body = { system: { text: string }[]; tools: { name: string }[]; messages: { content: unknown }[] };

describe('judge economy', () => {
  let rig: JudgeRig;
  afterEach(async () => rig?.stop());

  it('asks no judge for a call whose every parameter is a reference to a final artifact, and records why', async () => {
    rig = await startJudgeRig({ steps: [] });
    const provenance = new MemoryProvenance([input('a-1', '&control /\n')]);
    const a = await assessCall(
      runPw,
      { ...proposed('run_pw', { input: 'a-1' }, {}, { input: 'the input' }), step: 'runs' },
      { provenance, judge: rig.judge },
    );
    assert.equal(rig.api.requests.length, 0);
    assert.deepEqual(
      a.tier2.map((v) => [v.parameter, v.judged, v.level]),
      [['input', false, 'pass']],
    );
    assert.match(a.tier2[0]!.reasons[0]!, /^not asked: every parameter is a reference to a final artifact/);
  });

  it('judges a series of one step once, in one request: the calls that run beside the first take its verdicts, naming the series', async () => {
    rig = await startJudgeRig({ steps: [paramVerdicts([{ parameter: 'backend', level: 'pass' }])] });
    const provenance = new MemoryProvenance([1, 2, 3, 4].map((n) => input(`a-${n}`, `&system ecutwfc=${20 + 5 * n} /\n`)));
    const judge = { ...rig.judge, memo: new JudgeMemo() };
    const all = await Promise.all([1, 2, 3, 4].map((n) => assessCall(runPw, run(`a-${n}`, 'cutoff-runs'), { provenance, judge })));
    rig.api.assertScriptDone();
    assert.equal(rig.api.requests.length, 1, 'one request for the series of four');
    // the literal is judged; the input, a reference to a final artifact, is not asked about
    assert.ok(
      all.every(
        (a) =>
          a.tier2.length === 2 &&
          a.tier2.find((v) => v.parameter === 'backend')!.judged &&
          !a.tier2.find((v) => v.parameter === 'input')!.judged,
      ),
    );
    assert.match(JSON.stringify(rig.api.requests[0]!.body), /Judge each of these 1 parameters: backend\./);
    assert.equal(
      all.filter((a) => a.tier2.some((v) => /judged once for the series of step cutoff-runs/.test(v.reasons.join(' ')))).length,
      3,
    );
  });

  it('asks again for a call of another shape or another step', async () => {
    rig = await startJudgeRig({ steps: [paramVerdicts([{ parameter: 'backend', level: 'pass' }], {}, 3)] });
    const provenance = new MemoryProvenance([1, 2, 3].map((n) => input(`a-${n}`, `text ${n}`)));
    const judge = { ...rig.judge, memo: new JudgeMemo() };
    await assessCall(runPw, run('a-1', 'cutoff-runs'), { provenance, judge });
    await assessCall(runPw, run('a-2', 'cutoff-runs', 'a reason of its own'), { provenance, judge });
    await assessCall(runPw, run('a-3', 'k-runs'), { provenance, judge });
    assert.equal(rig.api.requests.length, 3);
  });

  it('takes the verdicts of an identical earlier call that was judged (a run whose result is reused), naming it', async () => {
    rig = await startJudgeRig({ steps: [] });
    const provenance = new MemoryProvenance([input('a-1', 'same text'), input('a-2', 'same text')]);
    const [energy] = await provenance.seedCall('run_pw', { input: 'a-1', backend: 'local' }, [
      { kind: 'scalar', name: 'total_energy', value: -57, unit: 'eV' },
    ]);
    await provenance.recordVerdicts(energy!.creator, [
      { tier: 'tier2', rule: 'param-judge@1', parameter: 'input', level: 'pass', judged: true, reasons: ['ok'] },
      { tier: 'tier2', rule: 'param-judge@1', parameter: 'backend', level: 'pass', judged: true, reasons: ['local is fine for one atom'] },
    ]);
    const a = await assessCall(runPw, run('a-2', 'k-runs'), { provenance, judge: rig.judge });
    assert.equal(rig.api.requests.length, 0);
    assert.deepEqual(
      a.tier2.map((v) => [v.parameter, v.judged]),
      [
        ['input', true],
        ['backend', true],
      ],
    );
    assert.match(
      a.tier2[1]!.reasons.join(' '),
      new RegExp(`local is fine for one atom \\(judged with ${energy!.creator}: identical arguments\\)`),
    );
  });

  it('keeps the pass of a value an earlier call of the tool gave with the same reason, asks only about the rest, and asks nothing when nothing is left', async () => {
    rig = await startJudgeRig({
      steps: [paramVerdicts([{ parameter: 'toleranceMevPerAtom', level: 'pass' }]), crossVerdict('pass', ['ok'], 2)],
    });
    const provenance = new MemoryProvenance(cutoffSweep(1));
    const select = registry.get('select_converged_settings')!;
    const reasons = { parameter: 'the cutoff sweep', energies: 'every energy of the sweep', toleranceMevPerAtom: "the study's tolerance" };
    const earlier = await provenance.recordCall({
      tool: 'select_converged_settings',
      reasons,
      context: 'an earlier sweep',
      verdicts: [],
      agent: { role: 'dft' },
      args: { parameter: { value: 'ecutwfc' }, energies: { value: ['a-1', 'a-2'] }, toleranceMevPerAtom: { value: 2 } },
    });
    await provenance.recordVerdicts(earlier.id, [
      { tier: 'tier2', rule: 'param-judge@2', parameter: 'parameter', level: 'pass', judged: true, reasons: ['a cutoff sweep'] },
      {
        tier: 'tier2',
        rule: 'param-judge@2',
        parameter: 'toleranceMevPerAtom',
        level: 'pass',
        judged: true,
        reasons: ['2 meV/atom is enough here'],
      },
    ]);
    await provenance.endCall(earlier.id, { status: 'ok' });
    const call = (tol: number) =>
      proposed(
        'select_converged_settings',
        { parameter: 'ecutwfc', energies: ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], toleranceMevPerAtom: tol },
        {},
        reasons,
      );
    const paramRequests = () => rig.api.requests.filter((r) => JSON.stringify(r.body).includes('Judge each of these'));

    const first = await assessCall(select, call(1), { provenance, judge: rig.judge });
    assert.equal(paramRequests().length, 1);
    const text = JSON.stringify((paramRequests()[0]!.body as unknown as Body).messages);
    assert.match(text, /Judge each of these 1 parameters: toleranceMevPerAtom\./);
    assert.ok(
      text.includes(
        `Judged already, with the same value and reason in an earlier call, and passed (no verdict asked):\\n- parameter = \\"ecutwfc\\" (as in ${earlier.id})`,
      ),
      text,
    );
    const parameter = first.tier2.find((v) => v.parameter === 'parameter')!;
    assert.deepEqual([parameter.level, parameter.judged], ['pass', true]);
    assert.ok(parameter.reasons.join(' ').includes(`a cutoff sweep (judged with ${earlier.id}: the same value and reason)`));

    // the same tolerance with the same reason as c-1: nothing of the agent's own is left to ask about
    const second = await assessCall(select, call(2), { provenance, judge: rig.judge });
    assert.equal(paramRequests().length, 1, 'no second per-parameter request');
    assert.deepEqual(
      second.tier2.map((v) => [v.parameter, v.level]),
      [
        ['parameter', 'pass'],
        ['energies', 'pass'],
        ['toleranceMevPerAtom', 'pass'],
      ],
    );
    assert.ok(second.tier2[2]!.reasons.join(' ').includes(`2 meV/atom is enough here (judged with ${earlier.id}`));
    rig.api.assertScriptDone();
  });

  it('asks again about a value whose reason changed, or whose earlier verdict was not a pass', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'parameter', level: 'pass' },
          { parameter: 'toleranceMevPerAtom', level: 'pass' },
        ]),
        crossVerdict('pass', ['ok']),
      ],
    });
    const provenance = new MemoryProvenance(cutoffSweep(1));
    const earlier = await provenance.recordCall({
      tool: 'select_converged_settings',
      reasons: { parameter: 'the cutoff sweep', toleranceMevPerAtom: "the study's tolerance" },
      context: 'an earlier sweep',
      verdicts: [],
      agent: { role: 'dft' },
      args: { parameter: { value: 'ecutwfc' }, energies: { value: ['a-1', 'a-2'] }, toleranceMevPerAtom: { value: 1 } },
    });
    await provenance.recordVerdicts(earlier.id, [
      { tier: 'tier2', rule: 'param-judge@2', parameter: 'parameter', level: 'pass', judged: true, reasons: ['a cutoff sweep'] },
      {
        tier: 'tier2',
        rule: 'param-judge@2',
        parameter: 'toleranceMevPerAtom',
        level: 'warn',
        judged: true,
        reasons: ['1 meV/atom may be loose'],
      },
    ]);
    await provenance.endCall(earlier.id, { status: 'ok' });
    await assessCall(
      registry.get('select_converged_settings')!,
      proposed(
        'select_converged_settings',
        { parameter: 'ecutwfc', energies: ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], toleranceMevPerAtom: 1 },
        {},
        { parameter: 'the sweep of the wavefunction cutoff', toleranceMevPerAtom: "the study's tolerance" },
      ),
      { provenance, judge: rig.judge },
    );
    rig.api.assertScriptDone();
    assert.match(JSON.stringify(rig.api.requests.map((r) => r.body)), /Judge each of these 2 parameters: parameter, toleranceMevPerAtom\./);
  });

  it('does not pass on a judgement that failed: the next call of the series asks itself', async () => {
    rig = await startJudgeRig({
      steps: [{ fault: { type: 'server_error', status: 500 } }, paramVerdicts([{ parameter: 'backend', level: 'pass' }])],
    });
    const provenance = new MemoryProvenance([1, 2].map((n) => input(`a-${n}`, `text ${n}`)));
    const judge = { ...rig.judge, memo: new JudgeMemo() };
    const first = await assessCall(runPw, run('a-1', 'runs'), { provenance, judge });
    const second = await assessCall(runPw, run('a-2', 'runs'), { provenance, judge });
    const backend = (vs: typeof first.tier2) => vs.find((v) => v.parameter === 'backend')!;
    assert.ok(backend(first.tier2).infraError);
    assert.ok(backend(second.tier2).judged && !backend(second.tier2).infraError);
    assert.equal(rig.api.requests.length, 2);
  });

  it('sends a judge only its own rule text and the documentation of the tool it judges', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'energies', level: 'pass' },
          { parameter: 'form', level: 'pass' },
        ]),
        crossVerdict('pass', ['ok']),
      ],
    });
    await assessCall(
      registry.get('fit_eos')!,
      proposed(
        'fit_eos',
        { energies: ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], form: 'birch-murnaghan' },
        {},
        { energies: 'the series', form: 'the usual form' },
      ),
      { provenance: new MemoryProvenance(eosSeries(1)), judge: rig.judge },
    );
    const bodies = rig.api.requests.map((r) => r.body as unknown as Body);
    for (const b of bodies) {
      const system = b.system.map((p) => p.text).join('\n');
      assert.match(system, /## fit_eos/);
      assert.doesNotMatch(system, /## run_pw|## make_pw_input|## write_report/, 'no other tool is documented');
      assert.doesNotMatch(system, /# Report judge/, "no other judge's rules");
      assert.equal(b.tools.length, 1, 'only its own verdict tool');
    }
    const param = bodies.find((b) => b.tools[0]!.name === 'record_parameter_verdicts')!;
    assert.match(param.system[0]!.text, /^# Per-parameter judge/);
    assert.doesNotMatch(param.system[0]!.text, /# Cross-parameter judge/);
    const full = new ToolRegistry().judgeCatalogue().length;
    assert.ok(full > 10, `the catalogue has ${full} tools, of which one is shown`);
  });
});
