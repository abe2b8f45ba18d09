import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { meshFromSpacing } from '../../../../../src/core/dft/kpoints';
import {
  latticeOfInput,
  parsePwInput,
  readKPoints,
  numberIn,
  readCellParameters,
  readAtomicPositions,
} from '../../../../../src/core/dft/qe/input';
import { cutoffSeries, eosSeries, kMeshSeries, kSpacingSeries, SeriesError } from '../../../../../src/core/dft/qe/series';
import { physicalSettingsOf, settingsDifferences, CONV_THR_TOLERANCE_RY } from '../../../../../src/core/dft/qe/settings';
import { readUpfHeader } from '../../../../../src/core/dft/qe/upf';
import { BOHR_IN_ANGSTROM } from '../../../../../src/core/units';
import { FIXTURES } from './fixtures';

const BASE = fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8');
const VC = fs.readFileSync(path.join(FIXTURES, 'runs/si-vc-relax.in'), 'utf8');
const sub = (text: string, from: string | RegExp, to: string) => {
  const out = text.replace(from, to);
  assert.notEqual(out, text, `edit ${String(from)} did not apply`);
  return out;
};
const det = (m: number[][]) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
/** Lines of b that differ from a (same line count). */
const changed = (a: string, b: string) =>
  a
    .split('\n')
    .map((l, i) => (l === b.split('\n')[i] ? -1 : i))
    .filter((i) => i >= 0);

describe('physical settings of an input', () => {
  const upf = readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf/Al.pz-vbc.UPF'), 'utf8'));

  it('collects the physics: functional, cutoffs (ecutrho defaulting to 4x), pseudopotentials, k-mesh, smearing, spin', () => {
    const s = physicalSettingsOf(BASE, {
      upfHeaders: { 'Al.pz-vbc.UPF': upf },
      pseudoSha256: { 'Al.pz-vbc.UPF': 'abc' },
      codeVersion: '6.7MaX',
    });
    assert.deepEqual(s, {
      code: 'pw.x',
      codeVersion: '6.7MaX',
      functional: 'PZ',
      ecutwfcRy: 15,
      ecutrhoRy: 60,
      pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF', sha256: 'abc' } },
      occupations: 'smearing',
      smearing: 'marzari-vanderbilt',
      degaussRy: 0.02,
      nspin: 1,
      kMesh: [6, 6, 6],
      kShift: [0, 0, 0],
    });
  });

  it('ignores SCF-control parameters, and conv_thr while it is tighter than the stated tolerance', () => {
    const a = physicalSettingsOf(BASE);
    const controlled = sub(
      sub(
        BASE,
        'conv_thr = 1.0d-8',
        `conv_thr = 1.0d-10\n  mixing_beta = 0.3\n  mixing_mode = 'local-TF'\n  electron_maxstep = 300\n  diagonalization = 'cg'\n  startingwfc = 'random'`,
      ),
      "smearing = 'mv'",
      "smearing = 'cold'",
    );
    assert.deepEqual(settingsDifferences(a, physicalSettingsOf(controlled)), []);
    const loose = physicalSettingsOf(sub(BASE, 'conv_thr = 1.0d-8', 'conv_thr = 1.0d-3'));
    assert.ok(1e-3 > CONV_THR_TOLERANCE_RY);
    assert.deepEqual(
      settingsDifferences(a, loose).map((d) => d.description),
      ['conv_thr: unset vs 0.001'],
    );
  });

  it('names each physics-affecting difference', () => {
    const a = physicalSettingsOf(BASE);
    const b = physicalSettingsOf(
      sub(
        sub(
          sub(sub(BASE, 'ecutwfc = 15.0', "ecutwfc = 20.0\n  vdw_corr = 'DFT-D3'"), "smearing = 'mv'", "smearing = 'gaussian'"),
          'Al.pz-vbc.UPF',
          'Al.pbe-nl-rrkjus_psl.1.0.0.UPF',
        ),
        '6 6 6 0 0 0',
        '8 8 8 0 0 0',
      ),
    );
    const d = settingsDifferences(a, b)
      .map((x) => x.description)
      .sort();
    assert.deepEqual(
      d,
      [
        'density cutoff: 60 Ry vs 80 Ry',
        'k-point mesh: 6×6×6 vs 8×8×8',
        'pseudopotential of Al: Al.pz-vbc.UPF vs Al.pbe-nl-rrkjus_psl.1.0.0.UPF',
        'smearing: marzari-vanderbilt vs gaussian',
        'vdw_corr: unset vs grimme-d3',
        'wavefunction cutoff: 15 Ry vs 20 Ry',
      ].sort(),
    );
    assert.deepEqual(
      settingsDifferences(a, b, ['ecutwfcRy', 'ecutrhoRy', 'kMesh'])
        .map((x) => x.setting)
        .sort(),
      ['extra.vdw_corr', 'pseudopotentials.Al', 'smearing'],
    );
  });

  it("treats a value equal to QE's default as not set, and records spin, charge and DFT+U", () => {
    const a = physicalSettingsOf(BASE);
    assert.deepEqual(
      settingsDifferences(a, physicalSettingsOf(sub(BASE, 'ecutwfc = 15.0', "ecutwfc = 15.0\n  tot_charge = 0.0\n  vdw_corr = 'none'"))),
      [],
    );
    const b = physicalSettingsOf(
      sub(
        BASE,
        'ecutwfc = 15.0',
        'ecutwfc = 15.0\n  tot_charge = 1.0\n  nspin = 2\n  starting_magnetization(1) = 0.3\n  lda_plus_u = .true.\n  Hubbard_U(1) = 2.0',
      ),
    );
    assert.deepEqual(
      settingsDifferences(a, b)
        .map((x) => x.setting)
        .sort(),
      ['extra.hubbard_u(1)', 'extra.lda_plus_u', 'extra.tot_charge', 'nspin'],
    );
    const h = physicalSettingsOf(fs.readFileSync(path.join(FIXTURES, 'inputs/hubbard-7x.in'), 'utf8'));
    assert.equal(h.extra!.HUBBARD, 'ortho-atomic: U Ni1-3d 6.1; U Ni2-3d 6.1; V Ni1-3d O-2p 1 3 0.5');
  });

  it('refuses an input without ecutwfc', () => {
    assert.throws(() => physicalSettingsOf(sub(BASE, '  ecutwfc = 15.0\n', '')), /no ecutwfc/);
  });
});

