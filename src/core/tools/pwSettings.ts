/**
 * The pw.x settings vocabulary, once: the JSON schema of every physical and SCF-control
 * setting a tool takes for pw.x (make_pw_input, and the relaxation and adsorption-search
 * tools through calculatorArgs.ts), with the notes the parameter judge reads. Same names as
 * dft/qe/pwInput.ts's options, so the guard's cutoff, smearing, k-mesh and convergence rules
 * check every tool alike. A tool adds only what is its own (purpose, calculation, thresholds).
 */
import { ARTIFACT } from '../artifacts/shapes';
import { artifactRefSchema, quantitySchema } from '../guard/schemaAnnotations';

const meshCount = { type: 'integer', minimum: 1 } as const;

/** An explicit Monkhorst–Pack mesh: three positive integers (a tuple, so its type is one too). */
export const kMeshSchema = <const D extends string>(description: D) =>
  ({ type: 'array', prefixItems: [meshCount, meshCount, meshCount], minItems: 3, maxItems: 3, description }) as const;

export const PW_SETTINGS_PROPERTIES = {
  pseudopotentials: artifactRefSchema('The pseudopotential table (select_pseudopotentials output).', {
    names: [ARTIFACT.pseudopotentials],
  }),
  ecutwfcRy: quantitySchema('Wavefunction cutoff', 'Ry', { exclusiveMinimum: 0 }),
  ecutrhoRy: quantitySchema('Charge-density cutoff', 'Ry', { exclusiveMinimum: 0 }),
  kSpacingPerAngstrom: quantitySchema('Largest k-point spacing (with 2π); the mesh follows each cell', '1/Å', { exclusiveMinimum: 0 }),
  kMesh: kMeshSchema('Explicit Monkhorst–Pack mesh (e.g. [1,1,1] for a molecule in a box).'),
  occupations: { type: 'string', enum: ['fixed', 'smearing'] },
  smearing: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
  degaussRy: quantitySchema('Smearing width', 'Ry', { exclusiveMinimum: 0 }),
  nspin: { type: 'integer', enum: [1, 2] },
  convThrRy: quantitySchema('SCF convergence threshold', 'Ry', { exclusiveMinimum: 0 }),
  mixingBeta: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'SCF control: mixing factor of the new density (mixing_beta; pw.x default 0.7).',
  },
  mixingMode: {
    type: 'string',
    enum: ['plain', 'TF', 'local-TF'],
    description: "SCF control: density mixing (mixing_mode; 'local-TF' for slabs and other inhomogeneous systems).",
  },
  electronMaxstep: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'SCF control: most SCF iterations (electron_maxstep; pw.x default 100).',
  },
  diagonalization: {
    type: 'string',
    enum: ['david', 'cg', 'ppcg', 'paro'],
    description: "SCF control: eigensolver (diagonalization; 'cg' is slower but robust where Davidson fails).",
  },
} as const;

/** What the parameter judge reads about each setting. */
export const PW_SETTINGS_NOTES: Record<string, string> = {
  ecutwfcRy: 'the converged cutoff (reference the convergence selection) for production; at least the UPF suggestion for a sweep template.',
  ecutrhoRy: '4× ecutwfc for norm-conserving, 8–12× for ultrasoft pseudopotentials.',
  kSpacingPerAngstrom: 'the converged spacing (reference the selection) for production runs; a slab gets one k-point along its normal.',
  degaussRy: '0.01–0.02 Ry with mv or mp smearing for metals.',
  nspin: '2 with a starting magnetization for Fe, Co, Ni and other magnetic systems; 1 otherwise.',
  mixingBeta:
    'SCF control, never the result: 0.7 by default; 0.1–0.3 when the SCF sloshes (slabs, magnetic systems); the convergence advisor suggests it.',
  mixingMode: "SCF control: 'plain' for bulk; 'local-TF' for slabs and surfaces.",
  electronMaxstep: 'SCF control: 100 by default; more only for a slow but steady SCF; fewer never helps.',
  diagonalization: "SCF control: 'david' by default; 'cg' (or 'ppcg') when Davidson fails (S matrix, too many bands not converged).",
};
