// The lattice-constant workflow offline through the built `dreams` command with real pw.x
// (lean settings): the plan from the template, every number traceable to its pw.x runs,
// the report judge's acceptance, and the files the run leaves (notebook, report with
// plots, bundle). Then the read-side commands on the finished run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { EosFitValue } from '../../src/core/artifacts/shapes';
import type { Plan } from '../../src/core/plan/types';
import { fitEos } from '../../src/core/dft/eos';
import { parseCanvasFile } from '../../src/core/canvas/canvasFile';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { verifyBundle } from '../../src/core/provenance/bundle';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import { freshDir, PSEUDO_DIR, writeLeanObjectiveFile } from '../fixtures/agents/scriptedLattice';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const dreams = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } });

describe('dreams run --offline: the lattice-constant workflow with real pw.x', function () {
  this.timeout(600_000);
  let dir: string;
  let runDir: string;
  let stdout: string;
  let status: number | null;
  let events: CanvasEvent[];
  const artifacts = () => events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const calls = () => events.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    dir = freshDir('dreams-workflow-');
    const objective = writeLeanObjectiveFile(dir);
    const r = dreams(['run', objective, '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', PSEUDO_DIR], dir);
    stdout = r.stdout;
    status = r.status;
    runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
    events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
  });

  it('completes, prints the result and where the files are, and exits 0', () => {
    assert.equal(status, 0, stdout);
    assert.match(stdout, /COMPLETED/);
    // four significant figures after the point at most (3.9570 is printed 3.957)
    assert.match(stdout, /a = \d\.\d{2,4} Å \(a-\d+\)/);
    for (const f of ['notebook', 'report', 'event log', 'bundle']) assert.match(stdout, new RegExp(`${f}\\s+\\S+`));
  });

  it('follows the template plan, each step done, the plan versioned in the canvas', () => {
    const plans = events
      .filter((e) => e.kind === 'key.write' && e.key === 'plan')
      .map((e) => e.payload as { value: Plan; version: number });
    const last = plans.at(-1)!.value;
    assert.equal(last.workflow, 'lattice-constant');
    assert.deepEqual(last.steps.map((s) => s.tool).slice(0, 6), [
      'build_bulk',
      'select_pseudopotentials',
      'make_pw_input',
      'generate_series',
      'run_pw',
      'select_converged_settings',
    ]);
    assert.ok(
      last.steps.every((s) => s.status === 'done' && s.summary),
      last.steps.map((s) => `${s.id}:${s.status}`).join(' '),
    );
    assert.ok(plans.length > last.steps.length * 2, 'every status change is a plan version');
  });

  it('derives the lattice constant from the recorded pw.x energies through an EOS fit and the fcc cell', () => {
    const fitArtifact = artifacts()
      .filter((a) => a.name === 'eos_fit')
      .at(-1)!;
    const fit = fitArtifact.value as EosFitValue;
    const energies = artifacts().filter((a) => a.name === 'total_energy' && fitArtifact.inputs.includes(a.id));
    assert.equal(energies.length, 5);
    const refit = fitEos(
      energies.map((e) => ({ volumeA3: (e.meta as { volumeAngstrom3: number }).volumeAngstrom3, energyEv: e.value as number })),
      'birch-murnaghan',
    );
    assert.ok(Math.abs(refit.v0A3 - fit.v0Angstrom3) < 1e-9);
    const a = artifacts()
      .filter((x) => x.name === 'lattice_constant')
      .at(-1)!;
    assert.ok(Math.abs((a.value as number) - Math.cbrt(4 * fit.v0Angstrom3)) < 1e-9, 'a = (4 V0)^(1/3) for the fcc primitive cell');
    for (const e of energies) {
      const creator = calls().find((c) => c.id === e.creator)!;
      assert.equal(creator.tool, 'run_pw');
      assert.equal(creator.step, 'eos-runs');
      assert.equal(e.status, 'final');
    }
  });

  it("runs no pw.x input twice: the k sweep's run at the cutoff sweep's spacing and the EOS middle point reuse earlier runs", () => {
    const stepOf = (a: ArtifactRecord) => calls().find((c) => c.id === a.creator)!.step;
    const reused = artifacts().filter((a) => a.name === 'total_energy' && (a.meta as { reusedFrom?: unknown }).reusedFrom);
    assert.deepEqual(reused.map(stepOf), ['k-runs', 'eos-runs']);
    for (const r of reused) {
      const from = (r.meta as { reusedFrom: { call: string; job: string } }).reusedFrom;
      const original = artifacts().find((a) => a.name === 'total_energy' && a.creator === from.call)!;
      assert.equal(r.value, original.value);
      assert.ok(r.inputs.includes(original.id), 'linked to the run it reuses');
      assert.equal((r.meta as { job: string }).job, from.job);
    }
    const originalOf = (r: ArtifactRecord) =>
      artifacts().find((a) => a.name === 'total_energy' && a.creator === (r.meta as { reusedFrom: { call: string } }).reusedFrom.call)!;
    assert.equal(stepOf(originalOf(reused[0]!)), 'cutoff-runs');
    // the EOS middle point is the sweeps' run at the chosen settings: whichever sweep ran it first, never a reuse
    assert.ok(['cutoff-runs', 'k-runs'].includes(stepOf(originalOf(reused[1]!))!));
    assert.equal((originalOf(reused[1]!).meta as { reusedFrom?: unknown }).reusedFrom, undefined);
  });

  it('is judged by tier 1, records the model tiers as not judged, and the report judge accepts', () => {
    const verdicts = events
      .filter((e) => e.kind === 'guard.verdict')
      .flatMap((e) => (e.payload as { verdicts: { tier: string; judged: boolean; level: string }[] }).verdicts);
    assert.ok(verdicts.some((v) => v.tier === 'tier1' && v.judged));
    assert.ok(verdicts.filter((v) => v.tier === 'tier2' || v.tier === 'tier3').every((v) => !v.judged));
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as {
      accepted: boolean;
      summary: string;
      claims: unknown[];
    };
    assert.equal(judged.accepted, true, judged.summary);
    assert.equal(judged.claims.length, 5);
    assert.equal(events.filter((e) => e.kind === 'llm.usage').length, 0, 'no model, no usage');
  });

  it('leaves a notebook linked to the log, a report with its plots, and a bundle that verifies', () => {
    const nb = parseCanvasFile(fs.readFileSync(path.join(runDir, 'canvas.dreams'), 'utf8'));
    assert.equal(nb.run?.log, 'events.jsonl');
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    assert.match(report, /accepted by the report judge/);
    for (const plot of ['convergence-ecutwfc.svg', 'convergence-kspacing.svg', 'eos.svg']) {
      assert.match(report, new RegExp(`plots/${plot}`));
      assert.match(fs.readFileSync(path.join(runDir, 'plots', plot), 'utf8'), /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
    assert.match(report, /not judged/);
    // the convergence choices checked by the pressures pw.x printed for the same sweep runs
    const b0 = Number(/B0 = ([\d.]+) GPa/.exec(report)![1]);
    for (const what of ['cutoff', 'k-spacing']) {
      const m = new RegExp(
        `at the chosen ${what} the pressure is (-?[\\d.]+) kbar against (-?[\\d.]+) kbar at the finest \\(ΔP = (-?[\\d.]+) kbar, \\|ΔP\\|/3B0 = ([\\d.e-]+) % of a\\)`,
      ).exec(report);
      assert.ok(m, `no pressure check of the ${what} in:\n${report.slice(0, 1500)}`);
      assert.ok(Math.abs(Number(m[1]) - Number(m[2]) - Number(m[3])) < 0.011, m[0]);
      assert.ok(Math.abs(Number(m[4]) - (100 * Math.abs(Number(m[3]))) / (30 * b0)) < 0.01 + 0.01 * Number(m[4]), m[0]);
    }
    assert.match(
      report,
      /\| pseudopotential Al \| Al\.pz-vbc\.UPF \(sha256 [0-9a-f]{12}…\) \|/,
      'the settings behind the result, with the pseudopotential hash',
    );
    const check = verifyBundle(path.join(runDir, 'bundle'));
    assert.equal(check.ok, true, check.problems.join('\n'));
  });

  it('a second study of the same objective with --reuse-from the first runs no pw.x and reaches the same lattice constant', () => {
    const objective = writeLeanObjectiveFile(dir);
    const r = dreams(
      [
        'run',
        objective,
        '--offline',
        '--runs-dir',
        path.join(dir, 'again'),
        '--pseudo-dir',
        PSEUDO_DIR,
        '--reuse-from',
        runDir,
        '--no-bundle',
      ],
      dir,
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const againDir = path.join(dir, 'again', fs.readdirSync(path.join(dir, 'again'))[0]!);
    const ev = fs
      .readFileSync(path.join(againDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
    assert.equal(ev.filter((e) => e.kind === 'job.transition').length, 0, 'no pw.x job');
    const energies = ev
      .filter((e) => e.kind === 'provenance.artifact')
      .map((e) => e.payload as ArtifactRecord)
      .filter((a) => a.name === 'total_energy');
    const firstId = path.basename(runDir);
    assert.ok(energies.length > 10);
    // each from the first run, or (the sweeps' shared point) from an earlier call of this one that took it from there
    for (const e of energies) {
      const from = (e.meta as { reusedFrom?: { run?: string; energy?: string; call: string } }).reusedFrom;
      assert.ok(from, `${e.id} was computed, not reused`);
      if (from.run) {
        assert.equal(from.run, firstId);
        assert.equal(e.value, artifacts().find((a) => a.id === from.energy)!.value, `${e.id}: the first run's value`);
      }
    }
    const a = (events_: CanvasEvent[]) =>
      events_
        .filter((e) => e.kind === 'provenance.artifact')
        .map((e) => e.payload as ArtifactRecord)
        .filter((x) => x.name === 'lattice_constant')
        .at(-1)!.value;
    assert.equal(a(ev), a(events));
    assert.equal((ev.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean }).accepted, true);
    // the report says where its energies were computed
    const report = fs.readFileSync(path.join(againDir, 'report.md'), 'utf8');
    assert.match(
      report,
      new RegExp(
        `## Reused pw\\.x results\\n\\n${energies.length} energies were taken from an identical earlier pw\\.x run .*; ${energies.filter((e) => (e.meta as { reusedFrom: { run?: string } }).reusedFrom.run).length} of them from other runs`,
      ),
    );
    assert.ok(report.includes(`run ${firstId}: `));
    // a directory that is not a run is refused before anything starts
    const bad = dreams(
      ['run', objective, '--offline', '--runs-dir', path.join(dir, 'bad'), '--pseudo-dir', PSEUDO_DIR, '--reuse-from', dir],
      dir,
    );
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--reuse-from: .* is not a DREAMS run \(it has no events\.jsonl\)/);
    assert.equal(fs.existsSync(path.join(dir, 'bad')), false);
  });

  it('lists the jobs, rewrites and re-judges the report, lists approvals and will not resume a finished run', () => {
    const id = path.basename(runDir);
    const jobs = dreams(['jobs', id, '--runs-dir', path.join(dir, 'runs')], dir);
    assert.equal(jobs.status, 0, jobs.stderr);
    const runCalls = calls().filter((c) => c.tool === 'run_pw').length;
    const reused = artifacts().filter((a) => a.name === 'total_energy' && (a.meta as { reusedFrom?: unknown }).reusedFrom).length;
    assert.equal(
      jobs.stdout
        .trim()
        .split('\n')
        .filter((l) => / completed /.test(l)).length,
      runCalls - reused,
      'a job for each run_pw call that was not a reuse',
    );
    fs.rmSync(path.join(runDir, 'report.md'));
    const rep = dreams(['report', 'latest', '--runs-dir', path.join(dir, 'runs'), '--no-bundle'], dir);
    assert.equal(rep.status, 0, rep.stderr);
    assert.ok(fs.existsSync(path.join(runDir, 'report.md')));
    const rejudge = dreams(['report', id, '--rejudge', '--no-bundle', '--runs-dir', path.join(dir, 'runs')], dir);
    assert.equal(rejudge.status, 0, rejudge.stderr);
    assert.match(rejudge.stdout, /report a-\d+: accepted by the report judge \(5 claim\(s\)/);
    const judgedNow = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"kind":"report.judged"'));
    assert.equal(judgedNow.length, 2, 'the second judgement is recorded in the log');
    const list = dreams(['approve', id, '--list', '--runs-dir', path.join(dir, 'runs')], dir);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /no approval requests/);
    const again = dreams(['resume', id, '--runs-dir', path.join(dir, 'runs')], dir);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /already complete/);
  });
});
