import assert from 'node:assert/strict';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import type { ApprovalPolicy, Verdict } from '../../../../src/core/guard/types';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { MemoryProvenance, type SeedArtifact } from './support/memoryProvenance';
import { MemoryEventLog } from './support/memoryEventLog';
import { cutoffSweep, eosSeries, kSelection, proposed } from './support/domain';
import { paramVerdicts, startJudgeRig, type JudgeRig } from './support/judgeRig';

const registry = new ToolRegistry();
const spec = (name: string) => registry.get(name)!;

function context(seed: SeedArtifact[], policy: ApprovalPolicy = 'continue', extra: Partial<GuardContext> = {}) {
  const provenance = new MemoryProvenance(seed);
  const log = new MemoryEventLog();
  const progress: string[] = [];
  const ctx: GuardContext = {
    provenance,
    approvals: new ApprovalBook(log),
    policy,
    run: { runId: 'r1', runDir: '/nonexistent', signal: new AbortController().signal, progress: (m) => progress.push(m), services: {} },
    ...extra,
  };
  return { ctx, provenance, log, progress };
}

const sweepCall = (ids: string[], tol = 1) =>
  proposed(
    'select_converged_settings',
    { parameter: 'ecutwfc', energies: ids, toleranceMevPerAtom: tol },
    {},
    { toleranceMevPerAtom: '1 meV/atom for a lattice constant' },
  );

