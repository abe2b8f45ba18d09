/**
 * relax_structure: relax a reference of an adsorption energy (the clean slab, the
 * gas-phase adsorbate) with EMT or pw.x. The calculator's settings are arguments of the
 * call, so the guard checks them here like any pw.x input.
 */
import { defineTool } from '../defineTool';
import { ARTIFACTS } from '../../artifacts/contracts';
import type { Structure } from '../../dft/types';
import { artifactRefSchema } from '../../guard/schemaAnnotations';
import { CALCULATOR_CONDITIONS, CALCULATOR_NOTES, CALCULATOR_PROPERTIES, CALCULATOR_REQUIRED } from './calculatorArgs';
import { relaxationDrafts, relaxationSummary, relaxWithArgs } from './relaxation';

export const CALCULATOR_RULES = [
  'cutoff-above-pseudopotential-suggestion',
  'metals-have-smearing',
  'kmesh-matches-spacing',
  'convergence-choice-in-range',
  'adsorption-search-standards',
  'atoms-apart',
];

export const relaxStructureTool = defineTool({
  name: 'relax_structure',
  description:
    'Relax a structure with EMT (FIRE) or pw.x (its BFGS, one job) to a force threshold, keeping fixed atoms fixed: the clean slab ' +
    'or the gas-phase adsorbate of an adsorption energy. Returns the relaxed structure and its total energy with the physical ' +
    'settings it was computed with; an unconverged relaxation gives provisional results.',
  roles: ['dft', 'hpc'],
  input: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure to relax.', { kinds: ['structure'] }),
      reference: { type: 'string', enum: ['clean-slab', 'gas-phase'], description: 'Which reference of the adsorption energy this is.' },
      ...CALCULATOR_PROPERTIES,
    },
    required: ['structure', 'reference', ...CALCULATOR_REQUIRED],
    allOf: CALCULATOR_CONDITIONS,
    additionalProperties: false,
  },
  rules: CALCULATOR_RULES,
  outputs: [ARTIFACTS.relaxedStructure, ARTIFACTS.totalEnergy],
  parameterNotes: { ...CALCULATOR_NOTES, kMesh: '[1,1,1] for a molecule in a box; otherwise give the spacing.' },
  async run({ structure: ref, reference, ...calc }, ctx) {
    const s = ctx.resolve(ref) as Structure;
    const what = reference === 'clean-slab' ? 'relaxed clean slab' : 'relaxed gas-phase adsorbate';
    const r = await relaxWithArgs(calc, s, ctx, 'relax_structure', what);
    return { artifacts: relaxationDrafts(r, calc, { reference }), summary: relaxationSummary(r, what) };
  },
});
