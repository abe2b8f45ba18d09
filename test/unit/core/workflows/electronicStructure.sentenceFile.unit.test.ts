// Band-structure and DOS objectives written as a sentence that names the user's structure file:
// the file is read (absolute path, sha256, species) relative to the working directory or a
// notebook canvas's folder, and an absent file is refused with the path tried.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseObjectiveText, prepareWorkflow } from '../../../../src/core/workflows/objective';
import type { WorkflowEnvironment } from '../../../../src/core/workflows';

const ROOT = path.resolve(__dirname, '../../../..');
const EXAMPLES = path.join(ROOT, 'examples');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const env: WorkflowEnvironment = { pseudopotential: ({ element }) => ({ file: `${element}.upf`, type: 'NC' }) };

describe('band-structure and DOS sentences that name a structure file', () => {
  it('reads "band structure of examples/GaAs.cif with PBE" relative to the working directory, with its sha256 and species, and plans from the file', () => {
    for (const opts of [{ baseDir: ROOT }, { forModel: true, baseDir: ROOT }]) {
      const o = parseObjectiveText('band structure of examples/GaAs.cif with PBE', opts);
      assert.equal(o.workflow, 'band-structure');
      const gaas = path.join(EXAMPLES, 'GaAs.cif');
      assert.deepEqual(o.inputs, { structureFile: gaas, functional: 'PBE', structureSha256: sha256(gaas), structureSpecies: ['Ga', 'As'] });
      const steps = prepareWorkflow('band-structure', o.inputs!, env).steps;
      assert.deepEqual(steps[0]!.args, { from: gaas, cell: 'primitive', sha256: sha256(gaas) });
    }
  });

  it("reads a DOS sentence's quoted file relative to a notebook canvas's folder, and takes no element or lattice from the words around it", () => {
    const o = parseObjectiveText('DOS of fcc-looking "Mg-hcp.cif" at 3.21 Å with LDA', { baseDir: EXAMPLES });
    assert.equal(o.workflow, 'dos');
    const mg = path.join(EXAMPLES, 'Mg-hcp.cif');
    assert.deepEqual(o.inputs, { structureFile: mg, functional: 'PZ', structureSha256: sha256(mg), structureSpecies: ['Mg'] });
  });

  it('refuses a named file that is absent, saying the path it tried and what the path is relative to', () => {
    for (const sentence of ['band structure of nowhere/GaAs.cif with PBE', 'density of states of nowhere/GaAs.cif']) {
      assert.throws(
        () => parseObjectiveText(sentence, { forModel: true, baseDir: ROOT }),
        new RegExp(
          `names the structure file nowhere/GaAs\\.cif, but ${ROOT}/nowhere/GaAs\\.cif does not exist: a file named in an objective sentence is relative to ${ROOT}`,
        ),
      );
    }
  });
});
