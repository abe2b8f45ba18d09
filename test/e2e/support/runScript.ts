/**
 * A run written from this (test) process, the way the CLI would write it: real event log,
 * real provenance registry, real approval book. The e2e tests then watch VS Code show it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRun, openRun, type Run } from '../../../src/core/run/directory';
import { openEventLog } from '../../../src/core/canvas/eventLog';
import { ApprovalBook } from '../../../src/core/guard/approvals';
import type { ApprovalAnswer } from '../../../src/core/guard/types';
import { slab } from '../../../src/core/dft/structure/surface';
import { placeAdsorbate } from '../../../src/core/dft/structure/placement';
import { birchMurnaghanEnergy } from '../../../src/core/dft/eosForms';
import { EV_PER_ANGSTROM3_IN_GPA } from '../../../src/core/units';

export async function scalar(
  run: Run,
  tool: string,
  name: string,
  value: number,
  unit: string,
  refs: Record<string, string> = {},
): Promise<{ call: string; artifact: string }> {
  const args = Object.fromEntries(
    Object.entries(refs).map(([k, ref]) => {
      const r = run.registry.resolve(ref);
      if (!r.ok) throw new Error(`test run: ${r.problem}`);
      return [k, { value: r.value as never, ref }];
    }),
  );
  const call = await run.registry.recordCall({ tool, args, reasons: {}, context: 'e2e', verdicts: [], agent: { role: 'dft' } });
  const [a] = await run.registry.registerArtifacts(call.id, [{ kind: 'scalar', name, value, unit }]);
  await run.registry.endCall(call.id, { status: 'ok' });
  return { call: call.id, artifact: a!.id };
}

/** CO on the fcc site of Pt(111), with an EOS fit and a pending approval on the cutoff. */
export async function runAwaitingApproval(workspace: string, name: string): Promise<{ runDir: string; logPath: string; approval: string }> {
  const run = await createRun(path.join(workspace, `${name}.run`), { objective: 'CO adsorption site preference on Pt(111)', slug: name });
  const pt = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.97, size: [2, 2], layers: 3, vacuumAngstrom: 10, fixedLayers: 2 });
  const placed = placeAdsorbate(pt, { adsorbate: 'CO', site: 'fcc' });
  const build = await run.registry.recordCall({
    tool: 'place_adsorbate',
    args: {},
    reasons: {},
    context: 'e2e',
    verdicts: [],
    agent: { role: 'dft' },
  });
  await run.registry.registerArtifacts(build.id, [
    { kind: 'structure', name: 'slab_with_adsorbate', value: placed.structure, meta: { site: 'fcc' } },
  ]);
  await run.registry.endCall(build.id, { status: 'ok' });
  const energies: string[] = [];
  const v0 = 15.1;
  // Energies on a Birch–Murnaghan curve of fcc Al-like parameters (B0 = 78 GPa), rounded as pw.x prints them.
  const eos = { e0: -57, v0, b0: 78 / EV_PER_ANGSTROM3_IN_GPA, b0Prime: 4.5 };
  for (let i = 0; i < 5; i++) {
    const v = v0 * (0.94 + 0.03 * i);
    energies.push((await scalar(run, 'run_pw', 'total_energy', Number(birchMurnaghanEnergy(v, eos).toFixed(6)), 'eV')).artifact);
  }
  const fitArgs = Object.fromEntries(
    energies.map((id, i) => [`energy${i + 1}`, { value: run.registry.artifact(id)!.value as never, ref: id }]),
  );
  const fit = await run.registry.recordCall({
    tool: 'fit_eos',
    args: fitArgs,
    reasons: {},
    context: 'e2e',
    verdicts: [],
    agent: { role: 'dft' },
  });
  const points = energies.map((id, i) => ({
    volumeAngstrom3: v0 * (0.94 + 0.03 * i),
    energyEv: run.registry.artifact(id)!.value as number,
  }));
  await run.registry.registerArtifacts(fit.id, [
    {
      kind: 'table',
      name: 'eos_fit',
      value: { form: 'birch-murnaghan', v0Angstrom3: v0, e0Ev: -57, b0GPa: 78, b0Prime: 4.5, natoms: 1, points, rmsResidualEv: 0.0001 },
    },
  ]);
  await run.registry.endCall(fit.id, { status: 'ok' });
  const cut = await scalar(run, 'select_converged_settings', 'ecutwfc', 25, 'Ry');
  const req = await new ApprovalBook(run.log).raise({
    call: cut.call,
    tool: 'make_pw_input',
    parameter: 'ecutwfc',
    value: 25,
    verdicts: [
      {
        rule: 'cutoff-vs-pseudopotential',
        level: 'warn',
        reasons: ['25 Ry is below the 30 Ry that Pt.pbe-n-rrkjus.UPF suggests; energies may be off by several meV/atom.'],
      },
    ],
    provenancePath: [cut.artifact, cut.call],
  });
  const logPath = path.join(run.dir, 'events.jsonl');
  await run.close();
  fs.writeFileSync(
    path.join(workspace, `${name}.dreams`),
    JSON.stringify(
      {
        dreams: 1,
        run: { id: run.runId, log: path.relative(workspace, logPath) },
        cells: [{ kind: 'objective', id: 'objective-1', text: 'CO adsorption site preference on Pt(111)' }],
      },
      null,
      1,
    ) + '\n',
  );
  return { runDir: run.dir, logPath, approval: req.id };
}

/** Poll the log (as a reader) until the approval has an answer. */
export async function waitForAnswer(logPath: string, id: string, ms: number): Promise<ApprovalAnswer> {
  const { log } = await openEventLog(logPath, { mode: 'reader' });
  try {
    const end = Date.now() + ms;
    for (;;) {
      log.refresh();
      const e = log.events().find((x) => x.kind === 'approval.answer' && (x.payload as ApprovalAnswer).id === id);
      if (e) return e.payload as ApprovalAnswer;
      if (Date.now() > end) throw new Error(`no answer to ${id} in ${logPath} after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await log.close();
  }
}

/** The run goes on after the answer: the next step's result is written. */
export async function continueRun(runDir: string): Promise<string> {
  const run = await openRun(runDir, { mode: 'writer' });
  try {
    const cutoff = run.registry.artifacts().find((a) => a.name === 'ecutwfc')!.id;
    return (await scalar(run, 'make_pw_input', 'ecutwfc_used', 25, 'Ry', { ecutwfc: cutoff })).artifact;
  } finally {
    await run.close();
  }
}
