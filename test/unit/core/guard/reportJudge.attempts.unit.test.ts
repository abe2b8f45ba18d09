// The report judge across attempts at one report: a report the deterministic checks refuse is not
// sent to the model, and a corrected report keeps the model's passes on calls unchanged since,
// sending the judge only what changed and showing it what was kept.
import assert from 'node:assert/strict';
import { judgeReport, type ReportJudgement } from '../../../../src/core/guard/reportJudge';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { DEFAULT_ROLE_MODELS } from '../../../../src/core/llm/models';
import type { JudgeConfig } from '../../../../src/core/guard/judges/askJudge';
import type { ReportClaim } from '../../../../src/core/guard/claimChecks';
import type { ProvenanceView } from '../../../../src/core/provenance/view';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';
import { alLatticeBase, closeAllBases } from './support/scenarioBases';

const registry = new ToolRegistry();
const KEY = 'sk-ant-test-report-attempts-0000';

type Level = 'pass' | 'warn' | 'fail';

/**
 * A report judge on the fake Messages API that gives each call listed in a request ("## c-N")
 * a verdict for the whole call, pass unless `levels` says otherwise, and keeps every request text;
 * while `down()` holds it answers 529 overloaded.
 */
async function answeringJudge(levels: () => Record<string, Level> = () => ({}), down: () => boolean = () => false) {
  const asked: string[] = [];
  const api = await FakeAnthropicApi.start({
    apiKey: KEY,
    answer: async (body) => {
      const text = String((body.messages as { content: unknown }[])[0]!.content);
      asked.push(text);
      if (down()) return { step: { fault: { type: 'overloaded' as const } }, label: `report judge ${asked.length} (down)` };
      const listed = [...text.matchAll(/^## (c-\d+) /gm)].map((m) => m[1]!);
      const extra = Object.keys(levels()).filter((c) => !listed.includes(c) && text.includes(`- ${c} `));
      const verdicts = [...listed, ...extra].map((call) => ({
        call,
        parameter: '*',
        level: levels()[call] ?? 'pass',
        reasons: [`${call} looks ${levels()[call] ?? 'pass'}`],
      }));
      return {
        step: { reply: { content: [{ type: 'tool_use', name: 'record_report_verdicts', input: { verdicts } }] } },
        label: `report judge ${asked.length}`,
      };
    },
  });
  const judge: JudgeConfig = {
    provider: new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { maxAttempts: 1 } }),
    models: {
      'param-judge': DEFAULT_ROLE_MODELS['param-judge'],
      'cross-judge': DEFAULT_ROLE_MODELS['cross-judge'],
      'report-judge': DEFAULT_ROLE_MODELS['report-judge'],
    },
    catalogue: registry.judgeCatalogue(),
  };
  return { api, judge, asked };
}

