/**
 * Resolving an adsorption-search objective: the adsorbate from a name or SMILES, the
 * calculator (EMT, or pw.x with cutoffs from the pseudopotentials' suggestion), the slab
 * (EMT's own lattice constant for a generated slab with EMT), and the AdsMind defaults.
 */
import { DEFAULT_DEGENERATE_TOLERANCE_EV, FULL_LOOP } from '../../adsorption/loop';
import { MIN_LATERAL_ANGSTROM, MIN_VACUUM_ANGSTROM } from '../../adsorption/slab';
import { DEFAULT_RELAX } from '../../calculators/optimizers/fire';
import { EMT_ELEMENTS } from '../../calculators/emtParameters';
import { fccLatticeConstantAngstrom } from '../../calculators/emtLattice';
import { molecule } from '../../dft/structure/molecules';
import { ObjectiveError, type WorkflowEnvironment } from '../types';
import type {
  AdsorptionSearchInputs,
  CalculatorInputs,
  IpiCalculatorInputs,
  PwCalculatorInputs,
  SearchObjectiveInputs,
} from './inputSchema';
import { adsorbateFromSmiles, SMILES_OF } from './smiles';
import { slabAsRead } from './slabFile';

export * from './inputSchema';

const FUNCTIONAL: Record<string, PwCalculatorInputs['functional']> = { PBE: 'PBE', PZ: 'PZ', LDA: 'PZ', PBESOL: 'PBEsol' };

const roundUp = (x: number, step: number): number => Math.ceil(x / step - 1e-9) * step;

type Given = SearchObjectiveInputs;

function resolveAdsorbate(raw: Given['adsorbate']): { name: string; smiles?: string } {
  if (typeof raw === 'string') return { name: raw };
  const smiles = raw.smiles;
  const name = adsorbateFromSmiles(smiles);
  if (!name) {
    throw new ObjectiveError(
      `inputs.adsorbate: the SMILES "${smiles}" is not one of the molecules this build has geometries for; use one of ${Object.entries(
        SMILES_OF,
      )
        .map(([n, s]) => `${s} (${n})`)
        .join(', ')}, or a name.`,
    );
  }
  return { name, smiles };
}

function resolveCalculator(raw: Given['calculator'], elements: string[], env: WorkflowEnvironment): CalculatorInputs {
  if (raw.kind === 'ipi') {
    const command = [...raw.command];
    return {
      kind: 'ipi',
      command,
      ...(raw.port !== undefined ? { port: raw.port } : {}),
      ...(raw.unixSocket ? { unixSocket: raw.unixSocket } : {}),
      ...(raw.timeoutSeconds !== undefined ? { timeoutSeconds: raw.timeoutSeconds } : {}),
    } satisfies IpiCalculatorInputs;
  }
  if (raw.kind === 'emt') {
    const missing = elements.filter((e) => !EMT_ELEMENTS.includes(e));
    if (missing.length)
      throw new ObjectiveError(
        `inputs.calculator: EMT has no parameters for ${missing.join(', ')} (it covers ${EMT_ELEMENTS.join(', ')}); use calculator kind 'pw.x'.`,
      );
    return { kind: 'emt' };
  }
  const functional = FUNCTIONAL[String(raw.functional ?? 'PBE').toUpperCase()]!;
  const named = raw.pseudopotentials ?? {};
  const pseudopotentials: Record<string, string> = {};
  let suggested = 0;
  let dual = 4;
  for (const el of elements) {
    const info = env.pseudopotential?.({ element: el, functional, ...(named[el] ? { file: named[el] } : {}) });
    if (!info) {
      if (named[el])
        throw new ObjectiveError(
          `inputs.calculator.pseudopotentials.${el}: ${named[el]} is not a readable UPF file in the pseudopotential directory; give a file that is there, or leave it out to use the library's ${el} file.`,
        );
      if (raw.ecutwfcRy === undefined)
        throw new ObjectiveError(
          `inputs.calculator: no ${functional} pseudopotential for ${el} in the pseudopotential directory to take the cutoff from; name the files (pseudopotentials) and give ecutwfcRy and ecutrhoRy.`,
        );
      continue;
    }
    pseudopotentials[el] = info.file;
    suggested = Math.max(suggested, info.suggestedEcutwfcRy ?? 0);
    if (info.type === 'US' || info.type === 'PAW') dual = 8;
  }
  const ecutwfcRy = raw.ecutwfcRy ?? (suggested > 0 ? roundUp(suggested, 5) : undefined);
  if (ecutwfcRy === undefined)
    throw new ObjectiveError('inputs.calculator.ecutwfcRy: the pseudopotentials state no suggested cutoff; give ecutwfcRy (Ry).');
  // the schema's minItems/maxItems make the mesh three integers
  const k = raw.kMesh ? { kMesh: raw.kMesh as [number, number, number] } : { kSpacingPerAngstrom: raw.kSpacingPerAngstrom ?? 0.25 };
  return {
    kind: 'pw.x',
    functional,
    pseudopotentials: { ...pseudopotentials, ...named },
    ecutwfcRy,
    ecutrhoRy: raw.ecutrhoRy ?? dual * ecutwfcRy,
    ...k,
    smearing: raw.smearing ?? { kind: 'mv', degaussRy: 0.02 },
    nspin: raw.nspin ?? 1,
    ...(raw.mixingBeta !== undefined ? { mixingBeta: raw.mixingBeta } : {}),
    ...(raw.electronMaxstep !== undefined ? { electronMaxstep: raw.electronMaxstep } : {}),
  };
}