describe('the cell of an input', () => {
  it('builds fcc, bcc, hexagonal and ibrav 0 cells with the right volumes', () => {
    const fcc = latticeOfInput(parsePwInput(BASE));
    const a = 7.5 * BOHR_IN_ANGSTROM;
    assert.ok(Math.abs(Math.abs(det(fcc.cellAngstrom)) - a ** 3 / 4) < 1e-12);
    const bcc = latticeOfInput(parsePwInput(sub(BASE, 'ibrav = 2', 'ibrav = 3')));
    assert.ok(Math.abs(Math.abs(det(bcc.cellAngstrom)) - a ** 3 / 2) < 1e-12);
    const hex = latticeOfInput(parsePwInput(sub(BASE, '  celldm(1) = 7.5\n', '  A = 3.2\n  C = 5.2\n').replace('ibrav = 2', 'ibrav = 4')));
    assert.ok(Math.abs(Math.abs(det(hex.cellAngstrom)) - (Math.sqrt(3) / 2) * 3.2 ** 2 * 5.2) < 1e-12);
    const vc = latticeOfInput(parsePwInput(VC));
    assert.deepEqual(vc.cellAngstrom[0], [-2.8, 0, 2.8]);
    assert.ok(Math.abs(vc.alatAngstrom - Math.hypot(2.8, 0, 2.8)) < 1e-12);
    assert.throws(() => latticeOfInput(parsePwInput(sub(BASE, '  celldm(1) = 7.5\n', ''))), /celldm\(1\)/);
  });
});

