import assert from 'node:assert/strict';
import { kmeshMatchesSpacing } from '../../../../../src/core/guard/rules/kmeshMatchesSpacing';
import { metalsHaveSmearing } from '../../../../../src/core/guard/rules/metalsHaveSmearing';
import { eosBracketsMinimum } from '../../../../../src/core/guard/rules/eosBracketsMinimum';
import { cellShape, latticeUsesCellSymmetry } from '../../../../../src/core/guard/rules/latticeUsesCellSymmetry';
import { meshFromSpacing } from '../../../../../src/core/dft/kpoints';
import { artifactRefListSchema, artifactRefSchema } from '../../../../../src/core/guard/schemaAnnotations';
import type { Structure } from '../../../../../src/core/dft/types';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../../..');
import { MemoryProvenance } from '../support/memoryProvenance';
import { energy, fccAl, proposed, structureArtifact } from '../support/domain';

const schema = {
  type: 'object',
  properties: {
    structure: artifactRefSchema('s', { kinds: ['structure'] }),
    energies: artifactRefListSchema('e', { names: ['total_energy'] }),
  },
};

describe('tier-1 rule kmesh-matches-spacing', () => {
  const p = new MemoryProvenance([structureArtifact('a-1')]);
  const mesh = meshFromSpacing(fccAl().cell, 0.2);
  it('passes the mesh the spacing gives on the cell', () => {
    assert.equal(
      kmeshMatchesSpacing({ call: proposed('t', { structure: 'a-1', kSpacingPerAngstrom: 0.2, kMesh: mesh }), schema, provenance: p })[0]!
        .level,
      'pass',
    );
  });
  it('fails a coarser mesh claimed for the same spacing, with the right mesh', () => {
    const coarse = mesh.map((n) => n - 2);
    const [v] = kmeshMatchesSpacing({
      call: proposed('t', { structure: 'a-1', kSpacingPerAngstrom: 0.2, kMesh: coarse }),
      schema,
      provenance: p,
    });
    assert.equal(v!.level, 'fail');
    assert.ok(v!.reasons[0]!.includes(JSON.stringify(mesh)), v!.reasons[0]);
  });
});