const listedCalls = (text: string) => [...text.matchAll(/^## (c-\d+) /gm)].map((m) => m[1]!);
const modelVerdicts = (j: ReportJudgement, call: string) =>
  j.calls.find((c) => c.call === call)!.reportTime.filter((v) => v.rule === 'report-judge@2');

describe('report judge: attempts at one report', function () {
  this.timeout(60_000); // the scenario base is built once, by the real tool bodies
  let rig: Awaited<ReturnType<typeof answeringJudge>> | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });
  after(closeAllBases);

  async function claimsOf() {
    const base = await alLatticeBase();
    const cut = base.provenance.artifact(base.names.cutSel!)!.value as ConvergenceSelectionValue;
    const lattice: ReportClaim = {
      quantity: 'lattice_constant',
      value: 4.0494,
      unit: 'Å',
      cites: base.names.lattice!,
      statement: 'a = 4.0494 Å',
    };
    const cutoff: ReportClaim = {
      quantity: 'converged_cutoff',
      value: cut.chosen.ecutwfcRy as number,
      unit: 'Ry',
      cites: `${base.names.cutSel}.chosen.ecutwfcRy`,
      statement: `ecutwfc = ${cut.chosen.ecutwfcRy} Ry`,
    };
    return { base, lattice, cutoff };
  }

  it('does not send a report that tier 1 refuses to the model: the worker gets the tier-1 reasons, and the corrected report is audited', async () => {
    const { base, lattice } = await claimsOf();
    rig = await answeringJudge();
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const refused = await judgeReport([lattice, { ...lattice, value: 4.1, statement: 'a = 4.1 Å' }], opts);
    assert.equal(rig.asked.length, 0, 'no judge request for a report tier 1 refuses');
    assert.equal(refused.accepted, false);
    assert.equal(refused.modelJudged, false);
    assert.match(refused.summary, /not sent to the model: the deterministic checks refused it\): 1 fail, 0 warn$/);
    const open = [...refused.claims.flatMap((c) => c.verdicts), ...refused.calls.flatMap((c) => c.reportTime)].filter(
      (v) => v.level !== 'pass',
    );
    assert.deepEqual(
      open.map((v) => v.rule),
      ['claim-value'],
      'only the tier-1 reason goes back',
    );
    assert.ok(
      refused.calls.every((c) =>
        c.reportTime
          .filter((v) => v.rule === 'report-judge@2')
          .every((v) => !v.judged && /deterministic checks refused the report; the model audits the corrected one/.test(v.reasons[0]!)),
      ),
    );
    const corrected = await judgeReport([lattice], { ...opts, earlier: [{ call: 'c-90', ...refused }] });
    assert.equal(rig.asked.length, 1, 'the corrected report is sent');
    assert.equal(corrected.modelJudged, true);
    assert.equal(corrected.accepted, true, corrected.summary);
    // nothing was judged on the refused report, so nothing is kept: the whole audit is asked
    assert.doesNotMatch(rig.asked[0]!, /Verdicts kept/);
  });

  it('keeps the passes of calls unchanged since the last audit and sends the judge only the calls under a changed claim, stating the kept verdicts', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    rig = await answeringJudge();
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([lattice, cutoff], opts);
    assert.equal(first.accepted, true, first.summary);
    const judgedFirst = listedCalls(rig.asked[0]!);
    // the worker rewrites the cutoff claim's statement; the lattice claim is as it was
    const second = await judgeReport([lattice, { ...cutoff, statement: `${cutoff.statement} (within 1 meV/atom of the finest)` }], {
      ...opts,
      earlier: [{ call: 'c-90', ...first }],
    });
    assert.equal(rig.asked.length, 2);
    const text = rig.asked[1]!;
    const judgedAgain = listedCalls(text);
    // what the cutoff claim rests on: the calls up to the cutoff selection
    const underCutoff = new Set(
      (await judgeReport([cutoff], { provenance: base.provenance, specOf: (t) => registry.get(t) })).calls.map((c) => c.call),
    );
    assert.ok(
      judgedAgain.length > 0 && judgedAgain.length < judgedFirst.length,
      `${judgedAgain.length} of ${judgedFirst.length} sent again`,
    );
    assert.ok(
      judgedAgain.every((c) => underCutoff.has(c)),
      'only calls under the changed claim',
    );
    const kept = judgedFirst.filter((c) => !judgedAgain.includes(c));
    assert.ok(
      kept.every((c) => !underCutoff.has(c)),
      'no call under the changed claim is kept',
    );
    assert.match(
      text,
      /Verdicts kept from the audit of the earlier report: only these per-call verdicts were kept .* The report text and its claims are new to this request: judge them in full/,
    );
    for (const c of kept) {
      assert.match(text, new RegExp(`^- (c-\\d+, )*${c}(, c-\\d+)* \\S+: pass: ${c} looks pass$`, 'm'));
      const v = modelVerdicts(second, c);
      assert.ok(v.length > 0 && v.every((x) => x.level === 'pass' && x.judged), c);
      assert.ok(
        v.every((x) => x.reasons.includes(`(kept from the audit of c-90's report: the call, what it read and the claims on it unchanged)`)),
      );
    }
    // the calls that stood under a kept one keep theirs too, and the summary counts them all
    const keptAll = second.calls.filter((c) =>
      c.reportTime.some((v) => v.reasons.some((r) => r.startsWith('(kept from the audit of c-90'))),
    );
    assert.ok(keptAll.length >= kept.length && keptAll.every((c) => !underCutoff.has(c.call)));
    assert.match(second.summary, new RegExp(`, ${keptAll.length} kept from the audit of the earlier report`));
    // each kept call is named on a line of its tool and reasons
    const keptShown = text.split('\n').filter((l) => /^- c-\d+(, c-\d+)* \S+: pass: /.test(l));
    const named = keptShown.flatMap((l) => /^- ((?:c-\d+, )*c-\d+) /.exec(l)![1]!.split(', '));
    assert.deepEqual(named.sort(), keptAll.map((c) => c.call).sort());
    assert.equal(second.accepted, true, second.summary);
    // the report text is still shown whole, so the report is judged as a whole
    assert.match(text, /^Claims, with the deterministic checks of each \(tier 1\):/m);
  });

  it('never keeps a verdict that was not a pass, and lets the judge overturn a kept one', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    let levels: Record<string, Level> = {};
    rig = await answeringJudge(() => levels);
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const firstCalls = (await judgeReport([lattice, cutoff], { provenance: base.provenance, specOf: (t) => registry.get(t) })).calls;
    const fit = firstCalls.find((c) => c.tool === 'fit_eos')!.call;
    const latticeCall = firstCalls.find((c) => c.tool === 'lattice_constant_from_volume')!.call;
    levels = { [fit]: 'warn' };
    const first = await judgeReport([lattice, cutoff], opts);
    assert.equal(first.accepted, false, 'held by the warn on the fit');
    // the same report again (the warn answered in its text): the fit is asked again, not kept
    levels = { [latticeCall]: 'fail' };
    const second = await judgeReport([lattice, cutoff], { ...opts, earlier: [{ call: 'c-90', ...first }] });
    const text = rig.asked[1]!;
    assert.deepEqual(listedCalls(text), [fit], 'only the call that was not passed is sent again');
    assert.match(text, new RegExp(`^- ${latticeCall} lattice_constant_from_volume: pass: `, 'm'));
    // the judge gave the kept call a new verdict: it replaces the kept pass
    assert.deepEqual(
      modelVerdicts(second, latticeCall).map((v) => v.level),
      Object.keys(base.provenance.call(latticeCall)!.args).map(() => 'fail'),
    );
    assert.equal(second.accepted, false);
    assert.match(second.summary, /kept from the audit of the earlier report \(1 of them judged anew\)/);
  });

  it('with every call kept, still asks the judge once about the corrected report as a whole', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    rig = await answeringJudge();
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([lattice, cutoff], opts);
    // the cutoff claim dropped: nothing rests on a call that did not rest on it before
    const second = await judgeReport([lattice], { ...opts, text: 'a = 4.0494 Å.', earlier: [{ call: 'c-90', ...first }] });
    assert.equal(rig.asked.length, 2);
    assert.deepEqual(listedCalls(rig.asked[1]!), []);
    assert.match(rig.asked[1]!, /This request judges none of them anew/);
    assert.match(rig.asked[1]!, /^Calls to judge:\n\(none: every call the claims depend on keeps its verdict, below\)$/m);
    assert.match(
      rig.asked[1]!,
      /^Report text \(CHANGED since c-90's report, whose audit gave the kept verdicts below: judge it in full, as new\):\na = 4\.0494 Å\./m,
    );
    // a kept series is one line naming its calls
    const keptShown = rig.asked[1]!.split('\n').filter((l) => /^- c-\d+(, c-\d+)* \S+: pass: /.test(l));
    const keptAll = second.calls.filter((c) =>
      c.reportTime.some((v) => v.reasons.some((r) => r.startsWith('(kept from the audit of c-90'))),
    );
    assert.ok(keptShown.length < keptAll.length, `${keptShown.length} lines for ${keptAll.length} kept calls`);
    assert.equal(second.accepted, true, second.summary);
  });

  it('keeps every call when the first of two claims is dropped: a claim is the same wherever it stands in the report', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    rig = await answeringJudge();
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([cutoff, lattice], opts);
    assert.equal(first.accepted, true, first.summary);
    const second = await judgeReport([lattice], { ...opts, earlier: [{ call: 'c-90', ...first }] });
    assert.equal(rig.asked.length, 2);
    assert.deepEqual(listedCalls(rig.asked[1]!), [], 'nothing sent again');
    assert.match(second.summary, /\(0 judged by the model in 1 request\(s\), \d+ kept from the audit of the earlier report/);
  });

  it('tells the judge that the report text and claims are new and judged in full, and whether the text changed since the kept verdicts were given', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    rig = await answeringJudge();
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([lattice, cutoff], {
      ...opts,
      text: 'a = 4.0494 Å; the k sweep was not converged, treat a as an estimate.',
    });
    // the caveat dropped, every claim kept byte for byte
    const second = await judgeReport([lattice], { ...opts, text: 'a = 4.0494 Å, fully converged.', earlier: [{ call: 'c-90', ...first }] });
    assert.match(
      rig.asked[1]!,
      /^Report text \(CHANGED since c-90's report, whose audit gave the kept verdicts below: judge it in full, as new\):\na = 4\.0494 Å, fully converged\.$/m,
    );
    assert.match(rig.asked[1]!, /the report text and claims above are this report's and are judged in full/);
    assert.match(rig.asked[1]!, /only these per-call verdicts were kept/);
    // the same text again: said so
    await judgeReport([lattice], {
      ...opts,
      text: 'a = 4.0494 Å, fully converged.',
      earlier: [
        { call: 'c-90', ...first },
        { call: 'c-91', ...second },
      ],
    });
    assert.match(
      rig.asked[2]!,
      /^Report text \(the same text as c-91's report, whose audit gave the kept verdicts below; judge it in full\):$/m,
    );
  });

  it('counts a failed request about a corrected report whose calls are all kept as the judge outage it is, as when nothing is kept', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    let down = false;
    rig = await answeringJudge(undefined, () => down);
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([lattice, cutoff], opts);
    assert.equal(first.infraErrors, 0);
    down = true;
    // nothing kept and the judge down: each call sent gets the outage's verdict, counted, failing open
    const nothingKept = await judgeReport([lattice], opts);
    assert.ok(nothingKept.infraErrors > 0);
    const second = await judgeReport([lattice], { ...opts, text: 'a = 4.0494 Å, fully converged.', earlier: [{ call: 'c-90', ...first }] });
    assert.equal(rig.asked.length, 3);
    assert.deepEqual(listedCalls(rig.asked[2]!), [], 'every call kept: the one request is about the report as a whole');
    assert.equal(second.infraErrors, nothingKept.infraErrors, second.summary);
    assert.equal(second.accepted, nothingKept.accepted);
    assert.equal(second.level, nothingKept.level);
    assert.match(second.summary, /\(\d+ of them not confirmed: the judge was unavailable\).*, \d+ judge error\(s\) \(failed open\)$/);
    for (const c of second.calls) {
      const v = modelVerdicts(second, c.call);
      if (!v.length || v.every((x) => !x.judged && !x.infraError)) continue; // references only
      assert.ok(
        v.every((x) => x.infraError && !x.judged && /judge unavailable/.test(x.reasons[0]!)),
        `${c.call}: ${JSON.stringify(v)}`,
      );
    }
  });

  it('does not keep a pass handed on from the call judged for it when that call is judged again: the series takes its new verdict', async () => {
    const { base, lattice, cutoff } = await claimsOf();
    let levels: Record<string, Level> = {};
    rig = await answeringJudge(() => levels);
    const opts = { provenance: base.provenance, specOf: (t: string) => registry.get(t), judge: rig.judge };
    const first = await judgeReport([lattice, cutoff], opts);
    const member = first.calls.find((c) => c.reportTime.some((v) => v.reasons.some((r) => r.startsWith('(as judged for '))))!;
    assert.ok(member, 'the scenario has a series');
    const lead = /^\(as judged for (c-\d+):/.exec(
      member.reportTime.flatMap((v) => v.reasons).find((r) => r.startsWith('(as judged for '))!,
    )![1]!;
    // something the lead call made now carries a concern: its digest changes, its series members' do not
    const made = base.provenance.call(lead)!.outputs[0]!;
    const view: ProvenanceView = {
      call: (id: string) => base.provenance.call(id),
      artifacts: () => base.provenance.artifacts(),
      artifact: (id: string) => {
        const a = base.provenance.artifact(id);
        return a && id === made
          ? { ...a, concerns: [...a.concerns, { source: 'user' as const, level: 'warn' as const, message: 'checked by hand' }] }
          : a;
      },
    };
    levels = { [lead]: 'fail' };
    const second = await judgeReport([lattice, cutoff], { ...opts, provenance: view, earlier: [{ call: 'c-90', ...first }] });
    assert.ok(listedCalls(rig.asked[1]!).includes(lead), 'the lead call is judged again');
    assert.ok(
      modelVerdicts(second, member.call).every((v) => v.level === 'fail' && v.reasons.some((r) => r.startsWith(`(as judged for ${lead}:`))),
      JSON.stringify(modelVerdicts(second, member.call)),
    );
    assert.equal(second.accepted, false);
  });
});
