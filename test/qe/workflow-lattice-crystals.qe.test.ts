// The lattice-constant workflow on crystals read from the user's CIF files, offline through the
// built `dreams` command with real pw.x at toy settings: rocksalt NaCl (a compound, cubic; LDA
// norm-conserving pseudopotentials made for these tests) and hcp Mg (non-cubic: vc-relax, then the
// EOS of the relaxed cell). Each number registered and traced to the file and its sha256.
// Cost: about 30 s of pw.x for each crystal on one core (2-atom cells).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EosFitValue, LatticeParametersValue } from '../../src/core/artifacts/shapes';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { cellVolume } from '../../src/core/dft/structure/cell';
import { analyseSymmetry } from '../../src/core/dft/structure/symmetry';
import type { Structure } from '../../src/core/dft/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');

interface Finished {
  status: number | null;
  stdout: string;
  runDir: string;
  events: CanvasEvent[];
  cif: string;
}

/** Copy the CIF beside a fresh objective and run it offline. */
function runOn(cifName: string, inputs: string, pseudoDir: string): Finished {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-crystal-'));
  const cif = path.join(dir, cifName);
  fs.copyFileSync(path.join(root, 'examples', cifName), cif);
  fs.writeFileSync(path.join(dir, 'objective.yaml'), `workflow: lattice-constant\ninputs:\n  structure: { file: ${cifName} }\n${inputs}`);
  const r = spawnSync(
    process.execPath,
    [cli, 'run', 'objective.yaml', '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', pseudoDir],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
    },
  );
  const runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
  const events = fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CanvasEvent);
  return { status: r.status, stdout: r.stdout + r.stderr, runDir, events, cif };
}

const artifacts = (f: Finished) => f.events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
const calls = (f: Finished) => f.events.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);
const last = (f: Finished, name: string) =>
  artifacts(f)
    .filter((a) => a.name === name)
    .at(-1)!;

/** Every artifact upstream of one (inputs, transitively). */
function upstream(f: Finished, id: string): Set<string> {
  const byId = new Map(artifacts(f).map((a) => [a.id, a]));
  const seen = new Set<string>();
  const stack = [id];
  while (stack.length) {
    const a = byId.get(stack.pop()!.split('.')[0]!);
    if (!a || seen.has(a.id)) continue;
    seen.add(a.id);
    stack.push(...a.inputs);
  }
  return seen;
}

function judgedAccepted(f: Finished): { accepted: boolean; summary: string } {
  return f.events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean; summary: string };
}

