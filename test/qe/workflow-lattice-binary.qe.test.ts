// The lattice-constant workflow on a binary compound named with its prototype, no structure file:
// zincblende SiC (elements [Si, C]) offline through the built `dreams` command with real pw.x
// at toy settings and Debian's LDA files (Si.pz-vbc, C_3.98148). build_bulk makes the 2-atom
// primitive cell of both species, and a of the conventional cubic cell is (4 V0)^(1/3).
// Cost: about 17 s on one core (the build aside; 23 s with it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EosFitValue } from '../../src/core/artifacts/shapes';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { analyseSymmetry } from '../../src/core/dft/structure/symmetry';
import type { Structure } from '../../src/core/dft/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');

describe('lattice constant of zincblende SiC built by name, through the workflow with real pw.x', function () {
  this.timeout(600_000);
  let status: number | null;
  let stdout: string;
  let events: CanvasEvent[];

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-binary-'));
    fs.writeFileSync(
      path.join(dir, 'objective.yaml'),
      'workflow: lattice-constant\ninputs:\n  elements: [Si, C]\n  structure: zincblende\n  latticeConstantAngstrom: 4.36\n' +
        '  functional: LDA\n  cutoffsRy: [40, 45, 50]\n  kSpacingsPerAngstrom: [0.6, 0.5, 0.4]\n  toleranceMevPerAtom: 5\n',
    );
    const r = spawnSync(
      process.execPath,
      [cli, 'run', 'objective.yaml', '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', '/usr/share/espresso/pseudo'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
      },
    );
    status = r.status;
    stdout = r.stdout + r.stderr;
    const runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
    events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
  });

  const artifacts = () => events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const last = (name: string) =>
    artifacts()
      .filter((a) => a.name === name)
      .at(-1)!;

  it('builds the 2-atom F-43m primitive cell of Si and C and chooses a pseudopotential for each', () => {
    assert.equal(status, 0, stdout);
    const s = last('bulk_structure').value as Structure;
    assert.deepEqual(s.symbols, ['Si', 'C']);
    assert.equal(analyseSymmetry(s).spaceGroup.number, 216);
    const calls = events.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);
    const build = calls.find((c) => c.tool === 'build_bulk')!;
    assert.equal(build.args.bravais?.value, 'zincblende');
    assert.deepEqual(calls.find((c) => c.tool === 'select_pseudopotentials')!.args.elements?.value, ['Si', 'C']);
  });

  it('reports a = (4 V0)^(1/3) of the conventional cubic cell, cited, and the report judge accepts it', () => {
    const fit = last('eos_fit').value as EosFitValue;
    assert.equal(fit.natoms, 2);
    const a = last('lattice_constant');
    assert.ok(Math.abs((a.value as number) - Math.cbrt(4 * fit.v0Angstrom3)) < 1e-9);
    assert.equal(a.meta?.spaceGroup, 'F-43m (216)');
    assert.ok((a.value as number) > 4.25 && (a.value as number) < 4.4, `LDA SiC a = ${a.value as number} Å`);
    const claims = artifacts()
      .filter((x) => x.name === 'report_claim')
      .map((x) => x.meta as { quantity: string; cites: string });
    assert.ok(claims.some((c) => c.quantity === 'lattice_constant' && c.cites === a.id));
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean; summary: string };
    assert.equal(judged.accepted, true, judged.summary);
    assert.match(stdout, /Lattice constant of zincblende SiC \(PZ\): a = 4\.\d+ Å/);
  });
});
