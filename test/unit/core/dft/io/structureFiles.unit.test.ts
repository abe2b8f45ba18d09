// Every structure reader against ASE on the same files (Debian's python3-ase), the awkward
// cases of each format, round trips through every writer, and errors that name the file and line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StructureFileError } from '../../../../../src/core/dft/io/errors';
import {
  formatLosses,
  formatStructure,
  readStructureFile,
  readStructureText,
  type WritableFormat,
} from '../../../../../src/core/dft/io/structureFile';
import { toFractional } from '../../../../../src/core/dft/structure/cell';
import { analyseSymmetry } from '../../../../../src/core/dft/structure/symmetry';
import type { Structure, Vec3 } from '../../../../../src/core/dft/types';

const ROOT = path.resolve(__dirname, '../../../../..');
const FIX = path.join(ROOT, 'test/fixtures/structures');
const QE_RUNS = path.join(ROOT, 'test/fixtures/qe/runs');
const PYTHON = '/usr/bin/python3';

interface AseAtoms {
  symbols: string[];
  cell: number[][];
  positions: number[][];
  fixed: number[];
}

const READ = `
import sys, json
from ase.io import read
from ase.constraints import FixAtoms
a = read(sys.argv[1], format=sys.argv[2], index=int(sys.argv[3]))
fixed = []
for c in a.constraints:
    if isinstance(c, FixAtoms): fixed = sorted(int(i) for i in c.get_indices())
print(json.dumps(dict(symbols=a.get_chemical_symbols(), cell=a.cell.tolist(), positions=a.positions.tolist(), fixed=fixed)))
`;

function ase(file: string, format: string, index = 0): AseAtoms {
  const r = spawnSync(PYTHON, ['-c', READ, file, format, String(index)], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `ASE could not read ${file} (${r.error?.message ?? r.stderr.trim()}). This test needs Debian's python3-ase: apt-get install -y python3-ase`,
    );
  return JSON.parse(r.stdout) as AseAtoms;
}

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

function sameCell(a: number[][], b: number[][], tol = 1e-6) {
  a.forEach((row, i) => row.forEach((x, k) => close(x, b[i]![k]!, tol, `cell[${i}][${k}]`)));
}

/** Same atoms in the same order, positions to tol Å. */
function sameAtoms(ours: Structure, ref: { symbols: string[]; positions: number[][] }, tol = 1e-6) {
  assert.deepEqual(ours.symbols, ref.symbols);
  ours.positions.forEach((p, i) =>
    p.forEach((x, k) => close(x, ref.positions[i]![k]!, tol, `atom ${i} (${ours.symbols[i]}) coordinate ${k}`)),
  );
}

/** Same atoms in any order (a CIF's expansion order is the reader's choice), compared periodically in fractional coordinates. */
function sameCrystal(ours: Structure, ref: { symbols: string[]; positions: number[][]; cell: number[][] }, tolAngstrom = 1e-6) {
  assert.equal(ours.symbols.length, ref.symbols.length, 'atom count');
  const refFrac = ref.positions.map((p) => toFractional(ref.cell as Structure['cell'], p as Vec3));
  const used = new Set<number>();
  ours.positions.forEach((p, i) => {
    const f = toFractional(ours.cell, p);
    const j = refFrac.findIndex(
      (g, k) =>
        !used.has(k) &&
        ref.symbols[k] === ours.symbols[i] &&
        [0, 1, 2].every((c) => {
          const d = Math.abs(f[c]! - g[c]!) % 1;
          return Math.min(d, 1 - d) * Math.hypot(...ours.cell[c]!) < tolAngstrom;
        }),
    );
    assert.ok(
      j >= 0,
      `atom ${i} (${ours.symbols[i]}) at fractional ${f.map((x) => x.toFixed(6)).join(' ')} has no partner in ASE's reading`,
    );
    used.add(j);
  });
}

const fixedIndices = (s: Structure) => (s.fixed ?? []).flatMap((f, i) => (f ? [i] : []));

const det = (m: number[][]) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);

