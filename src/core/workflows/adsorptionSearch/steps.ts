/**
 * The plan of an adsorption-configuration search: the slab (built, or the user's file),
 * the pseudopotentials (pw.x), the standardised surface and its sites, the gas-phase
 * molecule, the two references relaxed with the search's calculator, the closed loop
 * itself (each hypothesis a guarded call inside it), and the report.
 */
import { ipiCalculatorKey } from '../../calculators/ipi/clientProcess';
import { DEFAULT_DEGENERATE_TOLERANCE_EV } from '../../adsorption/loop';
import { molecule } from '../../dft/structure/molecules';
import type { TemplateStep } from '../types';
import type { AdsorptionSearchInputs, PwCalculatorInputs } from './inputs';

interface Settings {
  args: Record<string, unknown>;
  reasons: Record<string, string>;
}

/** The calculator arguments every relaxation of the study shares; the gas phase gets Γ. */
export function calculatorSettings(i: AdsorptionSearchInputs, target: 'slab' | 'gas'): Settings {
  const relax = {
    args: { fmaxEvPerAngstrom: i.relaxation.fmaxEvPerAngstrom, maxSteps: i.relaxation.maxSteps },
    reasons: {
      fmaxEvPerAngstrom: `${i.relaxation.fmaxEvPerAngstrom} eV/Å, the search's force threshold (AdsMind: 0.10)`,
      maxSteps: `at most ${i.relaxation.maxSteps} steps per relaxation`,
    },
  };
  if (i.calculator.kind === 'ipi') {
    return {
      args: { calculator: 'ipi', ipiCalculator: ipiCalculatorKey(i.calculator.command), ...relax.args },
      reasons: {
        calculator: "the user's own calculator over i-PI, as the study names it: a screening model, not DFT",
        ipiCalculator: `the calculator declared with the study (${i.calculator.command.join(' ')})`,
        ...relax.reasons,
      },
    };
  }
  if (i.calculator.kind === 'emt') {
    return {
      args: { calculator: 'emt', ...relax.args },
      reasons: { calculator: 'EMT, the built-in screening model: fast, for testing the search, not for final numbers', ...relax.reasons },
    };
  }
  const c = i.calculator as PwCalculatorInputs;
  const k: Settings =
    target === 'gas'
      ? { args: { kMesh: [1, 1, 1] }, reasons: { kMesh: 'a molecule in a box: Γ only' } }
      : c.kMesh
        ? { args: { kMesh: c.kMesh }, reasons: { kMesh: `the ${c.kMesh.join('×')} mesh given with the study` } }
        : {
            args: { kSpacingPerAngstrom: c.kSpacingPerAngstrom },
            reasons: { kSpacingPerAngstrom: `${c.kSpacingPerAngstrom} 1/Å given with the study; one point along the surface normal` },
          };
  return {
    args: {
      calculator: 'pw.x',
      pseudopotentials: '$step.pseudopotentials.pseudopotentials',
      ecutwfcRy: c.ecutwfcRy,
      ecutrhoRy: c.ecutrhoRy,
      ...k.args,
      occupations: 'smearing',
      smearing: c.smearing.kind,
      degaussRy: c.smearing.degaussRy,
      nspin: c.nspin,
      ...(c.mixingBeta !== undefined ? { mixingBeta: c.mixingBeta } : {}),
      ...(c.electronMaxstep !== undefined ? { electronMaxstep: c.electronMaxstep } : {}),
      backend: '$run.backend',
      ...relax.args,
    },
    reasons: {
      calculator: 'pw.x: the energies are DFT numbers',
      pseudopotentials: "the study's pseudopotentials",
      ecutwfcRy: `${c.ecutwfcRy} Ry, the study's cutoff`,
      ecutrhoRy: `${c.ecutrhoRy} Ry, with the cutoff`,
      ...k.reasons,
      occupations: 'a metal surface: smeared occupations, the same in every energy',
      smearing: `${c.smearing.kind} in every energy so they compare`,
      degaussRy: `${c.smearing.degaussRy} Ry in every energy so they compare`,
      nspin: c.nspin === 2 ? 'spin-polarised, as given' : 'not spin-polarised, as given',
      ...(c.mixingBeta !== undefined ? { mixingBeta: `SCF mixing ${c.mixingBeta}, as given` } : {}),
      ...(c.electronMaxstep !== undefined ? { electronMaxstep: `up to ${c.electronMaxstep} SCF iterations, as given` } : {}),
      backend: 'the backend this run was started with',
      ...relax.reasons,
    },
  };
}

/**
 * Why the degenerate tolerance has its value, true of the fmax at hand: the default is sized for
 * relaxations to 0.1 eV/Å (a residual force F on a soft adsorbate mode of stiffness k ≈ 1 eV/Å²
 * leaves F²/2k above the minimum, a few such modes at once); a tighter fmax resolves less.
 */
