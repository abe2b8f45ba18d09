/** Reading a lattice-constant objective written as text. */
import { isChemicalSymbol } from '../dft/io/elements';
import { binaryFormulaIn, binaryPrototypeNamedIn, compoundLatticeConstant, statedLatticeConstant } from './everyday/common';
import type { LatticeConstantInputs } from './latticeConstantInputs';
import { structureFileNamedIn } from './structureFileInput';

const TEXT_STRUCTURES: [RegExp, LatticeConstantInputs['structure']][] = [
  [/\bfcc\b|face[- ]centred|face[- ]centered/i, 'fcc'],
  [/\bbcc\b|body[- ]centred|body[- ]centered/i, 'bcc'],
  [/\bdiamond\b/i, 'diamond'],
  [/\bhcp\b|hexagonal close/i, 'hcp'],
  [/\bsc\b|simple cubic/i, 'sc'],
];

/**
 * "lattice constant of fcc Al with PBE, a0 = 4.04 Å" → inputs; "... of NaCl from examples/NaCl.cif with LDA"
 * → structure: { file } (the file holds the species and the cell); "... of GaAs with PBE" → elements, the
 * prototype (a word such as zincblende, or the tables of everyday/common.ts) and its tabulated starting a;
 * undefined when the text asks for something else.
 */
export function latticeInputsFromText(text: string): Record<string, unknown> | undefined {
  if (!/lattice (constant|parameter)/i.test(text)) return undefined;
  const out: Record<string, unknown> = {};
  // A structure file the sentence names is the crystal (loaded, with its sha256, when the objective is read).
  const file = structureFileNamedIn(text);
  if (file) {
    out.structure = { file };
    return withFunctional(text, out);
  }
  // A binary compound: a formula the tables or a prototype word place (else the structure is asked for).
  const pair = binaryFormulaIn(text);
  if (pair) {
    out.elements = pair;
    const prototype = binaryPrototypeNamedIn(text, pair);
    if (prototype) out.structure = prototype;
    const a = statedLatticeConstant(text) ?? (prototype ? compoundLatticeConstant(prototype, pair) : undefined);
    if (a !== undefined) out.latticeConstantAngstrom = a;
    return withFunctional(text, out);
  }
  // "I" is far more often the pronoun than iodine; write "iodine" objectives in a file.
  const symbol = text.match(/\b[A-Z][a-z]?\b/g)?.find((w) => w !== 'I' && isChemicalSymbol(w));
  if (symbol) out.element = symbol;
  for (const [re, s] of TEXT_STRUCTURES)
    if (re.test(text)) {
      out.structure = s;
      break;
    }
  const a0 = statedLatticeConstant(text);
  if (a0 !== undefined) out.latticeConstantAngstrom = a0;
  return withFunctional(text, out);
}

/** The functional and pseudopotential file a sentence names, added to `out`. */
function withFunctional(text: string, out: Record<string, unknown>): Record<string, unknown> {
  const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
  if (functional)
    out.functional =
      functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() === 'LDA' ? 'PZ' : functional.toUpperCase();
  const upf = /([\w.+-]+\.upf)\b/i.exec(text)?.[1];
  if (upf) out.pseudopotential = upf;
  return out;
}
