/**
 * A slab file named in an objective (any structure file DREAMS reads: extxyz, XSF, CIF, POSCAR,
 * pw.x input or output; relative to the objective file) is read when the objective is loaded:
 * the run records the structure and the file's sha256, so a resumed run, a report and a
 * reviewer all see exactly the slab that was searched. A format that holds no fixed atoms (CIF,
 * XSF) leaves them to the search's standardisation, which fixes the bottom layers.
 */
import { isStructureFileInput, loadStructureFileInput } from '../structureFileInput';
import { ObjectiveError } from '../types';
import type { FileSlab, SearchObjectiveInputs } from './inputSchema';

/** The slabs readSlab made in this process: the only `{ file, structure, sha256 }` trusted as read (from outside, nobody checked them). */
const READ_HERE = new WeakSet<object>();

export function loadSlabFile(inputs: SearchObjectiveInputs, baseDir: string): SearchObjectiveInputs {
  const slab = inputs.slab;
  if (!isStructureFileInput(slab)) return inputs;
  return { ...inputs, slab: readSlab(slab, baseDir) };
}

function readSlab(slab: { file: string }, baseDir: string): FileSlab {
  const loaded = loadStructureFileInput(slab, baseDir, 'inputs.slab');
  // The slab as atoms, cell and whole-atom constraints: the file and its sha256 travel beside it.
  const { source: _source, labels: _labels, fixedComponents: _components, ...structure } = loaded.structure;
  const read = { file: loaded.file, structure, sha256: loaded.sha256 };
  READ_HERE.add(read);
  return read;
}

/**
 * A slab file as loading read it in this process, or else read now (relative to the working
 * directory; loading made the path absolute): a structure given beside it is never used, and a
 * given sha256 must be the file's.
 */
export function slabAsRead(slab: { file: string; sha256?: string }): FileSlab {
  if (READ_HERE.has(slab)) return slab as FileSlab;
  const read = readSlab({ file: slab.file }, process.cwd());
  if (slab.sha256 !== undefined && slab.sha256 !== read.sha256)
    throw new ObjectiveError(
      `inputs.slab.sha256: ${read.file} has sha256 ${read.sha256}, not the ${slab.sha256} given: the file changed since it was read, or the sha256 is not this file's. ` +
        'Check the file, then give { file } alone: DREAMS reads it and records its structure and sha256.',
    );
  return read;
}