function degenerateWhy(tolEv: number, fmax: number): string {
  const perMode = (fmax * fmax) / 2;
  const atFmax = `at this search's fmax ${fmax} eV/Å a residual force on a soft adsorbate mode (k ≈ 1 eV/Å²) leaves ≈ ${Number(perMode.toPrecision(2))} eV per mode`;
  return tolEv === DEFAULT_DEGENERATE_TOLERANCE_EV
    ? `the default, sized for relaxations to fmax 0.1 eV/Å (≈ 0.005 eV per soft mode, a few modes at once); ${atFmax}`
    : `as the objective set it; ${atFmax}`;
}

function slabStep(i: AdsorptionSearchInputs, dependsOn: string[]): TemplateStep {
  if ('generate' in i.slab) {
    const g = i.slab.generate;
    return {
      id: 'slab',
      title: `${g.metal}(${g.facet.replace(/^fcc/, '')}) ${g.size.join('×')} slab, ${g.layers} layers`,
      worker: 'dft',
      tool: 'build_slab',
      args: {
        element: g.metal,
        facet: g.facet,
        latticeConstantAngstrom: g.latticeConstantAngstrom,
        size: g.size,
        layers: g.layers,
        vacuumAngstrom: g.vacuumAngstrom,
        fixedLayers: g.fixedLayers,
      },
      reasons: {
        element: 'the metal of the study',
        facet: 'the surface of the study',
        latticeConstantAngstrom:
          i.calculator.kind === 'emt'
            ? `${g.latticeConstantAngstrom} Å, EMT's own fcc lattice constant (its bulk energy minimum), so the slab is not strained`
            : `${g.latticeConstantAngstrom} Å, the lattice constant given with the study`,
        size: `${g.size.join('×')} surface cells`,
        layers: `${g.layers} layers`,
        vacuumAngstrom: `${g.vacuumAngstrom} Å on each side (${2 * g.vacuumAngstrom} Å between images)`,
        fixedLayers: `${g.fixedLayers} bottom layer(s) at bulk positions`,
      },
      dependsOn,
    };
  }
  return {
    id: 'slab',
    title: `The slab of ${i.slab.file}`,
    worker: 'dft',
    tool: 'import_structure',
    args: { structure: i.slab.structure, source: `${i.slab.file} (sha256 ${i.slab.sha256})` },
    reasons: {
      structure: `the slab read from ${i.slab.file} when the objective was loaded`,
      source: 'the file and its sha256, so the result traces to it',
    },
    dependsOn,
  };
}

