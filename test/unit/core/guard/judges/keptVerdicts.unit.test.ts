// What "unchanged" is for a report-judge verdict kept from one report to its correction: the same
// judge, call, tier-1 results and state of what the call read and made, and no claim resting on it
// that did not rest on it when it was judged. Only a model's pass is kept.
import assert from 'node:assert/strict';
import { type AuditBasis, callDigest, claimDigest, keptVerdicts } from '../../../../../src/core/guard/judges/keptVerdicts';
import { checkClaim } from '../../../../../src/core/guard/claimChecks';
import type { Verdict } from '../../../../../src/core/guard/types';
import type { ProvenanceView } from '../../../../../src/core/provenance/view';
import { alLatticeBase, closeAllBases } from '../support/scenarioBases';

const RULE = 'report-judge@2';
const judge = { rule: RULE, model: 'claude-opus-4-1' };
const pass = (parameter: string, more: Partial<Verdict> = {}): Verdict => ({
  tier: 'report',
  rule: RULE,
  parameter,
  level: 'pass',
  judged: true,
  reasons: ['sound'],
  ...more,
});

describe('report judge: verdicts kept across attempts', function () {
  this.timeout(60_000);
  after(closeAllBases);

  it("a call's digest changes with the judge, its tier-1 results, and the state of an artifact it read", async () => {
    const base = await alLatticeBase();
    const view = base.provenance;
    const fit = view.artifact(base.names.lattice!)!.inputs.map((r) => view.artifact(r.split('.')[0]!)!)[0]!;
    const call = view.call(fit.creator)!;
    const d = callDigest(call, [], view, judge);
    assert.equal(callDigest(call, [], view, judge), d, 'stable');
    assert.notEqual(callDigest(call, [], view, { ...judge, model: 'claude-sonnet-4-5' }), d);
    assert.notEqual(callDigest(call, [{ ...pass('form'), tier: 'report', rule: 'eos-brackets-minimum', level: 'warn' }], view, judge), d);
    const read = Object.values(call.args)
      .flatMap((a) => [a.ref, a.value].flat())
      .find((x): x is string => typeof x === 'string' && /^a-\d+/.test(x))!
      .split('.')[0]!;
    const concerned: ProvenanceView = {
      ...view,
      artifact: (id) => {
        const a = view.artifact(id);
        return a && id === read ? { ...a, concerns: [...a.concerns, { rule: 'x', message: 'awaiting a person', approval: 'ap-9' }] } : a;
      },
    } as ProvenanceView;
    assert.notEqual(callDigest(call, [], concerned, judge), d, 'a concern raised on what it read');
    const stale = {
      ...view,
      artifact: (id: string) => (id === read ? { ...view.artifact(id)!, status: 'stale' as const } : view.artifact(id)),
    } as ProvenanceView;
    assert.notEqual(callDigest(call, [], stale, judge), d, 'what it read went stale');
  });

  it('keeps a pass only while every claim resting on the call rested on it when it was judged', async () => {
    const base = await alLatticeBase();
    const call = base.provenance.call(base.provenance.artifact(base.names.lattice!)!.creator)!;
    const params = Object.keys(call.args);
    const claim = { quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice!, statement: 'a = 4.0494 Å' };
    const c1 = claimDigest(claim, []);
    const basis: AuditBasis = { call: callDigest(call, [], base.provenance, judge), claims: [c1] };
    const earlier = [{ call: 'c-90', calls: [{ call: call.id, reportTime: params.map((p) => pass(p)), basis }] }];
    assert.ok(keptVerdicts(earlier, call, basis, RULE), 'unchanged');
    assert.ok(keptVerdicts(earlier, call, { ...basis, claims: [] }, RULE), 'a claim dropped');
    for (const changed of [
      { ...claim, statement: 'a = 4.0494 Å (PZ)' },
      { ...claim, value: 4.049 },
      { ...claim, unit: 'bohr' },
    ]) {
      assert.equal(keptVerdicts(earlier, call, { ...basis, claims: [claimDigest(changed, [])] }, RULE), undefined, JSON.stringify(changed));
    }
    assert.equal(
      keptVerdicts(earlier, call, { ...basis, claims: [c1, claimDigest({ ...claim, cites: 'a-1' }, [])] }, RULE),
      undefined,
      'a claim added',
    );
    assert.equal(
      keptVerdicts(earlier, call, { ...basis, claims: [claimDigest(claim, [pass('x', { rule: 'claim-value', level: 'fail' })])] }, RULE),
      undefined,
      'its tier-1 result changed',
    );
    assert.equal(keptVerdicts(earlier, call, { ...basis, call: 'other' }, RULE), undefined, 'the call or what it read changed');
    // where the claim stands in the report is not part of it: its tier-1 results as claims[0] and as claims[1] digest alike
    assert.equal(claimDigest(claim, checkClaim(claim, 1, base.provenance)), claimDigest(claim, checkClaim(claim, 0, base.provenance)));
    assert.notEqual(claimDigest(claim, checkClaim(claim, 0, base.provenance)), c1, 'its tier-1 results are part of it');
    assert.equal(keptVerdicts(earlier, call, basis, 'report-judge@3'), undefined, 'another rule text');
  });

  it('never keeps a warning, a failure, a judge outage or a verdict missing for a parameter; the latest model judgement decides', async () => {
    const base = await alLatticeBase();
    const call = base.provenance.call(base.provenance.artifact(base.names.lattice!)!.creator)!;
    const params = Object.keys(call.args);
    const basis: AuditBasis = { call: callDigest(call, [], base.provenance, judge), claims: [] };
    const at = (reportTime: Verdict[]) => ({ call: 'c-90', calls: [{ call: call.id, reportTime, basis }] });
    assert.equal(keptVerdicts([at(params.map((p, i) => pass(p, i ? {} : { level: 'warn' })))], call, basis, RULE), undefined);
    assert.equal(keptVerdicts([at(params.map((p) => pass(p, { level: 'fail' })))], call, basis, RULE), undefined);
    assert.equal(keptVerdicts([at(params.map((p) => pass(p, { judged: false, infraError: 'HTTP 529' })))], call, basis, RULE), undefined);
    assert.equal(keptVerdicts([at(params.slice(1).map((p) => pass(p)))], call, basis, RULE), undefined);
    // a pass, then a warn on the same basis: the warn is the latest word
    assert.equal(
      keptVerdicts([at(params.map((p) => pass(p))), at(params.map((p) => pass(p, { level: 'warn' })))], call, basis, RULE),
      undefined,
    );
    // a pass, then an attempt the model never saw (tier 1 refused it): the pass still stands
    const notSent = params.map((p) => pass(p, { judged: false, reasons: ['not judged: the deterministic checks refused the report'] }));
    assert.ok(keptVerdicts([at(params.map((p) => pass(p))), at(notSent)], call, basis, RULE));
  });
});
