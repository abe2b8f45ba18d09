import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyTextEdits } from '../../../../../../src/core/dft/qe/input';
import { readUpfHeader, type UpfHeader } from '../../../../../../src/core/dft/qe/upf';
import { validatePwInput, type Diagnostic, type ValidateOptions } from '../../../../../../src/core/dft/qe/validate';
import { FIXTURES } from '../fixtures';

const BASE = fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8');
const upf = (name: string) => readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf', name), 'utf8'), name);

/** The base input with a line replaced (0-based), inserted, or text substituted. */
function edit(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  assert.notEqual(out, text, `the edit ${String(from)} did not apply`);
  return out;
}

function diagnose(text: string, opts: ValidateOptions = {}): Diagnostic[] {
  return validatePwInput(text, opts).diagnostics;
}

function only(text: string, code: string, opts: ValidateOptions = {}): Diagnostic {
  const found = diagnose(text, opts).filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got: ${JSON.stringify(diagnose(text, opts).map((d) => d.code))}`);
  return found[0]!;
}

/** Applies the diagnostic's first fix and checks the diagnostic is gone. */
function fixClears(text: string, d: Diagnostic, opts: ValidateOptions = {}): string {
  assert.ok(d.fixes?.length, `${d.code} offers no fix`);
  const fixed = applyTextEdits(text, d.fixes![0]!.edits);
  assert.ok(!diagnose(fixed, opts).some((x) => x.code === d.code), `${d.code} remains after "${d.fixes![0]!.title}":\n${fixed}`);
  return fixed;
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

describe('pw.x input validator', () => {
  it('accepts the fixture inputs pw.x ran without complaint', () => {
    for (const f of [
      'al-fcc-scf.in',
      'runs/si-relax.in',
      'runs/si-vc-relax.in',
      'runs/fe-bcc-magnetic.in',
      'runs/si-beef-ensemble.in',
      'inputs/compact.in',
    ]) {
      const r = validatePwInput(fs.readFileSync(path.join(FIXTURES, f), 'utf8'), { qeVersion: '6.7' });
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity !== 'info'),
        [],
        f,
      );
    }
  });

  it('flags an unknown variable with its range, a "did you mean" and a rename fix', () => {
    const text = edit(BASE, 'ecutwfc = 15.0', 'ecutwfx = 15.0');
    const d = only(text, 'unknown-variable');
    assert.equal(d.severity, 'error');
    assert.equal(d.range.start.line, lineOf(text, 'ecutwfx'));
    assert.equal(d.range.start.character, 2);
    assert.equal(d.range.end.character, 9);
    assert.match(d.message, /did you mean ecutwfc/);
    const fixed = fixClears(text, d);
    assert.equal(fixed, BASE);
  });

  it('says when a variable sits in the wrong namelist and moves it', () => {
    const text = edit(BASE, '  tstress = .true.\n', '  tstress = .true.\n  ecutrho = 120\n');
    const d = only(text, 'variable-in-wrong-namelist');
    assert.match(d.message, /belongs to &SYSTEM/);
    const fixed = fixClears(text, d);
    assert.equal(validatePwInput(fixed).errorCount, 0);
    assert.match(fixed, /degauss = 0.02\n {2}ecutrho = 120\n\//);
  });

  it('explains a variable of another QE version (DFT+U moved to the HUBBARD card in 7.x)', () => {
    const text = edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  lda_plus_u = .true.\n');
    assert.equal(diagnose(text, { qeVersion: '6.7' }).filter((d) => d.severity === 'error').length, 0);
    const d = only(text, 'variable-not-in-version', { qeVersion: '7.2' });
    assert.match(d.message, /HUBBARD card/);
    const card = `${BASE}HUBBARD {atomic}\n  U Al-3p 1.0\n`;
    assert.match(only(card, 'unknown-card', { qeVersion: '6.7' }).message, /lda_plus_u/);
    assert.ok(!diagnose(card, { qeVersion: '7.2' }).some((x) => x.severity === 'error'));
  });

  it('checks types: integers, reals, logicals, quoted strings', () => {
    assert.match(only(edit(BASE, 'nat = 1', 'nat = 1.0'), 'wrong-type').message, /INTEGER/);
    assert.match(only(edit(BASE, 'ecutwfc = 15.0', "ecutwfc = 'fifteen'"), 'wrong-type').message, /REAL/);
    assert.match(only(edit(BASE, 'tprnfor = .true.', 'tprnfor = 1'), 'wrong-type').message, /LOGICAL/);
    const unquoted = edit(BASE, "prefix = 'al'", 'prefix = al');
    fixClears(unquoted, only(unquoted, 'wrong-type'));
  });

  it('checks values against the allowed list, case included where pw.x is strict', () => {
    const bad = edit(BASE, "smearing = 'mv'", "smearing = 'marzari'");
    const d = only(bad, 'value-not-allowed');
    assert.match(d.message, /'marzari-vanderbilt'/);
    const upper = edit(BASE, "calculation = 'scf'", "calculation = 'SCF'");
    const u = only(upper, 'value-case');
    assert.equal(u.severity, 'error');
    fixClears(upper, u);
    assert.equal(only(edit(BASE, "smearing = 'mv'", "smearing = 'Mv'"), 'value-case').severity, 'warning');
    // set_occupations.f90 lists 'MV' among its spellings: pw.x accepts it as written.
    assert.deepEqual(
      diagnose(edit(BASE, "smearing = 'mv'", "smearing = 'MV'")).filter((x) => x.severity !== 'info'),
      [],
    );
    assert.equal(
      diagnose(edit(BASE, "calculation = 'scf'", "calculation = 'ensemble'")).some((x) => x.code === 'value-not-allowed'),
      false,
    );
  });

  it('checks array indices against their bounds, including bounds named by other variables', () => {
    assert.equal(only(edit(BASE, 'celldm(1) = 7.5', 'celldm(7) = 7.5'), 'index-out-of-range').severity, 'error');
    const mag = edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n  starting_magnetization(2) = 0.5\n');
    assert.match(only(mag, 'index-out-of-range').message, /ntyp = 1/);
    assert.equal(only(edit(BASE, 'nat = 1', 'nat(1) = 1'), 'index-on-scalar').severity, 'error');
  });

  it('reports required variables, namelists and cards that are missing', () => {
    assert.match(only(edit(BASE, '  ecutwfc = 15.0\n', ''), 'missing-required').message, /ecutwfc/);
    const noElectrons = edit(BASE, '&ELECTRONS\n  conv_thr = 1.0d-8\n/\n', '');
    fixClears(noElectrons, only(noElectrons, 'missing-namelist'));
    const noK = only(edit(BASE, /K_POINTS \(automatic\)\n.*\n/, ''), 'missing-card');
    assert.equal(noK.severity, 'warning');
    assert.match(noK.message, /Γ point only/);
    assert.equal(only(edit(BASE, /ATOMIC_SPECIES\n.*\n/, ''), 'missing-card').severity, 'error');
    const relax = edit(BASE, "calculation = 'scf'", "calculation = 'relax'");
    const ions = only(relax, 'missing-namelist');
    assert.match(ions.message, /&IONS/);
    const fixed = fixClears(relax, ions);
    assert.ok(fixed.indexOf('&IONS') > fixed.indexOf('&ELECTRONS') && fixed.indexOf('&IONS') < fixed.indexOf('ATOMIC_SPECIES'));
    const vc = diagnose(edit(BASE, "calculation = 'scf'", "calculation = 'vc-relax'")).filter((d) => d.code === 'missing-namelist');
    assert.deepEqual(vc.map((d) => /&(IONS|CELL)/.exec(d.message)![1]).sort(), ['CELL', 'IONS']);
  });

  it('reports namelists out of order, unknown, or after the cards', () => {
    const swapped = BASE.replace(/(&CONTROL[\s\S]*?\n\/\n)(&SYSTEM[\s\S]*?\n\/\n)/, '$2$1');
    assert.match(only(swapped, 'namelist-order').message, /move &CONTROL before &SYSTEM/);
    const typo = edit(BASE, '&ELECTRONS', '&ELECTRON');
    fixClears(typo, only(typo, 'unknown-namelist'));
    assert.ok(diagnose(`${BASE}&IONS\n/\n`).some((d) => d.code === 'namelist-after-cards'));
  });

  it('cross-checks nat, ntyp and species labels against the cards, with fixes', () => {
    const extraAtom = edit(BASE, '  Al 0.0 0.0 0.0\n', '  Al 0.0 0.0 0.0\n  Al 0.5 0.5 0.5\n');
    const nat = only(extraAtom, 'nat-mismatch');
    assert.equal(nat.range.start.line, lineOf(extraAtom, 'nat = 1'));
    fixClears(extraAtom, nat);
    const extraSpecies = edit(BASE, '  Al 26.9815 Al.pz-vbc.UPF\n', '  Al 26.9815 Al.pz-vbc.UPF\n  Si 28.086 Si.pz-vbc.UPF\n');
    fixClears(extraSpecies, only(extraSpecies, 'ntyp-mismatch'));
    assert.match(only(edit(BASE, '  Al 0.0 0.0 0.0', '  Ak 0.0 0.0 0.0'), 'species-undeclared').message, /did you mean Al/i);
  });

  it('checks that the cell is given one way: ibrav + celldm/A, or ibrav 0 + CELL_PARAMETERS', () => {
    assert.equal(only(edit(BASE, 'ibrav = 2', 'ibrav = 0'), 'cell-parameters-missing').severity, 'error');
    assert.equal(
      only(`${BASE}CELL_PARAMETERS {alat}\n -0.5 0 0.5\n 0 0.5 0.5\n -0.5 0.5 0\n`, 'cell-parameters-redundant').severity,
      'error',
    );
    assert.equal(only(edit(BASE, '  celldm(1) = 7.5\n', '  celldm(1) = 7.5\n  A = 3.97\n'), 'celldm-and-abc').severity, 'error');
    assert.equal(only(edit(BASE, '  celldm(1) = 7.5\n', ''), 'lattice-parameter-missing').severity, 'error');
    const noUnit = edit(BASE, 'ATOMIC_POSITIONS (alat)', 'ATOMIC_POSITIONS');
    fixClears(noUnit, only(noUnit, 'card-units-implicit'));
    const badOption = edit(BASE, 'K_POINTS (automatic)', 'K_POINTS (automatik)');
    fixClears(badOption, only(badOption, 'card-option-invalid'));
  });

  it('applies the cross-variable physics rules', () => {
    const fixedOcc = edit(BASE, "occupations = 'smearing'", "occupations = 'fixed'");
    assert.equal(diagnose(fixedOcc).filter((d) => d.code === 'smearing-needs-smearing-occupations').length, 2);
    assert.equal(only(edit(BASE, '  degauss = 0.02\n', ''), 'smearing-needs-degauss').severity, 'error');
    const lowRho = edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  ecutrho = 40\n');
    fixClears(lowRho, only(lowRho, 'ecutrho-below-4x'));
    const magNoSpin = edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  starting_magnetization(1) = 0.5\n');
    fixClears(magNoSpin, only(magNoSpin, 'magnetization-needs-nspin'));
    assert.equal(only(edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  nspin = 2\n'), 'nspin-needs-magnetization').severity, 'error');
  });

  it('uses the UPF headers: suggested cutoffs, the dual for ultrasoft/PAW, functionals and electron count', () => {
    const headers = (h: Record<string, UpfHeader>) => ({ upfHeaders: h });
    const al = upf('Al.pz-vbc.UPF');
    const fe = upf('Fe.pbe-spn-rrkjus_psl.0.2.1.UPF');
    const fe30 = edit(
      edit(edit(BASE, 'Al.pz-vbc.UPF', 'Fe.pbe-spn-rrkjus_psl.0.2.1.UPF'), /Al /g, 'Fe '),
      'ecutwfc = 15.0',
      'ecutwfc = 30.0\n  ecutrho = 180',
    );
    const diags = diagnose(fe30, headers({ 'Fe.pbe-spn-rrkjus_psl.0.2.1.UPF': fe }));
    assert.ok(
      diags.some((d) => d.code === 'ecutwfc-below-suggested' && /64 Ry/.test(d.message)),
      JSON.stringify(diags),
    );
    const dual = diags.find((d) => d.code === 'ecutrho-low-for-uspp')!;
    assert.match(dual.message, /6\.0 × ecutwfc/);
    const nc = diagnose(edit(BASE, '  degauss = 0.02\n', '  degauss = 0.02\n  ecutrho = 90\n'), headers({ 'Al.pz-vbc.UPF': al }));
    assert.ok(!nc.some((d) => d.code === 'ecutrho-low-for-uspp'), 'a norm-conserving pseudopotential needs no 8x dual');
    const mixed = edit(
      edit(BASE, 'ntyp = 1', 'ntyp = 2'),
      '  Al 26.9815 Al.pz-vbc.UPF\n',
      '  Al 26.9815 Al.pz-vbc.UPF\n  Fe 55.8 Fe.pbe-spn-rrkjus_psl.0.2.1.UPF\n',
    );
    const mix = diagnose(
      edit(edit(mixed, 'nat = 1', 'nat = 2'), '  Al 0.0 0.0 0.0\n', '  Al 0.0 0.0 0.0\n  Fe 0.5 0.5 0.5\n'),
      headers({ 'Al.pz-vbc.UPF': al, 'Fe.pbe-spn-rrkjus_psl.0.2.1.UPF': fe }),
    );
    assert.ok(mix.some((d) => d.code === 'functional-mismatch' && /PZ/.test(d.message) && /PBE/.test(d.message)));
    const odd = edit(BASE, "occupations = 'smearing'", "occupations = 'fixed'");
    const d = only(odd, 'odd-electrons-fixed-occupations', headers({ 'Al.pz-vbc.UPF': al }));
    assert.match(d.message, /3 valence electrons/);
    const missing = only(BASE, 'pseudopotential-unreadable', { upfHeaders: {} });
    assert.match(missing.message, /Al.pz-vbc.UPF/);
  });

  it('turns parse problems into diagnostics with ranges and takes the version from a comment', () => {
    const r = validatePwInput(`! qe-version: 6.7\n${BASE.replace("prefix = 'al'", "prefix = 'al")}`);
    assert.equal(r.qeVersion, '6.7');
    assert.equal(r.versionSource, 'comment');
    const d = r.diagnostics.find((x) => x.code === 'unterminated-string')!;
    assert.equal(d.range.start.line, 3);
    assert.equal(d.severity, 'error');
  });

  it('keeps every diagnostic message actionable: it names the input and says what to do', () => {
    const texts = [
      edit(BASE, 'ecutwfc = 15.0', 'ecutwfx = 15.0'),
      edit(BASE, 'nat = 1', 'nat = 2'),
      edit(BASE, "smearing = 'mv'", "smearing = 'x'"),
      edit(BASE, '&ELECTRONS', '&ELECTRON'),
      edit(BASE, 'ibrav = 2', 'ibrav = 0'),
    ];
    for (const t of texts) {
      for (const d of diagnose(t)) {
        assert.ok(d.message.length > 30 && /[;:.]/.test(d.message), `terse message for ${d.code}: ${d.message}`);
        assert.ok(d.range.start.line >= 0 && d.range.end.line >= d.range.start.line);
      }
    }
  });
});
