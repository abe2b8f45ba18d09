// The validator against what pw.x's own source accepts and refuses: names its NAMELIST
// statements declare, spellings its code compares, the checks it makes while reading, and
// QE's whole qe-7.2 test-suite input set, which pw.x 7.2 runs without an error.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyTextEdits } from '../../../../../../src/core/dft/qe/input';
import { readUpfHeader } from '../../../../../../src/core/dft/qe/upf';
import { validatePwInput, type Diagnostic, type ValidateOptions } from '../../../../../../src/core/dft/qe/validate';
import { FIXTURES, QE_TEST_SUITE as SUITE, qeTestSuiteInputs as suiteInputs } from '../fixtures';

const BASE = fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8');

function edit(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  assert.notEqual(out, text, `the edit ${String(from)} did not apply`);
  return out;
}
const diagnose = (text: string, opts: ValidateOptions = {}): Diagnostic[] => validatePwInput(text, opts).diagnostics;
const codes = (text: string, opts: ValidateOptions = {}) =>
  diagnose(text, opts)
    .filter((d) => d.severity !== 'info')
    .map((d) => `${d.severity} ${d.code}`);
const withSystem = (lines: string) => edit(BASE, '  degauss = 0.02\n', `  degauss = 0.02\n${lines}`);
const withElectrons = (lines: string) => edit(BASE, '  conv_thr = 1.0d-8\n', `  conv_thr = 1.0d-8\n${lines}`);

