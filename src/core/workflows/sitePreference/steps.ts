/**
 * The plan of a site-preference study, step by step: pseudopotentials, the bulk study
 * (when asked), the gas-phase molecule, the slab sweep (single points: ΔBE per slab),
 * the chosen slab with the adsorbate at each site, relaxations with the bottom layers
 * fixed, adsorption energies from energies with matching settings, and ΔBE.
 */
import { molecule } from '../../dft/structure/molecules';
import { SCF_CONTROL_REASON } from '../latticeConstantInputs';
import type { TemplateStep } from '../types';
import { BULK_RESULT, bulkLatticeSteps } from './bulkSteps';
import { bulkStructureOf, fixedLayersFor, type SitePreferenceInputs } from './inputs';

export type Site = 'ontop' | 'fcc';
export const SITES: readonly Site[] = ['ontop', 'fcc'];
export const PSEUDO_REF = '$step.pseudopotentials.pseudopotentials';
export const GAS_ENERGY = '$step.gas-run.total_energy';

/** The electronic settings every production input of the study shares: literals, or the bulk tests' choices. */
export interface StudySettings {
  args: Record<string, unknown>;
  reasons: Record<string, string>;
  /** Steps the settings come from (the bulk tests), so inputs depend on them. */
  dependsOn: string[];
  /** Added to relaxation inputs only. */
  relax: { args: Record<string, unknown>; reasons: Record<string, string> };
}

function relaxSettings(i: SitePreferenceInputs): StudySettings['relax'] {
  if (i.forceThresholdEvPerAngstrom === undefined) return { args: {}, reasons: {} };
  return {
    args: { forceThresholdEvPerAngstrom: i.forceThresholdEvPerAngstrom },
    reasons: { forceThresholdEvPerAngstrom: `${i.forceThresholdEvPerAngstrom} eV/Å, the study's force threshold` },
  };
}

/** What a molecule's box does, said truly: 10 Å or more keeps periodic images apart; less is a toy setting. */
const boxReason = (box: number) =>
  box >= 10
    ? `${box} Å: periodic images of the molecule do not interact`
    : `${box} Å, the box given with the study: below the 10–15 Å that keeps periodic images from interacting (toy settings)`;

export function studySettings(i: SitePreferenceInputs): StudySettings {
  // Smearing, spin and the study's SCF control: the same in every production input.
  const smearing = {
    occupations: 'smearing',
    smearing: i.smearing.kind,
    degaussRy: i.smearing.degaussRy,
    nspin: 1,
    ...(i.scf ?? {}),
  };
  const smearingReasons = {
    ...Object.fromEntries(Object.keys(i.scf ?? {}).map((k) => [k, SCF_CONTROL_REASON])),
    occupations: `${i.metal} is a metal: smeared occupations`,
    smearing: `${i.smearing.kind} smearing, the same in every run so energies compare`,
    degaussRy: `${i.smearing.degaussRy} Ry in every run, so the energies compare`,
    nspin: `${i.metal} surfaces with ${i.adsorbate} are not magnetic`,
  };
  if (i.bulk) {
    return {
      args: {
        ecutwfcRy: BULK_RESULT.ecutwfcRy,
        ecutrhoRy: BULK_RESULT.ecutrhoRy,
        kSpacingPerAngstrom: BULK_RESULT.kSpacingPerAngstrom,
        ...smearing,
      },
      reasons: {
        ecutwfcRy: 'the cutoff the bulk convergence test chose',
        ecutrhoRy: 'the density cutoff that goes with it',
        kSpacingPerAngstrom: 'the k-spacing the bulk convergence test chose; one point along the surface normal',
        ...smearingReasons,
      },
      dependsOn: [BULK_RESULT.settingsStep],
      relax: relaxSettings(i),
    };
  }
  const k = i.kMesh ? { kMesh: i.kMesh } : { kSpacingPerAngstrom: i.kSpacingPerAngstrom };
  return {
    args: { ecutwfcRy: i.ecutwfcRy, ecutrhoRy: i.ecutrhoRy, ...k, ...smearing },
    reasons: {
      ecutwfcRy: `${i.ecutwfcRy} Ry, the cutoff given with the study (its convergence is not tested here)`,
      ecutrhoRy: `${i.ecutrhoRy} Ry, at least the pseudopotentials' suggestion`,
      ...(i.kMesh
        ? { kMesh: `the ${i.kMesh.join('×')} mesh given with the study` }
        : { kSpacingPerAngstrom: `${i.kSpacingPerAngstrom} 1/Å given with the study; one point along the surface normal` }),
      ...smearingReasons,
    },
    dependsOn: [],
    relax: relaxSettings(i),
  };
}

