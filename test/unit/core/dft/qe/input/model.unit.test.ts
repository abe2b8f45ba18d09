import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  arrayIn,
  buildPwInput,
  logicalIn,
  numberIn,
  parsePwInput,
  pwInputFromStructure,
  readAtomicPositions,
  readAtomicSpecies,
  readCellParameters,
  readConstraints,
  readHubbard,
  readKPoints,
  readOccupations,
  removeVariableEdits,
  serializePwInput,
  stringIn,
  valueOf,
  withEdits,
  withoutVariable,
  withVariable,
  parseFortranLiteral,
  evaluateCoordinate,
} from '../../../../../../src/core/dft/qe/input';
import fc from 'fast-check';
import { physicalSettingsOf } from '../../../../../../src/core/dft/qe/settings';
import { fixtureInputs, FIXTURES } from '../fixtures';

const read = (rel: string) => fs.readFileSync(path.join(FIXTURES, rel), 'utf8');

/** Lines that differ between two texts (same line count assumed). */
function changedLines(a: string, b: string): number[] {
  const x = a.split('\n');
  const y = b.split('\n');
  return x.map((l, i) => (l === y[i] ? -1 : i)).filter((i) => i >= 0);
}

describe('pw.x input model', () => {
  it('writes every fixture input back byte for byte', () => {
    const files = fixtureInputs();
    assert.ok(files.length >= 10, `only ${files.length} fixture inputs found`);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      const input = parsePwInput(text);
      assert.equal(serializePwInput(input), text, f);
      assert.equal(input.tokens.map((t) => t.text).join(''), text);
    }
  });

  it('writes generated inputs back byte for byte and reads back every value the builder wrote', () => {
    const value = fc.oneof(
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.boolean(),
      fc.string({ maxLength: 12 }).filter((x) => !/[\r\n]/.test(x)),
    );
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
    const atoms = fc.array(
      fc.record({
        label: fc.constantFrom('Al', 'Si', 'O', 'Fe1'),
        position: fc.tuple(
          fc.double({ min: -5, max: 5, noNaN: true }),
          fc.double({ min: -5, max: 5, noNaN: true }),
          fc.double({ min: -5, max: 5, noNaN: true }),
        ),
      }),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 8 }), atoms, fc.constantFrom('\n', '\r\n'), (vars, list, eol) => {
        const text = buildPwInput(
          {
            namelists: { system: vars },
            species: [{ label: 'Al', massAmu: 26.98, pseudopotential: 'Al.UPF' }],
            positions: { unit: 'angstrom', atoms: list },
            kPoints: { kind: 'automatic', mesh: [2, 2, 2] },
          },
          eol,
        );
        const input = parsePwInput(text);
        assert.equal(serializePwInput(input), text);
        assert.deepEqual(input.problems, []);
        for (const [k, v] of Object.entries(vars)) {
          const got = valueOf(input, 'system', k);
          assert.ok(got, `${k} not read back`);
          if (typeof v === 'number') assert.equal(got.value, v === 0 ? 0 : v);
          else assert.equal(got.value, v);
        }
        assert.deepEqual(
          readAtomicPositions(input)!.value.atoms.map((a) => a.position),
          list.map((a) => a.position.map((x) => x + 0)),
        );
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('reads Fortran literals as pw.x does', () => {
    assert.deepEqual(parseFortranLiteral('1.0d-6'), { type: 'real', value: 1e-6 });
    assert.deepEqual(parseFortranLiteral('1.D0'), { type: 'real', value: 1 });
    assert.deepEqual(parseFortranLiteral('-3'), { type: 'integer', value: -3 });
    assert.deepEqual(parseFortranLiteral('.t.'), { type: 'logical', value: true });
    assert.deepEqual(parseFortranLiteral('.FALSE.'), { type: 'logical', value: false });
    assert.deepEqual(parseFortranLiteral('T'), { type: 'logical', value: true });
    assert.deepEqual(parseFortranLiteral("'it''s'"), { type: 'string', value: "it's" });
    assert.deepEqual(parseFortranLiteral('"scf"'), { type: 'string', value: 'scf' });
    assert.deepEqual(parseFortranLiteral('scf'), { type: 'word', value: 'scf' });
  });

  it('reads values, indices and their source ranges', () => {
    const text = read('al-fcc-scf.in');
    const input = parsePwInput(text);
    assert.deepEqual(input.problems, []);
    assert.deepEqual(
      input.namelists.map((n) => n.name),
      ['CONTROL', 'SYSTEM', 'ELECTRONS'],
    );
    assert.equal(numberIn(input, 'system', 'ecutwfc'), 15);
    assert.equal(numberIn(input, 'electrons', 'conv_thr'), 1e-8);
    assert.equal(numberIn(input, 'SYSTEM', 'celldm(1)'), 7.5);
    assert.equal(logicalIn(input, 'control', 'tprnfor'), true);
    assert.equal(stringIn(input, 'system', 'smearing'), 'mv');
    const a = input.namelists[1]!.assignments.find((x) => x.key === 'ecutwfc')!;
    const lines = text.split('\n');
    assert.equal(lines[a.nameRange.start.line]!.slice(a.nameRange.start.character, a.nameRange.end.character), 'ecutwfc');
    assert.equal(lines[a.valueRange!.start.line]!.slice(a.valueRange!.start.character, a.valueRange!.end.character), '15.0');
    const celldm = input.namelists[1]!.assignments.find((x) => x.key === 'celldm(1)')!;
    assert.deepEqual(celldm.indices, [1]);
    assert.equal(lines[celldm.nameRange.start.line]!.slice(celldm.nameRange.start.character, celldm.nameRange.end.character), 'celldm(1)');
  });

  it('reads several assignments per line, namelists on one line and lower-case card names', () => {
    const input = parsePwInput(read('inputs/compact.in'));
    assert.deepEqual(input.problems, []);
    assert.equal(stringIn(input, 'control', 'prefix'), 'si');
    assert.equal(numberIn(input, 'system', 'ecutwfc'), 18);
    assert.equal(logicalIn(input, 'system', 'nosym'), true);
    assert.equal(numberIn(input, 'electrons', 'conv_thr'), 1e-7);
    assert.deepEqual(
      input.cards.map((c) => [c.name, c.option]),
      [
        ['ATOMIC_SPECIES', undefined],
        ['ATOMIC_POSITIONS', 'alat'],
        ['K_POINTS', 'automatic'],
      ],
    );
    assert.deepEqual(readKPoints(input)!.value, { kind: 'automatic', mesh: [2, 2, 2], shift: [0, 0, 0] });
  });

  it('reads CRLF files with tabs, value lists, doubled quotes and &end', () => {
    const text = read('inputs/crlf-tabs.in');
    const input = parsePwInput(text);
    assert.deepEqual(input.problems, []);
    assert.equal(input.eol, '\r\n');
    assert.equal(stringIn(input, 'control', 'prefix'), "it's");
    assert.equal(numberIn(input, 'system', 'starting_magnetization(2)'), -0.5);
    assert.equal(numberIn(input, 'system', 'degauss'), 0.01);
    assert.equal(readCellParameters(input)!.value.unit, 'bohr');
    assert.deepEqual(readKPoints(input)!.value, { kind: 'gamma' });
    const edited = withVariable(input, 'system', 'ecutwfc', 35);
    assert.match(serializePwInput(edited), /\tecutwfc = 35, ecutrho = 240\r\n/);
  });

  it('reads every card of a 7.x input: species, positions with if_pos and expressions, cell, k path, occupations, constraints, HUBBARD', () => {
    const input = parsePwInput(read('inputs/hubbard-7x.in'));
    assert.deepEqual(input.problems, []);
    assert.deepEqual(
      readAtomicSpecies(input)!.value.map((s) => [s.label, s.massAmu, s.pseudopotential]),
      [
        ['Ni1', 58.693, 'Ni.pbe-nd-rrkjus.UPF'],
        ['Ni2', 58.693, 'Ni.pbe-nd-rrkjus.UPF'],
        ['O', 15.999, 'O.pbe-rrkjus.UPF'],
      ],
    );
    const pos = readAtomicPositions(input)!;
    assert.deepEqual(pos.problems, []);
    assert.equal(pos.value.unit, 'crystal');
    assert.deepEqual(pos.value.atoms[0]!.ifPos, [0, 0, 0]);
    assert.equal(pos.value.atoms[1]!.ifPos, undefined);
    assert.deepEqual(pos.value.atoms[2]!.position, [0.25, 0.25, 0.25]);
    assert.deepEqual(pos.value.atoms[3]!.ifPos, [1, 1, 0]);
    assert.deepEqual(readCellParameters(input)!.value.vectors[1], [-2.955, 1.706, 6.83]);
    const k = readKPoints(input)!.value;
    assert.ok(k.kind === 'list' && k.unit === 'tpiba_b' && k.points.length === 3 && k.points[2]!.weight === 1);
    assert.equal(readOccupations(input)!.value.length, 24);
    const c = readConstraints(input)!.value;
    assert.equal(c.count, 1);
    assert.equal(c.tolerance, 1e-6);
    assert.deepEqual([c.constraints[0]!.type, c.constraints[0]!.args], ['distance', [1, 3, 3.6]]);
    const h = readHubbard(input)!.value;
    assert.equal(h.projectors, 'ortho-atomic');
    assert.deepEqual(
      h.entries.map((e) => [e.parameter, e.manifolds, e.atoms, e.valueEv]),
      [
        ['U', ['Ni1-3d'], undefined, 6.1],
        ['U', ['Ni2-3d'], undefined, 6.1],
        ['V', ['Ni1-3d', 'O-2p'], [1, 3], 0.5],
      ],
    );
    // "3*0.0" fills three elements starting at the given index
    assert.deepEqual([...arrayIn(input, 'system', 'starting_magnetization').keys()].sort(), [1, 2, 3, 4, 5]);
    assert.equal(input.comments.length, 5);
  });

  it('reads special-point labels in a band path', () => {
    const input = parsePwInput(
      read('al-fcc-scf.in').replace(
        /K_POINTS \(automatic\)\n.*\n/,
        'K_POINTS {tpiba_b}\n  3\n  gG 20\n  X 10 ! zone boundary\n  0.5 0.5 0.5 1\n',
      ),
    );
    const k = readKPoints(input)!;
    assert.deepEqual(k.problems, []);
    assert.ok(k.value.kind === 'list');
    assert.deepEqual(
      k.value.points.map((p) => [p.label, p.k, p.weight]),
      [
        ['gG', undefined, 20],
        ['X', undefined, 10],
        [undefined, [0.5, 0.5, 0.5], 1],
      ],
    );
    const plain = parsePwInput(read('al-fcc-scf.in').replace(/K_POINTS \(automatic\)\n.*\n/, 'K_POINTS {tpiba}\n  1\n  gG 20\n'));
    assert.deepEqual(
      readKPoints(plain)!.problems.map((p) => p.code),
      ['kpoint-line'],
    );
  });

  it('evaluates the coordinate expressions pw.x accepts and refuses the others', () => {
    assert.equal(evaluateCoordinate('1/3'), 1 / 3);
    assert.ok(Math.abs(evaluateCoordinate('1/2*3^(-1/2)')! - 0.288675) < 1e-6);
    assert.equal(evaluateCoordinate('-0.5d0'), -0.5);
    assert.equal(evaluateCoordinate('+1/2'), undefined);
    assert.equal(evaluateCoordinate('sqrt(2)'), undefined);
  });

  it('changes one value in place and leaves every other byte alone', () => {
    const text = read('al-fcc-scf.in');
    const input = parsePwInput(text);
    const changed = serializePwInput(withVariable(input, 'system', 'ecutwfc', 30));
    assert.deepEqual(changedLines(text, changed), [13]);
    assert.equal(changed.split('\n')[13], '  ecutwfc = 30');
    const cell = serializePwInput(withVariable(input, 'system', 'celldm(1)', { raw: '7.65d0' }));
    assert.equal(cell.split('\n')[10], '  celldm(1) = 7.65d0');
  });

  it('adds a missing variable before the namelist\'s "/" and a missing namelist in pw.x\'s order', () => {
    const text = read('al-fcc-scf.in');
    const input = parsePwInput(text);
    const withRho = serializePwInput(withVariable(input, 'system', 'ecutrho', 120));
    assert.match(withRho, /  degauss = 0.02\n  ecutrho = 120\n\/\n&ELECTRONS/);
    const withIons = withVariable(input, 'ions', 'ion_dynamics', 'bfgs');
    assert.deepEqual(
      withIons.namelists.map((n) => n.name),
      ['CONTROL', 'SYSTEM', 'ELECTRONS', 'IONS'],
    );
    assert.equal(stringIn(withIons, 'ions', 'ion_dynamics'), 'bfgs');
    assert.ok(serializePwInput(withIons).indexOf('&IONS') < serializePwInput(withIons).indexOf('ATOMIC_SPECIES'));
    const compact = parsePwInput(read('inputs/compact.in'));
    const added = withVariable(compact, 'system', 'ecutrho', 144);
    assert.equal(numberIn(added, 'system', 'ecutrho'), 144);
    assert.deepEqual(added.problems, []);
  });

  it('removes a variable: its line when alone, else just the assignment', () => {
    const input = parsePwInput(read('al-fcc-scf.in'));
    const out = serializePwInput(withoutVariable(input, 'control', 'tstress'));
    assert.ok(!out.includes('tstress'));
    assert.equal(out.split('\n').length, read('al-fcc-scf.in').split('\n').length - 1);
    const compact = parsePwInput(read('inputs/compact.in'));
    const c = withEdits(compact, removeVariableEdits(compact, 'system', 'nosym'));
    assert.equal(valueOf(c, 'system', 'nosym'), undefined);
    assert.equal(numberIn(c, 'system', 'ecutwfc'), 18);
    assert.deepEqual(c.problems, []);
  });

  it('reports what pw.x would trip over, with ranges, without throwing', () => {
    const input = parsePwInput("&CONTROL\n  calculation = 'scf\n  prefix = \n  tstress = .true.\nATOMIC_SPECIES\n");
    const codes = input.problems.map((p) => p.code);
    assert.ok(codes.includes('unterminated-string'), codes.join());
    assert.ok(codes.includes('value-missing'), codes.join());
    assert.ok(codes.includes('namelist-not-closed'), codes.join());
    const unterminated = input.problems.find((p) => p.code === 'unterminated-string')!;
    assert.equal(unterminated.range.start.line, 1);
    assert.equal(unterminated.range.start.character, 16);
  });

  it('builds a clean input that reads back to the same values', () => {
    const text = buildPwInput({
      namelists: {
        control: { calculation: 'scf', prefix: 'al', pseudo_dir: '/usr/share/espresso/pseudo' },
        system: { ibrav: 2, 'celldm(1)': 7.5, nat: 1, ntyp: 1, ecutwfc: 15, occupations: 'smearing', smearing: 'mv', degauss: 0.02 },
        electrons: { conv_thr: { raw: '1.0d-8' } },
      },
      species: [{ label: 'Al', massAmu: 26.9815, pseudopotential: 'Al.pz-vbc.UPF' }],
      positions: { unit: 'alat', atoms: [{ label: 'Al', position: [0, 0, 0] }] },
      kPoints: { kind: 'automatic', mesh: [6, 6, 6] },
    });
    const input = parsePwInput(text);
    assert.deepEqual(input.problems, []);
    assert.equal(serializePwInput(input), text);
    assert.equal(numberIn(input, 'system', 'celldm(1)'), 7.5);
    assert.equal(numberIn(input, 'electrons', 'conv_thr'), 1e-8);
    assert.equal(stringIn(input, 'system', 'smearing'), 'mv');
    assert.deepEqual(readKPoints(input)!.value, { kind: 'automatic', mesh: [6, 6, 6], shift: [0, 0, 0] });
    assert.throws(
      () => buildPwInput({ namelists: { sytem: {} }, species: [], positions: { unit: 'alat', atoms: [] }, kPoints: { kind: 'gamma' } }),
      /"SYTEM" is not a pw.x namelist/,
    );
  });

  it('builds an input for a structure with ibrav 0, Å units and fixed atoms', () => {
    const text = pwInputFromStructure(
      {
        symbols: ['Pt', 'Pt', 'O'],
        positions: [
          [0, 0, 0],
          [1.4, 0.8, 2.3],
          [1.4, 0.8, 4.1],
        ],
        cell: [
          [2.8, 0, 0],
          [1.4, 2.42, 0],
          [0, 0, 20],
        ],
        pbc: [true, true, true],
        fixed: [true, false, false],
      },
      {
        namelists: { control: { calculation: 'relax' }, system: { ecutwfc: 30 } },
        species: { Pt: { massAmu: 195.08, pseudopotential: 'Pt.pbe.UPF' }, O: { massAmu: 15.999, pseudopotential: 'O.pbe.UPF' } },
        kPoints: { kind: 'automatic', mesh: [4, 4, 1] },
      },
    );
    const input = parsePwInput(text);
    assert.equal(numberIn(input, 'system', 'nat'), 3);
    // the fixed Pt is a species of its own (the moving Pt and O keep theirs)
    assert.equal(numberIn(input, 'system', 'ntyp'), 3);
    assert.equal(numberIn(input, 'system', 'ibrav'), 0);
    assert.deepEqual(
      readAtomicSpecies(input)!.value.map((s) => [s.label, s.pseudopotential]),
      [
        ['Pt', 'Pt.pbe.UPF'],
        ['O', 'O.pbe.UPF'],
        ['Pt1', 'Pt.pbe.UPF'],
      ],
    );
    const pos = readAtomicPositions(input)!.value;
    assert.equal(pos.unit, 'angstrom');
    assert.deepEqual(
      pos.atoms.map((a) => a.label),
      ['Pt1', 'Pt', 'O'],
    );
    assert.deepEqual(
      pos.atoms.map((a) => a.ifPos),
      [
        [0, 0, 0],
        [1, 1, 1],
        [1, 1, 1],
      ],
    );
    assert.deepEqual(readCellParameters(input)!.value.vectors[2], [0, 0, 20]);
    assert.match(text, /^! fixed Pt atoms are species Pt1 \(same pseudopotential\)/m);
  });

  it('gives fixed atoms their own species only where an element also moves, and repeats per-species settings for it', () => {
    const slab = (fixed: boolean[]) =>
      pwInputFromStructure(
        {
          symbols: ['Fe', 'Fe', 'O'],
          positions: [
            [0, 0, 0],
            [1.4, 0.8, 2.0],
            [1.4, 0.8, 4.0],
          ],
          cell: [
            [2.8, 0, 0],
            [1.4, 2.42, 0],
            [0, 0, 20],
          ],
          pbc: [true, true, true],
          fixed,
        },
        {
          namelists: {
            control: { calculation: 'relax' },
            system: { ecutwfc: 30, nspin: 2, 'starting_magnetization(1)': 0.4, 'starting_magnetization(2)': 0.1 },
          },
          species: { Fe: { massAmu: 55.845, pseudopotential: 'Fe.UPF' }, O: { massAmu: 15.999, pseudopotential: 'O.UPF' } },
          kPoints: { kind: 'automatic', mesh: [4, 4, 1] },
        },
      );
    const split = parsePwInput(slab([true, false, false]));
    assert.deepEqual(
      readAtomicSpecies(split)!.value.map((s) => s.label),
      ['Fe', 'O', 'Fe1'],
    );
    assert.equal(numberIn(split, 'system', 'starting_magnetization(3)'), 0.4, 'the fixed Fe starts magnetized like the moving Fe');
    assert.equal(numberIn(split, 'system', 'starting_magnetization(2)'), 0.1);
    // every Fe fixed, or nothing fixed: no symmetry can map a fixed Fe onto a moving one
    for (const fixed of [
      [true, true, false],
      [false, false, false],
    ]) {
      const input = parsePwInput(slab(fixed));
      assert.deepEqual(
        readAtomicSpecies(input)!.value.map((s) => s.label),
        ['Fe', 'O'],
        JSON.stringify(fixed),
      );
      assert.equal(numberIn(input, 'system', 'ntyp'), 2);
      assert.equal(numberIn(input, 'system', 'starting_magnetization(3)'), undefined);
    }
    // the energy's settings name the element's file once, under the element
    assert.deepEqual(Object.keys(physicalSettingsOf(split).pseudopotentials).sort(), ['Fe', 'O']);
  });
});
