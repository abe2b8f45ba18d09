/** select_pseudopotentials, make_pw_input, generate_series: pw.x inputs from structures (dft/qe). */
import { artifactRefSchema, quantitySchema } from '../../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../../guard/assessCall';
import { ARTIFACT } from './artifactShapes';
import { unavailableBody } from './services';

export const selectPseudopotentialsTool: GuardedToolSpec = {
  name: 'select_pseudopotentials',
  description:
    "Choose one pseudopotential (UPF) per element from the configured library for a functional, with each file's sha256 and " +
    'the cutoffs its header suggests.',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      elements: { type: 'array', items: { type: 'string', pattern: '^[A-Z][a-z]?$' }, minItems: 1, uniqueItems: true },
      functional: { type: 'string', enum: ['PBE', 'PZ', 'PBEsol', 'BEEF-vdW'], description: 'Exchange-correlation functional.' },
      prefer: { type: 'object', additionalProperties: { type: 'string' }, description: 'Element -> UPF file name, to pin a particular file.' },
    },
    required: ['elements', 'functional'],
    additionalProperties: false,
  },
  rules: [],
  parameterNotes: { functional: 'the functional the study asks for; PBE unless stated.' },
  run: unavailableBody('select_pseudopotentials', 'the UPF header reader of dft/qe'),
};

export const makePwInputTool: GuardedToolSpec = {
  name: 'make_pw_input',
  description:
    'Write a validated pw.x input for a structure: pseudopotentials, cutoffs (Ry), k-points from a spacing (1/Å, with 2π) or an ' +
    'explicit mesh, occupations and smearing, spin. The input records the physical settings its energies will carry.',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure to compute.', { kinds: ['structure'] }),
      pseudopotentials: artifactRefSchema('The pseudopotential table (select_pseudopotentials output).', { names: [ARTIFACT.pseudopotentials] }),
      calculation: { type: 'string', enum: ['scf', 'relax', 'vc-relax'] },
      ecutwfcRy: quantitySchema('Wavefunction cutoff', 'Ry', { exclusiveMinimum: 0 }),
      ecutrhoRy: quantitySchema('Charge-density cutoff', 'Ry', { exclusiveMinimum: 0 }),
      kSpacingPerAngstrom: quantitySchema('Largest k-point spacing (with 2π)', '1/Å', { exclusiveMinimum: 0 }),
      kMesh: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 3, maxItems: 3, description: 'Explicit Monkhorst–Pack mesh (e.g. [1,1,1] for a molecule).' },
      occupations: { type: 'string', enum: ['fixed', 'smearing'] },
      smearing: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
      degaussRy: quantitySchema('Smearing width', 'Ry', { exclusiveMinimum: 0 }),
      nspin: { type: 'integer', enum: [1, 2] },
      startingMagnetization: { type: 'object', additionalProperties: { type: 'number', minimum: -1, maximum: 1 } },
      convThrRy: quantitySchema('SCF convergence threshold', 'Ry', { exclusiveMinimum: 0 }),
      mixingBeta: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    },
    required: ['structure', 'pseudopotentials', 'calculation', 'ecutwfcRy', 'ecutrhoRy', 'occupations', 'nspin'],
    anyOf: [{ required: ['kSpacingPerAngstrom'] }, { required: ['kMesh'] }],
    additionalProperties: false,
  },
  rules: ['cutoff-above-pseudopotential-suggestion', 'kmesh-matches-spacing', 'metals-have-smearing', 'convergence-choice-in-range', 'tests-redone-after-cutoff-change'],
  parameterNotes: {
    ecutwfcRy: 'the converged cutoff (reference the convergence selection) for production; at least the UPF suggestion for a sweep template.',
    ecutrhoRy: '4× ecutwfc for norm-conserving, 8–12× for ultrasoft pseudopotentials.',
    kSpacingPerAngstrom: 'the converged spacing (reference the selection) for production runs.',
    degaussRy: '0.01–0.02 Ry with mv or mp smearing for metals.',
    nspin: '2 with a starting magnetization for Fe, Co, Ni and other magnetic systems; 1 otherwise.',
  },
  run: unavailableBody('make_pw_input', 'the pw.x input builder and validator of dft/qe'),
};

export const generateSeriesTool: GuardedToolSpec = {
  name: 'generate_series',
  description:
    'From a template pw.x input, make a series varying one thing: ecutwfc (Ry, ecutrho scaled with it), k-spacing (1/Å), ' +
    'or the lattice (scale factors of the lattice constant, for an EOS). All other settings stay those of the template.',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      template: artifactRefSchema('The template input (make_pw_input output).', { kinds: ['qe-input'], names: [ARTIFACT.pwInput] }),
      kind: { type: 'string', enum: ['ecutwfc', 'kspacing', 'eos'] },
      values: { type: 'array', items: { type: 'number', exclusiveMinimum: 0 }, minItems: 3, maxItems: 15, uniqueItems: true },
    },
    required: ['template', 'kind', 'values'],
    additionalProperties: false,
  },
  rules: [],
  parameterNotes: {
    values: 'cutoffs in steps of 5–10 Ry from the UPF suggestion upward; spacings from 0.4 down to 0.1 1/Å; EOS lattice scale factors spanning ±3 % (volumes ±10 %).',
  },
  run: unavailableBody('generate_series', 'the series builder of dft/qe'),
};