const latticeArg = (i: SitePreferenceInputs): unknown => (i.bulk ? BULK_RESULT.latticeConstant : i.latticeConstantAngstrom);
const latticeReason = (i: SitePreferenceInputs): string =>
  i.bulk
    ? `the ${i.functional} lattice constant computed in the bulk steps`
    : `${i.latticeConstantAngstrom} Å, the lattice constant given with the study (computed with the same functional)`;

export function pwInputStep(
  id: string,
  title: string,
  structure: string,
  calculation: 'scf' | 'relax' | 'ensemble',
  s: StudySettings,
  dependsOn: string[],
  extra: { args?: Record<string, unknown>; reasons?: Record<string, string> } = {},
): TemplateStep {
  return {
    id,
    title,
    worker: 'dft',
    tool: 'make_pw_input',
    args: {
      structure,
      pseudopotentials: PSEUDO_REF,
      purpose: 'production',
      calculation,
      ...s.args,
      ...(calculation === 'relax' ? s.relax.args : {}),
      ...extra.args,
    },
    reasons: {
      structure: 'the structure of this step',
      pseudopotentials: "the study's pseudopotentials",
      purpose: 'its energy feeds an adsorption result',
      calculation:
        calculation === 'relax'
          ? 'relax the free atoms; the fixed bottom layers stay at bulk positions'
          : calculation === 'scf'
            ? 'a single point on the unrelaxed slab: enough to compare slabs'
            : 'the BEEF-vdW ensemble',
      ...s.reasons,
      ...(calculation === 'relax' ? s.relax.reasons : {}),
      ...extra.reasons,
    },
    dependsOn: [...new Set([...dependsOn, 'pseudopotentials', ...s.dependsOn])],
  };
}

export function runStep(id: string, inputStep: string, what: string): TemplateStep {
  return {
    id,
    title: `Run pw.x: ${what}`,
    worker: 'hpc',
    tool: 'run_pw',
    // no backend: run_pw runs where the run was started (the user's choice, nothing for a judge to weigh)
    args: { input: `$step.${inputStep}.pw_input` },
    reasons: { input: `the input of ${what}` },
    dependsOn: [inputStep],
  };
}

export function placeStep(id: string, slab: string, slabStep: string, i: SitePreferenceInputs, site: Site): TemplateStep {
  const height = i.startingHeightsAngstrom?.[site];
  return {
    id,
    title: `${i.adsorbate} at the ${site} site`,
    worker: 'dft',
    tool: 'place_adsorbate',
    args: { slab, adsorbate: i.adsorbate, site, ...(height !== undefined ? { heightAngstrom: height } : {}) },
    reasons: {
      ...(height !== undefined
        ? { heightAngstrom: `${height} Å, the study's starting height at the ${site} site; the relaxation finds the equilibrium` }
        : {}),
      slab: 'the slab of this step',
      adsorbate: `${i.adsorbate} binds upright through ${molecule(i.adsorbate).symbols[0]}; rotations about the surface normal leave an upright linear molecule unchanged`,
      site: site === 'ontop' ? 'on top of a surface atom' : 'the fcc hollow (no atom in the second layer below it)',
    },
    dependsOn: [slabStep],
  };
}