describe('lattice constants of crystals from CIF files, through the workflow with real pw.x', function () {
  this.timeout(900_000);
  let nacl: Finished;
  let mg: Finished;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    nacl = runOn(
      'NaCl.cif',
      '  functional: PZ\n  cutoffsRy: [25, 30, 35]\n  kSpacingsPerAngstrom: [0.6, 0.5, 0.4]\n  toleranceMevPerAtom: 5\n',
      path.join(root, 'test/fixtures/workflows/pseudo-nc'),
    );
    mg = runOn(
      'Mg-hcp.cif',
      '  functional: PZ\n  cutoffsRy: [15, 20, 25]\n  kSpacingsPerAngstrom: [0.5, 0.4, 0.3]\n  toleranceMevPerAtom: 5\n  smearing: { kind: mv, degaussRy: 0.05 }\n',
      '/usr/share/espresso/pseudo',
    );
  });

  it("NaCl: completes, and the structure the runs used is the CIF's crystal, recorded with the file and its sha256", () => {
    assert.equal(nacl.status, 0, nacl.stdout);
    const s = last(nacl, 'bulk_structure');
    const value = s.value as Structure;
    assert.equal(value.source?.sha256, sha(nacl.cif));
    assert.equal(s.contentHash, sha(nacl.cif));
    assert.equal(
      fs.readFileSync(path.join(nacl.runDir, s.location!), 'utf8'),
      fs.readFileSync(nacl.cif, 'utf8'),
      "the run keeps the user's file",
    );
    assert.deepEqual([...value.symbols].sort(), ['Cl', 'Na'], 'the standardised primitive cell');
    assert.equal(analyseSymmetry(value).spaceGroup.number, 225);
    const pseudos = calls(nacl).find((c) => c.tool === 'select_pseudopotentials')!;
    assert.deepEqual(pseudos.args.elements?.value, ['Na', 'Cl']);
  });

  it('NaCl: a = (4 V0)^(1/3) from the EOS of the primitive cell, registered, cited by the report and traced to the CIF', () => {
    const fit = last(nacl, 'eos_fit').value as EosFitValue;
    const a = last(nacl, 'lattice_constant');
    assert.ok(Math.abs((a.value as number) - Math.cbrt(4 * fit.v0Angstrom3)) < 1e-9);
    assert.equal(a.meta?.spaceGroup, 'Fm-3m (225)');
    assert.ok((a.value as number) > 5.3 && (a.value as number) < 5.6, `LDA NaCl a = ${a.value as number} Å`);
    assert.ok(
      upstream(nacl, a.id).has(last(nacl, 'bulk_structure').id),
      'the lattice constant is downstream of the structure read from the CIF',
    );
    const judged = judgedAccepted(nacl);
    assert.equal(judged.accepted, true, judged.summary);
    const claims = artifacts(nacl)
      .filter((x) => x.name === 'report_claim')
      .map((x) => x.meta as { quantity: string; cites: string });
    assert.ok(claims.some((c) => c.quantity === 'lattice_constant' && c.cites === a.id));
    assert.match(nacl.stdout, /Lattice constant of NaCl \(Fm-3m \(225\)\) from NaCl\.cif \(PZ\): a = \d\.\d+ Å/);
  });

  it('Mg: relaxes the hcp cell (vc-relax) at the converged settings and fits the EOS of the relaxed cell', () => {
    assert.equal(mg.status, 0, mg.stdout);
    const relaxInput = artifacts(mg).find((x) => x.name === 'pw_input' && (x.value as { calculation?: string }).calculation === 'vc-relax');
    assert.ok(relaxInput, 'a vc-relax input');
    const relaxed = last(mg, 'relaxed_structure');
    const eosInput = calls(mg).find((c) => c.step === 'eos-input')!;
    assert.equal(eosInput.args.structure?.ref ?? eosInput.args.structure?.value, relaxed.id, 'the EOS scales the relaxed cell');
    const fit = last(mg, 'eos_fit').value as EosFitValue;
    assert.ok(upstream(mg, last(mg, 'eos_fit').id).has(relaxed.id));
    assert.equal(fit.points.length, 5);
  });

  it('Mg: reports a, c, c/a and the volume from V0 and the relaxed shape, each registered and cited', () => {
    const relaxed = last(mg, 'relaxed_structure').value as Structure;
    const fit = last(mg, 'eos_fit').value as EosFitValue;
    const lp = last(mg, 'lattice_parameters');
    const v = lp.value as LatticeParametersValue;
    const sym = analyseSymmetry(relaxed);
    assert.equal(v.spaceGroup.number, 194);
    assert.equal(v.cubic, false);
    assert.ok(Math.abs(v.cOverA - sym.lattice.cOverA) < 1e-9, 'c/a of the relaxed cell');
    assert.ok(Math.abs(v.aAngstrom - sym.lattice.aAngstrom * Math.cbrt(fit.v0Angstrom3 / cellVolume(relaxed.cell))) < 1e-9);
    assert.ok(Math.abs(v.conventionalVolumeAngstrom3 - fit.v0Angstrom3) < 1e-9, 'the hexagonal cell is the conventional one');
    assert.ok(v.cOverA > 1.55 && v.cOverA < 1.7, `c/a = ${v.cOverA}`);
    assert.ok(Math.abs((last(mg, 'lattice_constant').value as number) - v.aAngstrom) < 1e-12);
    const judged = judgedAccepted(mg);
    assert.equal(judged.accepted, true, judged.summary);
    const claims = artifacts(mg)
      .filter((x) => x.name === 'report_claim')
      .map((x) => x.meta as { quantity: string; cites: string });
    for (const field of ['cAngstrom', 'cOverA', 'conventionalVolumeAngstrom3'])
      assert.ok(
        claims.some((c) => c.cites === `${lp.id}.${field}`),
        field,
      );
    const report = fs.readFileSync(path.join(mg.runDir, 'report.md'), 'utf8');
    assert.match(report, /Method: Mg is hexagonal \(P6_3\/mmc \(194\)\).*variable-cell relaxation \(vc-relax\)/);
    assert.match(report, new RegExp(`sha256 ${sha(mg.cif)}`));
    // still pictures of the crystal read from the file and of the relaxed cell
    for (const id of [last(mg, 'bulk_structure').id, last(mg, 'relaxed_structure').id]) {
      assert.match(report, new RegExp(`plots/structure-${id}\\.svg`));
      assert.match(fs.readFileSync(path.join(mg.runDir, 'plots', `structure-${id}.svg`), 'utf8'), /^<svg xmlns=/);
    }
  });
});
