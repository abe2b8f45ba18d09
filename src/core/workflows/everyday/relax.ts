/**
 * The relax template: a crystal relaxed with pw.x's BFGS, atoms only (relax) or atoms and cell
 * (vc-relax, with cell_dofree and a target pressure), at thresholds given with their units
 * (forces in eV/Å, stress in kbar), at settings given or chosen by sweeps (judged by the forces beside the
 * energy: the geometry follows the forces); then the relaxed
 * geometry (written in every structure format DREAMS writes), and the result: final energy,
 * forces, stress, volume and the trajectory. A run cut short continues from its last geometry
 * (the convergence advisor and the supervisor's replan, as for any relaxation).
 */
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { RelaxationValue } from '../../artifacts/relaxation';
import { CELL_DOFREE } from '../../dft/relaxation';
import { defineWorkflow, type ComposeContextOf, type InputsOf } from '../defineWorkflow';
import { structureFileNamedIn } from '../structureFileInput';
import type { TemplateStep, WorkflowEnvironment } from '../types';
import {
  CRYSTAL_SCHEMA,
  crystalStep,
  electronicArgs,
  loadCrystalFile,
  need,
  PSEUDOS,
  pseudopotentialsStep,
  reportStep,
  resolveCrystal,
  resolveSettings,
  elementsInText,
  sweptSettingsSentence,
  settingsSteps,
  SETTINGS_SCHEMA,
  shown,
  type Crystal,
  type StudySettings,
} from './common';

export interface RelaxInputs {
  crystal: Crystal;
  settings: StudySettings;
  calculation: 'relax' | 'vc-relax';
  forceThresholdEvPerAngstrom: number;
  pressureThresholdKbar: number;
  targetPressureKbar?: number;
  cellDofree?: string;
  maxIonicSteps?: number;
  structureFormats?: string[];
}

const STRUCTURE = '$step.structure.bulk_structure';

/** The relaxation's force threshold unless the objective gives one, eV/Å (forc_conv_thr). */
export const DEFAULT_FORCE_THRESHOLD_EV_PER_ANGSTROM = 0.01;
/**
 * The sweeps' force tolerance is this fraction of the force threshold. The force differences are measured at the
 * starting geometry (the sweeps are SCFs of it), so what it buys is an estimate: if the settings move the forces
 * near the relaxed geometry as much as at the start, a geometry relaxed at the chosen settings has every force
 * component below about 1.5× the threshold at the finest settings tested.
 */
export const SWEEP_FORCE_TOLERANCE_PER_THRESHOLD = 0.5;
/**
 * A fixed-cell relaxation's sweeps: the energy tolerance beside the forces. What the relaxation reports is the
 * geometry (the forces) and the energy it lowered, a difference at equal settings that converges long before the
 * total energy: a displaced Si atom (2-atom cell, Si.pbe-rrkj.UPF, 3×3×3) lowered the energy by a figure within
 * 0.15 meV/atom of 40 Ry's at 22 Ry, where the total energy was 2.4 meV/atom off (docs/notes/workflows-everyday.md).
 * A vc-relax keeps 1 meV/atom: its cell follows the stress, which the energy stands in for.
 */
export const RELAX_ENERGY_TOLERANCE_MEV = 5;

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    ...CRYSTAL_SCHEMA,
    ...SETTINGS_SCHEMA,
    toleranceMevPerAtom: {
      ...SETTINGS_SCHEMA.toleranceMevPerAtom,
      description: `Sweep tolerance on the total energy against the finest run, meV/atom (default ${RELAX_ENERGY_TOLERANCE_MEV} for relax, whose geometry the forces judge on their own; 1 for vc-relax).`,
    },
    toleranceForceEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: `Sweep tolerance on the forces: every force component of a run within this of the finest run's, eV/Å (default ${SWEEP_FORCE_TOLERANCE_PER_THRESHOLD} × the force threshold).`,
    },
    calculation: {
      type: 'string',
      enum: ['relax', 'vc-relax'],
      description: 'relax: atoms in a fixed cell; vc-relax: atoms and cell (default).',
    },
    forceThresholdEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: `Every force component below this, eV/Å (forc_conv_thr; default ${DEFAULT_FORCE_THRESHOLD_EV_PER_ANGSTROM}).`,
    },
    pressureThresholdKbar: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 50,
      description: 'vc-relax: every free stress component within this of the target, kbar (press_conv_thr; default 0.5).',
    },
    targetPressureKbar: { type: 'number', minimum: -1000, maximum: 10000, description: 'vc-relax: the target pressure, kbar (default 0).' },
    cellDofree: { type: 'string', enum: [...CELL_DOFREE], description: "vc-relax: which cell components may change (default 'all')." },
    maxIonicSteps: { type: 'integer', minimum: 1, maximum: 1000, description: 'Most BFGS steps (nstep; default 50).' },
    structureFormats: {
      type: 'array',
      items: { type: 'string', enum: ['cif', 'poscar', 'extxyz', 'xsf', 'pwx'] },
      minItems: 1,
      uniqueItems: true,
      description: 'Formats the relaxed structure is written in (default all).',
    },
  },
  additionalProperties: false,
} as const;

