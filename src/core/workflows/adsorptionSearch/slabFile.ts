/**
 * A slab file named in an objective (any structure file DREAMS reads: extxyz, XSF, CIF, POSCAR,
 * pw.x input or output; relative to the objective file) is read when the objective is loaded:
 * the run records the structure and the file's sha256, so a resumed run, a report and a
 * reviewer all see exactly the slab that was searched. A format that holds no fixed atoms (CIF,
 * XSF) leaves them to the search's standardisation, which fixes the bottom layers.
 */
import { isStructureFileInput, loadStructureFileInput } from '../structureFileInput';
import type { SearchObjectiveInputs } from './inputSchema';

export function loadSlabFile(inputs: SearchObjectiveInputs, baseDir: string): SearchObjectiveInputs {
  const slab = inputs.slab;
  if (!isStructureFileInput(slab)) return inputs;
  const loaded = loadStructureFileInput(slab, baseDir, 'inputs.slab');
  // The slab as atoms, cell and whole-atom constraints: the file and its sha256 travel beside it.
  const { source: _source, labels: _labels, fixedComponents: _components, ...structure } = loaded.structure;
  return { ...inputs, slab: { file: loaded.file, structure, sha256: loaded.sha256 } };
}
