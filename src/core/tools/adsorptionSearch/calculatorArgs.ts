/**
 * The calculator a relaxation runs with, as tool arguments: EMT (no further settings) or
 * pw.x with the physical settings of make_pw_input (same names, so the guard's cutoff,
 * smearing, k-mesh and convergence rules check them like any pw.x input), plus the
 * relaxation threshold and step limit. From these arguments: the calculator itself, and
 * the physical settings its energies carry, which the comparability rules compare.
 */
import { EmtCalculator } from '../../calculators/emt';
import { PwCalculator, type PwRunner } from '../../calculators/pwx';
import type { Calculator } from '../../calculators/types';
import { meshFromSpacing } from '../../dft/kpoints';
import { physicalSettingsOf } from '../../dft/qe/settings';
import type { NamelistValue } from '../../dft/qe/input/build';
import type { PhysicalSettings, Structure } from '../../dft/types';
import { artifactRefSchema, quantitySchema } from '../../guard/schemaAnnotations';
import { ARTIFACT, type PseudopotentialTableValue } from '../../artifacts/shapes';
import { atomicMassAmu } from '../../dft/structure/atomicMasses';

export type CalculatorKind = 'emt' | 'pw.x';

export interface CalculatorArgs {
  calculator: CalculatorKind;
  pseudopotentials?: string;
  ecutwfcRy?: number;
  ecutrhoRy?: number;
  kSpacingPerAngstrom?: number;
  kMesh?: [number, number, number];
  occupations?: 'fixed' | 'smearing';
  smearing?: string;
  degaussRy?: number;
  nspin?: 1 | 2;
  convThrRy?: number;
  mixingBeta?: number;
  mixingMode?: 'plain' | 'TF' | 'local-TF';
  electronMaxstep?: number;
  diagonalization?: 'david' | 'cg' | 'ppcg' | 'paro';
  /** Where pw.x runs: 'local' or a cluster profile. */
  backend?: string;
  fmaxEvPerAngstrom: number;
  maxSteps: number;
}

/** pw.x-only arguments: refused with EMT, whose energies depend on none of them. */
export const PW_ONLY_ARGUMENTS = [
  'pseudopotentials', 'ecutwfcRy', 'ecutrhoRy', 'kSpacingPerAngstrom', 'kMesh', 'occupations', 'smearing', 'degaussRy', 'nspin',
  'convThrRy', 'mixingBeta', 'mixingMode', 'electronMaxstep', 'diagonalization', 'backend',
] as const;

export const CALCULATOR_PROPERTIES = {
  calculator: { type: 'string', enum: ['emt', 'pw.x'], description: "'emt' (effective-medium theory: fast, for testing a search, not for final numbers) or 'pw.x'." },
  pseudopotentials: artifactRefSchema('pw.x: the pseudopotential table (select_pseudopotentials output).', { names: [ARTIFACT.pseudopotentials] }),
  ecutwfcRy: quantitySchema('pw.x: wavefunction cutoff', 'Ry', { exclusiveMinimum: 0 }),
  ecutrhoRy: quantitySchema('pw.x: charge-density cutoff', 'Ry', { exclusiveMinimum: 0 }),
  kSpacingPerAngstrom: quantitySchema('pw.x: largest k-point spacing (with 2π); the mesh follows each cell', '1/Å', { exclusiveMinimum: 0 }),
  kMesh: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 3, maxItems: 3, description: 'pw.x: explicit Monkhorst–Pack mesh ([1,1,1] for a molecule in a box).' },
  occupations: { type: 'string', enum: ['fixed', 'smearing'] },
  smearing: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
  degaussRy: quantitySchema('pw.x: smearing width', 'Ry', { exclusiveMinimum: 0 }),
  nspin: { type: 'integer', enum: [1, 2] },
  convThrRy: quantitySchema('pw.x: SCF convergence threshold', 'Ry', { exclusiveMinimum: 0 }),
  mixingBeta: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'pw.x: SCF mixing factor (SCF control).' },
  mixingMode: { type: 'string', enum: ['plain', 'TF', 'local-TF'], description: 'pw.x: SCF mixing mode (SCF control).' },
  electronMaxstep: { type: 'integer', minimum: 1, maximum: 1000, description: 'pw.x: most SCF iterations (SCF control).' },
  diagonalization: { type: 'string', enum: ['david', 'cg', 'ppcg', 'paro'], description: 'pw.x: diagonalization method (SCF control).' },
  backend: { type: 'string', minLength: 1, description: "pw.x: 'local' or a cluster profile name." },
  fmaxEvPerAngstrom: quantitySchema('Relaxations stop when the largest force on a free atom is below this', 'eV/Å', { exclusiveMinimum: 0 }),
  maxSteps: { type: 'integer', minimum: 1, maximum: 2000, description: 'Most optimizer steps of one relaxation (FIRE for EMT, pw.x BFGS for pw.x).' },
} as const;