/** The calculation as a step title says it, so a plan's reader sees which without reading the arguments. */
const calculationSaid = (c: string): string => (c === 'vc-relax' ? 'vc-relax (atoms and cell)' : 'relax (atoms in a fixed cell)');

function resolve(inputs: InputsOf<typeof INPUT_SCHEMA>, env: WorkflowEnvironment): RelaxInputs {
  const crystal = resolveCrystal(inputs, 'a relaxation');
  const calculation = inputs.calculation ?? 'vc-relax';
  const forceThreshold = inputs.forceThresholdEvPerAngstrom ?? DEFAULT_FORCE_THRESHOLD_EV_PER_ANGSTROM;
  return {
    crystal,
    settings: {
      ...resolveSettings(inputs, crystal.species, env),
      // the sweeps judge the forces the geometry follows, beside the energy (a looser one for a fixed cell)
      toleranceMevPerAtom: inputs.toleranceMevPerAtom ?? (calculation === 'relax' ? RELAX_ENERGY_TOLERANCE_MEV : 1),
      toleranceForceEvPerAngstrom:
        inputs.toleranceForceEvPerAngstrom ?? Number((SWEEP_FORCE_TOLERANCE_PER_THRESHOLD * forceThreshold).toPrecision(6)),
    },
    calculation,
    forceThresholdEvPerAngstrom: forceThreshold,
    pressureThresholdKbar: inputs.pressureThresholdKbar ?? 0.5,
    ...(inputs.targetPressureKbar !== undefined ? { targetPressureKbar: inputs.targetPressureKbar } : {}),
    ...(inputs.cellDofree !== undefined ? { cellDofree: inputs.cellDofree } : {}),
    ...(inputs.maxIonicSteps !== undefined ? { maxIonicSteps: inputs.maxIonicSteps } : {}),
    ...(inputs.structureFormats ? { structureFormats: inputs.structureFormats } : {}),
  };
}