describe('tier-1 rule metals-have-smearing', () => {
  const water: Structure = {
    symbols: ['O', 'H', 'H'],
    positions: [
      [0, 0, 0],
      [0.76, 0.59, 0],
      [-0.76, 0.59, 0],
    ],
    cell: [
      [10, 0, 0],
      [0, 10, 0],
      [0, 0, 10],
    ],
    pbc: [true, true, true],
  };
  const ptCo: Structure = {
    symbols: ['Pt', 'Pt', 'C', 'O'],
    positions: [
      [0, 0, 0],
      [1.4, 1.4, 0],
      [0, 0, 2],
      [0, 0, 3.1],
    ],
    cell: [
      [2.8, 0, 0],
      [0, 2.8, 0],
      [0, 0, 20],
    ],
    pbc: [true, true, true],
    tags: [1, 2, 0, 0],
  };
  const p = new MemoryProvenance([
    structureArtifact('a-1'),
    structureArtifact('a-2', water, 'molecule'),
    structureArtifact('a-3', ptCo, 'slab_with_adsorbate'),
  ]);
  it('fails fixed occupations for Al', () => {
    const [v] = metalsHaveSmearing({ call: proposed('t', { structure: 'a-1', occupations: 'fixed' }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /metal \(Al\)/);
  });
  it('fails smearing without a width', () => {
    assert.equal(
      metalsHaveSmearing({ call: proposed('t', { structure: 'a-1', occupations: 'smearing', smearing: 'mv' }), schema, provenance: p })[0]!
        .level,
      'fail',
    );
  });
  it('passes Al with Marzari–Vanderbilt smearing', () => {
    assert.equal(
      metalsHaveSmearing({
        call: proposed('t', { structure: 'a-1', occupations: 'smearing', smearing: 'mv', degaussRy: 0.02 }),
        schema,
        provenance: p,
      })[0]!.level,
      'pass',
    );
  });
  it('leaves a molecule free to use fixed occupations', () => {
    assert.equal(
      metalsHaveSmearing({ call: proposed('t', { structure: 'a-2', occupations: 'fixed' }), schema, provenance: p })[0]!.level,
      'pass',
    );
  });
  it('judges a slab with an adsorbate by its substrate atoms', () => {
    assert.equal(
      metalsHaveSmearing({ call: proposed('t', { structure: 'a-3', occupations: 'fixed' }), schema, provenance: p })[0]!.level,
      'fail',
    );
  });
});

describe('tier-1 rule eos-brackets-minimum', () => {
  const e = (id: string, v: number) => energy(id, 0.5 * (v - 16.5) ** 2 - 57, { volume: v });
  it('passes volumes on both sides of the minimum', () => {
    const p = new MemoryProvenance([e('a-1', 15), e('a-2', 16), e('a-3', 16.5), e('a-4', 17), e('a-5', 18)]);
    assert.equal(
      eosBracketsMinimum({ call: proposed('t', { energies: ['a-5', 'a-1', 'a-3', 'a-2', 'a-4'] }), schema, provenance: p })[0]!.level,
      'pass',
    );
  });
  it('fails when the lowest energy is at the largest volume, saying which way to extend', () => {
    const p = new MemoryProvenance([e('a-1', 13), e('a-2', 14), e('a-3', 15), e('a-4', 16)]);
    const [v] = eosBracketsMinimum({ call: proposed('t', { energies: ['a-1', 'a-2', 'a-3', 'a-4'] }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /largest volume \(a-4.*Add volumes larger than 16/);
  });
  it('fails energies that carry no volume', () => {
    const p = new MemoryProvenance([
      { id: 'a-1', kind: 'scalar', name: 'total_energy', value: -57, unit: 'eV' },
      e('a-2', 16),
      e('a-3', 17),
    ]);
    assert.match(
      eosBracketsMinimum({ call: proposed('t', { energies: ['a-1', 'a-2', 'a-3'] }), schema, provenance: p })[0]!.reasons[0]!,
      /a-1 carry no cell volume/,
    );
  });
});

describe('tier-1 rule lattice-uses-cell-symmetry', () => {
  const cubicAl: Structure = {
    symbols: ['Al', 'Al', 'Al', 'Al'],
    positions: [
      [0, 0, 0],
      [0, 2.02, 2.02],
      [2.02, 0, 2.02],
      [2.02, 2.02, 0],
    ],
    cell: [
      [4.04, 0, 0],
      [0, 4.04, 0],
      [0, 0, 4.04],
    ],
    pbc: [true, true, true],
  };
  const bccFe: Structure = {
    symbols: ['Fe'],
    positions: [[0, 0, 0]],
    cell: [
      [-1.43, 1.43, 1.43],
      [1.43, -1.43, 1.43],
      [1.43, 1.43, -1.43],
    ],
    pbc: [true, true, true],
  };
  const p = new MemoryProvenance([structureArtifact('a-1'), structureArtifact('a-2', cubicAl), structureArtifact('a-3', bccFe)]);
  it('classifies cells by shape', () => {
    assert.equal(cellShape(fccAl().cell), 'fcc-primitive');
    assert.equal(cellShape(bccFe.cell), 'bcc-primitive');
    assert.equal(cellShape(cubicAl.cell), 'cubic');
  });
  it('passes fcc on the fcc primitive cell and on the 4-atom cubic cell', () => {
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'fcc' }), schema, provenance: p })[0]!.level,
      'pass',
    );
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', bravais: 'fcc' }), schema, provenance: p })[0]!.level,
      'pass',
    );
  });
  it('fails sc declared for an fcc cell, reading the lattice from its symmetry', () => {
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'sc' }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /symmetry is Fm-3m \(225\), cubic, not primitive cubic/);
  });
  it('fails fcc declared for a bcc primitive cell', () => {
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-3', bravais: 'fcc' }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /Im-3m \(229\).*bcc-primitive cell/);
  });
  it('decides from the symmetry, not from the name a structure carries', () => {
    const misnamed = { ...cubicAl, info: { bravais: 'sc' } };
    const q = new MemoryProvenance([structureArtifact('a-1', misnamed)]);
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'fcc' }), schema, provenance: q })[0]!.level,
      'pass',
    );
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1' }), schema, provenance: q });
    assert.equal(v!.level, 'pass');
    assert.match(v!.reasons[0]!, /Fm-3m \(225\), cubic; 1 computed cell\(s\) per conventional cell/);
  });
  it("passes a compound and a non-cubic crystal with no name, and fails a c/a other than the cell's", () => {
    const nacl = readStructureFile(path.join(ROOT, 'examples/NaCl.cif'));
    const mg = readStructureFile(path.join(ROOT, 'examples/Mg-hcp.cif'));
    const q = new MemoryProvenance([structureArtifact('a-1', nacl), structureArtifact('a-2', mg)]);
    assert.equal(latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1' }), schema, provenance: q })[0]!.level, 'pass');
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', bravais: 'hcp' }), schema, provenance: q })[0]!.level,
      'pass',
    );
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', cOverA: 1.633 }), schema, provenance: q });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /cOverA = 1\.633 but the cell the series scaled has c\/a = 1\.62/);
  });
  it('passes zincblende and cesiumchloride on their own cells and fails each named for the other', () => {
    const gaas = bulk({ kind: 'zincblende', symbols: ['Ga', 'As'], aAngstrom: 5.653, cell: 'primitive' });
    const cscl = bulk({ kind: 'cesiumchloride', symbols: ['Cs', 'Cl'], aAngstrom: 4.123, cell: 'primitive' });
    const q = new MemoryProvenance([structureArtifact('a-1', gaas), structureArtifact('a-2', cscl)]);
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'zincblende' }), schema, provenance: q })[0]!.level,
      'pass',
    );
    assert.equal(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', bravais: 'cesiumchloride' }), schema, provenance: q })[0]!.level,
      'pass',
    );
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', bravais: 'zincblende' }), schema, provenance: q });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /Pm-3m \(221\), cubic, not face-centred cubic/);
    assert.match(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'cesiumchloride' }), schema, provenance: q })[0]!
        .reasons[0]!,
      /F-43m \(216\), cubic, not primitive cubic/,
    );
  });
  it('reads the symmetry at the tolerance the structure carries, as the plan that set it did', () => {
    // NaCl with every atom up to 2e-3 Å off its site: P1 at the default 1e-3 Å, Fm-3m at 1e-2 Å
    const noisy = readStructureFile(path.join(ROOT, 'test/fixtures/structures/NaCl-noisy.vasp'));
    const q = new MemoryProvenance([structureArtifact('a-1', { ...noisy, symprecAngstrom: 1e-2 }), structureArtifact('a-2', noisy)]);
    const [v] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1', bravais: 'rocksalt' }), schema, provenance: q });
    assert.equal(v!.level, 'pass', v!.reasons[0]);
    assert.match(v!.reasons[0]!, /^the cell is Fm-3m \(225\), cubic at symprec 0\.01 Å; 1 computed cell\(s\) per conventional cell/);
    const [w] = latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-2', bravais: 'rocksalt' }), schema, provenance: q });
    assert.equal(w!.level, 'fail');
    assert.match(w!.reasons[0]!, /symmetry is P1 \(1\), triclinic, not face-centred cubic/);
  });
  it('fails a slab: a bulk lattice constant needs a bulk crystal', () => {
    const slab = { ...cubicAl, pbc: [true, true, false] as [boolean, boolean, boolean] };
    const q = new MemoryProvenance([structureArtifact('a-1', slab)]);
    assert.match(
      latticeUsesCellSymmetry({ call: proposed('t', { structure: 'a-1' }), schema, provenance: q })[0]!.reasons[0]!,
      /not periodic in three directions/,
    );
  });
});