/** Arguments every calculator call requires, and pw.x's when it is pw.x. */
export const CALCULATOR_REQUIRED = ['calculator', 'fmaxEvPerAngstrom', 'maxSteps'] as const;
export const CALCULATOR_CONDITIONS = [
  {
    if: { properties: { calculator: { const: 'pw.x' } }, required: ['calculator'] },
    then: { required: ['pseudopotentials', 'ecutwfcRy', 'ecutrhoRy', 'occupations', 'nspin', 'backend'], anyOf: [{ required: ['kSpacingPerAngstrom'] }, { required: ['kMesh'] }] },
  },
  {
    if: { properties: { calculator: { const: 'emt' } }, required: ['calculator'] },
    then: { not: { anyOf: PW_ONLY_ARGUMENTS.map((p) => ({ required: [p] })) } },
  },
];

export const CALCULATOR_NOTES: Record<string, string> = {
  calculator: "'emt' only to test a search (its H/C/N/O parameters are not for real numbers); 'pw.x' for results.",
  fmaxEvPerAngstrom: '0.10 eV/Å as in AdsMind for the search; 0.02–0.05 eV/Å for final adsorption geometries.',
  maxSteps: 'about 200 for FIRE (EMT); 50–100 BFGS steps for pw.x.',
  ecutwfcRy: 'the converged cutoff, at least the UPF suggestion.',
  kSpacingPerAngstrom: 'the converged spacing; a slab gets one k-point along its normal.',
  degaussRy: '0.01–0.02 Ry with mv or mp smearing for metals.',
  mixingBeta: 'SCF control: 0.7 default; 0.1–0.3 for slabs that slosh.',
  electronMaxstep: 'SCF control: 100 default; more for slow but steady SCFs.',
};

/** The settings an EMT energy carries: nothing to converge, no basis, no pseudopotentials. */
export const EMT_SETTINGS: PhysicalSettings = {
  code: 'emt',
  functional: 'EMT (effective-medium theory)',
  ecutwfcRy: 0,
  ecutrhoRy: 0,
  pseudopotentials: {},
  occupations: 'none',
  nspin: 1,
  extra: { parameters: 'Jacobsen, Stoltze & Nørskov 1996; H, C, N, O as extended in ASE' },
};

/** What the calculator is, for reports and for the claim check: EMT is a screening model. */
export interface CalculatorIdentity {
  method: CalculatorKind;
  production: boolean;
}

export const identityOf = (args: Pick<CalculatorArgs, 'calculator'>): CalculatorIdentity => ({ method: args.calculator, production: args.calculator === 'pw.x' });

/** The EMT-irrelevant arguments a call gave with calculator 'emt' (refused: they would suggest a DFT setting that is not used). */
export function misplacedArguments(args: Record<string, unknown>): string[] {
  return args.calculator === 'emt' ? PW_ONLY_ARGUMENTS.filter((p) => args[p] !== undefined) : [];
}

/** A structure without periodicity along some axis still gets one k-point there. */
function kPointsFor(args: CalculatorArgs, s: Structure): { mesh: [number, number, number]; spacing?: number } {
  if (args.kMesh) return { mesh: args.kMesh };
  return { mesh: meshFromSpacing(s.cell, args.kSpacingPerAngstrom!, s.pbc) as [number, number, number], spacing: args.kSpacingPerAngstrom! };
}