function adsorptionEnergyStep(id: string, site: string, runs: { withAdsorbate: string; clean: string }): TemplateStep {
  return {
    id,
    title: `E_ads at the ${site} site`,
    worker: 'dft',
    tool: 'adsorption_energy',
    args: {
      slabWithAdsorbate: `$step.${runs.withAdsorbate}.total_energy`,
      slab: `$step.${runs.clean}.total_energy`,
      adsorbate: GAS_ENERGY,
    },
    reasons: {
      slabWithAdsorbate: `the slab with the adsorbate at the ${site} site`,
      slab: 'the clean slab at the same settings',
      adsorbate: 'the gas-phase molecule at the same settings',
    },
    dependsOn: [runs.withAdsorbate, runs.clean, 'gas-run'],
  };
}

function deltaBeStep(id: string, title: string, ontop: string, fcc: string): TemplateStep {
  return {
    id,
    title,
    worker: 'dft',
    tool: 'delta_be',
    args: { ontop: `$step.${ontop}.adsorption_energy`, fcc: `$step.${fcc}.adsorption_energy` },
    reasons: { ontop: 'E_ads at the top site', fcc: 'E_ads at the fcc hollow, on the same slab and settings' },
    dependsOn: [ontop, fcc],
  };
}

/** Clean slab, both sites, their energies and ΔBE on one slab: single points (sweep) or relaxations (production). */
function siteEnergySteps(
  prefix: string,
  slabRef: string,
  slabStep: string,
  calculation: 'scf' | 'relax',
  i: SitePreferenceInputs,
  s: StudySettings,
  label: string,
): TemplateStep[] {
  const steps: TemplateStep[] = SITES.map((site) => placeStep(`${prefix}${site}`, slabRef, slabStep, i, site));
  const what = calculation === 'relax' ? 'relaxation' : 'single point';
  steps.push(pwInputStep(`${prefix}clean-input`, `${label}: clean slab ${what} input`, slabRef, calculation, s, [slabStep]));
  for (const site of SITES)
    steps.push(
      pwInputStep(
        `${prefix}${site}-input`,
        `${label}: ${site} ${what} input`,
        `$step.${prefix}${site}.slab_with_adsorbate`,
        calculation,
        s,
        [`${prefix}${site}`],
      ),
    );
  steps.push(runStep(`${prefix}clean-run`, `${prefix}clean-input`, `${label}, clean slab ${what}`));
  for (const site of SITES) steps.push(runStep(`${prefix}${site}-run`, `${prefix}${site}-input`, `${label}, ${site} ${what}`));
  for (const site of SITES)
    steps.push(adsorptionEnergyStep(`${prefix}eads-${site}`, site, { withAdsorbate: `${prefix}${site}-run`, clean: `${prefix}clean-run` }));
  return steps;
}

export function relaxedStep(id: string, run: string, what: string): TemplateStep {
  return {
    id,
    title: `Relaxed geometry: ${what}`,
    worker: 'dft',
    tool: 'relaxed_structure',
    args: { relaxation: `$step.${run}.total_energy` },
    reasons: { relaxation: `the energy of the ${what} relaxation; its final geometry is recorded with the constraints kept` },
    dependsOn: [run],
  };
}

function slabStep(
  id: string,
  i: SitePreferenceInputs,
  layers: unknown,
  vacuum: number,
  fixedLayers: unknown,
  extraDeps: string[],
  why: { layers: string; fixedLayers: string },
): TemplateStep {
  return {
    id,
    title: `${i.metal}(${i.facet.replace(/^[a-z]+/, '')}) ${i.size.join('×')} slab, ${typeof layers === 'number' ? `${layers} layers` : 'the chosen layers'}, ${vacuum} Å vacuum`,
    worker: 'dft',
    tool: 'build_slab',
    args: {
      element: i.metal,
      facet: i.facet,
      latticeConstantAngstrom: latticeArg(i),
      size: i.size,
      layers,
      vacuumAngstrom: vacuum,
      fixedLayers,
    },
    reasons: {
      element: 'the metal of the study',
      facet: 'the surface of the study',
      latticeConstantAngstrom: latticeReason(i),
      size: `p(${i.size.join('×')}): one adsorbate per ${i.size.join('×')} cell`,
      layers: why.layers,
      vacuumAngstrom: `${vacuum} Å on each side`,
      fixedLayers: why.fixedLayers,
    },
    dependsOn: i.bulk ? [BULK_RESULT.lastStep, ...extraDeps] : extraDeps,
  };
}

