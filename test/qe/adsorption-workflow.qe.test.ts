// The adsorption-search workflow through the built `dreams` command: the EMT example as a
// user runs it, and the same workflow with the pw.x calculator at toy settings (H on a
// 2×2 Al(111) slab of two layers, Γ only, 12 Ry, norm-conserving LDA pseudopotentials), in
// which every single point and relaxation is a pw.x job of the run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRun } from '../../src/core/run/directory';
import type { SearchResultValue } from '../../src/core/tools/adsorptionSearch/searchOutputs';
import { foldJobEvents } from '../../src/core/hpc/jobStore';
import type { PhysicalSettings } from '../../src/core/dft/types';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const dreams = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
  });

const TOY = `workflow: adsorption-search
objective: H on Al(111), toy pw.x settings
inputs:
  slab: { generate: { metal: Al, facet: fcc111, size: [2, 2], layers: 2, vacuumAngstrom: 3.5, latticeConstantAngstrom: 3.99, fixedLayers: 1 } }
  adsorbate: H
  calculator:
    kind: pw.x
    functional: PZ
    pseudopotentials: { Al: Al.pz-vbc.UPF, H: H.pz-vbc.UPF }
    ecutwfcRy: 12
    ecutrhoRy: 48
    kMesh: [1, 1, 1]
    smearing: { kind: mv, degaussRy: 0.05 }
  planner: { kind: offline, screen: false, patience: 1 }
  maxRelaxations: 3
  standardisation: { minLateralAngstrom: 5, minVacuumAngstrom: 7 }
  screening: { maxSites: 1 }
  relaxation: { fmaxEvPerAngstrom: 0.1, maxSteps: 25 }
  moleculeBoxAngstrom: 8
`;

function runDirOf(stdout: string, cwd: string): string {
  const m = /directory (\S+)/.exec(stdout);
  assert.ok(m, stdout.slice(0, 2000));
  return path.resolve(cwd, m[1]!);
}

describe('adsorption-search workflow through the dreams command', function () {
  this.timeout(900_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-adsearch-qe-'));

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
  });

  it('dreams run examples/co-pt111-search.yaml --offline: a completed run, an accepted report with the search section', () => {
    const r = dreams(
      ['run', path.join(root, 'examples/co-pt111-search.yaml'), '--offline', '--runs-dir', path.join(work, 'runs'), '--no-bundle'],
      work,
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /E_ads\(CO, [a-z ]+ over Pt/);
    assert.match(r.stdout, /The report judge accepted report/);
    const dir = runDirOf(r.stdout, work);
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    assert.match(md, /## Adsorption configuration search s-[0-9a-f]{12}/);
    assert.match(md, /screening_adsorption_energy/);
  });

  it('the pw.x calculator at toy settings: every relaxation a pw.x job with the settings the guard checked, E_ads a DFT number walked back to its jobs', async () => {
    fs.writeFileSync(path.join(work, 'toy.yaml'), TOY);
    const r = dreams(
      ['run', 'toy.yaml', '--offline', '--approval', 'auto-approve', '--runs-dir', path.join(work, 'runs'), '--no-bundle'],
      work,
    );
    assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr}`);
    assert.match(r.stdout, /The report judge accepted report/);
    const run = await openRun(runDirOf(r.stdout, work), { mode: 'reader' });
    try {
      const reg = run.registry;
      const value = reg
        .artifacts()
        .filter((a) => a.name === 'adsorption_search_result')
        .at(-1)!.value as SearchResultValue;
      assert.ok(value.relaxations >= 2 && value.relaxations <= 3, `${value.relaxations} relaxations`);
      assert.equal(value.calculator.method, 'pw.x');
      const jobs = foldJobEvents(run.log.events());
      for (const it of value.iterations) {
        const energy = reg.artifact(it.refs.energy)!;
        const settings = energy.meta!.settings as PhysicalSettings;
        assert.equal(settings.code, 'pw.x');
        assert.match(String(settings.codeVersion), /^6\.7/);
        assert.deepEqual(Object.keys(settings.pseudopotentials).sort(), ['Al', 'H']);
        assert.match(settings.pseudopotentials.Al!.sha256!, /^[0-9a-f]{64}$/);
        const relaxJobs = (energy.meta!.relaxation as { jobs: string[] }).jobs;
        assert.ok(relaxJobs.length >= 2, 'a screening single point and a relaxation');
        for (const id of relaxJobs) {
          const job = jobs.find((j) => j.id === id)!;
          assert.equal(job.call, it.refs.evaluation);
          assert.ok(fs.existsSync(path.join(run.dir, 'jobs', id, 'pw.out')), `${id} output kept`);
        }
        const evaluation = reg.call(it.refs.evaluation)!;
        assert.equal(evaluation.args.ecutwfcRy!.value, 12);
        for (const rule of [
          'adsorption-hypothesis-valid',
          'calculator-matches-references',
          'metals-have-smearing',
          'cutoff-above-pseudopotential-suggestion',
        ]) {
          assert.ok(
            evaluation.verdicts.some((v) => v.rule === rule && v.level === 'pass'),
            `${it.refs.evaluation}: ${rule}`,
          );
        }
      }
      const judged = [...run.log.events()].reverse().find((e) => e.kind === 'report.judged')!.payload as {
        accepted: boolean;
        claims: { claim: { quantity: string; cites: string } }[];
      };
      assert.ok(judged.accepted);
      assert.equal(judged.claims[0]!.claim.quantity, 'adsorption_energy');
      assert.equal(judged.claims[0]!.claim.cites, value.best!.refs.adsorptionEnergy);
      const eads = reg.call(reg.artifact(value.best!.refs.adsorptionEnergy!)!.creator)!;
      assert.match(
        eads.verdicts.find((v) => v.rule === 'settings-comparable')!.reasons.join(' '),
        /3 energies share their physical settings/,
      );
      const md = fs.readFileSync(path.join(run.dir, 'report.md'), 'utf8');
      assert.match(
        md,
        /the relaxed clean slab a-\d+ = -?\d+\.\d{4} eV, made by relax_structure c-\d+ \(pw\.x BFGS, \d+ steps to fmax 0\.1 eV\/Å; jobs dreams-/,
      );
      assert.match(md, /pw\.x 6\.7\S*, PZ, ecutwfc\/ecutrho 12\/48 Ry/);
    } finally {
      await run.close();
    }
  });
});