describe('the validator accepts what pw.x accepts and refuses what it refuses', () => {
  it("accepts names pw.x's NAMELIST declares though INPUT_PW does not document them (tbeta_smoothing, n_proj)", () => {
    for (const version of ['6.7', '7.2', 'develop'] as const) {
      const text = edit(withSystem('  n_proj = 0\n'), '  conv_thr = 1.0d-8\n', '  conv_thr = 1.0d-8\n  tbeta_smoothing = .true.\n');
      assert.deepEqual(codes(text, { qeVersion: version }), [], version);
      const info = diagnose(text, { qeVersion: version }).filter((d) => d.code === 'variable-undocumented');
      assert.equal(info.length, 2, version);
      assert.equal(info[0]!.severity, 'info');
    }
    // A type check still applies to an undocumented name: tbeta_smoothing is LOGICAL.
    assert.deepEqual(codes(withElectrons('  tbeta_smoothing = 3\n')), ['error wrong-type']);
  });

  it("warns of a cp.x variable pw.x's namelist accepts and pw.x ignores (emass)", () => {
    assert.deepEqual(codes(withElectrons('  emass = 400\n')), ['warning variable-ignored']);
  });

  it("refuses a documented name pw.x's namelist does not list (ensemble_energies; lkpoint_dir from 7.x)", () => {
    const text = withSystem('  ensemble_energies = .true.\n');
    for (const version of ['6.7', '7.2', 'develop'] as const) {
      const d = diagnose(text, { qeVersion: version }).filter((x) => x.code === 'variable-not-read');
      assert.equal(d.length, 1, version);
      assert.equal(d[0]!.severity, 'error');
      assert.match(d[0]!.message, /bad line in namelist &system/);
    }
    const kdir = edit(BASE, '  tstress = .true.\n', '  tstress = .true.\n  lkpoint_dir = .false.\n');
    assert.deepEqual(codes(kdir, { qeVersion: '6.7' }), []);
    assert.deepEqual(codes(kdir, { qeVersion: '7.2' }), ['error variable-not-read']);
    const fixed = applyTextEdits(kdir, diagnose(kdir, { qeVersion: '7.2' }).find((d) => d.code === 'variable-not-read')!.fixes![0]!.edits);
    assert.equal(fixed, BASE);
  });

  it("accepts the spellings pw.x's source compares: ion_positions='from_file', tetrahedra with - and _, 'MV'", () => {
    const relax = edit(BASE, "calculation = 'scf'", "calculation = 'relax'");
    const ions = edit(
      relax,
      '&ELECTRONS\n  conv_thr = 1.0d-8\n/\n',
      "&ELECTRONS\n  conv_thr = 1.0d-8\n/\n&IONS\n  ion_positions = 'from_file'\n/\n",
    );
    assert.deepEqual(codes(ions), []);
    for (const occ of ['tetrahedra-opt', 'tetrahedra_opt', 'tetrahedra-lin', 'tetrahedra_lin']) {
      const text = edit(edit(BASE, "occupations = 'smearing'", `occupations = '${occ}'`), "  smearing = 'mv'\n  degauss = 0.02\n", '');
      assert.deepEqual(codes(text), [], occ);
    }
    const misspelt = ions.replace("'from_file'", "'from_fil'");
    assert.deepEqual(codes(misspelt), ['error value-not-allowed']);
  });

  it('reads OCCUPATIONS fields as pw.x does, through its infix evaluator (4/3, 1+1/3, (1+2/2*3)/3)', () => {
    const text = fs.readFileSync(path.join(SUITE, 'pw_eval/eval_infix-2.in'), 'utf8');
    assert.deepEqual(codes(text), []);
    const bad = text.replace('4/3', '4//3');
    const d = diagnose(bad).filter((x) => x.code === 'occupation-not-number');
    assert.equal(d.length, 1);
    assert.match(d[0]!.message, /4\/\/3/);
  });

  it('an unknown vdw_corr is a warning, as pw.x prints "unknown vdw correction" and runs without one', () => {
    const d = diagnose(withSystem("  vdw_corr = 'dft-d2'\n")).filter((x) => x.code === 'value-not-allowed');
    assert.equal(d.length, 1);
    assert.equal(d[0]!.severity, 'warning');
    assert.match(d[0]!.message, /runs as if it were not set/);
    // An unknown smearing stops pw.x: still an error.
    assert.deepEqual(codes(edit(BASE, "smearing = 'mv'", "smearing = 'marzari'")), ['error value-not-allowed']);
  });

  it('refuses values whose branch in pw.x stops the run (potential mixing; PPCG in the development version)', () => {
    const d = diagnose(withElectrons("  mixing_mode = 'potential'\n")).find((x) => x.code === 'value-refused');
    assert.equal(d?.severity, 'error');
    assert.match(d!.message, /potential mixing no longer implemented/);
    const ppcg = withElectrons("  diagonalization = 'ppcg'\n");
    assert.deepEqual(codes(ppcg, { qeVersion: '7.2' }), []);
    assert.deepEqual(codes(ppcg, { qeVersion: 'develop' }), ['error value-refused']);
  });

  it('asks for a starting magnetization only where pw.x stops for it', () => {
    const spin = (extra: string) => withSystem(`  nspin = 2\n${extra}`);
    assert.deepEqual(codes(spin('')), ['error nspin-needs-magnetization']);
    // An explicit 0 is "set": pw.x tests "not set", not zero.
    assert.deepEqual(codes(spin('  starting_magnetization(1) = 0.0\n')), []);
    assert.deepEqual(codes(spin('  tot_magnetization = 1\n')), []);
    assert.deepEqual(codes(spin("  constrained_magnetization = 'total'\n  fixed_magnetization(3) = 0.5\n")), []);
    assert.deepEqual(codes(edit(spin(''), "calculation = 'scf'", "calculation = 'nscf'")), []);
    const fromInput =
      edit(edit(spin(''), "occupations = 'smearing'", "occupations = 'from_input'"), "  smearing = 'mv'\n  degauss = 0.02\n", '') +
      'OCCUPATIONS\n1.0 1.0 1.0\n1.0 0.0 0.0\n';
    assert.ok(!codes(fromInput).some((c) => c.includes('magnetization')), codes(fromInput).join(', '));
    // Fixed occupations (the default) with nspin = 2 stop earlier, on tot_magnetization.
    const fixed = edit(edit(spin(''), "occupations = 'smearing'", "occupations = 'fixed'"), "  smearing = 'mv'\n  degauss = 0.02\n", '');
    assert.deepEqual(codes(fixed), ['error fixed-occupations-need-tot-magnetization']);
    assert.deepEqual(codes(edit(fixed, '  nspin = 2\n', '  nspin = 2\n  tot_magnetization = 1.5\n')), [
      'error fixed-occupations-need-integer-magnetization',
    ]);
    assert.deepEqual(codes(withSystem('  tot_magnetization = 2\n')), ['error tot-magnetization-needs-nspin']);
  });

  it('checks values as pw.x does while reading the namelists (generated from read_namelists.f90)', () => {
    const neg = edit(BASE, 'ecutwfc = 15.0', 'ecutwfc = -5');
    const d = diagnose(neg).find((x) => x.code === 'value-out-of-range')!;
    assert.equal(d.severity, 'error');
    assert.match(d.message, /ecutwfc out of range/);
    assert.deepEqual(codes(edit(BASE, 'ecutwfc = 15.0', 'ecutwfc = 15.0\n  nspin = 3')), ['error value-out-of-range']);
    assert.deepEqual(codes(edit(BASE, 'nat = 1', 'nat = -1')), ['error value-out-of-range']);
    assert.deepEqual(codes(edit(BASE, '  tstress = .true.\n', '  tstress = .true.\n  max_seconds = -1\n')), ['error value-out-of-range']);
    // pw.x reads &IONS in an scf run (and checks it), not in an nscf one.
    const ions = edit(BASE, '  conv_thr = 1.0d-8\n/\n', '  conv_thr = 1.0d-8\n/\n&IONS\n  ion_maxstep = -1\n/\n');
    assert.ok(codes(ions).includes('error value-out-of-range'));
    assert.ok(!codes(edit(ions, "calculation = 'scf'", "calculation = 'nscf'")).includes('error value-out-of-range'));
    assert.deepEqual(codes(edit(BASE, 'ecutwfc = 15.0', 'ecutwfc = 0')), ['error ecutwfc-zero']);
    assert.deepEqual(codes(withSystem('  ecutrho = 15.0\n')), ['error ecutrho-not-above-ecutwfc']);
    assert.deepEqual(codes(withSystem('  ecutrho = 40.0\n')), ['warning ecutrho-below-4x']);
  });

  it('a negative cutoff with pseudopotential headers is reported, not a rule that throws', () => {
    const upf = readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf', 'Al.pz-vbc.UPF'), 'utf8'), 'Al.pz-vbc.UPF');
    const all = diagnose(edit(BASE, 'ecutwfc = 15.0', 'ecutwfc = -5'), { upfHeaders: { 'Al.pz-vbc.UPF': upf } });
    assert.ok(!all.some((x) => x.code === 'validator-internal'), all.map((x) => x.message).join('\n'));
    assert.ok(all.some((x) => x.code === 'value-out-of-range'));
  });

  it('refuses a TAB before a species label in ATOMIC_POSITIONS, which pw.x keeps in the label', () => {
    const tab = edit(BASE, '  Al 0.0 0.0 0.0', '\tAl 0.0 0.0 0.0');
    const d = diagnose(tab).find((x) => x.code === 'tab-before-label')!;
    assert.equal(d.severity, 'error');
    assert.equal(applyTextEdits(tab, d.fixes![0]!.edits), BASE);
    // TABs between the fields are separators for pw.x too.
    assert.deepEqual(codes(edit(BASE, '  Al 0.0 0.0 0.0', '  Al\t0.0\t0.0\t0.0')), []);
  });

  it('a fully relativistic ultrasoft pseudopotential needs lspinorb; pw.x averages a norm-conserving one', () => {
    const name = 'Fe.rel-pbe-spn-rrkjus_psl.0.2.1.UPF';
    const fr = readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf', name), 'utf8'), name);
    const text = edit(BASE, 'Al 26.9815 Al.pz-vbc.UPF', `Al 26.9815 ${name}`);
    for (const version of ['6.7', '7.2', 'develop'] as const) {
      const d = diagnose(text, { qeVersion: version, upfHeaders: { [name]: fr } }).find((x) => x.code === 'fr-pseudo-needs-lspinorb');
      assert.equal(d?.severity, 'error', version);
    }
    const soc = withSystem('  noncolin = .true.\n  lspinorb = .true.\n').replace('Al 26.9815 Al.pz-vbc.UPF', `Al 26.9815 ${name}`);
    assert.ok(!diagnose(soc, { upfHeaders: { [name]: fr } }).some((x) => x.code.startsWith('fr-pseudo')));
    const nc = { ...fr, type: 'NC' as const };
    const averaged = diagnose(text, { upfHeaders: { [name]: nc } }).find((x) => x.code.startsWith('fr-pseudo'));
    assert.equal(averaged?.code, 'fr-pseudo-averaged');
    assert.equal(averaged?.severity, 'info');
  });

  it('the obsolete DFT+U variables stop pw.x 7.x only when set: lda_plus_u = .false. is a warning', () => {
    assert.deepEqual(codes(withSystem('  lda_plus_u = .false.\n'), { qeVersion: '7.2' }), ['warning variable-obsolete']);
    assert.deepEqual(codes(withSystem('  lda_plus_u = .true.\n  Hubbard_U(1) = 1.0\n'), { qeVersion: '7.2' }), [
      'error variable-not-in-version',
      'error variable-not-in-version',
    ]);
    assert.deepEqual(codes(withSystem('  lda_plus_u = .true.\n  Hubbard_U(1) = 1.0\n'), { qeVersion: '6.7' }), []);
  });

  it(`validates every input of QE's qe-7.2 test-suite with the 7.2 definitions without an error`, () => {
    const files = suiteInputs();
    assert.equal(files.length, 246);
    const warnings: string[] = [];
    for (const f of files) {
      const r = validatePwInput(fs.readFileSync(path.join(SUITE, f), 'utf8'), { qeVersion: '7.2' });
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`),
        [],
        f,
      );
      for (const d of r.diagnostics) if (d.severity === 'warning') warnings.push(`${f} ${d.code}`);
    }
    // What remains is what pw.x itself prints or silently ignores (docs/notes/dft-qe.md explains each).
    assert.deepEqual(warnings, [
      'pw_pawatom/paw-vcbfgs.in magnetization-needs-nspin',
      'pw_scf/gth.in value-not-allowed',
      'pw_uspp/uspp1-coulomb.in missing-card',
      'pw_vdw/vdW-DF3-opt1.in smearing-needs-smearing-occupations',
      'pw_vdw/vdW-DF3-opt1.in smearing-needs-smearing-occupations',
      'pw_vdw/vdW-DF3-opt2.in smearing-needs-smearing-occupations',
      'pw_vdw/vdW-DF3-opt2.in smearing-needs-smearing-occupations',
      'pw_workflow_exx_nscf/uspp-gamma-2.in duplicate-variable',
    ]);
  });
});
