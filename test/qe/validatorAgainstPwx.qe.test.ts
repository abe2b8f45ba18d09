// The validator's claims about what pw.x does, checked against the real pw.x 6.7: each
// input the validator calls an error makes pw.x stop with its error block, and each
// setting it says pw.x ignores is indeed ignored. Every run stops at input reading or
// takes about a second (fcc Al, 12 Ry, 2x2x2 k).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwInput } from '../../src/core/dft/qe/input';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { upfHeadersForInput } from '../../src/core/dft/qe/upfFiles';
import { validatePwInput } from '../../src/core/dft/qe/validate';

const PSEUDO = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const BASE = `&CONTROL
  calculation = 'scf'
  prefix = 'al'
  outdir = './tmp'
  pseudo_dir = '${PSEUDO}'
/
&SYSTEM
  ibrav = 2
  celldm(1) = 7.5
  nat = 1
  ntyp = 1
  ecutwfc = 12.0
  occupations = 'smearing'
  smearing = 'mv'
  degauss = 0.02
/
&ELECTRONS
/
ATOMIC_SPECIES
  Al 26.98 Al.pz-vbc.UPF
ATOMIC_POSITIONS {alat}
  Al 0.0 0.0 0.0
K_POINTS {automatic}
  2 2 2 0 0 0
`;

function variant(edits: [string | RegExp, string][]): string {
  let t = BASE;
  for (const [from, to] of edits) {
    const next = t.replace(from, to);
    assert.notEqual(next, t, `edit ${String(from)} did not apply`);
    t = next;
  }
  return t;
}

