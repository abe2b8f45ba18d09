// Relax, magnetic-ordering and formation-energy objectives written as a sentence that names the
// user's structure file: read as structure: { file } (absolute path, sha256, the structure)
// relative to the working directory or a notebook canvas's folder; an absent file is refused
// with the path tried. A surface-energy sentence's file is the bulk the slabs are cut from
// (surfaceEnergy.unit.test.ts); one whose crystal cannot be cut is refused, not ignored.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseObjectiveText, prepareWorkflow } from '../../../../../src/core/workflows/objective';
import type { WorkflowEnvironment } from '../../../../../src/core/workflows';

const ROOT = path.resolve(__dirname, '../../../../..');
const EXAMPLES = path.join(ROOT, 'examples');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const env: WorkflowEnvironment = { pseudopotential: ({ element }) => ({ file: `${element}.upf`, type: 'NC' }) };
// Si in its 2-atom primitive cell, as VASP writes it
const SI_POSCAR = 'Si\n1.0\n0.0 2.7155 2.7155\n2.7155 0.0 2.7155\n2.7155 2.7155 0.0\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25\n';

function fileOf(inputs: Record<string, unknown> | undefined): {
  file: string;
  name: string;
  sha256: string;
  structure: { symbols: string[] };
} {
  return inputs!.structure as ReturnType<typeof fileOf>;
}

describe('relax, magnetic-ordering and formation-energy sentences that name a structure file', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-sentence-file-'));
    fs.writeFileSync(path.join(dir, 'POSCAR'), SI_POSCAR);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads "relax POSCAR with PBE" relative to the base directory (the working directory or the canvas\'s folder), and plans from the file', () => {
    const o = parseObjectiveText('relax POSCAR with PBE', { forModel: true, baseDir: dir });
    assert.equal(o.workflow, 'relax');
    assert.equal(o.inputs!.calculation, 'relax');
    assert.equal(o.inputs!.functional, 'PBE');
    assert.equal(o.inputs!.element, undefined);
    const s = fileOf(o.inputs);
    assert.equal(s.file, path.join(dir, 'POSCAR'));
    assert.equal(s.name, 'POSCAR');
    assert.equal(s.sha256, sha256(path.join(dir, 'POSCAR')));
    assert.deepEqual(s.structure.symbols, ['Si', 'Si']);
    const first = prepareWorkflow('relax', o.inputs!, env).steps[0]!;
    assert.deepEqual(first.args, { from: path.join(dir, 'POSCAR'), sha256: s.sha256, cell: 'as-given' });
  });

  it('reads "vc-relax examples/Mg-hcp.cif" as a variable-cell relaxation of the file\'s crystal', () => {
    const o = parseObjectiveText('vc-relax examples/Mg-hcp.cif', { baseDir: ROOT });
    assert.equal(o.workflow, 'relax');
    assert.equal(o.inputs!.calculation, 'vc-relax');
    const s = fileOf(o.inputs);
    assert.equal(s.file, path.join(EXAMPLES, 'Mg-hcp.cif'));
    assert.equal(s.sha256, sha256(path.join(EXAMPLES, 'Mg-hcp.cif')));
    assert.equal(prepareWorkflow('relax', o.inputs!, env).objective, 'vc-relax of the crystal of examples/Mg-hcp.cif with PBE');
  });

  it('reads the magnetic order and the formation energy of a named file, with no element or prototype from the words', () => {
    const m = parseObjectiveText('magnetic order of "examples/NaCl.cif" with PBE', { baseDir: ROOT });
    assert.equal(m.workflow, 'magnetic-ordering');
    assert.equal(m.inputs!.element, undefined);
    assert.equal(fileOf(m.inputs).sha256, sha256(path.join(EXAMPLES, 'NaCl.cif')));
    const f = parseObjectiveText('formation energy of rocksalt GaAs.cif with LDA', { forModel: true, baseDir: EXAMPLES });
    assert.equal(f.workflow, 'formation-energy');
    assert.equal(f.inputs!.elements, undefined);
    assert.equal(f.inputs!.bravais, undefined);
    assert.equal(f.inputs!.functional, 'LDA');
    const s = fileOf(f.inputs);
    assert.equal(s.file, path.join(EXAMPLES, 'GaAs.cif'));
    assert.equal(s.sha256, sha256(path.join(EXAMPLES, 'GaAs.cif')));
    assert.deepEqual([...new Set(s.structure.symbols)].sort(), ['As', 'Ga']);
  });

  it('refuses a named file that is absent, saying the path it tried and what the path is relative to', () => {
    for (const sentence of [
      'relax POSCAR with PBE',
      'vc-relax nowhere/POSCAR',
      'magnetic order of nowhere/POSCAR',
      'formation energy of nowhere/POSCAR with PBE',
    ]) {
      const named = sentence.includes('nowhere') ? 'nowhere/POSCAR' : 'POSCAR';
      assert.throws(
        () => parseObjectiveText(sentence, { forModel: true, baseDir: EXAMPLES }),
        new RegExp(
          `names the structure file ${named}, but ${EXAMPLES}/${named} does not exist: a file named in an objective sentence is relative to ${EXAMPLES}`,
        ),
        sentence,
      );
    }
  });

  it('reads a surface-energy sentence that names a file as its bulk, never ignoring the file', () => {
    assert.throws(
      () => parseObjectiveText('surface energy of Pt(111) from examples/NaCl.cif', { forModel: true, baseDir: ROOT }),
      /examples\/NaCl\.cif holds NaCl in Fm-3m \(225\)/,
    );
    assert.equal(parseObjectiveText('surface energy of Al(111) with LDA').workflow, 'surface-energy');
  });
});
