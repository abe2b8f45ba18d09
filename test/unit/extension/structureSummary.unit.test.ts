import assert from 'node:assert/strict';
import path from 'node:path';
import { parse } from 'yaml';
import { StructureFileError } from '../../../src/core/dft/io/errors';
import { dropText, formulaOf, objectiveFromStructure, viewOfStructureFile } from '../../../src/extension/structureSummary';

const ROOT = path.resolve(__dirname, '../../..');

describe('structure file summary (the "Show structure" editor)', () => {
  it('shows a CIF with its space group and the conventional lattice parameters', () => {
    const v = viewOfStructureFile(path.join(ROOT, 'examples/NaCl.cif'), 'examples/NaCl.cif');
    assert.equal(v.summary.formula, 'NaCl');
    assert.equal(v.summary.natoms, 8);
    assert.equal(v.summary.format, 'cif');
    assert.match(v.summary.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(v.summary.spaceGroup, { number: 225, symbol: 'Fm-3m', crystalSystem: 'Cubic' });
    assert.ok(Math.abs(v.summary.lattice!.a - 5.64) < 1e-9);
    assert.equal(v.slab, false);
    assert.equal(v.structure.spaceGroup, 'Fm-3m (225)');
  });

  it('gives a pw.x relaxation output its geometries as steps to play', () => {
    const v = viewOfStructureFile(path.join(ROOT, 'test/fixtures/qe/runs/si-vc-relax.out'));
    assert.equal(v.summary.format, 'pwx-out');
    assert.equal(v.structure.frames?.length, 8);
    assert.ok(v.structure.frames!.every((f) => f.positions.length === 2 && f.energyEv! < 0));
    assert.match(v.summary.notes.join(' '), /vc-relax: 8 geometries, converged/);
  });

  it('tells a slab from a bulk crystal by its vacuum', () => {
    const v = viewOfStructureFile(path.join(ROOT, 'examples/slabs/cuau-surface-alloy-111.extxyz'));
    assert.equal(v.slab, true);
    assert.equal(v.summary.lattice, undefined, 'no conventional lattice parameters for a slab');
  });

  it('starts a lattice-constant objective from a bulk crystal and an adsorption search from a slab', () => {
    const bulk = parse(objectiveFromStructure('NaCl.cif', viewOfStructureFile(path.join(ROOT, 'examples/NaCl.cif'))));
    assert.equal(bulk.workflow, 'lattice-constant');
    assert.deepEqual(bulk.inputs.structure, { file: 'NaCl.cif' });
    const slab = parse(
      objectiveFromStructure('slab.extxyz', viewOfStructureFile(path.join(ROOT, 'examples/slabs/cuau-surface-alloy-111.extxyz'))),
    );
    assert.equal(slab.workflow, 'adsorption-search');
    assert.deepEqual(slab.inputs.slab, { file: 'slab.extxyz' });
    assert.deepEqual(slab.inputs.calculator, { kind: 'emt' });
    assert.match(
      objectiveFromStructure('slab.extxyz', viewOfStructureFile(path.join(ROOT, 'examples/slabs/cuau-surface-alloy-111.extxyz'))),
      /# or \{ kind: pw\.x, functional: PBE \} for DFT, or your own over i-PI: \{ kind: ipi, command: \[\.\.\.\] \}/,
    );
  });

  it('refuses a file it cannot read with the file, line and what to do', () => {
    assert.throws(
      () => viewOfStructureFile(path.join(ROOT, 'test/fixtures/structures/partial-occupancy.cif')),
      (e: unknown) => e instanceof StructureFileError && /partial-occupancy\.cif:\d+: CIF: .*occupancy/i.test(e.located()),
    );
  });

  it('writes reduced formulas', () => {
    assert.equal(formulaOf(['Zn', 'Zn', 'O', 'O']), 'ZnO');
    assert.equal(formulaOf(['Fe', 'Fe', 'O', 'O', 'O']), 'Fe2O3');
  });
});

describe('dropping a structure file into an objective cell', () => {
  it('fills an empty cell with an objective reading the file, relative to the canvas', () => {
    const text = dropText(path.join(ROOT, 'examples/Mg-hcp.cif'), '  \n', ROOT);
    const o = parse(text);
    assert.equal(o.workflow, 'lattice-constant');
    assert.deepEqual(o.inputs.structure, { file: 'examples/Mg-hcp.cif' });
    assert.match(text, /Mg \(P6_3\/mmc\)/);
  });

  it('inserts { file } into a cell that already holds an objective', () => {
    assert.equal(
      dropText(path.join(ROOT, 'examples/NaCl.cif'), 'workflow: lattice-constant\ninputs:\n  structure: ', path.join(ROOT, 'docs')),
      '{ file: "../examples/NaCl.cif" }',
    );
  });
});