const variantId = (layers: number | 'chosen', vacuum: number): string => `sweep-l${layers}-v${String(vacuum).replace('.', 'p')}-`;

/** The slab sweep (layers at the largest vacuum, then vacuum at the chosen layers) and the step whose slab is used. */
function slabSteps(i: SitePreferenceInputs, s: StudySettings): { steps: TemplateStep[]; slab: string; slabStep: string } {
  const { layers, vacuumAngstrom: vacua, toleranceEv } = i.slab;
  const maxVacuum = vacua.at(-1)!;
  const steps: TemplateStep[] = [];
  if (layers.length === 1 && vacua.length === 1) {
    const n = layers[0]!;
    const fixed = fixedLayersFor(n, i.slab.fixedLayers);
    steps.push(
      slabStep('slab', i, n, maxVacuum, fixed, [], {
        layers: `${n} layers, as given`,
        fixedLayers: `${fixed} bottom layer(s) fixed at bulk positions`,
      }),
    );
    return { steps, slab: '$step.slab.slab', slabStep: 'slab' };
  }
  let chosenLayers: { layers: unknown; fixedLayers: unknown; step: string; previous?: string } | undefined;
  if (layers.length > 1) {
    const dbe: string[] = [];
    for (const n of layers) {
      const p = variantId(n, maxVacuum);
      const fixed = fixedLayersFor(n, i.slab.fixedLayers);
      steps.push(
        slabStep(`${p}slab`, i, n, maxVacuum, fixed, [], {
          layers: `${n} layers: one slab of the layer sweep ${layers.join(', ')}`,
          fixedLayers: `${fixed} bottom layer(s) fixed`,
        }),
      );
      steps.push(...siteEnergySteps(p, `$step.${p}slab.slab`, `${p}slab`, 'scf', i, s, `${n} layers`));
      steps.push(deltaBeStep(`${p}dbe`, `ΔBE on the ${n}-layer slab`, `${p}eads-ontop`, `${p}eads-fcc`));
      dbe.push(`${p}dbe`);
    }
    steps.push({
      id: 'layers-choice',
      title: `Choose the layers: ΔBE within ${toleranceEv} eV of the ${layers.at(-1)}-layer slab`,
      worker: 'dft',
      tool: 'select_converged_slab',
      args: { values: dbe.map((d) => `$all.${d}.delta_be`), dimension: 'layers', toleranceEv },
      reasons: {
        values: `ΔBE on each slab of the layer sweep (${layers.join(', ')} layers, ${maxVacuum} Å vacuum)`,
        dimension: 'the slabs differ in layers',
        toleranceEv: `${toleranceEv} eV, well below the ΔBE studied`,
      },
      dependsOn: dbe,
    });
    chosenLayers = {
      layers: '$step.layers-choice.converged_slab.chosen.layers',
      fixedLayers: '$step.layers-choice.converged_slab.chosen.fixedLayers',
      step: 'layers-choice',
      previous: '$step.layers-choice.converged_slab',
    };
  }
  if (vacua.length === 1) return { steps, slab: '$step.layers-choice.slab', slabStep: 'layers-choice' };
  const n = layers.length === 1 ? layers[0]! : undefined;
  const sweepVacua = chosenLayers ? vacua.slice(0, -1) : vacua;
  const dbe: string[] = [];
  for (const v of sweepVacua) {
    const p = variantId(n ?? 'chosen', v);
    const lay = chosenLayers?.layers ?? n;
    const fixed = chosenLayers?.fixedLayers ?? fixedLayersFor(n!, i.slab.fixedLayers);
    steps.push(
      slabStep(`${p}slab`, i, lay, v, fixed, chosenLayers ? [chosenLayers.step] : [], {
        layers: chosenLayers ? 'the layers the layer sweep chose' : `${n} layers, as given`,
        fixedLayers: chosenLayers ? 'the fixed layers of the chosen slab' : `${fixed} bottom layer(s) fixed`,
      }),
    );
    steps.push(...siteEnergySteps(p, `$step.${p}slab.slab`, `${p}slab`, 'scf', i, s, `${v} Å vacuum`));
    steps.push(deltaBeStep(`${p}dbe`, `ΔBE with ${v} Å vacuum`, `${p}eads-ontop`, `${p}eads-fcc`));
    dbe.push(`${p}dbe`);
  }
  steps.push({
    id: 'vacuum-choice',
    title: `Choose the vacuum: ΔBE within ${toleranceEv} eV of ${maxVacuum} Å`,
    worker: 'dft',
    tool: 'select_converged_slab',
    args: {
      values: dbe.map((d) => `$all.${d}.delta_be`),
      ...(chosenLayers ? { previous: chosenLayers.previous } : {}),
      dimension: 'vacuum',
      toleranceEv,
    },
    reasons: {
      values: `ΔBE with each vacuum of the sweep (${vacua.join(', ')} Å)`,
      dimension: 'the slabs differ in vacuum',
      toleranceEv: `${toleranceEv} eV, well below the ΔBE studied`,
      ...(chosenLayers ? { previous: `the chosen slab of the layer sweep, at ${maxVacuum} Å vacuum, joins the vacuum sweep` } : {}),
    },
    dependsOn: [...dbe, ...(chosenLayers ? [chosenLayers.step] : [])],
  });
  return { steps, slab: '$step.vacuum-choice.slab', slabStep: 'vacuum-choice' };
}

