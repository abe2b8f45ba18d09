// The adsorption site-preference workflow (CO/Pt(111) p(1×1), PBE) end to end at toy settings,
// offline, with real pw.x: both sites and the clean slab relaxed with the bottom layer fixed,
// adsorption energies only from energies with matching settings, ΔBE = E_ads(ontop) − E_ads(fcc)
// with its sign stated, a gas reference at another cutoff refused, and the report accepted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { EnergyMeta, PwInputValue } from '../../src/core/artifacts/shapes';
import { parsePwInput, readAtomicPositions } from '../../src/core/dft/qe/input';
import type { Structure } from '../../src/core/dft/types';
import type { GuardedOutcome } from '../../src/core/guard/types';
import { writeRunOutputs } from '../../src/core/run/outputs';
import { registryContext } from '../../src/core/agents/worker';
import { guardedCall } from '../../src/core/guard/guardedCall';
import { adsorbateGeometry } from '../../src/core/workflows/sitePreference/relaxedGeometry';
import { studyOf, toyRuns, type StudyProvenance, type ToyRun } from './support/coptToyRuns';

describe('adsorption-site-preference: CO/Pt(111) at toy settings (offline, real pw.x)', function () {
  // minutes on a quiet two-core machine; generous because the qe tier shares its cores
  this.timeout(7_200_000);
  let run: ToyRun;
  let p: StudyProvenance;
  let byStep: ReturnType<typeof studyOf>['byStep'];

  before(async () => {
    run = await toyRuns().sitePreference;
    ({ p, byStep } = studyOf(run));
  });
  after(async () => run?.controller.close());

  it('completes every step of the template', () => {
    assert.equal(run.result.state, 'completed', run.result.reason);
    const plan = run.controller.session.runtime.canvas.read('plan') as {
      ok: true;
      value: { workflow: string; steps: { id: string; status: string }[] };
    };
    assert.equal(plan.value.workflow, 'adsorption-site-preference');
    assert.ok(
      plan.value.steps.every((s) => s.status === 'done'),
      plan.value.steps.map((s) => `${s.id}:${s.status}`).join(' '),
    );
    // nothing orders the gas molecule and the three relaxations: they are queued together
    const events = run.controller.session.run.log.events();
    const runs = ['gas-run', 'relax-clean-run', 'relax-ontop-run', 'relax-fcc-run'];
    const firstEnd = Math.min(
      ...events.filter((e) => e.kind === 'step.end' && runs.some((r) => (e.key ?? '').endsWith(`/${r}`))).map((e) => e.seq),
    );
    const startedBefore = runs.filter((r) =>
      events.some((e) => e.kind === 'step.start' && (e.key ?? '').endsWith(`/${r}`) && e.seq < firstEnd),
    );
    assert.deepEqual(startedBefore, runs, 'every independent pw.x step started before the first ended');
  });

  it('relaxes both sites and the clean slab with the bottom layer fixed: fixed atoms unmoved, free atoms moved, CO still on its site', () => {
    for (const site of ['ontop', 'fcc'] as const) {
      const relaxed = byStep(`relaxed-${site}`, 'relaxed_structure');
      const structure = relaxed.value as Structure;
      const input = p.artifact(byStep(`relax-${site}-input`, 'pw_input').id)!.value as PwInputValue;
      // the pw.x input says which atoms are fixed: if_pos 0 0 0 on the bottom layer only
      const positions = readAtomicPositions(parsePwInput(input.text))!.value!;
      const fixed = positions.atoms.map((a) => (a.ifPos ?? [1, 1, 1]).every((x) => x === 0));
      assert.deepEqual(
        fixed,
        input.structure.tags!.map((t) => t === 2),
        `${site}: fixed atoms are the bottom layer`,
      );
      let maxFree = 0;
      structure.positions.forEach((r, i) => {
        const d = Math.hypot(
          r[0] - input.structure.positions[i]![0],
          r[1] - input.structure.positions[i]![1],
          r[2] - input.structure.positions[i]![2],
        );
        if (fixed[i]) assert.ok(d < 1e-6, `${site}: fixed atom ${i} moved ${d} Å`);
        else maxFree = Math.max(maxFree, d);
      });
      assert.ok(maxFree > 0.01, `${site}: the free atoms relaxed (largest move ${maxFree} Å)`);
      const g = adsorbateGeometry(structure)!;
      assert.equal(g.site, site, `${site}: CO ended over ${g.site}`);
      assert.ok(g.bondAngstrom! > 1.1 && g.bondAngstrom! < 1.25, `C–O ${g.bondAngstrom} Å`);
      assert.ok(g.heightAngstrom > 1 && g.heightAngstrom < 2.2, `C ${g.heightAngstrom} Å above the top layer`);
      const out = fs.readFileSync(
        path.join(run.controller.runDir, p.artifact(byStep(`relax-${site}-run`, 'pw_output').id)!.location!),
        'utf8',
      );
      assert.match(out, /bfgs converged/, `${site}: the relaxation converged`);
    }
    const clean = p.artifact(byStep('relax-clean-run', 'pw_output').id)!;
    assert.match(fs.readFileSync(path.join(run.controller.runDir, clean.location!), 'utf8'), /bfgs converged/);
  });

  it('combines only energies with matching settings (the gas molecule differs in k-sampling alone), checked by the guard', () => {
    for (const site of ['ontop', 'fcc']) {
      const eads = byStep(`eads-${site}`, 'adsorption_energy');
      const call = p.call(eads.creator)!;
      const [withAds, clean, gas] = ['slabWithAdsorbate', 'slab', 'adsorbate'].map((k) => p.artifact(call.args[k]!.value as string)!);
      const s = [withAds, clean, gas].map((a) => (a!.meta as EnergyMeta).settings);
      // each energy names the pseudopotentials of its own elements: compare the rest, and the files per element
      const { kMesh: _a, pseudopotentials: ppAds, ...slabRest } = s[0]!;
      const { pseudopotentials: ppClean, ...cleanRest } = s[1]!;
      const { kMesh: _b, pseudopotentials: ppGas, ...gasRest } = s[2]!;
      assert.deepEqual(slabRest, (({ kMesh: _k, ...r }) => r)({ ...cleanRest }), `${site}: slab and slab+CO share every setting`);
      assert.deepEqual(s[0]!.kMesh, s[1]!.kMesh);
      assert.deepEqual(slabRest, gasRest, `${site}: the gas reference shares all but k`);
      const pp = (x: unknown) => x as Record<string, unknown>;
      assert.deepEqual(pp(ppClean).Pt, pp(ppAds).Pt, `${site}: the same Pt file`);
      for (const el of ['C', 'O']) assert.deepEqual(pp(ppGas)[el], pp(ppAds)[el], `${site}: the same ${el} file`);
      assert.deepEqual(s[2]!.kMesh, [1, 1, 1]);
      assert.ok(call.verdicts.some((v) => v.rule === 'settings-comparable' && v.level === 'pass'));
      assert.ok(Math.abs((eads.value as number) - ((withAds!.value as number) - (clean!.value as number) - (gas!.value as number))) < 1e-9);
      assert.ok((eads.value as number) < 0, `CO binds at ${site}: E_ads = ${eads.value} eV`);
    }
  });

  it('ΔBE = E_ads(ontop) − E_ads(fcc), positive when fcc binds more strongly, stated so in the report the judge accepted', async () => {
    const dbe = byStep('site-preference', 'delta_be');
    const [top, fcc] = ['ontop', 'fcc'].map((s) => byStep(`eads-${s}`, 'adsorption_energy').value as number);
    assert.ok(Math.abs((dbe.value as number) - (top! - fcc!)) < 1e-12);
    // the clean slab and the gas reference cancel: ΔBE is the difference of the two relaxed totals
    const [eTop, eFcc] = ['ontop', 'fcc'].map((s) => byStep(`relax-${s}-run`, 'total_energy').value as number);
    assert.ok(Math.abs((dbe.value as number) - (eTop! - eFcc!)) < 1e-9);
    assert.equal(dbe.meta!.favouredSite, (dbe.value as number) > 0 ? 'fcc' : 'ontop');
    const events = run.controller.session.run.log.events();
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean; report: string };
    assert.equal(judged.accepted, true);
    const outputs = await writeRunOutputs(run.controller.session.run, { bundle: false });
    const md = fs.readFileSync(outputs.report, 'utf8');
    // the report rounds to the meV (trailing zeros dropped: 0.070 prints as 0.07)
    const shown = new RegExp(
      `ΔBE = E_ads\\(ontop\\) − E_ads\\(fcc\\) = (-?\\d+(?:\\.\\d+)?) eV\\*\\* \\(${dbe.id}\\): the ${(dbe.value as number) > 0 ? 'fcc hollow' : 'top site'} binds more strongly`,
    ).exec(md);
    assert.ok(shown, md.slice(0, 2000));
    assert.ok(Math.abs(Number(shown[1]) - (dbe.value as number)) < 5e-4, `the report says ${shown[1]} eV for ${dbe.value}`);
    assert.match(md, /Positive ΔBE means the fcc hollow is favoured/);
    assert.match(md, /ontop \(a-\d+\): C stayed over the ontop site/);
  });

  it('refuses an adsorption energy whose gas reference was computed at another cutoff, naming the setting', async () => {
    const rt = run.controller.session.runtime;
    const ctx = registryContext(rt);
    const call = (tool: string, args: Record<string, unknown>, refs: Record<string, string> = {}) =>
      guardedCall(
        rt.registry.get(tool)!,
        {
          tool,
          args,
          refs,
          reasons: Object.fromEntries(Object.keys(args).map((k) => [k, 'refusal test'])),
          context: 'the user checks a gas reference at another cutoff',
          agent: { role: 'dft' },
        },
        ctx,
      );
    const gasInput = byStep('gas-input', 'pw_input');
    const opts = (gasInput.value as PwInputValue).options!;
    const made = await call('make_pw_input', {
      structure: byStep('gas-molecule', 'molecule').id,
      pseudopotentials: byStep('pseudopotentials', 'pseudopotentials').id,
      purpose: 'production',
      calculation: 'scf',
      ecutwfcRy: 50,
      ecutrhoRy: 402,
      kMesh: [1, 1, 1],
      occupations: opts.occupations,
      smearing: opts.smearing!,
      degaussRy: opts.degaussRy!,
      nspin: 1,
    });
    assert.equal(made.status, 'ok', JSON.stringify(made));
    const input = (made as { outputs: string[] }).outputs[0]!;
    const ran = await call('run_pw', { input, backend: 'local' });
    assert.equal(ran.status, 'ok', JSON.stringify(ran));
    const gas50 = (ran as { outputs: string[] }).outputs.map((id) => p.artifact(id)!).find((a) => a.name === 'total_energy')!;
    const refused: GuardedOutcome = await call('adsorption_energy', {
      slabWithAdsorbate: byStep('relax-fcc-run', 'total_energy').id,
      slab: byStep('relax-clean-run', 'total_energy').id,
      adsorbate: gas50.id,
    });
    assert.equal(refused.status, 'refused', JSON.stringify(refused));
    const reasons = (refused as { verdicts: { level: string; reasons: string[] }[] }).verdicts
      .filter((v) => v.level === 'fail')
      .flatMap((v) => v.reasons)
      .join(' ');
    assert.match(reasons, /ecutwfcRy differs: a-\d+ has 47, a-\d+ has 50/);
    assert.ok(
      !p.artifacts().some((a) => a.name === 'adsorption_energy' && a.inputs.includes(gas50.id)),
      'no adsorption energy was made from it',
    );
  });
});
