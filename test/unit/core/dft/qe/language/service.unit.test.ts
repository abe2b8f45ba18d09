import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyTextEdits } from '../../../../../../src/core/dft/qe/input';
import {
  completionsAt,
  hoverAt,
  isPwInput,
  qeVersionFromComment,
  quickFixesAt,
  versionFor,
} from '../../../../../../src/core/dft/qe/language';
import { qeDefinitions } from '../../../../../../src/core/dft/qe/definitions';
import { validatePwInput } from '../../../../../../src/core/dft/qe/validate';
import { FIXTURES } from '../fixtures';

const BASE = fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8');

/** The text with "|" marking the cursor, and the cursor's position. */
function at(marked: string) {
  const i = marked.indexOf('|');
  const before = marked.slice(0, i);
  const line = before.split('\n').length - 1;
  return { text: marked.slice(0, i) + marked.slice(i + 1), position: { line, character: before.length - before.lastIndexOf('\n') - 1 } };
}
const labels = (text: string, position: { line: number; character: number }, qeVersion?: '6.7' | '7.2' | 'develop') =>
  completionsAt(text, position, qeVersion ? { qeVersion } : {}).map((c) => c.label);

describe('pw.x language service', () => {
  it("completes namelist names not yet present, in pw.x's order", () => {
    const { text, position } = at(BASE.replace('&ELECTRONS', '&ELECTRONS\n/\n&|'));
    assert.deepEqual(labels(text, position, '7.2'), ['&IONS', '&CELL', '&FCP', '&RISM']);
    assert.deepEqual(labels(text, position, '6.7'), ['&IONS', '&CELL']);
  });

  it('completes the variables of the namelist the cursor is in, required first, without scalars already set', () => {
    const { text, position } = at(BASE.replace('  nat = 1\n', '  nat = 1\n  ecut|\n'));
    const items = completionsAt(text, position, { qeVersion: '7.2' });
    const names = items.map((c) => c.label);
    assert.ok(names.includes('ecutrho'));
    assert.ok(!names.includes('ecutwfc'), 'ecutwfc is already set');
    assert.ok(!names.includes('calculation'), 'calculation belongs to &CONTROL');
    assert.ok(names.includes('celldm(i)') && names.includes('starting_magnetization(i)'));
    const rho = items.find((c) => c.label === 'ecutrho')!;
    assert.deepEqual(rho.range, { start: { line: position.line, character: 2 }, end: position });
    assert.match(rho.detail, /REAL = 4 \* ecutwfc/);
    assert.match(rho.documentation, /Kinetic energy cutoff \(Ry\) for charge density/);
    const required = items
      .filter((c) => c.sortText.startsWith('0'))
      .map((c) => c.label)
      .sort();
    assert.deepEqual(
      required,
      qeDefinitions('7.2')
        .namelist('SYSTEM')!
        .variables.filter((v) => v.required && !['ecutwfc', 'nat', 'ntyp', 'ibrav'].includes(v.name))
        .map((v) => v.name)
        .sort(),
    );
    assert.equal(items.find((c) => c.label === 'celldm(i)')!.insertText, 'celldm(1)');
  });

  it('completes the allowed values of the variable being assigned, quoting strings when needed', () => {
    const bare = at(BASE.replace("smearing = 'mv'", 'smearing = m|'));
    const items = completionsAt(bare.text, bare.position);
    assert.ok(items.some((c) => c.label === "'marzari-vanderbilt'" && c.insertText === "'marzari-vanderbilt'"));
    assert.equal(items.find((c) => c.label === "'mv'")!.detail, "smearing = mv (same as 'marzari-vanderbilt')");
    assert.deepEqual(items[0]!.range, { start: { line: bare.position.line, character: bare.position.character - 1 }, end: bare.position });
    const quoted = at(BASE.replace("calculation = 'scf'", "calculation = 'vc-|'"));
    const q = completionsAt(quoted.text, quoted.position);
    assert.ok(q.some((c) => c.insertText === 'vc-relax'));
    assert.deepEqual(
      q.map((c) => c.insertText),
      ['scf', 'nscf', 'bands', 'relax', 'md', 'vc-relax', 'vc-md'],
    );
    const logical = at(BASE.replace('tprnfor = .true.', 'tprnfor = |'));
    assert.deepEqual(labels(logical.text, logical.position), ['.true.', '.false.']);
  });

  it('completes card names and card options outside the namelists', () => {
    const cardLine = at(BASE.replace('K_POINTS (automatic)\n  6 6 6 0 0 0\n', 'K_POINTS (automatic)\n  6 6 6 0 0 0\nCELL|'));
    const cards = labels(cardLine.text, cardLine.position, '7.2');
    assert.ok(cards.includes('CELL_PARAMETERS') && cards.includes('HUBBARD'));
    assert.ok(!cards.includes('ATOMIC_SPECIES'), 'present cards are not offered again');
    assert.ok(!labels(cardLine.text, cardLine.position, '6.7').includes('HUBBARD'));
    const option = at(BASE.replace('ATOMIC_POSITIONS (alat)', 'ATOMIC_POSITIONS {cr|'));
    assert.deepEqual(labels(option.text, option.position), ['alat', 'bohr', 'angstrom', 'crystal', 'crystal_sg']);
  });

  it('offers nothing inside comments and card data', () => {
    const comment = at(BASE.replace("prefix = 'al'", "prefix = 'al' ! ecut|"));
    assert.deepEqual(labels(comment.text, comment.position), []);
  });

  it('offers only documented names pw.x reads, and says on hover what an undocumented one is', () => {
    const { text, position } = at(BASE.replace('  conv_thr = 1.0d-8\n', '  conv_thr = 1.0d-8\n  |\n'));
    const names = labels(text, position, '7.2');
    assert.ok(names.includes('mixing_beta'));
    for (const hidden of ['tbeta_smoothing', 'emass', 'diago_ppcg_maxiter']) assert.ok(!names.includes(hidden), `${hidden} offered`);
    const used = at(BASE.replace('  conv_thr = 1.0d-8\n', '  conv_thr = 1.0d-8\n  tbeta_smo|othing = .true.\n'));
    assert.match(hoverAt(used.text, used.position, { qeVersion: '7.2' })!.markdown, /Not documented in INPUT_PW; pw\.x reads it\./);
    const cp = at(BASE.replace('  conv_thr = 1.0d-8\n', '  conv_thr = 1.0d-8\n  ema|ss = 400\n'));
    assert.match(hoverAt(cp.text, cp.position, { qeVersion: '7.2' })!.markdown, /pw\.x reads it and ignores it/);
  });

  it('shows hover with type, default, allowed values and description', () => {
    const name = at(BASE.replace('  occupations', '  occu|pations'));
    const h = hoverAt(name.text, name.position, { qeVersion: '6.7' })!;
    assert.match(h.markdown, /\*\*occupations\*\* — CHARACTER in &SYSTEM/);
    assert.match(h.markdown, /Allowed values:/);
    assert.match(h.markdown, /`'smearing'`/);
    assert.deepEqual(h.range, { start: { line: name.position.line, character: 2 }, end: { line: name.position.line, character: 13 } });
    const value = at(BASE.replace("smearing = 'mv'", "smearing = 'm|v'"));
    assert.match(hoverAt(value.text, value.position)!.markdown, /Marzari-Vanderbilt/i);
    const card = at(BASE.replace('K_POINTS (automatic)', 'K_PO|INTS (automatic)'));
    assert.match(hoverAt(card.text, card.position)!.markdown, /nk1 nk2 nk3 sk1 sk2 sk3/);
    const option = at(BASE.replace('K_POINTS (automatic)', 'K_POINTS (auto|matic)'));
    assert.match(hoverAt(option.text, option.position)!.markdown, /automatic/);
    const nl = at(BASE.replace('&SYSTEM', '&SYS|TEM'));
    assert.match(hoverAt(nl.text, nl.position)!.markdown, /\*\*&SYSTEM\*\*/);
    const dim = at(BASE.replace('  celldm(1)', '  cell|dm(1)'));
    assert.match(hoverAt(dim.text, dim.position)!.markdown, /Indices: i = 1\.\.6/);
  });

  it('gives the quick fixes of the diagnostics under the cursor', () => {
    const text = BASE.replace('ecutwfc = 15.0', 'ecutwfx = 15.0');
    const line = text.split('\n').findIndex((l) => l.includes('ecutwfx'));
    const fixes = quickFixesAt(text, { start: { line, character: 4 }, end: { line, character: 4 } });
    assert.deepEqual(
      fixes.map((f) => f.title),
      ['Rename to ecutwfc'],
    );
    assert.equal(validatePwInput(applyTextEdits(text, fixes[0]!.edits)).errorCount, 0);
    assert.deepEqual(quickFixesAt(text, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }), []);
  });

  it('recognises a pw.x input and the QE version it names', () => {
    assert.equal(isPwInput(BASE), true);
    assert.equal(isPwInput('! a comment\n\n  &system\n ibrav=2\n/'), true);
    assert.equal(isPwInput('&INPUTPH\n tr2_ph=1e-14\n/'), false);
    assert.equal(isPwInput('title\n&control\n/'), false);
    assert.deepEqual(qeVersionFromComment('! written for QE\n! qe-version: 6.7.1\n&control\n/'), {
      version: '6.7',
      written: '6.7.1',
      line: 1,
    });
    assert.equal(versionFor('! qe_version = 7.3\n&control\n/'), 'develop');
    assert.equal(versionFor('! qe-version 7.2\n&control\n/', { qeVersion: '6.7' }), '6.7');
    assert.equal(versionFor('&control\n/'), '7.2');
  });
});
