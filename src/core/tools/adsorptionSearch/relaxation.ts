/**
 * One relaxation with the calculator a call's arguments name, and the artifacts it
 * leaves: the relaxed structure and its total energy, carrying the physical settings it
 * was computed with and which calculator that was. A relaxation that did not reach the
 * force threshold gives provisional results, never final ones.
 */
import type { CatalogueContext } from '../services';
import { directRelax } from '../../adsorption/executor';
import type { Calculator, RelaxResult } from '../../calculators/types';
import { formatExtxyz } from '../../dft/io/extxyz';
import { cellVolume } from '../../dft/structure/cell';
import type { PhysicalSettings, Structure } from '../../dft/types';
import type { ArtifactDraft } from '../../provenance/types';
import { ARTIFACT, type PseudopotentialTableValue } from '../../artifacts/shapes';
import {
  calculatorFor,
  energySettings,
  identityOf,
  misplacedArguments,
  reportedCalculator,
  type CalculatorArgs,
} from '../../calculators/fromArguments';
import { pwJobRunner, type PwJobLog } from './pwJobRunner';

const formula = (symbols: string[]): string => {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => (n === 1 ? el : `${el}${n}`)).join('');
};

/** The calculator of a call, with its pw.x jobs (if any) recorded in `log`. */
export function callCalculator(
  args: CalculatorArgs,
  s: Structure,
  ctx: CatalogueContext,
  tool: string,
  log: PwJobLog,
): { calculator: Calculator; table?: PseudopotentialTableValue } {
  const misplaced = misplacedArguments(args);
  if (misplaced.length)
    throw new Error(
      `${tool}: ${misplaced.join(', ')} ${misplaced.length === 1 ? 'is not a setting' : 'are not settings'} of calculator ${args.calculator}; leave ${misplaced.length === 1 ? 'it' : 'them'} out or use the calculator ${misplaced.length === 1 ? 'it belongs' : 'they belong'} to.`,
    );
  if (args.calculator === 'emt') return { calculator: calculatorFor(args, s, undefined) };
  if (args.calculator === 'ipi') {
    // only a calculator the user declared for the run: a tool call names it by key and never carries a command
    const declared = ctx.services.ipiCalculators ?? {};
    const spec = args.ipiCalculator ? declared[args.ipiCalculator] : undefined;
    if (!spec) {
      const keys = Object.keys(declared);
      throw new Error(
        `${tool}: ipiCalculator ${args.ipiCalculator ?? '(missing)'} is not a calculator declared for this run (${keys.length ? `declared: ${keys.join(', ')}` : 'none is declared'}); the user declares one in the objective (calculator: {kind: ipi, command: [...]}).`,
      );
    }
    return { calculator: calculatorFor(args, s, undefined, undefined, spec) };
  }
  const table = ctx.resolve(args.pseudopotentials!) as PseudopotentialTableValue;
  return { calculator: calculatorFor(args, s, table, pwJobRunner(ctx, tool, args.backend ?? 'local', table, log)), table };
}

export interface Relaxed {
  result: RelaxResult;
  settings: PhysicalSettings;
  jobs: string[];
  /** What an i-PI client's calculator is: its own name, the command and its sha256. */
  calculatorIdentity?: { name?: string; command: string; commandSha256: string };
}

export async function relaxWithArgs(
  args: CalculatorArgs,
  s: Structure,
  ctx: CatalogueContext,
  tool: string,
  label: string,
): Promise<Relaxed> {
  const log: PwJobLog = { jobs: [] };
  const { calculator, table } = callCalculator(args, s, ctx, tool, log);
  try {
    const result = await directRelax(calculator)(
      { structure: s, purpose: 'configuration', label, fmaxEvPerAngstrom: args.fmaxEvPerAngstrom, maxSteps: args.maxSteps },
      ctx.signal,
    );
    const identity = reportedCalculator(calculator);
    return {
      result,
      settings: energySettings(args, s, table, log.codeVersion),
      jobs: log.jobs,
      ...(identity ? { calculatorIdentity: identity } : {}),
    };
  } finally {
    // an i-PI client process stops with its relaxation
    await calculator.close?.();
  }
}

/** The relaxed structure and its energy as artifacts (provisional when the relaxation did not converge). */
export function relaxationDrafts(
  r: Relaxed,
  args: CalculatorArgs,
  extraMeta: Record<string, unknown>,
  names: { structure: string } = { structure: ARTIFACT.relaxedStructure },
): ArtifactDraft[] {
  const s = r.result.structure;
  const status = r.result.converged ? ('final' as const) : ('provisional' as const);
  const relaxation = {
    optimizer: r.result.optimizer,
    steps: r.result.steps,
    converged: r.result.converged,
    fmaxEvPerAngstrom: r.result.fmaxEvPerAngstrom,
    thresholdEvPerAngstrom: args.fmaxEvPerAngstrom,
    maxSteps: args.maxSteps,
    ...(r.jobs.length ? { jobs: r.jobs } : {}),
  };
  return [
    {
      kind: 'structure',
      name: names.structure,
      value: s,
      status,
      file: { name: `${names.structure}.extxyz`, bytes: formatExtxyz({ structure: s, info: { energy: r.result.energyEv } }) },
      meta: { formula: formula(s.symbols), natoms: s.symbols.length, relaxation, ...extraMeta },
    },
    {
      kind: 'scalar',
      name: ARTIFACT.totalEnergy,
      value: r.result.energyEv,
      unit: 'eV',
      status,
      meta: {
        settings: r.settings,
        natoms: s.symbols.length,
        volumeAngstrom3: cellVolume(s.cell),
        formula: formula(s.symbols),
        scfConverged: true,
        cellAngstrom: s.cell,
        calculator: { ...identityOf(args), ...r.calculatorIdentity },
        relaxation,
        ...(args.calculator === 'pw.x' ? { purpose: 'production' } : {}),
        ...extraMeta,
      },
    },
  ];
}

export const relaxationSummary = (r: Relaxed, what: string): string =>
  `${what}: E = ${r.result.energyEv.toFixed(4)} eV after ${r.result.steps} ${r.result.optimizer} step(s), largest force ${r.result.fmaxEvPerAngstrom.toFixed(3)} eV/Å` +
  (r.result.converged ? '' : ' — not converged: the results are provisional') +
  (r.jobs.length ? ` (pw.x jobs ${r.jobs.join(', ')})` : '');
