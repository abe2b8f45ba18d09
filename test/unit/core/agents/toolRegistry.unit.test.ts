import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import type { RegistryContext } from '../../../../src/core/agents/toolRegistry';
import type { ToolUseBlock } from '../../../../src/core/llm/types';
import { alLatticeBase, closeAllBases } from '../guard/support/scenarioBases';

const registry = new ToolRegistry();

describe('registry: model tool use through the guard', () => {
  after(closeAllBases);
  async function ctx() {
    const base = await alLatticeBase();
    const c: RegistryContext = {
      provenance: base.provenance,
      approvals: new ApprovalBook(base.log),
      policy: 'auto-approve',
      events: base.log,
      run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
    };
    return { base, c };
  }
  const use = (name: string, input: unknown): ToolUseBlock => ({ type: 'tool_use', id: 'tu_9', name, input });

  it('answers a refused call with an error tool_result carrying the reasons', async () => {
    const { base, c } = await ctx();
    const r = await registry.call(
      use('lattice_constant_from_volume', {
        arguments: { eosFit: base.names.eosFit, structure: base.names.bulk, bravais: 'bcc' },
        reasons: {},
        context: 'step a',
      }),
      'dft',
      c,
    );
    assert.equal(r.toolResult.isError, true);
    assert.equal(r.toolResult.toolUseId, 'tu_9');
    assert.match(
      r.toolResult.content,
      /lattice_constant_from_volume was refused by the guard:\n- \[lattice-uses-cell-symmetry · bravais\]/,
    );
  });

  it('judges a written report and records the judgement; an accurate report is accepted', async () => {
    const { base, c } = await ctx();
    const r = await registry.call(
      use('write_report', {
        arguments: {
          title: 'Al lattice constant',
          text: 'PBE a = 4.049 Å',
          claims: [{ quantity: 'lattice_constant', value: 4.049, unit: 'Å', cites: base.names.lattice }],
        },
        reasons: {},
        context: 'report',
      }),
      'supervisor',
      c,
    );
    assert.equal(r.toolResult.isError, false);
    assert.equal(r.report!.accepted, true, r.toolResult.content);
    assert.match(
      r.toolResult.content,
      /Report judge: accepted \(1 claim\(s\), \d+ contributing call\(s\): 0 fail, 0 warn, model tiers not judged\)/,
    );
    const judged = base.log.events().filter((e) => e.kind === 'report.judged');
    assert.equal(judged.length, 1);
    assert.equal((judged[0]!.payload as { accepted: boolean }).accepted, true);
    const calls = (judged[0]!.payload as { calls: { tool: string; callTime: unknown[]; reportTime: unknown[] }[] }).calls;
    assert.deepEqual(
      calls.map((x) => x.tool),
      [
        'build_bulk',
        'select_pseudopotentials',
        'make_pw_input',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'select_converged_settings',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'select_converged_settings',
        'make_pw_input',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'run_pw',
        'fit_eos',
        'lattice_constant_from_volume',
      ],
    );
    const fit = calls.find((x) => x.tool === 'fit_eos')!;
    assert.ok(fit.callTime.length > 0 && fit.reportTime.length > 0, 'call-time and report-time verdicts are both kept');
  });

  it('does not accept a report whose number is not the recorded one, and says which claim', async () => {
    const { base, c } = await ctx();
    const r = await registry.call(
      use('write_report', {
        arguments: {
          title: 'Al',
          text: 'a = 4.00 Å',
          claims: [{ quantity: 'lattice_constant', value: 4.0, unit: 'Å', cites: base.names.lattice }],
        },
        reasons: {},
        context: 'report',
      }),
      'supervisor',
      c,
    );
    assert.equal(r.report!.accepted, false);
    assert.match(
      r.toolResult.content,
      /not accepted[\s\S]*\[claim-value · claims\[0\]\] claims\[0\] states 4 Å but a-23 records 4\.0493877 Å/,
    );
  });
});
