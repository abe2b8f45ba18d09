// The report judge's model audit: only the calls the claims depend on, a call identical to one
// judged (or of its series) summarised under it, references-only calls left to tier 1, and a
// large audit split into requests that fit.
import assert from 'node:assert/strict';
import { AUDIT_LIMITS, judgeReport } from '../../../../src/core/guard/reportJudge';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { alLatticeBase, closeAllBases } from './support/scenarioBases';
import { startJudgeRig, type JudgeRig } from './support/judgeRig';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';

const registry = new ToolRegistry();

/** A report judge that passes every parameter it is asked about, in as many requests as come. */
function passingReportJudge(times: number) {
  return {
    name: 'report',
    times,
    match: { lastUser: 'Calls to judge' },
    reply: { content: [{ type: 'tool_use' as const, name: 'record_report_verdicts', input: { verdicts: [] as unknown[] } }] },
  };
}

type Body = { messages: { content: string }[]; system: { text: string }[] };

describe('report judge: the audit a model is asked for', function () {
  this.timeout(60_000); // the scenario base is built once, by the real tool bodies
  let rig: JudgeRig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });
  after(closeAllBases);

  it('lists each call once: identical runs are summarised under the one judged, and the counts agree with the prompt', async () => {
    const base = await alLatticeBase();
    const claims = [{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }];
    const offline = await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t) });
    // the verdicts the judge gives: a pass for every parameter of the calls it is shown
    const shown = new Set<string>();
    rig = await startJudgeRig({ steps: [{ ...passingReportJudge(1) }] });
    const j = await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
    const body = rig.api.requests[0]!.body as unknown as Body;
    const text = body.messages[0]!.content;
    for (const m of text.matchAll(/^## (c-\d+) /gm)) shown.add(m[1]!);
    assert.equal(j.calls.length, offline.calls.length, 'the same contributing calls');
    assert.ok(shown.size < j.calls.length, `${shown.size} of ${j.calls.length} calls listed`);
    assert.match(
      text,
      new RegExp(
        `The claims depend on ${j.calls.length} call\\(s\\)\\. This request judges the ${shown.size} below \\(their verdicts also stand for ${j.calls.length - shown.size} identical call`,
      ),
    );
    assert.match(
      j.summary,
      new RegExp(
        `${j.calls.length} contributing call\\(s\\) \\(${shown.size} judged by the model in 1 request\\(s\\), ${j.calls.length - shown.size} identical or of a series under them\\)`,
      ),
    );
    // a call not listed takes the verdicts of the one it stands under, saying so
    const summarised = j.calls.find((c) => !shown.has(c.call))!;
    assert.ok(
      summarised.reportTime
        .filter((v) => v.tier === 'report' && v.parameter)
        .every((v) => /\(as judged for c-\d+: identical arguments to c-\d+\)/.test(v.reasons.join(' '))),
    );
    // only the tools of the listed calls are documented, with the report judge's rules alone
    assert.match(body.system[0]!.text, /^# Report judge/);
    assert.doesNotMatch(body.system[0]!.text, /## write_report|## adsorption_energy/);
  });

  it("takes one verdict per call for its parameters, and a parameter's own verdict where the judge singles it out", async () => {
    const base = await alLatticeBase();
    const claims = [{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }];
    const fitCall = (await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t) })).calls.find(
      (c) => c.tool === 'fit_eos',
    )!.call;
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
                  verdicts: [
                    { call: fitCall, parameter: '*', level: 'pass', reasons: ['five volumes around the minimum'] },
                    { call: fitCall, parameter: 'form', level: 'warn', reasons: ['state why Birch–Murnaghan'] },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    const j = await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
    const fit = j.calls.find((c) => c.call === fitCall)!;
    assert.deepEqual(
      fit.reportTime.filter((v) => v.rule === 'report-judge@2').map((v) => [v.parameter, v.level, v.reasons[0]]),
      [
        ['energies', 'pass', 'five volumes around the minimum'],
        ['form', 'warn', 'state why Birch–Murnaghan'],
      ],
    );
    assert.match((rig.api.requests[0]!.body as unknown as Body).messages[0]!.content, /Give one verdict per call above \(parameter "\*"\)/);
  });

  it("shows the judge the report's text, so it can weigh what the report says around its claims", async () => {
    const base = await alLatticeBase();
    const claims = [{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }];
    rig = await startJudgeRig({ steps: [{ ...passingReportJudge(1) }] });
    await judgeReport(claims, {
      provenance: base.provenance,
      specOf: (t) => registry.get(t),
      judge: rig.judge,
      text: 'a = 4.0494 Å. Caveat: the k sweep oscillates; approval ap-1 asks about it.',
    });
    assert.match(
      (rig.api.requests[0]!.body as unknown as Body).messages[0]!.content,
      /^Report text:\na = 4\.0494 Å\. Caveat: the k sweep oscillates; approval ap-1 asks about it\.\n\nClaims/,
    );
  });

  it('shows the judge what the deterministic checks found: each claim against its record, and the upstream artifacts', async () => {
    const base = await alLatticeBase();
    const claims = [
      { quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! },
      { quantity: 'lattice_constant', value: 4.049, unit: 'Å', cites: base.names.lattice! },
    ];
    rig = await startJudgeRig({ steps: [{ ...passingReportJudge(1) }] });
    await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
    const text = (rig.api.requests[0]!.body as unknown as Body).messages[0]!.content;
    assert.match(
      text,
      /^Claims, with the deterministic checks of each \(tier 1\):\n- claims\[0\] lattice_constant = 4\.0494 Å, cites a-\d+; tier 1: pass \(claim-source-kind, [^)]*claim-value[^)]*\)$/m,
    );
    assert.match(
      text,
      /^- claims\[1\] lattice_constant = 4\.049 Å, cites a-\d+; tier 1: pass \(claim-source-kind, [^)]*claim-value[^)]*\)$/m,
    );
    assert.match(text, /^Upstream artifacts \(tier 1\): pass: \d+ upstream artifact\(s\) are final and approved$/m);
  });

  it('shows the judge the comparison table of each convergence selection a claim cites, so the choice is checked against the recorded sweep', async () => {
    const base = await alLatticeBase();
    const cut = base.names.cutSel!;
    const sel = base.provenance.artifact(cut)!.value as ConvergenceSelectionValue;
    const claims = [
      { quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! },
      { quantity: 'converged_cutoff', value: sel.chosen.ecutwfcRy!, unit: 'Ry', cites: `${cut}.chosen.ecutwfcRy` },
    ];
    rig = await startJudgeRig({ steps: [{ ...passingReportJudge(1) }] });
    await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
    const text = (rig.api.requests[0]!.body as unknown as Body).messages[0]!.content;
    assert.match(text, /^Convergence selections the claims cite, each with the table it chose from/m);
    const esc = (x: number | string) => String(x).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const finest = Math.max(...sel.tested.map((t) => t.value));
    assert.match(
      text,
      new RegExp(
        `^- ${cut} \\(converged_settings\\): ecutwfc \\(Ry\\), judged by energy: \\|ΔE\\| < ${esc(sel.toleranceMevPerAtom!)} meV/atom; chosen ${sel.chosenValue}, finest ${finest}, converged$`,
        'm',
      ),
    );
    // every tested cutoff, its energy and difference to the finest, and whether it was within the tolerance
    for (const t of sel.tested) {
      const verdict = t.value === finest ? 'finest' : t.deltaMevPerAtom < sel.toleranceMevPerAtom! ? 'yes' : 'no';
      assert.match(
        text,
        new RegExp(
          `^  ${t.value} \\| ${esc(Number(t.energyEvPerAtom.toFixed(6)))} \\| ${esc(Number(t.deltaMevPerAtom.toFixed(3)))} \\| ${verdict}${t.value === sel.chosenValue ? ' \\(chosen\\)' : ''}$`,
          'm',
        ),
      );
    }
    // the k choice is not cited: its table is not shown
    assert.doesNotMatch(text, new RegExp(`^- ${base.names.kSel!} `, 'm'));
  });

  it('splits a large audit into requests that fit, each saying which part it is', async () => {
    const base = await alLatticeBase();
    const claims = [{ quantity: 'lattice_constant', value: 4.0494, unit: 'Å', cites: base.names.lattice! }];
    const saved = { ...AUDIT_LIMITS };
    AUDIT_LIMITS.parameters = 8;
    try {
      rig = await startJudgeRig({ steps: [{ ...passingReportJudge(20) }] });
      const j = await judgeReport(claims, { provenance: base.provenance, specOf: (t) => registry.get(t), judge: rig.judge });
      const n = rig.api.requests.length;
      assert.ok(n >= 3, `${n} requests`);
      rig.api.requests.forEach((r, i) =>
        assert.match((r.body as unknown as Body).messages[0]!.content, new RegExp(`This is request ${i + 1} of ${n}`)),
      );
      assert.match(j.summary, new RegExp(`judged by the model in ${n} request\\(s\\)`));
    } finally {
      Object.assign(AUDIT_LIMITS, saved);
    }
  });
});