const ASE_CASES: { file: string; aseFormat: string; index?: number; block?: string; anyOrder?: boolean; negativeScale?: number }[] = [
  { file: 'si-uncertainties.cif', aseFormat: 'cif', anyOrder: true },
  { file: 'multi-block.cif', aseFormat: 'cif', index: 0, block: 'MgO', anyOrder: true },
  { file: 'multi-block.cif', aseFormat: 'cif', index: 1, block: 'CsCl', anyOrder: true },
  { file: '../../../examples/NaCl.cif', aseFormat: 'cif', anyOrder: true },
  { file: '../../../examples/GaAs.cif', aseFormat: 'cif', anyOrder: true },
  { file: '../../../examples/Mg-hcp.cif', aseFormat: 'cif', anyOrder: true },
  { file: '../../../examples/ZnO-wurtzite.cif', aseFormat: 'cif', anyOrder: true },
  { file: 'POSCAR-slab-selective', aseFormat: 'vasp' },
  { file: 'CONTCAR-cartesian', aseFormat: 'vasp' },
  { file: 'POSCAR-negative-volume', aseFormat: 'vasp', negativeScale: -46.47 },
  { file: 'pw-ibrav0-bohr-crystal.in', aseFormat: 'espresso-in' },
  { file: 'pw-ibrav0-alat-celldm.in', aseFormat: 'espresso-in' },
  { file: 'pw-ibrav0-angstrom-ifpos.in', aseFormat: 'espresso-in' },
  { file: 'pw-ibrav4-A-C.in', aseFormat: 'espresso-in' },
  { file: 'pw-ibrav2-celldm-bohr.in', aseFormat: 'espresso-in' },
  { file: 'pw-ibrav14-celldm.in', aseFormat: 'espresso-in' },
  { file: 'pw-fe-afm-labels.in', aseFormat: 'espresso-in' },
  { file: '../qe/runs/si-relax.out', aseFormat: 'espresso-out', index: -1 },
  { file: '../qe/runs/si-vc-relax.out', aseFormat: 'espresso-out', index: -1 },
  { file: '../adsmind/aa20/12_Au_111.xyz', aseFormat: 'extxyz' },
  { file: 'al-relax-animsteps.axsf', aseFormat: 'xsf', index: -1 },
  { file: 'h2-relax-frames.extxyz', aseFormat: 'extxyz', index: -1 },
  // No operations listed: expanded from the space group (trigonal and hexagonal groups came out wrong before).
  { file: 'corundum-symbol-only.cif', aseFormat: 'cif', anyOrder: true },
  { file: 'zno-number-only.cif', aseFormat: 'cif', anyOrder: true },
];

describe('structure files, read as ASE reads them', () => {
  for (const c of ASE_CASES) {
    it(`${path.basename(c.file)}${c.block ? ` (block ${c.block})` : ''}: cell, species, positions (1e-6 Å) and fixed atoms agree with ASE`, () => {
      const file = path.join(FIX, c.file);
      const ours = readStructureFile(file, c.block ? { block: c.block } : {});
      const ref = ase(file, c.aseFormat, c.index ?? 0);
      if (c.negativeScale) {
        // ASE 3.22 multiplies by a negative scale instead of reading it as the volume: undo that, then scale to the volume.
        const v0 = Math.abs(det(ref.cell)) / Math.abs(c.negativeScale) ** 3;
        const f = Math.cbrt(Math.abs(c.negativeScale) / v0) / c.negativeScale;
        ref.cell = ref.cell.map((r) => r.map((x) => x * f));
        ref.positions = ref.positions.map((r) => r.map((x) => x * f));
      }
      sameCell(ours.cell, ref.cell);
      if (c.anyOrder) sameCrystal(ours, ref);
      else sameAtoms(ours, ref);
      // ASE 3.22 reads no if_pos from pw.x files; the pw.x constraints are checked on their own below.
      if (!c.aseFormat.startsWith('espresso')) assert.deepEqual(fixedIndices(ours), ref.fixed);
    });
  }
});

const fixture = (name: string) => path.join(FIX, name);
const text = (name: string) => fs.readFileSync(fixture(name), 'utf8');

/** The error a reader throws, for checking its line and message. */
function errorOf(fn: () => unknown): StructureFileError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StructureFileError) return e;
    throw e;
  }
  throw new Error('expected a StructureFileError, but the file was read');
}

