// The lattice-constant workflow on a crystal whose file has noisy positions, offline through the
// built `dreams` command with real pw.x at toy settings: NaCl with every atom up to 2e-3 Å off its
// site (test/fixtures/structures/NaCl-noisy.vasp: P1 at the default symprec 1e-3 Å, Fm-3m at 1e-2),
// studied with `structure: { file, symprecAngstrom: 1e-2 }`. The tolerance travels with the
// structure: the plan takes the cubic path on the 2-atom primitive cell, the lattice step and the
// guard's lattice-uses-cell-symmetry find Fm-3m, and the report says at which tolerance.
// LDA norm-conserving Na and Cl made for the tests. Cost: about 15 s of pw.x on one core, plus the build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EosFitValue } from '../../src/core/artifacts/shapes';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { Structure } from '../../src/core/dft/types';
import type { ArtifactRecord, ToolCallRecord, Verdict } from '../../src/core/provenance/types';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');

describe('lattice constant of a noisy NaCl file at the symmetry tolerance its objective sets, with real pw.x', function () {
  this.timeout(600_000);
  let status: number | null;
  let stdout: string;
  let runDir: string;
  let events: CanvasEvent[];

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-symprec-'));
    fs.copyFileSync(path.join(root, 'test/fixtures/structures/NaCl-noisy.vasp'), path.join(dir, 'NaCl-noisy.vasp'));
    fs.writeFileSync(
      path.join(dir, 'objective.yaml'),
      'workflow: lattice-constant\ninputs:\n  structure: { file: NaCl-noisy.vasp, symprecAngstrom: 1e-2 }\n' +
        '  functional: PZ\n  cutoffsRy: [25, 30, 35]\n  kSpacingsPerAngstrom: [0.6, 0.5, 0.4]\n  toleranceMevPerAtom: 5\n',
    );
    const r = spawnSync(
      process.execPath,
      [
        cli,
        'run',
        'objective.yaml',
        '--offline',
        '--runs-dir',
        path.join(dir, 'runs'),
        '--pseudo-dir',
        path.join(root, 'test/fixtures/workflows/pseudo-nc'),
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
      },
    );
    status = r.status;
    stdout = r.stdout + r.stderr;
    runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
    events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
  });

  const artifacts = () => events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const calls = () => events.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);
  const last = (name: string) =>
    artifacts()
      .filter((a) => a.name === name)
      .at(-1)!;

  it('computes the 2-atom primitive cell of the cubic crystal, carrying the tolerance, and relaxes no shape', () => {
    assert.equal(status, 0, stdout);
    const bulk = last('bulk_structure');
    const s = bulk.value as Structure;
    assert.deepEqual([...s.symbols].sort(), ['Cl', 'Na']);
    assert.equal(s.symprecAngstrom, 0.01);
    assert.equal(bulk.meta?.spaceGroup, 'Fm-3m (225)');
    const build = calls().find((c) => c.tool === 'build_bulk')!;
    assert.equal(build.args.symprecAngstrom?.value, 0.01);
    assert.ok(!artifacts().some((a) => a.name === 'pw_input' && (a.value as { calculation?: string }).calculation === 'vc-relax'));
  });

  it('reads a through Fm-3m at that tolerance, the guard rule agreeing, and the report says the tolerance', () => {
    const fit = last('eos_fit').value as EosFitValue;
    const a = last('lattice_constant');
    assert.ok(Math.abs((a.value as number) - Math.cbrt(4 * fit.v0Angstrom3)) < 1e-9);
    assert.equal(a.meta?.spaceGroup, 'Fm-3m (225)');
    assert.equal(a.meta?.symprecAngstrom, 0.01);
    assert.ok((a.value as number) > 5.3 && (a.value as number) < 5.6, `LDA NaCl a = ${a.value as number} Å`);
    const call = calls().find((c) => c.tool === 'lattice_constant_from_volume')!;
    const rule = events
      .filter((e) => e.kind === 'guard.verdict')
      .flatMap((e) =>
        (e.payload as { call: string; verdicts: Verdict[] }).call === call.id ? (e.payload as { verdicts: Verdict[] }).verdicts : [],
      )
      .find((v) => v.rule === 'lattice-uses-cell-symmetry')!;
    assert.equal(rule.level, 'pass');
    assert.match(rule.reasons[0]!, /Fm-3m \(225\), cubic at symprec 0\.01 Å/);
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean; summary: string };
    assert.equal(judged.accepted, true, judged.summary);
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    assert.match(report, /lattice constant of NaCl \(Fm-3m \(225\) at symprec 0\.01 Å\) from NaCl-noisy\.vasp is \*\*a = \d\.\d+ Å\*\*/);
    assert.match(report, /Method: NaCl is cubic \(Fm-3m \(225\) at symprec 0\.01 Å\)/);
    assert.match(
      report,
      /2 atoms read from .*NaCl-noisy\.vasp.*, Fm-3m \(225\) at symprec 0\.01 Å, computed on its standardised primitive cell/,
    );
  });
});