function namelists(args: CalculatorArgs, natoms: number): Record<string, Record<string, NamelistValue>> {
  const system: Record<string, NamelistValue> = { ecutwfc: args.ecutwfcRy!, ecutrho: args.ecutrhoRy!, occupations: args.occupations!, nspin: args.nspin! };
  if (args.occupations === 'smearing') {
    if (args.smearing) system.smearing = args.smearing;
    if (args.degaussRy !== undefined) system.degauss = args.degaussRy;
  }
  // The same SCF threshold per atom as make_pw_input, so energies of both compare.
  const electrons: Record<string, NamelistValue> = { conv_thr: args.convThrRy ?? 1e-8 * natoms };
  if (args.mixingBeta !== undefined) electrons.mixing_beta = args.mixingBeta;
  if (args.mixingMode !== undefined) electrons.mixing_mode = args.mixingMode;
  if (args.electronMaxstep !== undefined) electrons.electron_maxstep = args.electronMaxstep;
  if (args.diagonalization !== undefined) electrons.diagonalization = args.diagonalization;
  return { control: { prefix: 'dreams', outdir: './tmp' }, system, electrons };
}

function checkedTable(table: PseudopotentialTableValue | undefined, s: Structure): PseudopotentialTableValue {
  if (!table?.byElement) throw new Error('pw.x needs a pseudopotential table (select_pseudopotentials output); reference it as pseudopotentials.');
  const missing = [...new Set(s.symbols)].filter((el) => !table.byElement[el]);
  if (missing.length) {
    throw new Error(`the pseudopotential table has no file for ${missing.join(', ')}; select pseudopotentials for every element of the slab and the adsorbate.`);
  }
  return table;
}

/** The pw.x calculator for one structure (only its elements' pseudopotentials), with the given runner. */
export function pwCalculatorFor(args: CalculatorArgs, s: Structure, table: PseudopotentialTableValue | undefined, runner?: PwRunner): PwCalculator {
  const t = checkedTable(table, s);
  const elements = [...new Set(s.symbols)];
  const k = kPointsFor(args, s);
  return new PwCalculator({
    namelists: namelists(args, s.symbols.length),
    species: Object.fromEntries(elements.map((el) => [el, { massAmu: atomicMassAmu(el), pseudopotential: t.byElement[el]!.file }])),
    kPoints: { kind: 'automatic', mesh: k.mesh, shift: [0, 0, 0] },
    ...(runner ? { runner } : {}),
  });
}

/**
 * The physical settings of energies this calculator gives for a structure: for pw.x read
 * from the input it would run (with each file's sha256 and the spacing the mesh came from);
 * the functional is the pseudopotentials' own, as make_pw_input records it.
 */
export function energySettings(args: CalculatorArgs, s: Structure, table: PseudopotentialTableValue | undefined, codeVersion?: string): PhysicalSettings {
  if (args.calculator === 'emt') return EMT_SETTINGS;
  const t = checkedTable(table, s);
  const calc = pwCalculatorFor(args, s, t);
  const k = kPointsFor(args, s);
  const elements = [...new Set(s.symbols)];
  const settings = physicalSettingsOf(calc.input(s, 'relax', false), {
    pseudoSha256: Object.fromEntries(elements.map((el) => [t.byElement[el]!.file, t.byElement[el]!.sha256])),
    ...(k.spacing !== undefined ? { kSpacingPerAngstrom: k.spacing } : {}),
    ...(codeVersion ? { codeVersion } : {}),
  });
  const functionals = [...new Set(elements.map((el) => t.byElement[el]!.functional).filter((f): f is string => !!f))];
  return { ...settings, functional: functionals.join('+') || settings.functional };
}

/** The calculator a relaxation runs with. */
export function calculatorFor(args: CalculatorArgs, s: Structure, table: PseudopotentialTableValue | undefined, runner?: PwRunner): Calculator {
  return args.calculator === 'emt' ? new EmtCalculator() : pwCalculatorFor(args, s, table, runner);
}