function runPw(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-qeio-'));
  try {
    fs.writeFileSync(path.join(dir, 'pw.in'), text);
    const r = spawnSync('pw.x', ['-in', 'pw.in'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    });
    return r.stdout ?? '';
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function validate(text: string) {
  const input = parsePwInput(text);
  return validatePwInput(input, { qeVersion: '6.7', upfHeaders: upfHeadersForInput(input) });
}

const STOPS: { name: string; code: string; text: string; pwSays?: RegExp }[] = [
  { name: 'relax without &IONS', code: 'missing-namelist', text: variant([["'scf'", "'relax'"]]) },
  {
    name: 'vc-relax without &CELL',
    code: 'missing-namelist',
    text: variant([
      ["'scf'", "'vc-relax'"],
      ['&ELECTRONS\n/\n', '&ELECTRONS\n/\n&IONS\n/\n'],
    ]),
  },
  { name: "calculation='SCF'", code: 'value-case', text: variant([["'scf'", "'SCF'"]]) },
  { name: 'a misspelt variable', code: 'unknown-variable', text: variant([['ecutwfc', 'ecutwfx']]) },
  { name: 'an unquoted string', code: 'wrong-type', text: variant([["prefix = 'al'", 'prefix = al']]) },
  { name: 'celldm and A together', code: 'celldm-and-abc', text: variant([['  celldm(1) = 7.5\n', '  celldm(1) = 7.5\n  A = 3.97\n']]) },
  {
    name: 'CELL_PARAMETERS with ibrav 2',
    code: 'cell-parameters-redundant',
    text: `${BASE}CELL_PARAMETERS {alat}\n -0.5 0 0.5\n 0 0.5 0.5\n -0.5 0.5 0\n`,
  },
  {
    name: 'nspin = 2 without a starting magnetization',
    code: 'nspin-needs-magnetization',
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n']]),
  },
  { name: 'smearing without degauss', code: 'smearing-needs-degauss', text: variant([['  degauss = 0.02\n', '']]) },
  {
    name: 'an undeclared species',
    code: 'species-undeclared',
    text: variant([
      ['nat = 1', 'nat = 2'],
      ['  Al 0.0 0.0 0.0\n', '  Al 0.0 0.0 0.0\n  Si 0.5 0.5 0.5\n'],
    ]),
  },
  {
    name: 'an odd electron count with fixed occupations',
    code: 'odd-electrons-fixed-occupations',
    text: variant([
      ["occupations = 'smearing'", "occupations = 'fixed'"],
      ["  smearing = 'mv'\n  degauss = 0.02\n", ''],
    ]),
  },
  {
    name: 'pseudopotentials of two functionals',
    code: 'functional-mismatch',
    text: variant([
      ['nat = 1', 'nat = 2'],
      ['ntyp = 1', 'ntyp = 2'],
      ['  Al 26.98 Al.pz-vbc.UPF\n', '  Al 26.98 Al.pz-vbc.UPF\n  Si 28.08 Si.pbe-rrkj.UPF\n'],
      ['  Al 0.0 0.0 0.0\n', '  Al 0.0 0.0 0.0\n  Si 0.5 0.5 0.5\n'],
    ]),
  },
  { name: 'a missing pseudopotential file', code: 'pseudopotential-unreadable', text: variant([['Al.pz-vbc.UPF', 'Al.missing.UPF']]) },
  { name: 'namelists out of order', code: 'namelist-order', text: BASE.replace(/(&CONTROL[\s\S]*?\n\/\n)(&SYSTEM[\s\S]*?\n\/\n)/, '$2$1') },
  { name: 'a misspelt namelist', code: 'unknown-namelist', text: variant([['&ELECTRONS', '&ELECTRON']]) },
  { name: 'a namelist after the cards', code: 'namelist-after-cards', text: `${variant([["'scf'", "'relax'"]])}&IONS\n/\n` },
  {
    name: 'a species declared twice',
    code: 'species-duplicate',
    text: variant([
      ['ntyp = 1', 'ntyp = 2'],
      ['  Al 26.98 Al.pz-vbc.UPF\n', '  Al 26.98 Al.pz-vbc.UPF\n  Al 26.98 Al.pz-vbc.UPF\n'],
    ]),
  },
  { name: 'a misspelt card option', code: 'card-option-invalid', text: variant([['K_POINTS {automatic}', 'K_POINTS {automatik}']]) },
  { name: 'an automatic k-mesh line with five numbers', code: 'kpoints-automatic-line', text: variant([['2 2 2 0 0 0', '2 2 2 0 0']]) },
  { name: 'celldm(7)', code: 'index-out-of-range', text: variant([['  celldm(1) = 7.5\n', '  celldm(1) = 7.5\n  celldm(7) = 1.0\n']]) },
  { name: 'an index on a scalar', code: 'index-on-scalar', text: variant([['nat = 1', 'nat(1) = 1']]) },
  { name: 'a real where an integer is due', code: 'wrong-type', text: variant([['nat = 1', 'nat = 1.0']]) },
  { name: 'a card given twice', code: 'duplicate-card', text: `${BASE}K_POINTS {automatic}\n  2 2 2 0 0 0\n` },
  { name: 'ibrav 2 without celldm or A', code: 'lattice-parameter-missing', text: variant([['  celldm(1) = 7.5\n', '']]) },
  { name: 'ibrav 0 without CELL_PARAMETERS', code: 'cell-parameters-missing', text: variant([['ibrav = 2', 'ibrav = 0']]) },
  {
    name: 'tetrahedra with a k-point list',
    code: 'tetrahedra-need-mesh',
    text: variant([
      ["occupations = 'smearing'", "occupations = 'tetrahedra'"],
      ['K_POINTS {automatic}\n  2 2 2 0 0 0', 'K_POINTS {tpiba}\n  1\n  0.0 0.0 0.0 1.0'],
    ]),
  },
  {
    name: "occupations='from_input' without the OCCUPATIONS card",
    code: 'occupations-card-missing',
    text: variant([["occupations = 'smearing'", "occupations = 'from_input'"]]),
  },
  {
    name: 'crystal_sg without space_group',
    code: 'crystal-sg-needs-space-group',
    text: variant([['ATOMIC_POSITIONS {alat}', 'ATOMIC_POSITIONS {crystal_sg}']]),
  },
  {
    name: 'CELL_PARAMETERS {alat} without alat',
    code: 'cell-alat-without-alat',
    text: `${variant([['  ibrav = 2\n  celldm(1) = 7.5\n', '  ibrav = 0\n']])}CELL_PARAMETERS {alat}\n -0.5 0 0.5\n 0 0.5 0.5\n -0.5 0.5 0\n`,
  },
  // Claims read from QE's source (scripts/qe-defs/namelists.ts) and the rules added with them.
  {
    name: 'a documented variable the namelist does not list',
    code: 'variable-not-read',
    pwSays: /bad line in namelist &system/,
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  ensemble_energies = .true.\n']]),
  },
  {
    name: 'a negative ecutwfc',
    code: 'value-out-of-range',
    pwSays: /ecutwfc out of range/,
    text: variant([['ecutwfc = 12.0', 'ecutwfc = -5']]),
  },
  {
    name: 'nspin = 3',
    code: 'value-out-of-range',
    pwSays: /nspin out of range/,
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 3\n']]),
  },
  { name: 'ecutwfc = 0', code: 'ecutwfc-zero', pwSays: /ecutwfc not set/, text: variant([['ecutwfc = 12.0', 'ecutwfc = 0']]) },
  {
    name: 'ecutrho equal to ecutwfc',
    code: 'ecutrho-not-above-ecutwfc',
    pwSays: /ecutrho <= ecutwfc/,
    text: variant([['ecutwfc = 12.0', 'ecutwfc = 12.0\n  ecutrho = 12.0']]),
  },
  {
    name: 'potential mixing',
    code: 'value-refused',
    pwSays: /potential mixing no longer implemented/,
    text: variant([['&ELECTRONS\n', "&ELECTRONS\n  mixing_mode = 'potential'\n"]]),
  },
  {
    name: 'a TAB before an ATOMIC_POSITIONS label',
    code: 'tab-before-label',
    pwSays: /in ATOMIC_POSITIONS is nonexistent/,
    text: variant([['  Al 0.0 0.0 0.0', '\tAl 0.0 0.0 0.0']]),
  },
  {
    name: 'tot_magnetization without nspin = 2',
    code: 'tot-magnetization-needs-nspin',
    pwSays: /tot_magnetization requires nspin=2/,
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  tot_magnetization = 2\n']]),
  },
  {
    name: 'a negative tot_magnetization',
    code: 'tot-magnetization-negative',
    pwSays: /tot_magnetization only takes positive values/,
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n  tot_magnetization = -1.5\n']]),
  },
  {
    name: 'fixed occupations with nspin = 2 and no tot_magnetization',
    code: 'fixed-occupations-need-tot-magnetization',
    pwSays: /fixed occupations and lsda need tot_magnetization/,
    text: variant([
      ["occupations = 'smearing'", "occupations = 'fixed'\n  nspin = 2"],
      ["  smearing = 'mv'\n  degauss = 0.02\n", ''],
    ]),
  },
  {
    name: 'fixed occupations with a fractional tot_magnetization',
    code: 'fixed-occupations-need-integer-magnetization',
    pwSays: /fixed occupations requires integer tot_magnetization/,
    text: variant([
      ["occupations = 'smearing'", "occupations = 'fixed'\n  nspin = 2\n  tot_magnetization = 1.5"],
      ["  smearing = 'mv'\n  degauss = 0.02\n", ''],
    ]),
  },
  {
    name: 'a fully relativistic ultrasoft pseudopotential without lspinorb',
    code: 'fr-pseudo-needs-lspinorb',
    pwSays: /FR-PP please use lspinorb=.true./,
    text: variant([['Al 26.98 Al.pz-vbc.UPF', 'Al 58.69 Ni.rel-pbe-nd-rrkjus.UPF']]),
  },
];

/** Inputs the validator once called errors and pw.x 6.7 runs (QE's source accepts them); a run of about a second each. */
const RUNS: { name: string; text: string; noErrorsIn?: string }[] = [
  {
    name: "tbeta_smoothing and n_proj, declared in pw.x's namelist but not in INPUT_PW.def",
    text: variant([
      ['  degauss = 0.02\n', '  degauss = 0.02\n  n_proj = 0\n'],
      ['&ELECTRONS\n', '&ELECTRONS\n  tbeta_smoothing = .true.\n'],
    ]),
  },
  {
    name: "occupations = 'tetrahedra-opt' (set_occupations.f90 accepts - and _)",
    text: variant([
      ["occupations = 'smearing'", "occupations = 'tetrahedra-opt'"],
      ["  smearing = 'mv'\n  degauss = 0.02\n", ''],
    ]),
  },
  {
    name: 'nspin = 2 with an explicit starting_magnetization of 0',
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n  starting_magnetization(1) = 0.0\n']]),
  },
  {
    name: 'nspin = 2 with tot_magnetization and no starting_magnetization',
    text: variant([['  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n  tot_magnetization = 1\n']]),
  },
];

describe('validator errors agree with pw.x 6.7', function () {
  this.timeout(300_000);
  for (const c of STOPS) {
    it(`${c.name}: the validator reports ${c.code} and pw.x stops with an error`, () => {
      const d = validate(c.text).diagnostics.filter((x) => x.code === c.code);
      assert.equal(d.length >= 1, true, `validator did not report ${c.code}`);
      assert.equal(d[0]!.severity, 'error');
      const out = parsePwOutput(runPw(c.text));
      // pw.x stops with its error block, or (occupations='from_input' without the card) dies without one
      assert.equal(out.jobDone, false, `pw.x finished the job for ${c.name}`);
      if (c.code !== 'occupations-card-missing') assert.ok(out.error, `pw.x did not stop with an error block for ${c.name}`);
      if (c.pwSays) assert.match(out.error!.message, c.pwSays);
    });
  }

  for (const c of RUNS) {
    it(`${c.name}: the validator reports no error and pw.x runs it`, () => {
      const r = validate(c.text);
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
        [],
      );
      const out = parsePwOutput(runPw(c.text));
      assert.equal(out.jobDone, true, out.error?.message);
      assert.equal(out.scfConverged, true);
    });
  }

  it('an unknown vdw_corr: the validator warns, and pw.x prints its warning and runs without a correction', () => {
    const text = variant([['  degauss = 0.02\n', "  degauss = 0.02\n  vdw_corr = 'dft-d2'\n"]]);
    const d = validate(text).diagnostics.find((x) => x.code === 'value-not-allowed');
    assert.equal(d?.severity, 'warning');
    const out = parsePwOutput(runPw(text));
    assert.equal(out.jobDone, true);
    assert.ok(
      out.warnings.some((w) => /unknown vdw correction/.test(w)),
      out.warnings.join('; '),
    );
  });

  it('the unchanged input passes the validator and pw.x runs it', () => {
    assert.equal(validate(BASE).errorCount, 0);
    const out = parsePwOutput(runPw(BASE));
    assert.equal(out.jobDone, true);
    assert.equal(out.scfConverged, true);
  });

  it('no K_POINTS card: the validator warns of a Γ-only run, and pw.x runs with one k-point', () => {
    const text = variant([[/K_POINTS \{automatic\}\n.*\n/, '']]);
    const d = validate(text).diagnostics.find((x) => x.code === 'missing-card');
    assert.equal(d?.severity, 'warning');
    const out = parsePwOutput(runPw(text));
    assert.equal(out.jobDone, true);
    assert.equal(out.settings.kPoints, 1);
  });

  it('a second, empty &ELECTRONS: the validator warns, and pw.x ignores it', () => {
    const text = variant([['&ELECTRONS\n/\n', '&ELECTRONS\n/\n&ELECTRONS\n/\n']]);
    const d = validate(text).diagnostics.find((x) => x.code === 'duplicate-namelist');
    assert.equal(d?.severity, 'warning');
    const out = parsePwOutput(runPw(text));
    assert.equal(out.jobDone, true);
    assert.ok(
      out.warnings.some((w) => /card &ELECTRONS ignored/.test(w)),
      out.warnings.join('; '),
    );
  });

  it('starting_magnetization with nspin = 1: the validator warns it is ignored, and pw.x computes no magnetization', () => {
    const text = variant([['  degauss = 0.02\n', '  degauss = 0.02\n  starting_magnetization(1) = 0.5\n']]);
    const d = validate(text).diagnostics.find((x) => x.code === 'magnetization-needs-nspin');
    assert.equal(d?.severity, 'warning');
    const out = parsePwOutput(runPw(text));
    assert.equal(out.jobDone, true);
    assert.equal(out.totalMagnetization, undefined);
    assert.equal(out.absoluteMagnetization, undefined);
  });
});
