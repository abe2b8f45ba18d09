// The DOS workflow offline through the built `dreams` command with real pw.x, dos.x and
// projwfc.x: fcc Al (LDA, Al.pz-vbc.UPF) at toy settings (15 Ry, SCF 6×6×6 with mv smearing,
// nscf 12×12×12 with optimised tetrahedra, a 0.1 eV grid). Al's occupied band must look like the
// free-electron gas of three electrons per atom: three electrons below E_F, a width within 10 %
// of the free-electron Fermi energy, DOS ∝ √(E − E_bottom) over the lower half of the band.
// Cost: one SCF, one nscf run, dos.x, projwfc.x; about 15 s wall (5 s of CPU) after the build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ArtifactRecord } from '../../src/core/provenance/types';
import type { DosValue, NscfMeta, PdosValue } from '../../src/core/artifacts/electronic';
import { bandBottomEv, integrateUpTo, valueAt } from '../../src/core/dft/electronic/dos';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const A = 4.05;

describe('dreams run --offline: the DOS of fcc Al with real pw.x, dos.x and projwfc.x', function () {
  this.timeout(600_000);
  let dir: string;
  let runDir: string;
  let stdout: string;
  let status: number | null;
  let events: CanvasEvent[];
  const named = (name: string) =>
    events
      .filter((e) => e.kind === 'provenance.artifact')
      .map((e) => e.payload as ArtifactRecord)
      .filter((a) => a.name === name)
      .at(-1)!;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-dos-'));
    fs.writeFileSync(
      path.join(dir, 'al.yaml'),
      [
        'workflow: dos',
        'objective: density of states of fcc Al with LDA',
        'inputs:',
        '  element: Al',
        `  latticeConstantAngstrom: ${A}`,
        '  functional: PZ',
        '  pseudopotentials: { Al: Al.pz-vbc.UPF }',
        '  ecutwfcRy: 15',
        '  kSpacingPerAngstrom: 0.5',
        '  deltaEEv: 0.1',
        '',
      ].join('\n'),
    );
    const r = spawnSync(
      process.execPath,
      [cli, 'run', 'al.yaml', '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', PSEUDO_DIR],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } },
    );
    stdout = r.stdout + r.stderr;
    status = r.status;
    runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
    events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('completes with the Fermi energy claimed from dos.x and the report accepted', () => {
    assert.equal(status, 0, stdout);
    assert.match(stdout, /E_F = \d+\.\d+ eV \(a-\d+\.fermiEnergyEv\)/);
    assert.match(stdout, /report judge accepted/);
  });

  it('samples the nscf run twice as finely as the SCF, with optimised tetrahedra', () => {
    const meta = named('nscf_output').meta as NscfMeta;
    assert.deepEqual(
      named('total_energy').meta!.settings && (named('total_energy').meta!.settings as { kMesh: number[] }).kMesh,
      [6, 6, 6],
    );
    assert.deepEqual(meta.settings.kMesh, [12, 12, 12]);
    assert.equal(meta.settings.occupations, 'tetrahedra_opt');
  });

  it('finds Al free-electron-like: three electrons below E_F, the band width within 10 % of the free-electron gas, DOS ∝ √(E − E_bottom)', () => {
    const d = named('dos').value as DosValue;
    const ef = d.fermiEnergyEv!;
    assert.ok(Math.abs(integrateUpTo(d.energiesEv, d.total, ef) - 3) < 0.1);
    const n = 3 / (A ** 3 / 4);
    const freeEf = 3.80998 * (3 * Math.PI ** 2 * n) ** (2 / 3); // ħ²/2m = 3.80998 eV Å²
    const bottom = bandBottomEv(d.energiesEv, d.integrated);
    const width = ef - bottom;
    assert.ok(Math.abs(width / freeEf - 1) < 0.1, `band width ${width.toFixed(2)} eV vs free-electron ${freeEf.toFixed(2)} eV`);
    // the lower half of the band: g(E) / √(E − E_bottom) stays within 20 % of its mean
    const ratios = [0.15, 0.25, 0.35, 0.45].map((f) => {
      const e = bottom + f * width;
      return valueAt(d.energiesEv, d.total, e) / Math.sqrt(e - bottom);
    });
    const mean = ratios.reduce((s, r) => s + r, 0) / ratios.length;
    for (const r of ratios) assert.ok(Math.abs(r / mean - 1) < 0.2, `g/√(E−E0) = ${ratios.map((x) => x.toFixed(3)).join(', ')}`);
  });

  it("draws a metal's DOS and PDOS against the Fermi energy each run printed (dos.x's, the nscf run's), and names the SCF's its bands use", () => {
    const d = named('dos').value as DosValue;
    const p = named('pdos').value as PdosValue;
    const nscf = named('nscf_output').meta as NscfMeta;
    assert.equal(d.reference!.energyEv, d.fermiEnergyEv);
    assert.equal(d.reference!.source, 'dos.x');
    assert.equal(p.reference!.energyEv, nscf.fermiEnergyEv);
    assert.equal(p.reference!.source, 'NSCF run, pw.x');
    assert.ok(Math.abs(d.reference!.energyEv - p.reference!.energyEv) < 1e-3, 'dos.x and pw.x print one Fermi energy');
    // the SCF (6×6×6, mv 0.02 Ry) puts E_F 0.31 eV above dos.x (12×12×12, optimised tetrahedra): said beside both zeros
    const shift = nscf.scfFermiEnergyEv! - d.fermiEnergyEv!;
    assert.ok(Math.abs(shift) > 0.1, `SCF ${nscf.scfFermiEnergyEv} eV, dos.x ${d.fermiEnergyEv} eV`);
    for (const ref of [d.reference!, p.reference!])
      assert.match(
        ref.note ?? '',
        new RegExp(`drawn against the SCF's Fermi energy, ${nscf.scfFermiEnergyEv!.toFixed(3).replace('.', '\\.')} eV`),
      );
  });

  it('projects the DOS on Al s and p, the s character at the bottom of the band', () => {
    const p = named('pdos').value as PdosValue;
    assert.deepEqual(
      p.projections!.map((x) => x.label),
      ['Al s', 'Al p'],
    );
    const d = named('dos').value as DosValue;
    const low = bandBottomEv(d.energiesEv, d.integrated) + 0.5;
    const [s, pp] = p.projections!.map((x) => valueAt(p.energiesEv, x.dos, low));
    assert.ok(s! > pp!, `at the bottom s ${s} vs p ${pp}`);
    assert.equal(p.lowdin.length, 1);
    assert.ok(Math.abs(p.lowdin[0]!.total - 3) < 0.1);
  });

  it('writes the DOS plot into the report', () => {
    const svg = fs.readFileSync(path.join(runDir, 'plots', 'dos.svg'), 'utf8');
    assert.match(svg, /PDOS Al s/);
    assert.match(svg, /E_F = \d+\.\d+ eV/);
    assert.match(
      fs.readFileSync(path.join(runDir, 'report.md'), 'utf8'),
      /\| fermi_energy \| \d+\.\d+ eV \| a-\d+\.fermiEnergyEv \|.*claim-value: pass/,
    );
  });
});
