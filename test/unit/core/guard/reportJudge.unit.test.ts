import assert from 'node:assert/strict';
import { judgeReport, viewAsOf } from '../../../../src/core/guard/reportJudge';
import { checkClaim, checkedDecimals, claimValue, statedDecimals } from '../../../../src/core/guard/claimChecks';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { alLatticeBase, closeAllBases } from './support/scenarioBases';
import { startJudgeRig, type JudgeRig } from './support/judgeRig';

const registry = new ToolRegistry();

describe('report judge', () => {
  let rig: JudgeRig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });
  after(closeAllBases);

  it('reads the precision a claim states, and checks to at least three significant figures', () => {
    assert.deepEqual([statedDecimals(4.05), statedDecimals(4), statedDecimals(1.2e-3), statedDecimals(-0.125)], [2, 0, 4, 3]);
    assert.deepEqual([checkedDecimals(4), checkedDecimals(77), checkedDecimals(0.05), checkedDecimals(4.0494)], [2, 1, 4, 4]);
  });

  it("states report values to at least the precision the claim check reads: a soft metal's B0, a small ΔBE", () => {
    assert.deepEqual(
      [
        claimValue(3.3287659, 1),
        claimValue(76.4512, 1),
        claimValue(-0.0051234, 4),
        claimValue(-0.548, 3),
        claimValue(-0.05123, 3),
        claimValue(4.04912, 4),
        claimValue(0, 4),
      ],
      [3.33, 76.5, -0.00512, -0.548, -0.0512, 4.0491, 0],
    );
    // whatever the value, the stated one is the recorded one rounded to the digits the judge checks
    for (const x of [3.3287659, 1402.77, 0.0099951, -0.00049999, 9.9996, 123456.789, -7.25e-7, 0.15]) {
      for (const d of [0, 1, 2, 3, 4]) {
        const v = claimValue(x, d);
        assert.ok(Math.abs(v - x) <= 0.5 * 10 ** -checkedDecimals(v) * (1 + 1e-9), `${x} stated as ${v} (${d} decimals asked)`);
      }
    }
  });

  it('walks upstream from the claim to every contributing call, and re-checks each as of when it ran', async () => {
    const base = await alLatticeBase();
    const j = await judgeReport([{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }], {
      provenance: base.provenance,
      specOf: (t) => registry.get(t),
    });
    assert.equal(j.level, 'pass', j.summary);
    assert.equal(j.accepted, true);
    assert.equal(j.calls.length, 23);
    assert.ok(j.calls.every((c) => c.reportTime.some((v) => v.tier === 'report')));
    // as of the cutoff selection, the later k selection did not exist
    const sel = j.calls.find((c) => c.tool === 'select_converged_settings')!;
    assert.ok(
      !viewAsOf(base.provenance, sel.call)
        .artifacts()
        .some((a) => a.id === base.names.kSel),
    );
    assert.match(j.summary, /model tiers not judged/);
  });

  it('refuses a report with no claims', async () => {
    const base = await alLatticeBase();
    const j = await judgeReport([], { provenance: base.provenance, specOf: (t) => registry.get(t) });
    assert.equal(j.accepted, false);
    assert.match(j.summary, /states no claims/);
  });

  it('with a model: ONE batched request judging every parameter of every contributing call', async () => {
    const base = await alLatticeBase();
    const claims = [{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }];
    const calls = (await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t) })).calls;
    const pairs = calls.flatMap((c) => Object.keys(base.provenance.call(c.call)!.args).map((parameter) => ({ call: c.call, parameter })));
    const fitCall = calls.find((c) => c.tool === 'fit_eos')!.call;
    rig = await startJudgeRig({
      steps: [
        {
          name: 'report',
          match: { lastUser: 'Calls to judge' },
          reply: {
            content: [
              {
                type: 'tool_use',
                name: 'record_report_verdicts',
                input: {
                  verdicts: pairs.map((p) => ({
                    ...p,
                    level: p.call === fitCall && p.parameter === 'form' ? 'warn' : 'pass',
                    reasons: [p.call === fitCall && p.parameter === 'form' ? 'state why Birch–Murnaghan' : 'fine'],
                  })),
                },
              },
            ],
          },
        },
      ],
    });
    const j = await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
    rig.api.assertScriptDone();
    assert.equal(rig.api.requests.length, 1);
    assert.equal(j.modelJudged, true);
    assert.equal(j.level, 'warn');
    assert.equal(j.accepted, false, 'a warning needs a person before the report counts');
    const fit = j.calls.find((c) => c.call === fitCall)!;
    assert.deepEqual(
      fit.reportTime.filter((v) => v.rule === 'report-judge@2').map((v) => [v.parameter, v.level]),
      [
        ['energies', 'pass'],
        ['form', 'warn'],
      ],
    );
    assert.ok(fit.callTime.length > 0, 'the call-time verdicts are kept beside');
  });

  it('a report judge outage fails open, counted apart', async () => {
    const base = await alLatticeBase();
    rig = await startJudgeRig({ steps: [{ fault: { type: 'server_error', status: 503 } }] });
    const j = await judgeReport([{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }], {
      provenance: base.provenance,
      specOf: (t) => registry.get(t),
      judge: rig.judge,
    });
    assert.equal(j.level, 'pass');
    assert.ok(j.infraErrors > 0);
    assert.match(j.summary, /judge error\(s\) \(failed open\)/);
  });

  it('names the claim and the source it needs when a lattice constant cites an input', async () => {
    const base = await alLatticeBase();
    const vs = checkClaim({ quantity: 'lattice_constant', value: 4.04, unit: 'Å', cites: `${base.names.bulk}.info.a` }, 0, base.provenance);
    const kind = vs.find((v) => v.rule === 'claim-source-kind')!;
    assert.equal(kind.level, 'fail');
    assert.match(
      kind.reasons[0]!,
      /cites a-1\.info\.a, a "bulk_structure" made by build_bulk; a lattice_constant must cite a lattice constant derived from an EOS fit/,
    );
  });
});
