/**
 * The calculator a relaxation runs with, from its arguments: EMT (no further settings) or
 * pw.x with the physical settings of make_pw_input (same names, so the guard's cutoff,
 * smearing, k-mesh and convergence rules check them like any pw.x input), plus the
 * relaxation threshold and step limit. From these arguments: the calculator itself, and
 * the physical settings its energies carry, which the comparability rules compare.
 * The arguments' JSON schema is the catalogue's (tools/adsorptionSearch/calculatorArgs.ts).
 */
import { atomicMassAmu } from '../dft/structure/atomicMasses';
import { meshFromSpacing } from '../dft/kpoints';
import type { NamelistValue } from '../dft/qe/input/build';
import { physicalSettingsOf } from '../dft/qe/settings';
import type { PhysicalSettings, Structure } from '../dft/types';
import { EmtCalculator } from './emt';
import { IpiCommandCalculator, type IpiClientSpec } from './ipi/clientProcess';
import { PwCalculator, type PwRunner } from './pwx';
import type { Calculator } from './types';

/** The pseudopotential file of each element (a select_pseudopotentials table, artifacts/shapes.ts). */
export interface PseudopotentialFiles {
  byElement: Record<string, { file: string; sha256: string; functional?: string }>;
}

export type CalculatorKind = 'emt' | 'pw.x' | 'ipi';

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
  /** i-PI: the key (ipiCalculatorKey) of a calculator the user declared for the run; never a command. */
  ipiCalculator?: string;
  fmaxEvPerAngstrom: number;
  maxSteps: number;
}

/** pw.x-only arguments: refused with EMT, whose energies depend on none of them. */
export const PW_ONLY_ARGUMENTS = [
  'pseudopotentials',
  'ecutwfcRy',
  'ecutrhoRy',
  'kSpacingPerAngstrom',
  'kMesh',
  'occupations',
  'smearing',
  'degaussRy',
  'nspin',
  'convThrRy',
  'mixingBeta',
  'mixingMode',
  'electronMaxstep',
  'diagonalization',
  'backend',
] as const;

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

/** i-PI-only arguments: refused with EMT and pw.x. */
export const IPI_ONLY_ARGUMENTS = ['ipiCalculator'] as const;

/**
 * The settings an energy from an i-PI client carries: the key of the declared calculator, so
 * its energies compare only with the same calculator's. The name the calculator reports of
 * itself, the command and its sha256 are recorded beside them (the energy's meta.calculator).
 */
export function ipiSettings(args: Pick<CalculatorArgs, 'ipiCalculator'>): PhysicalSettings {
  const key = args.ipiCalculator ?? '';
  return {
    code: 'ipi',
    functional: `i-PI calculator ${key.slice(0, 12)}`,
    ecutwfcRy: 0,
    ecutrhoRy: 0,
    pseudopotentials: {},
    occupations: 'none',
    nspin: 1,
    extra: { ipiCalculator: key },
  };
}

/** What an i-PI client's calculator is (its own name, once it said it; the command and its sha256). */
export const reportedCalculator = (c: Calculator): ReturnType<IpiCommandCalculator['identity']> | undefined =>
  c instanceof IpiCommandCalculator ? c.identity() : undefined;

/** What the calculator is, for reports and for the claim check: EMT and i-PI clients are screening models. */
export interface CalculatorIdentity {
  method: CalculatorKind;
  production: boolean;
}

export const identityOf = (args: Pick<CalculatorArgs, 'calculator'>): CalculatorIdentity => ({
  method: args.calculator,
  production: args.calculator === 'pw.x',
});

/** The EMT-irrelevant arguments a call gave with calculator 'emt' (refused: they would suggest a DFT setting that is not used). */
export function misplacedArguments(args: CalculatorArgs): string[] {
  if (args.calculator === 'pw.x') return IPI_ONLY_ARGUMENTS.filter((p) => args[p] !== undefined);
  const pwOnly = PW_ONLY_ARGUMENTS.filter((p) => args[p] !== undefined);
  return args.calculator === 'emt' ? [...pwOnly, ...IPI_ONLY_ARGUMENTS.filter((p) => args[p] !== undefined)] : pwOnly;
}

/** A structure without periodicity along some axis still gets one k-point there. */
function kPointsFor(args: CalculatorArgs, s: Structure): { mesh: [number, number, number]; spacing?: number } {
  if (args.kMesh) return { mesh: args.kMesh };
  return {
    mesh: meshFromSpacing(s.cell, args.kSpacingPerAngstrom!, s.pbc) as [number, number, number],
    spacing: args.kSpacingPerAngstrom!,
  };
}

function namelists(args: CalculatorArgs, natoms: number): Record<string, Record<string, NamelistValue>> {
  const system: Record<string, NamelistValue> = {
    ecutwfc: args.ecutwfcRy!,
    ecutrho: args.ecutrhoRy!,
    occupations: args.occupations!,
    nspin: args.nspin!,
  };
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

function checkedTable(table: PseudopotentialFiles | undefined, s: Structure): PseudopotentialFiles {
  if (!table?.byElement)
    throw new Error('pw.x needs a pseudopotential table (select_pseudopotentials output); reference it as pseudopotentials.');
  const missing = [...new Set(s.symbols)].filter((el) => !table.byElement[el]);
  if (missing.length) {
    throw new Error(
      `the pseudopotential table has no file for ${missing.join(', ')}; select pseudopotentials for every element of the slab and the adsorbate.`,
    );
  }
  return table;
}

/** The pw.x calculator for one structure (only its elements' pseudopotentials), with the given runner. */
export function pwCalculatorFor(
  args: CalculatorArgs,
  s: Structure,
  table: PseudopotentialFiles | undefined,
  runner?: PwRunner,
): PwCalculator {
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
export function energySettings(
  args: CalculatorArgs,
  s: Structure,
  table: PseudopotentialFiles | undefined,
  codeVersion?: string,
): PhysicalSettings {
  if (args.calculator === 'emt') return EMT_SETTINGS;
  if (args.calculator === 'ipi') return ipiSettings(args);
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

/** The calculator a relaxation runs with (an i-PI one only from the spec the user declared, `ipi`). */
export function calculatorFor(
  args: CalculatorArgs,
  s: Structure,
  table: PseudopotentialFiles | undefined,
  runner?: PwRunner,
  ipi?: IpiClientSpec,
): Calculator {
  if (args.calculator === 'ipi') {
    if (!ipi)
      throw new Error(
        `no i-PI calculator ${args.ipiCalculator ?? '(none named)'} was declared for this run; the user declares one in the objective (calculator: {kind: ipi, command: [...]}).`,
      );
    return new IpiCommandCalculator(ipi);
  }
  return args.calculator === 'emt' ? new EmtCalculator() : pwCalculatorFor(args, s, table, runner);
}