describe('series from a template', () => {
  it("makes a cutoff series that changes only ecutwfc (and ecutrho at the template's ratio)", () => {
    const template = sub(BASE, 'ecutwfc = 15.0', 'ecutwfc = 15.0\n  ecutrho = 120.0');
    const series = cutoffSeries(template, { ecutwfcRy: [20, 25, 30, 30] });
    assert.deepEqual(
      series.map((m) => m.label),
      ['ecutwfc=20', 'ecutwfc=25', 'ecutwfc=30'],
    );
    const hash = createHash('sha256').update(template).digest('hex');
    for (const m of series) {
      assert.equal(m.templateSha256, hash);
      assert.equal(m.sha256, createHash('sha256').update(m.text).digest('hex'));
      const input = parsePwInput(m.text);
      assert.equal(numberIn(input, 'system', 'ecutwfc'), m.value);
      assert.equal(numberIn(input, 'system', 'ecutrho'), 8 * m.value);
      const lines = changed(template, m.text);
      assert.deepEqual(lines, [13, 14]);
    }
    assert.deepEqual(series[0]!.changes, [
      { parameter: 'ecutwfc', from: '15.0', to: '20.0' },
      { parameter: 'ecutrho', from: '120.0', to: '160.0' },
    ]);
    const plain = cutoffSeries(BASE, { ecutwfcRy: [20] })[0]!;
    assert.deepEqual(changed(BASE, plain.text), [13]);
    assert.equal(numberIn(parsePwInput(plain.text), 'system', 'ecutrho'), undefined);
  });

  it('refuses a template with errors, and points that would be invalid', () => {
    assert.throws(
      () => cutoffSeries(sub(BASE, 'nat = 1', 'nat = 2'), { ecutwfcRy: [20] }),
      (e: unknown) => e instanceof SeriesError && /nat = 2/.test(e.message) && e.diagnostics.length === 1,
    );
    const low = cutoffSeries(BASE, { ecutwfcRy: [20], ecutrhoRy: [40] })[0]!;
    assert.deepEqual(
      low.warnings.map((d) => d.code),
      ['ecutrho-below-4x'],
    );
    assert.deepEqual(cutoffSeries(BASE, { ecutwfcRy: [20] })[0]!.warnings, []);
    assert.throws(() => cutoffSeries(BASE, { ecutwfcRy: [-5] }), /positive/);
  });

  it('makes a k-spacing series through the reciprocal lattice, one input per distinct mesh', () => {
    const spacings = [0.5, 0.3, 0.29, 0.2];
    const series = kSpacingSeries(BASE, { spacingsPerAngstrom: spacings });
    const cell = latticeOfInput(parsePwInput(BASE)).cellAngstrom;
    const meshes = spacings.map((s) => meshFromSpacing(cell, s).join('x'));
    assert.equal(series.length, new Set(meshes).size);
    for (const m of series) {
      const k = readKPoints(parsePwInput(m.text))!.value;
      assert.ok(k.kind === 'automatic');
      assert.deepEqual(k.mesh, m.kMesh);
      for (const s of m.spacingsPerAngstrom!) assert.equal(meshFromSpacing(cell, s).join('x'), m.kMesh!.join('x'));
      assert.deepEqual(changed(BASE, m.text), m.kMesh!.join(' ') === '6 6 6' ? [] : [26]);
    }
    assert.throws(
      () => kSpacingSeries(sub(BASE, /K_POINTS \(automatic\)\n.*\n/, 'K_POINTS {gamma}\n'), { spacingsPerAngstrom: [0.2] }),
      /automatic/,
    );
    assert.deepEqual(
      kMeshSeries(BASE, [
        [4, 4, 4],
        [8, 8, 8],
        [4, 4, 4],
      ]).map((m) => m.label),
      ['k=4×4×4', 'k=8×8×8'],
    );
  });

  it('makes an EOS series by scaling celldm(1) when the cell comes from ibrav', () => {
    const series = eosSeries(BASE, { linearScales: [0.98, 1, 1.02] });
    const v0 = Math.abs(det(latticeOfInput(parsePwInput(BASE)).cellAngstrom));
    for (const m of series) {
      assert.deepEqual(changed(BASE, m.text), m.value === 1 ? [] : [10]);
      const v = Math.abs(det(latticeOfInput(parsePwInput(m.text)).cellAngstrom));
      assert.ok(Math.abs(v / v0 - m.value ** 3) < 1e-9);
      assert.ok(Math.abs(m.volumeAngstrom3! - v) < 1e-9);
    }
    const byVolume = eosSeries(BASE, { volumeScales: [1.05] })[0]!;
    assert.ok(Math.abs(Math.abs(det(latticeOfInput(parsePwInput(byVolume.text)).cellAngstrom)) / v0 - 1.05) < 1e-9);
  });

  it('scales CELL_PARAMETERS in Å and keeps crystal positions; scales Cartesian Å positions with the cell', () => {
    const m = eosSeries(VC, { linearScales: [1.01] })[0]!;
    const before = parsePwInput(VC);
    const after = parsePwInput(m.text);
    const c0 = readCellParameters(before)!.value.vectors;
    const c1 = readCellParameters(after)!.value.vectors;
    c0.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(c1[i]![j]! - 1.01 * x) < 1e-9)));
    assert.deepEqual(
      readAtomicPositions(after)!.value.atoms.map((a) => a.position),
      readAtomicPositions(before)!.value.atoms.map((a) => a.position),
    );
    const at = VC.split('\n').findIndex((l) => l.startsWith('CELL_PARAMETERS'));
    assert.deepEqual(changed(VC, m.text), [at + 1, at + 2, at + 3]);
    const cart = sub(
      VC,
      /ATOMIC_POSITIONS \{crystal\}\n.*\n.*\n/,
      'ATOMIC_POSITIONS {angstrom}\n  Si 0.00 0.00 0.00\n  Si 1.40 1.38 1.39\n',
    );
    const scaledCart = parsePwInput(eosSeries(cart, { linearScales: [1.02] })[0]!.text);
    assert.deepEqual(readAtomicPositions(scaledCart)!.value.atoms[1]!.position, [1.428, 1.4076, 1.4178]);
  });
});