function steps(i: RelaxInputs): TemplateStep[] {
  const vc = i.calculation === 'vc-relax';
  const e = electronicArgs(i.settings);
  const s = settingsSteps(i.settings, STRUCTURE, 'structure', e);
  const thresholds = {
    forceThresholdEvPerAngstrom: i.forceThresholdEvPerAngstrom,
    ...(vc ? { pressureThresholdKbar: i.pressureThresholdKbar } : {}),
    ...(vc && i.targetPressureKbar !== undefined ? { targetPressureKbar: i.targetPressureKbar } : {}),
    ...(vc && i.cellDofree ? { cellDofree: i.cellDofree } : {}),
    ...(i.maxIonicSteps ? { maxIonicSteps: i.maxIonicSteps } : {}),
  };
  return [
    crystalStep('structure', i.crystal, 'the geometry to relax'),
    pseudopotentialsStep(i.settings, i.crystal.species),
    ...s.steps,
    {
      id: 'relax-input',
      title: `${calculationSaid(i.calculation)} input at ${i.forceThresholdEvPerAngstrom} eV/Å${vc ? ` and ${i.pressureThresholdKbar} kbar` : ''}`,
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: STRUCTURE,
        pseudopotentials: PSEUDOS,
        purpose: 'production',
        calculation: i.calculation,
        ...e.args,
        ecutwfcRy: s.cut,
        ecutrhoRy: s.rho,
        kSpacingPerAngstrom: s.k,
        ...thresholds,
      },
      reasons: {
        structure: 'the starting geometry',
        pseudopotentials: 'the chosen pseudopotentials',
        purpose: 'its geometry and energy are the result',
        calculation: vc ? 'atoms and cell relax (BFGS) to zero force and the target stress' : 'the atoms relax (BFGS) in the fixed cell',
        ...e.reasons,
        ...s.reasons,
        forceThresholdEvPerAngstrom: `${i.forceThresholdEvPerAngstrom} eV/Å, the study's force threshold`,
        ...(vc ? { pressureThresholdKbar: `${i.pressureThresholdKbar} kbar, the study's stress threshold` } : {}),
        ...(thresholds.targetPressureKbar !== undefined
          ? { targetPressureKbar: `${thresholds.targetPressureKbar} kbar, the study's target pressure` }
          : {}),
        ...(thresholds.cellDofree ? { cellDofree: `${thresholds.cellDofree}: the cell components the study frees` } : {}),
        ...(thresholds.maxIonicSteps ? { maxIonicSteps: `${thresholds.maxIonicSteps} BFGS steps at most` } : {}),
      },
      dependsOn: s.after,
    },
    {
      id: 'relax-run',
      title: `Run the ${calculationSaid(i.calculation)}`,
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.relax-input.pw_input' },
      reasons: { input: `the ${i.calculation}` },
      dependsOn: ['relax-input'],
    },
    {
      id: 'relaxed',
      title: 'The relaxed geometry',
      worker: 'dft',
      tool: 'relaxed_structure',
      args: { relaxation: '$step.relax-run.total_energy' },
      reasons: { relaxation: `the energy of the ${i.calculation}: its last geometry` },
      dependsOn: ['relax-run'],
    },
    {
      id: 'result',
      title: 'Final energy, forces, stress, volume and the trajectory',
      worker: 'dft',
      tool: 'relaxation_result',
      args: { relaxation: '$step.relax-run.total_energy' },
      reasons: { relaxation: `the ${i.calculation}: its output read against the thresholds it states` },
      dependsOn: ['relax-run'],
    },
    {
      id: 'structure-files',
      title: 'Write the relaxed structure',
      worker: 'dft',
      tool: 'write_structure_files',
      args: {
        structure: '$step.relaxed.relaxed_structure',
        ...(i.structureFormats ? { formats: i.structureFormats } : {}),
        name: 'relaxed',
      },
      reasons: {
        structure: 'the relaxed geometry',
        ...(i.structureFormats ? { formats: 'the formats the objective asks for' } : {}),
        name: 'relaxed.<format>',
      },
      dependsOn: ['relaxed'],
    },
    reportStep(
      `Report the relaxed ${vc ? 'cell' : 'geometry'}`,
      ['relaxed_energy', 'relaxation_energy', 'force', 'volume', ...(vc ? ['stress'] : []), 'kpoint_count', ...s.quantities],
      ['result', 'structure-files'],
    ),
  ];
}

/** ", X eV (Y meV/atom) below the first geometry's": what the relaxation lowered, when the first energy is known. */
function loweredBy(v: RelaxationValue): string {
  if (v.relaxationEnergyEv === undefined) return '';
  const d = v.relaxationEnergyEv;
  const perAtom = (1000 * Math.abs(d)) / v.natoms;
  return `, ${shown(Math.abs(d), 4)} eV (${shown(perAtom, 3)} meV/atom) ${d <= 0 ? 'below' : 'above'} the first geometry's${v.calculation === 'vc-relax' ? ' (the final SCF in the basis of the relaxed cell)' : ''}`;
}