function gasSteps(i: SitePreferenceInputs, s: StudySettings): TemplateStep[] {
  const gasSettings: StudySettings = {
    args: { ...Object.fromEntries(Object.entries(s.args).filter(([k]) => k !== 'kSpacingPerAngstrom' && k !== 'kMesh')), kMesh: [1, 1, 1] },
    reasons: {
      ...Object.fromEntries(Object.entries(s.reasons).filter(([k]) => k !== 'kSpacingPerAngstrom' && k !== 'kMesh')),
      kMesh: 'a molecule in a box: Γ only',
    },
    dependsOn: s.dependsOn,
    relax: s.relax,
  };
  return [
    {
      id: 'gas-molecule',
      title: `Gas-phase ${i.adsorbate} in a ${i.moleculeBoxAngstrom} Å box`,
      worker: 'dft',
      tool: 'build_molecule',
      args: { name: i.adsorbate, boxAngstrom: i.moleculeBoxAngstrom },
      reasons: { name: "the adsorbate's gas-phase reference", boxAngstrom: boxReason(i.moleculeBoxAngstrom) },
    },
    pwInputStep('gas-input', `Relax gas-phase ${i.adsorbate}`, '$step.gas-molecule.molecule', 'relax', gasSettings, ['gas-molecule'], {
      reasons: { structure: `gas-phase ${i.adsorbate}`, calculation: 'the bond relaxes to its equilibrium at these settings' },
    }),
    runStep('gas-run', 'gas-input', `gas-phase ${i.adsorbate} relaxation`),
  ];
}

export interface SitePreferenceSteps {
  steps: TemplateStep[];
  /** Step ids of the relaxations, for steps that build on the relaxed structures. */
  relaxRuns: Record<Site | 'clean', string>;
  /** Step ids whose relaxed_structure is the relaxed adsorbed state at each site. */
  relaxed: Record<Site, string>;
}

/**
 * `withReferences: false` leaves out the clean slab, the gas-phase molecule and the
 * adsorption energies: a study of the adsorbed states alone (their differences cancel the
 * shared references), as the BEEF-vdW ensemble needs.
 */