describe('structure files: the awkward cases', () => {
  it('records the source file and its sha256', () => {
    const s = readStructureFile(fixture('multi-block.cif'), { block: 'CsCl' });
    assert.equal(s.source!.format, 'cif');
    assert.equal(s.source!.block, 'CsCl');
    assert.match(s.source!.sha256, /^[0-9a-f]{64}$/);
    assert.notEqual(s.source!.sha256, readStructureFile(fixture('si-uncertainties.cif')).source!.sha256);
  });

  it('CIF: names the data blocks when a file holds several structures and no block is chosen', () => {
    const e = errorOf(() => readStructureFile(fixture('multi-block.cif')));
    assert.equal(e.line, 19);
    assert.match(
      e.located(),
      /multi-block\.cif:19: CIF: the file holds 2 structures, in data blocks "MgO", "CsCl"; choose one by name \(dreams structure FILE --block NAME\)/,
    );
    assert.match(
      errorOf(() => readStructureFile(fixture('multi-block.cif'), { block: 'NaCl' })).detail,
      /no data block named "NaCl"; the file has data_MgO, data_CsCl/,
    );
  });

  it('CIF: refuses partial occupancy, naming the site and its line', () => {
    const e = errorOf(() => readStructureFile(fixture('partial-occupancy.cif')));
    assert.equal(e.line, 16);
    assert.match(e.detail, /site Cu1 has occupancy 0\.75: only ordered crystals/);
  });

  it('CIF: expands from the space-group symbol when no operations are listed, and reads uncertainties', () => {
    const mgo = readStructureFile(fixture('multi-block.cif'), { block: 'MgO' });
    assert.equal(mgo.symbols.length, 8);
    assert.equal(mgo.cell[0][0], 4.212);
    const si = readStructureFile(fixture('si-uncertainties.cif'));
    assert.equal(si.symbols.length, 8);
    assert.equal(si.cell[2][2], 5.431);
  });

  it('CIF: malformed loops and operations are refused with their line', () => {
    const bad = text('multi-block.cif').replace('Cl1 0.5 0.5 0.5 1.00(1)', 'Cl1 0.5 0.5 0.5');
    const e = errorOf(() => readStructureText(bad, 'cif', { block: 'CsCl' }));
    assert.equal(e.line, 44);
    assert.match(e.detail, /has 5 columns .* but 9 values/);
    const op = errorOf(() => readStructureText(text('multi-block.cif').replace("'-x, -y, -z'", "'-x, -q, -z'"), 'cif', { block: 'CsCl' }));
    assert.equal(op.line, 36);
    assert.match(op.detail, /cannot read the term "-q"/);
  });

  it('CIF: a space group of two origin choices named without one is refused when the two give different crystals; with :2 it is the diamond', () => {
    const e = errorOf(() => readStructureFile(fixture('si-origin-unsaid.cif')));
    assert.equal(e.line, 10);
    assert.match(
      e.detail,
      /the space group Fd-3m \(227\) has two origin choices and the file says neither: its sites expand to 16 atoms with origin choice 1 and 8 with origin choice 2.*add ":1" or ":2" to the symbol/,
    );
    const si = readStructureFile(fixture('si-origin-2.cif'));
    assert.equal(si.symbols.length, 8);
    const said = analyseSymmetry(si);
    const listed = analyseSymmetry(readStructureFile(fixture('si-uncertainties.cif')));
    assert.equal(said.spaceGroup.number, 227);
    assert.equal(said.primitive.symbols.length, 2);
    // the same diamond as the file that lists its operations (Wyckoff letters may differ by the origin moyo picks)
    assert.equal(said.conventional.symbols.length, listed.conventional.symbols.length);
    assert.deepEqual(said.siteSymmetry, listed.siteSymmetry);
    // one origin choice only (Fm-3m, R-3c): nothing to say
    assert.equal(readStructureFile(fixture('corundum-symbol-only.cif')).symbols.length, 30);
  });

  it('POSCAR: Selective dynamics fixes whole atoms (F F F) and keeps per-direction flags along the lattice vectors', () => {
    const s = readStructureFile(fixture('POSCAR-slab-selective'));
    assert.deepEqual(s.fixed, [true, false, false, false, false]);
    assert.equal(s.fixedComponents!.frame, 'lattice');
    assert.deepEqual(s.fixedComponents!.mask[3], [true, true, false]);
  });

  it('POSCAR: a VASP 4 file is refused unless the species are given', () => {
    const e = errorOf(() => readStructureFile(fixture('POSCAR-vasp4')));
    assert.equal(e.line, 6);
    assert.match(e.detail, /VASP 4 file.*--species Na,Cl/);
    const s = readStructureFile(fixture('POSCAR-vasp4'), { species: ['Na', 'Cl'] });
    assert.deepEqual(s.symbols, ['Na', 'Cl']);
    assert.deepEqual(s.positions[1], [2.82, 2.82, 2.82]);
  });

  it('POSCAR: a negative scale is the cell volume', () => {
    const s = readStructureFile(fixture('POSCAR-negative-volume'));
    const [a, b, c] = s.cell;
    const v = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    close(v, 46.47, 1e-9, 'volume');
  });

  it('POSCAR: too few positions for the counts is refused at the line where they end', () => {
    const e = errorOf(() => readStructureText(text('POSCAR-slab-selective').split('\n').slice(0, 12).join('\n'), 'poscar'));
    assert.equal(e.line, 13);
    assert.match(e.detail, /the counts promise 5 atoms but the positions end after 3/);
  });

  it('pw.x input: if_pos 0 0 0 fixes an atom and a partial if_pos is a Cartesian constraint; Fe1/Fe2 stay apart as labels', () => {
    const s = readStructureFile(fixture('pw-ibrav0-angstrom-ifpos.in'));
    assert.deepEqual(s.fixed, [true, true, false, false]);
    assert.deepEqual(s.fixedComponents, {
      frame: 'cartesian',
      mask: [
        [true, true, true],
        [true, true, true],
        [false, false, false],
        [true, true, false],
      ],
    });
    const fe = readStructureFile(fixture('pw-fe-afm-labels.in'));
    assert.deepEqual(fe.symbols, ['Fe', 'Fe']);
    assert.deepEqual(fe.labels, ['Fe1', 'Fe2']);
  });

  it('pw.x input: nat that disagrees with the positions and a missing cell are refused with their line', () => {
    const nat = errorOf(() => readStructureText(text('pw-ibrav4-A-C.in').replace('nat = 2', 'nat = 3'), 'pwx-in'));
    assert.equal(nat.line, 7);
    assert.match(nat.detail, /nat = 3 but ATOMIC_POSITIONS lists 2 atoms/);
    const cell = errorOf(() => readStructureText(text('pw-ibrav4-A-C.in').replace('  A = 3.209\n', ''), 'pwx-in'));
    assert.equal(cell.line, 4);
    assert.match(cell.detail, /ibrav = 4 needs the lattice parameter celldm\(1\) \(bohr\) or A/);
  });

  it('pw.x output: the last geometry of a vc-relax, with the digits of its final-coordinates block', () => {
    const s = readStructureFile(path.join(QE_RUNS, 'si-vc-relax.out'));
    assert.deepEqual(s.cell[0], [-2.751504865, 0.024499213, 2.751504865]);
    assert.equal(s.info!['relaxationConverged'], true);
    assert.match(errorOf(() => readStructureText('garbage\n', 'pwx-out')).detail, /does not look like a pw\.x output/);
  });

  it('extxyz: a frame cut short at the end of the file says the text ends, not that a blank line follows', () => {
    const cut = '3\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3\nH 0 0 0\nH 0 0 0.74\n';
    assert.match(errorOf(() => readStructureText(cut, 'extxyz')).detail, /promises 3 atoms but the text ends after 2/);
    const gap = cut.replace('H 0 0 0.74\n', 'H 0 0 0.74\n\nH 0 0 2\n');
    assert.match(errorOf(() => readStructureText(gap, 'extxyz')).detail, /promises 3 atoms but a blank line follows after 2/);
  });

  it('XSF: an animation (ANIMSTEPS) gives its last geometry, as ASE reads it, and says how many it holds', () => {
    const s = readStructureFile(fixture('al-relax-animsteps.axsf'));
    assert.deepEqual(s.positions[1], [2.03, 2.024, 0.006]);
    assert.equal(s.info!['geometries'], 2);
  });

  it('extxyz: a trajectory of several frames gives its last geometry, as ASE reads it, and says how many it holds', () => {
    const s = readStructureFile(fixture('h2-relax-frames.extxyz'));
    assert.deepEqual(s.positions[1], [0, 0, 0.7414]);
    assert.equal(s.info!['geometries'], 3);
    assert.equal(s.info!['energy'], -31.6);
  });

  it('an unreadable or unknown file says which and what to do', () => {
    assert.match(errorOf(() => readStructureFile(fixture('nope.cif'))).located(), /nope\.cif: CIF: no such file/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-structure-'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
    assert.match(
      errorOf(() => readStructureFile(path.join(dir, 'notes.txt'))).detail,
      /neither the name nor the content says which structure format/,
    );
    // A file of no known format, or a directory, is named no format it is not (it said "CIF").
    assert.match(
      errorOf(() => readStructureFile(path.join(dir, 'notes.txt'))).located(),
      /notes\.txt: neither the name nor the content says which structure format/,
    );
    assert.match(errorOf(() => readStructureFile(dir)).located(), /dreams-structure-\w+: this is a directory; give a structure file\./);
    fs.rmSync(dir, { recursive: true });
  });
});

const WRITERS: WritableFormat[] = ['cif', 'poscar', 'pwx-in', 'extxyz', 'xsf'];
const ASE_FORMAT: Record<WritableFormat, string> = { cif: 'cif', poscar: 'vasp', 'pwx-in': 'espresso-in', extxyz: 'extxyz', xsf: 'xsf' };

describe('structure files: round trips through every writer', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-roundtrip-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sources = ['pw-ibrav14-celldm.in', 'POSCAR-slab-selective', 'pw-ibrav0-angstrom-ifpos.in', '../../../examples/ZnO-wurtzite.cif'];
  for (const src of sources) {
    for (const format of WRITERS) {
      it(`${path.basename(src)} -> ${format} -> back: cell, species, positions (1e-6 Å) and fixed atoms kept; ASE reads the file`, () => {
        const s = readStructureFile(fixture(src));
        const out = path.join(dir, `${path.basename(src)}.${format}`);
        fs.writeFileSync(out, formatStructure(s, format));
        const back = readStructureFile(out, { format });
        if (format === 'cif') {
          // A CIF holds a, b, c, α, β, γ: the cell comes back turned to the standard orientation, so compare shapes and fractions.
          const g = (c: Structure['cell']) =>
            [0, 1, 2].map((i) => [0, 1, 2].map((j) => c[i]!.reduce((acc, x, k) => acc + x * c[j]![k]!, 0)));
          sameCell(g(back.cell), g(s.cell), 1e-6);
          back.positions.forEach((p, i) =>
            toFractional(back.cell, p).forEach((x, k) =>
              close(x, toFractional(s.cell, s.positions[i]!)[k]!, 1e-9, `atom ${i} fraction ${k}`),
            ),
          );
          assert.deepEqual(back.symbols, s.symbols);
        } else {
          sameCell(back.cell, s.cell);
          sameAtoms(back, s);
        }
        const keepsFixed = format === 'poscar' || format === 'pwx-in' || format === 'extxyz';
        if (keepsFixed) assert.deepEqual(fixedIndices(back), fixedIndices(s));
        else if (fixedIndices(s).length)
          assert.ok(
            formatLosses(s, format).some((l) => /no fixed atoms/.test(l)),
            'the loss of fixed atoms is reported',
          );
        if (format === 'pwx-in' || format === 'poscar') assert.deepEqual(back.fixedComponents?.mask, s.fixedComponents?.mask);
        // ASE reads the written file to the same crystal: cell, species and positions to 1e-6 Å, and
        // the fixed atoms of the formats that hold them (ASE 3.22 reads no if_pos from pw.x inputs).
        const ref = ase(out, ASE_FORMAT[format]);
        assert.deepEqual(ref.symbols, back.symbols);
        sameCell(ref.cell, back.cell);
        sameAtoms(back, ref);
        if (format === 'poscar' || format === 'extxyz') assert.deepEqual(ref.fixed, fixedIndices(s));
      });
    }
  }
});