export function searchSteps(i: AdsorptionSearchInputs): TemplateStep[] {
  const steps: TemplateStep[] = [];
  const pw = i.calculator.kind === 'pw.x';
  steps.push(slabStep(i, []));
  if (pw) {
    const c = i.calculator as PwCalculatorInputs;
    const elements = [
      ...new Set([...('generate' in i.slab ? [i.slab.generate.metal] : i.slab.structure.symbols), ...molecule(i.adsorbate).symbols]),
    ];
    steps.push({
      id: 'pseudopotentials',
      title: `Choose the ${c.functional} pseudopotentials for ${elements.join(', ')}`,
      worker: 'dft',
      tool: 'select_pseudopotentials',
      args: { elements, functional: c.functional, ...(Object.keys(c.pseudopotentials).length ? { prefer: c.pseudopotentials } : {}) },
      reasons: {
        elements: 'every element of the slab and the adsorbate',
        functional: `the study asks for ${c.functional}`,
        ...(Object.keys(c.pseudopotentials).length
          ? { prefer: "the files the study names or the library's files for the functional" }
          : {}),
      },
    });
  }
  const s = i.standardisation;
  steps.push({
    id: 'surface',
    title: `Standardise the slab and find the sites for ${i.adsorbate}`,
    worker: 'dft',
    tool: 'prepare_adsorption_surface',
    args: {
      slab: '$step.slab.slab',
      adsorbate: i.adsorbate,
      minLateralAngstrom: s.minLateralAngstrom,
      minVacuumAngstrom: s.minVacuumAngstrom,
      ...(s.fixedFraction !== undefined ? { fixedFraction: s.fixedFraction } : {}),
    },
    reasons: {
      slab: 'the slab of the study',
      adsorbate: `the adsorbate of the study${i.adsorbateSmiles ? ` (SMILES ${i.adsorbateSmiles})` : ''}`,
      minLateralAngstrom: `${s.minLateralAngstrom} Å to the adsorbate's periodic image`,
      minVacuumAngstrom: `${s.minVacuumAngstrom} Å of vacuum`,
      ...(s.fixedFraction !== undefined ? { fixedFraction: `the bottom ${s.fixedFraction} of the slab fixed, as given` } : {}),
    },
    dependsOn: ['slab'],
  });
  steps.push({
    id: 'gas-molecule',
    title: `Gas-phase ${i.adsorbate} in a ${i.moleculeBoxAngstrom} Å box`,
    worker: 'dft',
    tool: 'build_molecule',
    args: { name: i.adsorbate, boxAngstrom: i.moleculeBoxAngstrom },
    reasons: {
      name: 'the reference of the adsorbate: the same species as adsorbs (no reservoir molecules to choose)',
      boxAngstrom: `${i.moleculeBoxAngstrom} Å: periodic images do not interact`,
    },
  });
  const slabCalc = calculatorSettings(i, 'slab');
  const gasCalc = calculatorSettings(i, 'gas');
  const pseudoDep = pw ? ['pseudopotentials'] : [];
  steps.push({
    id: 'relax-clean',
    title: 'Relax the clean slab (the reference of every configuration)',
    worker: 'dft',
    tool: 'relax_structure',
    args: { structure: '$step.surface.standardised_slab', reference: 'clean-slab', ...slabCalc.args },
    reasons: {
      structure: 'the standardised slab the adsorbate goes on',
      reference: 'E_ads subtracts the relaxed clean slab',
      ...slabCalc.reasons,
    },
    dependsOn: ['surface', ...pseudoDep],
  });
  steps.push({
    id: 'relax-gas',
    title: `Relax gas-phase ${i.adsorbate}`,
    worker: 'dft',
    tool: 'relax_structure',
    args: { structure: '$step.gas-molecule.molecule', reference: 'gas-phase', ...gasCalc.args },
    reasons: { structure: `gas-phase ${i.adsorbate}`, reference: 'E_ads subtracts the relaxed gas-phase adsorbate', ...gasCalc.reasons },
    dependsOn: ['gas-molecule', ...pseudoDep],
  });
  const screening = {
    ...(i.screening.maxSites ? { maxScreenedSites: i.screening.maxSites } : {}),
    ...(i.screening.azimuthsDeg ? { screenAzimuthsDeg: i.screening.azimuthsDeg } : {}),
  };
  const a = i.ablations;
  steps.push({
    id: 'search',
    title: `Closed-loop search for the most stable ${i.adsorbate} configuration (${i.planner.kind}, up to ${i.maxRelaxations} relaxations)`,
    worker: 'dft',
    tool: 'adsorption_search',
    args: {
      surface: '$step.surface.adsorption_surface',
      structure: '$step.surface.standardised_slab',
      cleanSlabEnergy: '$step.relax-clean.total_energy',
      gasPhaseEnergy: '$step.relax-gas.total_energy',
      planner: i.planner.kind,
      ...(i.planner.kind === 'offline-heuristic' ? { plannerScreen: i.planner.screen, patience: i.planner.patience } : {}),
      maxRelaxations: i.maxRelaxations,
      terminateToleranceEv: i.terminateToleranceEv,
      degenerateToleranceEv: i.degenerateToleranceEv,
      ablations: a,
      ...screening,
      ...slabCalc.args,
    },
    reasons: {
      surface: 'the surface and its site classes',
      structure: 'the standardised clean slab',
      cleanSlabEnergy: 'the relaxed clean slab, computed with the same settings',
      gasPhaseEnergy: 'the relaxed gas-phase adsorbate, computed with the same settings',
      planner:
        i.planner.kind === 'llm'
          ? 'the planner model proposes each hypothesis from the history'
          : 'the deterministic heuristic: site classes by coordination preference, FORBID-aware, stops on convergence',
      ...(i.planner.kind === 'offline-heuristic'
        ? {
            plannerScreen: i.planner.screen
              ? 'order site classes of equal preference by one single point each'
              : 'no single-point screen of the site classes (each would be a DFT run)',
            patience: `stop after ${i.planner.patience} relaxations without a lower energy`,
          }
        : {}),
      maxRelaxations: `the attempt budget: at most ${i.maxRelaxations} relaxations`,
      terminateToleranceEv: `${i.terminateToleranceEv} eV: the same configuration twice ends the search`,
      degenerateToleranceEv: `${i.degenerateToleranceEv} eV: ${degenerateWhy(i.degenerateToleranceEv, i.relaxation.fmaxEvPerAngstrom)}; other sites within it of the best are reported as degenerate`,
      ablations: `slip feedback ${a.slipFeedback ? 'on' : 'off'}, FORBID ${a.forbid ? 'on' : 'off'}, TERMINATE ${a.terminate ? 'on' : 'off'}${a.oneShot ? ', one-shot' : ''}`,
      ...(screening.maxScreenedSites
        ? { maxScreenedSites: `${screening.maxScreenedSites} equivalent site(s) screened per hypothesis` }
        : {}),
      ...(screening.screenAzimuthsDeg ? { screenAzimuthsDeg: `azimuths ${screening.screenAzimuthsDeg.join(', ')}°` } : {}),
      ...slabCalc.reasons,
    },
    dependsOn: ['surface', 'relax-clean', 'relax-gas'],
  });
  return steps;
}
