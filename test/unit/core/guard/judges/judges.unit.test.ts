import assert from 'node:assert/strict';
import { assessCall } from '../../../../../src/core/guard/assessCall';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import type { LlmProvider } from '../../../../../src/core/llm/types';
import { MemoryProvenance } from '../support/memoryProvenance';
import { cutoffSweep, eosSeries, proposed } from '../support/domain';
import { crossVerdict, paramVerdicts, startJudgeRig, type JudgeRig } from '../support/judgeRig';

const registry = new ToolRegistry();
const fitEos = registry.get('fit_eos')!;
const fitCall = (ids: string[]) =>
  proposed(
    'fit_eos',
    { energies: ids, form: 'birch-murnaghan' },
    {},
    { energies: 'the EOS series at the converged settings', form: 'the usual form' },
  );

type Body = {
  system: { text: string; cache_control?: unknown }[];
  messages: { content: unknown }[];
  tools: { name: string }[];
  tool_choice?: { type: string; name?: string };
};

describe('judges (real SDK, fake Messages API)', () => {
  let rig: JudgeRig;
  afterEach(async () => rig?.stop());

  it('judges the parameters of a call in ONE request with one verdict each (references to final artifacts shown, not asked), and runs the cross judge for tools that declare it', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'energies', level: 'pass' },
          { parameter: 'form', level: 'warn', reasons: ['why not Vinet for a soft metal?'] },
        ]),
        crossVerdict('pass', ['five volumes within ±9 % of V0']),
      ],
    });
    const a = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), {
      provenance: new MemoryProvenance(eosSeries(1)),
      judge: rig.judge,
    });
    rig.api.assertScriptDone();
    assert.equal(rig.api.requests.length, 2, 'one per-parameter request and one cross-parameter request');
    assert.deepEqual(
      a.tier2.map((v) => [v.parameter, v.level, v.judged, v.rule]),
      [
        ['energies', 'pass', false, 'judge-economy'],
        ['form', 'warn', true, 'param-judge@2'],
      ],
    );
    assert.equal(a.tier2[1]!.reasons[0], 'why not Vinet for a soft metal?');
    assert.match(a.tier2[0]!.reasons[0]!, /^not asked: a reference to a final artifact/);
    assert.equal(a.tier2[1]!.model, 'claude-haiku-5-5');
    assert.deepEqual(
      a.tier3.map((v) => [v.tier, v.level, v.rule]),
      [['tier3', 'pass', 'cross-judge@2']],
    );
    const param = rig.api.requests.find((r) => (r.body as unknown as Body).tool_choice?.name === 'record_parameter_verdicts')!
      .body as unknown as Body;
    const text = JSON.stringify(param.messages);
    assert.match(text, /no verdict asked\):\\n- energies from \[a-1 = -57\.\d+ eV \[total_energy, by run_pw, final\]/);
    assert.match(text, /reason: \\"the usual form\\"/);
    assert.match(text, /Judge each of these 1 parameters: form\./);
    assert.ok(param.system.at(-1)!.cache_control, 'the rule texts and catalogue are a cached prefix');
    assert.match(param.system[0]!.text, /# Per-parameter judge[\s\S]*## fit_eos/);
  });

  it('shares one cached prefix across calls: the second request reads it from the cache', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts(
          [
            { parameter: 'energies', level: 'pass' },
            { parameter: 'form', level: 'pass' },
          ],
          {},
          2,
        ),
        crossVerdict('pass', ['ok'], 2),
      ],
    });
    const provenance = new MemoryProvenance(eosSeries(1));
    await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), { provenance, judge: rig.judge });
    await assessCall(fitEos, fitCall(['a-5', 'a-4', 'a-3', 'a-2', 'a-1']), { provenance, judge: rig.judge });
    const params = rig.api.requests.filter((r) => (r.body as unknown as Body).tool_choice?.name === 'record_parameter_verdicts');
    assert.equal(params.length, 2);
    assert.ok(params[0]!.usage!.cache_creation_input_tokens > 0, 'the first request writes the prefix');
    assert.equal(params[1]!.usage!.cache_read_input_tokens, params[0]!.usage!.cache_creation_input_tokens, 'the second reads all of it');
    assert.ok(params[1]!.usage!.input_tokens < params[1]!.usage!.cache_read_input_tokens, 'the uncached part is the small per-call text');
  });

  it('asks no judge when tier 1 already fails (deterministic first)', async () => {
    rig = await startJudgeRig({ steps: [] });
    const a = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), {
      provenance: new MemoryProvenance(eosSeries(1, [13, 14, 15, 16, 16.4])),
      judge: rig.judge,
    });
    assert.ok(a.tier1.some((v) => v.rule === 'eos-brackets-minimum' && v.level === 'fail'));
    assert.equal(rig.api.requests.length, 0);
  });

  it('fails open on a judge outage: counted as an infrastructure error, not judged, and the call is not blocked', async () => {
    rig = await startJudgeRig({ steps: [{ fault: { type: 'server_error', status: 500 }, times: 2 }] });
    const a = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), {
      provenance: new MemoryProvenance(eosSeries(1)),
      judge: rig.judge,
    });
    const judged = [...a.tier2, ...a.tier3].filter((v) => v.rule !== 'judge-economy');
    assert.equal(judged.length, 2, 'form and the combination');
    assert.ok(
      judged.every((v) => v.judged === false && v.level === 'pass' && /request failed/.test(v.infraError ?? '')),
      JSON.stringify(judged),
    );
  });

  it('treats a malformed answer and a missing verdict as infrastructure errors for exactly those parameters', async () => {
    rig = await startJudgeRig({
      steps: [
        {
          name: 'bad',
          match: { toolChoice: 'record_parameter_verdicts' },
          reply: {
            content: [
              {
                type: 'tool_use',
                name: 'record_parameter_verdicts',
                input: { verdicts: [{ parameter: 'energies', level: 'maybe', reasons: [] }] },
              },
            ],
          },
        },
        crossVerdict('pass', ['ok']),
        paramVerdicts([{ parameter: 'energies', level: 'pass' }]),
        crossVerdict('pass', ['ok']),
      ],
    });
    const provenance = new MemoryProvenance(eosSeries(1));
    const bad = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), { provenance, judge: rig.judge });
    assert.ok(
      bad.tier2.filter((v) => v.rule !== 'judge-economy').every((v) => /malformed/.test(v.infraError ?? '')),
      JSON.stringify(bad.tier2),
    );
    const partial = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), { provenance, judge: rig.judge });
    assert.deepEqual(
      partial.tier2.map((v) => [v.parameter, v.judged, v.infraError ?? null]),
      [
        ['energies', false, null],
        ['form', false, 'the judge gave no verdict for form'],
      ],
    );
  });

  it('records "not judged" and sends nothing with a provider that does not judge (offline)', async () => {
    let asked = 0;
    const offline: LlmProvider = {
      name: 'offline',
      judges: false,
      complete: async () => {
        asked++;
        throw new Error('unreachable');
      },
    };
    const a = await assessCall(fitEos, fitCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), {
      provenance: new MemoryProvenance(eosSeries(1)),
      judge: { provider: offline, models: { 'param-judge': 'x', 'cross-judge': 'x', 'report-judge': 'x' }, catalogue: [] },
    });
    assert.equal(asked, 0);
    assert.deepEqual(
      [...a.tier2, ...a.tier3].map((v) => [v.judged, v.reasons[0]]),
      [
        [false, 'not judged: provider offline does not judge'],
        [false, 'not judged: provider offline does not judge'],
        [false, 'not judged: provider offline does not judge'],
      ],
    );
  });

  it('checks a sweep selection with the cross judge too', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'parameter', level: 'pass' },
          { parameter: 'energies', level: 'pass' },
          { parameter: 'toleranceMevPerAtom', level: 'pass' },
        ]),
        crossVerdict('warn', ['only five cutoffs']),
      ],
    });
    const a = await assessCall(
      registry.get('select_converged_settings')!,
      proposed('select_converged_settings', {
        parameter: 'ecutwfc',
        energies: ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'],
        toleranceMevPerAtom: 1,
      }),
      { provenance: new MemoryProvenance(cutoffSweep(1)), judge: rig.judge },
    );
    assert.deepEqual(
      a.tier3.map((v) => v.level),
      ['warn'],
    );
    const cross = rig.api.requests.find((r) => JSON.stringify(r.body).includes('Referenced inputs'))!;
    assert.match(JSON.stringify(cross.body), /ecutwfcRy\\":35/);
  });

  it('shows the cross judge of a cutoff sweep judged by pressure the pressures the selection compares (Pulay term added), the shared settings once and no pseudopotential hashes', async () => {
    rig = await startJudgeRig({
      steps: [
        paramVerdicts([
          { parameter: 'parameter', level: 'pass' },
          { parameter: 'criterion', level: 'pass' },
          { parameter: 'toleranceLatticePercent', level: 'pass' },
          { parameter: 'bulkModulusGPa', level: 'pass' },
        ]),
        crossVerdict('pass', ['ok']),
      ],
    });
    const pressures = [-52.25, -52.73, -51.34, -50.86];
    const sweep = cutoffSweep(1, [20, 30, 40, 50]).map((a, i) => ({
      ...a,
      meta: { ...a.meta, pressureKbar: pressures[i], pseudopotentialSha256: { 'Al.pz-vbc.UPF': 'abdcda76'.repeat(8) } },
    }));
    await assessCall(
      registry.get('select_converged_settings')!,
      proposed('select_converged_settings', {
        parameter: 'ecutwfc',
        energies: ['a-1', 'a-2', 'a-3', 'a-4'],
        criterion: 'pressure',
        toleranceLatticePercent: 0.05,
        bulkModulusGPa: 58.5,
      }),
      { provenance: new MemoryProvenance(sweep), judge: rig.judge },
    );
    const body = rig.api.requests.find((r) => JSON.stringify(r.body).includes('Referenced inputs'))!.body as unknown as Body;
    const text = body.messages[0]!.content as string;
    assert.match(text, /Settings every input shares: \{[^\n]*"functional":"PZ"/);
    assert.doesNotMatch(text, /sha256|abdcda76/i);
    const lines = text.split('\n').filter((l) => /^- a-\d (\(total_energy\)|at \d+ Ry)/.test(l));
    assert.ok(
      lines.filter((l) => l.includes('(total_energy)')).every((l) => /"settings":\{"ecutwfcRy":\d+,"ecutrhoRy":\d+\}/.test(l)),
      'each input shows only the settings it does not share',
    );
    assert.match(text, /Pressures the selection compares \(kbar\): pw\.x's plus the Pulay term/);
    // the term is (2/3)(Ecut/V)|dE/dEcut| from the sweep's own energies: positive, largest where E still falls fastest
    const compared = lines
      .filter((l) => / at \d+ Ry: /.test(l))
      .map((l) =>
        l
          .match(/: (-?[\d.]+) \+ ([\d.]+) = (-?[\d.]+)$/)!
          .slice(1)
          .map(Number),
      );
    assert.equal(compared.length, 4);
    compared.forEach(([p, pulay, sum], i) => {
      assert.equal(p, pressures[i]);
      assert.ok(pulay! > 0 && Math.abs(p! + pulay! - sum!) < 0.011, `${p} + ${pulay} = ${sum}`);
    });
    assert.ok(compared[0]![1]! > compared[3]![1]!, 'the 20 Ry term is the largest');
  });
});