describe('guardedCall', () => {
  it('runs a legitimate call: records it, runs the body, registers outputs with every energy read as an input', async () => {
    const { ctx, provenance } = context(cutoffSweep(1));
    const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), ctx);
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = provenance.artifact((out as { outputs: string[] }).outputs[0]!)!;
    assert.equal(made.name, 'converged_settings');
    assert.deepEqual(made.inputs, ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
    assert.equal((made.value as { chosenValue: number }).chosenValue, 35);
    const rec = provenance.call(out.call)!;
    assert.equal(rec.status, 'ok');
    assert.ok(rec.verdicts.some((v) => v.rule === 'settings-comparable' && v.level === 'pass'));
  });

  it('records tiers 2 and 3 as "not judged" without a judge, never as a judged pass', async () => {
    const { ctx } = context(cutoffSweep(1));
    const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']), ctx);
    const judges = (out as { verdicts: Verdict[] }).verdicts.filter((v) => v.tier === 'tier2' || v.tier === 'tier3');
    assert.deepEqual(
      judges.map((v) => [v.tier, v.parameter ?? '*', v.judged]),
      [
        ['tier2', 'parameter', false],
        ['tier2', 'energies', false],
        ['tier2', 'toleranceMevPerAtom', false],
        ['tier3', '*', false],
      ],
    );
    assert.ok(judges.every((v) => /not judged: no judge model is configured/.test(v.reasons[0]!)));
  });

  it('refuses a tier-1 failure before the body runs, with reasons the agent can act on', async () => {
    const { ctx, provenance } = context([...cutoffSweep(1), ...cutoffSweep(6, [20], { smearing: 'gaussian' })]);
    const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-6']), ctx);
    assert.equal(out.status, 'refused');
    assert.match(
      (out as { message: string }).message,
      /\[settings-comparable\].*smearing differs.*Fix these and call select_converged_settings again/s,
    );
    assert.equal(provenance.call(out.call)!.status, 'refused');
    assert.equal(provenance.records.length, 6, 'nothing was registered');
  });

  it('refuses arguments that break the schema without recording a call, naming the argument', async () => {
    const { ctx, provenance } = context(cutoffSweep(1));
    const out = await guardedCall(
      spec('select_converged_settings'),
      proposed('select_converged_settings', { parameter: 'ecut', energies: ['a-1'] }),
      ctx,
    );
    assert.equal(out.status, 'refused');
    assert.equal(out.call, '');
    const msg = (out as { message: string }).message;
    assert.match(msg, /missing required "toleranceMevPerAtom"/);
    assert.match(msg, /argument parameter must be one of \["ecutwfc","kspacing"\] \(given "ecut"\)/);
    assert.match(msg, /energies must NOT have fewer than 3 items/);
    assert.equal(provenance.calls.length, 5, 'only the seed calls exist');
  });

  it('fills an argument given only as a reference from the registry', async () => {
    const { ctx, provenance } = context([
      ...eosSeries(1),
      { id: 'a-6', kind: 'table', name: 'converged_settings', value: { tol: 1 }, creatorTool: 'select_converged_settings' },
    ]);
    const call = proposed(
      'select_converged_settings',
      { parameter: 'kspacing', energies: ['a-1', 'a-2', 'a-3'] },
      { toleranceMevPerAtom: 'a-6.tol' },
    );
    const out = await guardedCall(spec('select_converged_settings'), call, ctx);
    const rec = provenance.call(out.call)!;
    assert.deepEqual(rec.args.toleranceMevPerAtom, { value: 1, ref: 'a-6.tol' });
  });

  it('reports a failing body as failed, with its message', async () => {
    const { ctx, provenance } = context(eosSeries(1));
    // the k sweep has the same spacing in every run: the convergence module refuses the duplicate
    const out = await guardedCall(
      spec('select_converged_settings'),
      proposed('select_converged_settings', { parameter: 'kspacing', energies: ['a-1', 'a-2', 'a-3'], toleranceMevPerAtom: 1 }),
      ctx,
    );
    assert.equal(out.status, 'failed');
    assert.match((out as { error: string }).error, /tests 0\.2 1\/Å twice/);
    assert.equal(provenance.call(out.call)!.status, 'failed');
  });

  it('marks k-point tests run at another cutoff stale when a new cutoff is chosen', async () => {
    const { ctx, provenance } = context([kSelection('a-1', [0.4, 0.3, 0.2, 0.15], 0.2, 25), ...cutoffSweep(2)]);
    const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-2', 'a-3', 'a-4', 'a-5', 'a-6']), ctx);
    assert.equal(out.status, 'ok');
    assert.equal(provenance.artifact('a-1')!.status, 'stale');
    assert.match(provenance.statusLog[0]!.reason, /cutoff changed to 35 Ry.*a-1 at 25 Ry must be redone/);
  });

  describe('warnings and the approval policy (judges on the fake API)', () => {
    let rig: JudgeRig;
    const warnScript = () => ({
      steps: [
        paramVerdicts(
          [
            { parameter: 'parameter', level: 'pass' },
            { parameter: 'energies', level: 'pass' },
            { parameter: 'toleranceMevPerAtom', level: 'warn', reasons: ['5 meV/atom is loose for a lattice constant'] },
          ],
          {},
          'always',
        ),
        {
          name: 'cross',
          times: 'always' as const,
          match: { system: 'Cross-parameter judge', lastUser: 'fit together' },
          reply: {
            content: [{ type: 'tool_use' as const, name: 'record_cross_verdict', input: { level: 'pass', reasons: ['consistent'] } }],
          },
        },
      ],
    });
    afterEach(async () => rig?.stop());

    it('auto-approve: registers the value with the concern stamped and the approval answered by policy', async () => {
      rig = await startJudgeRig(warnScript());
      const { ctx, provenance, log } = context(cutoffSweep(1), 'auto-approve', { judge: rig.judge });
      const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 5), ctx);
      assert.equal(out.status, 'ok');
      const made = provenance.artifact((out as { outputs: string[] }).outputs[0]!)!;
      assert.equal(made.concerns.length, 1);
      assert.deepEqual(
        [made.concerns[0]!.source, made.concerns[0]!.parameter, made.concerns[0]!.approval],
        ['tier2', 'toleranceMevPerAtom', 'ap-1'],
      );
      assert.deepEqual(
        log.list.map((e) => e.kind),
        ['approval.request', 'approval.answer', 'approval.proceeded'],
      );
      assert.equal((log.list[1]!.payload as { by: string }).by, 'policy');
      assert.deepEqual((out as { pendingApprovals: string[] }).pendingApprovals, []);
    });

    it('continue: runs on, and says the result counts only once approved', async () => {
      rig = await startJudgeRig(warnScript());
      const { ctx, log } = context(cutoffSweep(1), 'continue', { judge: rig.judge });
      const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 5), ctx);
      assert.equal(out.status, 'ok');
      assert.deepEqual((out as { pendingApprovals: string[] }).pendingApprovals, ['ap-1']);
      assert.match((out as { summary: string }).summary, /Approval ap-1 is open/);
      const req = log.list[0]!.payload as { parameter: string; value: unknown; provenancePath: string[] };
      assert.equal(req.parameter, 'toleranceMevPerAtom');
      assert.equal(req.value, 5);
    });

    it('continue: a later rejection, however it is recorded, makes the outputs provisional', async () => {
      rig = await startJudgeRig(warnScript());
      const { ctx, provenance, log } = context(cutoffSweep(1), 'continue', { judge: rig.judge });
      const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 5), ctx);
      const made = (out as { outputs: string[] }).outputs[0]!;
      assert.equal(provenance.artifact(made)!.status, 'final');
      // answered through the same log by another book, as the notebook does
      await new ApprovalBook(log).answer('ap-1', 'reject', 'user@vscode', 'tolerance too loose');
      await new Promise((r) => setTimeout(r, 10));
      assert.equal(provenance.artifact(made)!.status, 'provisional');
      assert.match(provenance.statusLog.at(-1)!.reason, /ap-1 rejected by user@vscode: tolerance too loose/);
    });

    it('wait: pauses until the user answers; a rejection refuses the call and the body never runs', async () => {
      rig = await startJudgeRig(warnScript());
      const { ctx, provenance, progress } = context(cutoffSweep(1), 'wait', { judge: rig.judge });
      const pending = guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 5), ctx);
      while (!ctx.approvals.request('ap-1')) await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(progress, ['waiting for approval ap-1 of select_converged_settings']);
      await ctx.approvals.answer('ap-1', 'reject', 'user@vscode', 'use 1 meV/atom');
      const out = await pending;
      assert.equal(out.status, 'rejected');
      assert.match((out as { message: string }).message, /rejected by user@vscode: use 1 meV\/atom/);
      assert.equal(provenance.records.length, 5);
    });

    it('wait: an approval lets the call run', async () => {
      rig = await startJudgeRig(warnScript());
      const { ctx } = context(cutoffSweep(1), 'wait', { judge: rig.judge });
      const pending = guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 5), ctx);
      while (!ctx.approvals.request('ap-1')) await new Promise((r) => setTimeout(r, 5));
      await ctx.approvals.answer('ap-1', 'approve', 'user@cli');
      assert.equal((await pending).status, 'ok');
    });

    it('a judge fail refuses the call', async () => {
      rig = await startJudgeRig({
        steps: [
          paramVerdicts([
            { parameter: 'parameter', level: 'pass' },
            { parameter: 'energies', level: 'pass' },
            { parameter: 'toleranceMevPerAtom', level: 'fail', reasons: ['50 meV/atom cannot resolve a lattice constant'] },
          ]),
          {
            name: 'cross',
            match: { system: 'Cross-parameter judge' },
            reply: { content: [{ type: 'tool_use', name: 'record_cross_verdict', input: { level: 'pass', reasons: ['ok'] } }] },
          },
        ],
      });
      const { ctx } = context(cutoffSweep(1), 'auto-approve', { judge: rig.judge });
      const out = await guardedCall(spec('select_converged_settings'), sweepCall(['a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 50), ctx);
      assert.equal(out.status, 'refused');
      assert.match((out as { message: string }).message, /\[param-judge@2 · toleranceMevPerAtom\] 50 meV\/atom cannot resolve/);
    });
  });
});
