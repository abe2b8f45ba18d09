/**
 * A completed lattice-constant run made through the real run directory, event log and provenance
 * registry, without pw.x: a plan of two steps, an E(V) fit (seven points on a Birch–Murnaghan curve
 * with the parameters the recorded Al LDA study found, V0 15.5042 Å³, B0 83.1 GPa, fitted back), the
 * lattice constant from it, a report citing it, the report judge's verdict and the run's end. What
 * the report-cell tests (unit, vscode, e2e) open.
 */
import { fitEos } from '../../src/core/dft/eos';
import { birchMurnaghanEnergy } from '../../src/core/dft/eosForms';
import { EV_PER_ANGSTROM3_IN_GPA } from '../../src/core/units';
import { createRun, setRunState, type Run } from '../../src/core/run/directory';
import type { EosFitValue } from '../../src/core/artifacts/shapes';

export const COMPLETED_REPORT_TEXT =
  '# Lattice constant of fcc Al (LDA)\n\nThe equilibrium lattice constant is **3.9582 Å**, from the Birch–Murnaghan fit of seven volumes.\n';

export async function completedLatticeRun(root: string): Promise<{ run: Run; fit: string; lattice: string; report: string }> {
  const objective = 'Lattice constant of fcc Al with LDA';
  const run = await createRun(root, { objective, slug: 'al-lattice' });
  const supervisor = { kind: 'agent' as const, id: 'supervisor' };
  const plan = (eos: string, report: string) =>
    run.canvas.write(
      'plan',
      {
        objective,
        version: 1,
        steps: [
          { id: 'eos', title: 'Fit the equation of state', worker: 'dft', tool: 'fit_eos', status: eos },
          { id: 'report', title: 'Write the report', worker: 'dft', tool: 'write_report', status: report },
        ],
      },
      'test',
      supervisor,
    );
  await setRunState(run, 'running');
  await plan('running', 'pending');
  const params = { e0: -57.2, v0: 15.5042, b0: 83.1 / EV_PER_ANGSTROM3_IN_GPA, b0Prime: 4.6 };
  const points = [0.94, 0.96, 0.98, 1, 1.02, 1.04, 1.06].map((s) => ({
    volumeA3: params.v0 * s,
    energyEv: birchMurnaghanEnergy(params.v0 * s, params),
  }));
  const fitted = fitEos(points, 'birch-murnaghan');
  const value: EosFitValue = {
    form: fitted.form,
    v0Angstrom3: fitted.v0A3,
    e0Ev: fitted.e0Ev,
    b0GPa: fitted.b0Gpa,
    b0Prime: fitted.b0Prime,
    natoms: 1,
    points: points.map((p) => ({ volumeAngstrom3: p.volumeA3, energyEv: p.energyEv })),
    rmsResidualEv: fitted.rmsResidualEv,
  };
  const eos = await run.registry.recordCall({
    tool: 'fit_eos',
    args: {},
    reasons: {},
    context: 'test',
    verdicts: [],
    agent: { role: 'dft' },
    step: 'eos',
  });
  const [fit] = await run.registry.registerArtifacts(eos.id, [{ kind: 'table', name: 'eos_fit', value }]);
  const a = Number(Math.cbrt(4 * fitted.v0A3).toFixed(4));
  const [lattice] = await run.registry.registerArtifacts(eos.id, [
    { kind: 'scalar', name: 'lattice_constant', value: a, unit: 'Å', inputs: [fit!.id] },
  ]);
  await run.registry.endCall(eos.id, { status: 'ok' });
  await plan('done', 'running');
  const rep = await run.registry.recordCall({
    tool: 'write_report',
    args: {},
    reasons: {},
    context: 'test',
    verdicts: [],
    agent: { role: 'dft' },
    step: 'report',
  });
  const claims = [{ quantity: 'lattice_constant', value: a, unit: 'Å', cites: lattice!.id }];
  const [report] = await run.registry.registerArtifacts(rep.id, [
    {
      kind: 'file',
      name: 'report',
      value: { title: 'Lattice constant of fcc Al (LDA)', claims },
      file: { name: 'report.md', bytes: COMPLETED_REPORT_TEXT.replace('3.9582', String(a)) },
      inputs: [lattice!.id],
    },
  ]);
  await run.registry.endCall(rep.id, { status: 'ok' });
  await run.log.append({
    kind: 'report.judged',
    key: `reports/${report!.id}`,
    actor: { kind: 'judge', id: 'report-judge' },
    payload: {
      call: rep.id,
      report: report!.id,
      level: 'pass',
      accepted: true,
      claims: claims.map((claim) => ({
        claim,
        verdicts: [{ tier: 'report', rule: 'claim-matches-artifact', level: 'pass', reasons: [], judged: true }],
      })),
      upstream: [],
      calls: [],
      infraErrors: 0,
      modelJudged: false,
      summary: '1 claim checked against its artifact, 0 fail, 0 warn',
    },
  });
  await plan('done', 'done');
  await run.canvas.write('notes/response', `a = ${a} Å (${lattice!.id}).`, 'the final answer', supervisor);
  await setRunState(run, 'completed');
  return { run, fit: fit!.id, lattice: lattice!.id, report: report!.id };
}