function resolveSlab(raw: Given['slab'], calculator: CalculatorInputs['kind']): AdsorptionSearchInputs['slab'] {
  // the structure loadSlabFile read from the file, or the file read now (a slab given from outside is never taken as read)
  if ('file' in raw) return slabAsRead(raw);
  const g = raw.generate;
  const facet = g.facet ?? 'fcc111';
  let latticeConstantAngstrom = g.latticeConstantAngstrom;
  if (latticeConstantAngstrom === undefined) {
    if (calculator !== 'emt')
      throw new ObjectiveError(
        calculator === 'ipi'
          ? `inputs.slab.generate.latticeConstantAngstrom is missing: with your i-PI calculator give the ${g.metal} lattice constant that calculator gives (Å), so the slab is not strained.`
          : `inputs.slab.generate.latticeConstantAngstrom is missing: with ${calculator} give the ${g.metal} lattice constant computed with the same functional (Å).`,
      );
    if (!EMT_ELEMENTS.includes(g.metal))
      throw new ObjectiveError(`inputs.slab.generate.metal: EMT has no parameters for ${g.metal}; it covers ${EMT_ELEMENTS.join(', ')}.`);
    latticeConstantAngstrom = Number(fccLatticeConstantAngstrom(g.metal).toFixed(4));
  }
  const layers = g.layers ?? 4;
  return {
    generate: {
      metal: g.metal,
      facet,
      size: (g.size as [number, number] | undefined) ?? [3, 3],
      layers,
      vacuumAngstrom: g.vacuumAngstrom ?? 8,
      latticeConstantAngstrom,
      fixedLayers: g.fixedLayers ?? Math.max(1, Math.floor(layers / 3)),
    },
  };
}

export function resolveSearchInputs(raw: SearchObjectiveInputs, env: WorkflowEnvironment): AdsorptionSearchInputs {
  const { name, smiles } = resolveAdsorbate(raw.adsorbate);
  const calcRaw = raw.calculator;
  const slabRaw = raw.slab;
  const fileSymbols: unknown = 'file' in slabRaw ? slabRaw.structure?.symbols : undefined;
  const slabElements =
    'file' in slabRaw ? [...new Set(Array.isArray(fileSymbols) ? fileSymbols.map(String) : [])] : [slabRaw.generate.metal];
  const elements = [...new Set([...slabElements, ...molecule(name).symbols])];
  const calculator = resolveCalculator(calcRaw, elements, env);
  const plannerRaw =
    typeof raw.planner === 'object' ? raw.planner : { kind: raw.planner ?? 'offline', screen: undefined, patience: undefined };
  const relaxation = raw.relaxation ?? {};
  const standardisation = raw.standardisation ?? {};
  return {
    slab: resolveSlab(slabRaw, calculator.kind),
    adsorbate: name,
    ...(smiles ? { adsorbateSmiles: smiles } : {}),
    calculator,
    planner: {
      kind: plannerRaw.kind === 'llm' ? 'llm' : 'offline-heuristic',
      // A single-point screen costs milliseconds with EMT and an SCF per site class with pw.x.
      screen: plannerRaw.screen ?? calculator.kind === 'emt',
      patience: plannerRaw.patience ?? 2,
    },
    maxRelaxations: raw.maxRelaxations ?? 10,
    terminateToleranceEv: raw.terminateToleranceEv ?? 0.05,
    degenerateToleranceEv: raw.degenerateToleranceEv ?? DEFAULT_DEGENERATE_TOLERANCE_EV,
    ablations: { ...FULL_LOOP, ...raw.ablations },
    relaxation: {
      fmaxEvPerAngstrom: relaxation.fmaxEvPerAngstrom ?? DEFAULT_RELAX.fmaxEvPerAngstrom,
      maxSteps: relaxation.maxSteps ?? DEFAULT_RELAX.maxSteps,
    },
    standardisation: {
      minLateralAngstrom: standardisation.minLateralAngstrom ?? MIN_LATERAL_ANGSTROM,
      minVacuumAngstrom: standardisation.minVacuumAngstrom ?? MIN_VACUUM_ANGSTROM,
      ...(standardisation.fixedFraction !== undefined ? { fixedFraction: standardisation.fixedFraction } : {}),
    },
    screening: raw.screening ?? {},
    moleculeBoxAngstrom: raw.moleculeBoxAngstrom ?? 15,
  };
}