export function sitePreferenceSteps(i: SitePreferenceInputs, opts: { withReferences?: boolean } = {}): SitePreferenceSteps {
  const withReferences = opts.withReferences ?? true;
  const s = studySettings(i);
  const elements = [...new Set([i.metal, ...molecule(i.adsorbate).symbols])];
  const steps: TemplateStep[] = [
    {
      id: 'pseudopotentials',
      title: `Choose the ${i.functional} pseudopotentials for ${elements.join(', ')}`,
      worker: 'dft',
      tool: 'select_pseudopotentials',
      args: { elements, functional: i.functional, ...(Object.keys(i.pseudopotentials).length ? { prefer: i.pseudopotentials } : {}) },
      reasons: {
        elements: 'every element of the slab and the adsorbate',
        functional: `the study asks for ${i.functional === 'PZ' ? 'LDA (PZ)' : i.functional}`,
        ...(Object.keys(i.pseudopotentials).length ? { prefer: 'the files named with the study' } : {}),
      },
    },
  ];
  if (i.bulk) {
    steps.push(
      ...bulkLatticeSteps({
        element: i.metal,
        structure: bulkStructureOf(i.facet),
        startingLatticeConstantAngstrom: i.bulk.startingLatticeConstantAngstrom,
        functional: i.functional,
        ...(i.pseudopotentials[i.metal] ? { pseudopotential: i.pseudopotentials[i.metal] } : {}),
        cutoffsRy: i.bulk.cutoffsRy,
        dual: i.bulk.dual,
        toleranceMevPerAtom: i.bulk.toleranceMevPerAtom,
        ...(i.bulk.kSpacingsPerAngstrom ? { kSpacingsPerAngstrom: i.bulk.kSpacingsPerAngstrom } : {}),
        smearing: i.smearing,
      }),
    );
  }
  const sweeping = i.slab.layers.length > 1 || i.slab.vacuumAngstrom.length > 1;
  if (!withReferences && sweeping) {
    throw new Error(
      'a slab sweep compares ΔBE from adsorption energies, which need the clean slab and the gas-phase reference; keep them, or give one layer count and one vacuum.',
    );
  }
  if (withReferences) steps.push(...gasSteps(i, s));
  const slab = slabSteps(i, s);
  steps.push(...slab.steps);
  const label = 'relaxed';
  for (const site of SITES) steps.push(placeStep(`ads-${site}`, slab.slab, slab.slabStep, i, site));
  if (withReferences) steps.push(pwInputStep('relax-clean-input', 'Clean slab relaxation input', slab.slab, 'relax', s, [slab.slabStep]));
  for (const site of SITES)
    steps.push(
      pwInputStep(`relax-${site}-input`, `${site} relaxation input`, `$step.ads-${site}.slab_with_adsorbate`, 'relax', s, [`ads-${site}`]),
    );
  if (withReferences) steps.push(runStep('relax-clean-run', 'relax-clean-input', 'clean slab relaxation'));
  for (const site of SITES) steps.push(runStep(`relax-${site}-run`, `relax-${site}-input`, `${site} relaxation`));
  for (const site of SITES) steps.push(relaxedStep(`relaxed-${site}`, `relax-${site}-run`, `${i.adsorbate} at the ${site} site`));
  if (withReferences) {
    for (const site of SITES)
      steps.push(adsorptionEnergyStep(`eads-${site}`, site, { withAdsorbate: `relax-${site}-run`, clean: 'relax-clean-run' }));
    steps.push(deltaBeStep('site-preference', `ΔBE = E_ads(ontop) − E_ads(fcc), ${label}`, 'eads-ontop', 'eads-fcc'));
  }
  return {
    steps,
    relaxRuns: { clean: 'relax-clean-run', ontop: 'relax-ontop-run', fcc: 'relax-fcc-run' },
    relaxed: { ontop: 'relaxed-ontop', fcc: 'relaxed-fcc' },
  };
}