function claimsAndText(ctx: ComposeContextOf<RelaxInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const ref = need(ctx, 'result', 'relaxation');
  const v = ctx.value(ref) as RelaxationValue;
  const vc = v.calculation === 'vc-relax';
  const claims: ReportClaim[] = [
    {
      quantity: 'relaxed_energy',
      value: claimValue(v.finalEnergyEv, 6),
      unit: 'eV',
      cites: `${ref}.finalEnergyEv`,
      statement: `E = ${claimValue(v.finalEnergyEv, 6)} eV`,
    },
    ...(v.relaxationEnergyEv !== undefined
      ? [
          {
            quantity: 'relaxation_energy',
            value: claimValue(v.relaxationEnergyEv, 6),
            unit: 'eV',
            cites: `${ref}.relaxationEnergyEv`,
            statement: `E − E(first geometry) = ${claimValue(v.relaxationEnergyEv, 6)} eV`,
          },
        ]
      : []),
    {
      quantity: 'force',
      value: claimValue(v.maxForceEvPerAngstrom!, 4),
      unit: 'eV/Å',
      cites: `${ref}.maxForceEvPerAngstrom`,
      statement: `largest force component ${claimValue(v.maxForceEvPerAngstrom!, 4)} eV/Å`,
    },
    {
      quantity: 'volume',
      value: claimValue(v.volumeAngstrom3, 4),
      unit: 'Å^3',
      cites: `${ref}.volumeAngstrom3`,
      statement: `V = ${claimValue(v.volumeAngstrom3, 4)} Å³`,
    },
    ...(vc && v.pressureKbar !== undefined
      ? [{ quantity: 'stress', value: v.pressureKbar, unit: 'kbar', cites: `${ref}.pressureKbar`, statement: `P = ${v.pressureKbar} kbar` }]
      : []),
    ...(v.kpointCount !== undefined
      ? [
          {
            quantity: 'kpoint_count',
            value: v.kpointCount,
            unit: 'count',
            cites: `${ref}.kpointCount`,
            statement: `${v.kpointCount} irreducible k-points`,
          },
        ]
      : []),
  ];
  const settings = sweptSettingsSentence(i.settings, ctx);
  const files = ctx
    .refs('structure-files', 'structure_file')
    .map((id) => `${ctx.provenance.artifact(id)?.location?.split('/').pop() ?? 'file'} (${id})`);
  const lengths = v.cellLengthsAngstrom.map((x) => shown(x, 6)).join(', ');
  const text = [
    `The ${v.calculation} of ${i.crystal.name} (${v.formula}, ${v.natoms} atoms) converged in ${v.steps.length} geometries (${ref}): ${v.checks.map((c) => c.statement).join('; ')}.`,
    '',
    `Final energy ${shown(v.finalEnergyEv, 10)} eV${loweredBy(v)}; largest force component ${shown(v.maxForceEvPerAngstrom!, 3)} eV/Å` +
      (vc
        ? `; pressure ${v.pressureKbar} kbar (target ${v.targetPressureKbar ?? 0} kbar, cell_dofree ${v.cellDofree ?? 'all'}); volume ${shown(v.volumeAngstrom3, 6)} Å³ from ${shown(v.startVolumeAngstrom3, 6)} Å³ ` +
          `(${shown(100 * (v.volumeAngstrom3 / v.startVolumeAngstrom3 - 1), 3)} %); cell vector lengths ${lengths} Å.`
        : `; volume ${shown(v.volumeAngstrom3, 6)} Å³ (fixed); the atoms moved by up to ${shown(v.maxDisplacementAngstrom ?? 0, 3)} Å.`),
    '',
    `The relaxed structure: ${need(ctx, 'relaxed', 'relaxed_structure')}${files.length ? `, written as ${files.join(', ')}` : ''}.`,
    '',
    settings.text,
  ].join('\n');
  return { text, claims: [...claims, ...settings.claims] };
}

export const RELAX = defineWorkflow({
  id: 'relax',
  title: 'Relax a crystal (relax or vc-relax)',
  description:
    'Relax the atoms (relax) or the atoms and the cell (vc-relax, with cell_dofree and a target pressure) of a crystal with pw.x BFGS, to force ' +
    '(eV/Å) and stress (kbar) thresholds, at settings given or chosen by a cutoff and a k sweep (each run within half the force threshold ' +
    "of the finest run's forces, beside an energy tolerance). Reports the final energy, forces, stress, volume " +
    'and the trajectory, converged only when the output shows the thresholds met, and writes the relaxed structure as CIF, POSCAR, extxyz, XSF ' +
    'and pw.x cards. Inputs: element (its ground-state crystal) or bravais and lattice constant, or structure: { file }.',
  inputSchema: INPUT_SCHEMA,
  inputsFromText: (text) => {
    const m = /\b(vc-relax|variable[- ]cell relax\w*|relax\w*)\b/i.exec(text);
    if (!m) return undefined;
    const out: Record<string, unknown> = { calculation: /vc|variable/i.test(m[1]!) ? 'vc-relax' : 'relax' };
    // a structure file the sentence names ("relax POSCAR with PBE") is the crystal, read when the objective is
    const file = structureFileNamedIn(text);
    const symbol = file ? undefined : elementsInText(text)[0];
    // without a file or an element there is nothing to build: the sentence stays for a model to plan
    if (file) out.structure = { file };
    else if (symbol) out.element = symbol;
    else return undefined;
    const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
    if (functional) out.functional = functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase();
    return out;
  },
  loadInputFiles: (inputs, baseDir) => loadCrystalFile(inputs, baseDir),
  resolveInputs: resolve,
  steps,
  // an objective file's inputs as read get the line of their resolution without a machine (defineWorkflow)
  objective: (i) => `${i.calculation} of ${i.crystal.name} with ${i.settings.functional}`,
  composers: {
    title: (ctx) => {
      const i = ctx.inputs;
      return `${i.calculation === 'vc-relax' ? 'Variable-cell relaxation' : 'Relaxation'} of ${i.crystal.name} (${i.settings.functional})`;
    },
    text: (ctx) => claimsAndText(ctx).text,
    claims: (ctx) => claimsAndText(ctx).claims,
  },
});
