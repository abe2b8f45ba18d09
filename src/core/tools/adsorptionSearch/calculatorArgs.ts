/**
 * The calculator arguments of the relaxation and search tools, as JSON schema: EMT, or
 * pw.x with make_pw_input's physical settings (the one vocabulary, ../pwSettings.ts), plus the relaxation threshold and step
 * limit. What the arguments mean (the calculator they build, the settings its energies
 * carry) is calculators/fromArguments.ts.
 */
import { IPI_ONLY_ARGUMENTS, PW_ONLY_ARGUMENTS } from '../../calculators/fromArguments';
import { quantitySchema } from '../../guard/schemaAnnotations';
import { PW_SETTINGS_NOTES, PW_SETTINGS_PROPERTIES } from '../pwSettings';

export const CALCULATOR_PROPERTIES = {
  calculator: {
    type: 'string',
    enum: ['emt', 'pw.x', 'ipi'],
    description:
      "'emt' (effective-medium theory: fast, for testing a search, not for final numbers), 'pw.x', or 'ipi' (the user's own calculator over the i-PI socket: a screening model, not DFT).",
  },
  ipiCalculator: {
    type: 'string',
    pattern: '^[0-9a-f]{64}$',
    description:
      "i-PI: the key of a calculator the user declared for this run (its objective's calculator); the command itself is the user's, never an argument.",
  },
  ...PW_SETTINGS_PROPERTIES,
  backend: { type: 'string', minLength: 1, description: "pw.x: 'local' or a cluster profile name." },
  fmaxEvPerAngstrom: quantitySchema('Relaxations stop when the largest force on a free atom is below this', 'eV/Å', {
    exclusiveMinimum: 0,
  }),
  maxSteps: {
    type: 'integer',
    minimum: 1,
    maximum: 2000,
    description: 'Most optimizer steps of one relaxation (FIRE for EMT, pw.x BFGS for pw.x).',
  },
} as const;

/** Arguments every calculator call requires, and pw.x's when it is pw.x. */
export const CALCULATOR_REQUIRED = ['calculator', 'fmaxEvPerAngstrom', 'maxSteps'] as const;
export const CALCULATOR_CONDITIONS = [
  {
    if: { properties: { calculator: { const: 'pw.x' } }, required: ['calculator'] },
    then: {
      required: ['pseudopotentials', 'ecutwfcRy', 'ecutrhoRy', 'occupations', 'nspin', 'backend'],
      anyOf: [{ required: ['kSpacingPerAngstrom'] }, { required: ['kMesh'] }],
    },
  },
  {
    if: { properties: { calculator: { const: 'emt' } }, required: ['calculator'] },
    then: { not: { anyOf: [...PW_ONLY_ARGUMENTS, ...IPI_ONLY_ARGUMENTS].map((p) => ({ required: [p] })) } },
  },
  {
    if: { properties: { calculator: { const: 'ipi' } }, required: ['calculator'] },
    then: { required: ['ipiCalculator'], not: { anyOf: PW_ONLY_ARGUMENTS.map((p) => ({ required: [p] })) } },
  },
];

export const CALCULATOR_NOTES: Record<string, string> = {
  ...PW_SETTINGS_NOTES,
  calculator: "'emt' only to test a search (its H/C/N/O parameters are not for real numbers); 'pw.x' for results.",
  fmaxEvPerAngstrom: '0.10 eV/Å as in AdsMind for the search; 0.02–0.05 eV/Å for final adsorption geometries.',
  maxSteps: 'about 200 for FIRE (EMT); 50–100 BFGS steps for pw.x.',
  ecutwfcRy: 'the converged cutoff, at least the UPF suggestion.',
};
