import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generatedFiles, PROJECT_ROOT } from '../../../../../scripts/qe-defs/generate';
import { parseHelpdoc, helpdocPlainText } from '../../../../../scripts/qe-defs/helpdoc';
import { definitionsVersionFor, qeDefinitions } from '../../../../../src/core/dft/qe/definitions';

describe("pw.x input definitions generated from QE's INPUT_PW.def", () => {
  it('the committed JSON descriptions and grammar are what the generator writes today', () => {
    const files = generatedFiles();
    assert.equal(files.size, 5);
    for (const [rel, content] of files) {
      const committed = fs.readFileSync(path.join(PROJECT_ROOT, rel), 'utf8');
      assert.ok(committed === content, `${rel} is out of date: run node --import tsx scripts/qe-defs/generate.ts and commit the result`);
    }
  });

  it('lists the namelists in the order pw.x reads them, with the always-read ones marked required', () => {
    const d = qeDefinitions('7.2').defs;
    assert.deepEqual(
      d.namelists.map((n) => n.name),
      ['CONTROL', 'SYSTEM', 'ELECTRONS', 'IONS', 'CELL', 'FCP', 'RISM'],
    );
    assert.deepEqual(
      d.namelists.filter((n) => n.required).map((n) => n.name),
      ['CONTROL', 'SYSTEM', 'ELECTRONS'],
    );
    assert.deepEqual(
      qeDefinitions('6.7').defs.namelists.map((n) => n.name),
      ['CONTROL', 'SYSTEM', 'ELECTRONS', 'IONS', 'CELL'],
    );
  });

  it('keeps types, defaults, required flags and dimensioned variables', () => {
    const q = qeDefinitions('7.2');
    const ecutwfc = q.variable('system', 'ECUTWFC')!;
    assert.equal(ecutwfc.type, 'REAL');
    assert.equal(ecutwfc.required, true);
    assert.equal(q.variable('system', 'ecutrho')!.default, '4 * ecutwfc');
    assert.deepEqual(q.variable('system', 'celldm')!.dimensions, [{ index: 'i', start: '1', end: '6' }]);
    assert.deepEqual(q.variable('system', 'starting_magnetization')!.dimensions, [{ index: 'i', start: '1', end: 'ntyp' }]);
    assert.deepEqual(
      q.variable('system', 'Hubbard_occ')!.dimensions.map((d) => d.index),
      ['ityp', 'i'],
    );
    assert.deepEqual(
      q.namelistsOf('tprnfor').map((n) => n.name),
      ['CONTROL'],
    );
    assert.equal(q.variable('system', 'nosym')!.default, '.FALSE.');
  });

  it('keeps allowed values with their aliases and descriptions', () => {
    const smearing = qeDefinitions('6.7').variable('system', 'smearing')!;
    assert.equal(smearing.optionsClosed, true);
    const mv = smearing.options.find((o) => o.values.includes('mv'))!;
    assert.deepEqual(mv.values, ['marzari-vanderbilt', 'cold', 'm-v', 'mv']);
    assert.match(mv.description, /Marzari-Vanderbilt/i);
    assert.equal(qeDefinitions('7.2').variable('rism', 'rism3d_conv_level')!.optionsClosed, false);
  });

  it('describes the cards, their options and layouts, including HUBBARD from 7.x on', () => {
    const k = qeDefinitions('7.2').card('k_points')!;
    assert.deepEqual(
      k.options.map((o) => o.values[0]),
      ['tpiba', 'automatic', 'crystal', 'gamma', 'tpiba_b', 'crystal_b', 'tpiba_c', 'crystal_c'],
    );
    assert.deepEqual(k.syntax.find((s) => s.forOptions.includes('automatic'))!.lines, [['nk1', 'nk2', 'nk3', 'sk1', 'sk2', 'sk3']]);
    assert.equal(k.required, true);
    assert.equal(qeDefinitions('7.2').card('CELL_PARAMETERS')!.required, false);
    assert.deepEqual(qeDefinitions('7.2').card('ATOMIC_SPECIES')!.syntax[0]!.columns, ['X', 'Mass_X', 'PseudoPot_X']);
    assert.ok(qeDefinitions('7.2').card('HUBBARD'));
    assert.equal(qeDefinitions('6.7').card('HUBBARD'), undefined);
    assert.ok(qeDefinitions('6.7').variable('system', 'Hubbard_U'));
  });

  it('turns helpdoc markup into plain text and reads Tcl variables', () => {
    assert.equal(helpdocPlainText('\n   see @ref ecutwfc and @b {NOTE 1:} here\n\t\tnext\n'), 'see ecutwfc and NOTE 1: here\nnext');
    const root = parseHelpdoc('input_description -program pw.x {\n set F { a | b }\n card X { flag f { enum $F } }\n}');
    assert.equal(root.children[1]!.children[0]!.children[0]!.text, ' a | b ');
    assert.throws(() => parseHelpdoc('input_description { card X { '), /unbalanced/);
  });

  it('maps a pw.x version string to the description that fits it', () => {
    assert.equal(definitionsVersionFor('6.7MaX'), '6.7');
    assert.equal(definitionsVersionFor('v.7.1'), '7.2');
    assert.equal(definitionsVersionFor('7.3.1'), 'develop');
    assert.equal(definitionsVersionFor('latest'), undefined);
  });
});
