/**
 * The surface-energy template: slabs of a metal surface at several thicknesses and its bulk, at
 * one set of settings (the same cutoffs, k-spacing and functional: the bulk is sampled as
 * densely as the slab in its plane), and
 *   γ = (E_slab − N_slab/N_bulk E_bulk) / 2A
 * per thickness, in eV/Å² and J/m², so the report shows γ converging with the layers. The slabs
 * are symmetric (both faces alike), unrelaxed unless asked; the lattice constant is the bulk's.
 */
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { EnergyDifferenceValue } from '../../artifacts/relaxation';
import { FACETS, type Facet } from '../../dft/structure/surface';
import { defineWorkflow, type ComposeContextOf, type InputsOf } from '../defineWorkflow';
import { ELEMENT_CRYSTALS, type Bravais } from '../electronicStructure/inputs';
import { structureFileNamedIn } from '../structureFileInput';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment } from '../types';
import {
  crystalStep,
  electronicArgs,
  elementsInText,
  need,
  PSEUDOS,
  pseudopotentialsStep,
  reportStep,
  resolveSettings,
  sweptSettingsSentence,
  settingsSteps,
  SETTINGS_SCHEMA,
  shown,
  type Crystal,
  type StudySettings,
} from './common';

export interface SurfaceInputs {
  element: string;
  facet: Facet;
  bravais: Bravais;
  latticeConstantAngstrom: number;
  layers: number[];
  vacuumAngstrom: number;
  size: [number, number];
  relax: boolean;
  forceThresholdEvPerAngstrom: number;
  settings: StudySettings;
  bulkAtoms: number;
}

const BULK = '$step.bulk.bulk_structure';
const DEFAULT_FACET: Partial<Record<Bravais, Facet>> = { fcc: 'fcc111', bcc: 'bcc110', hcp: 'hcp0001' };

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    element: { type: 'string', pattern: '^[A-Z][a-z]?$', description: 'The metal.' },
    facet: { type: 'string', enum: [...FACETS], description: 'The surface (default the close-packed one: fcc111, bcc110, hcp0001).' },
    latticeConstantAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20,
      description: 'Bulk lattice constant, Å (the experimental one by default; better the one computed at these settings).',
    },
    layers: {
      type: 'array',
      items: { type: 'integer', minimum: 2, maximum: 20 },
      minItems: 1,
      maxItems: 6,
      uniqueItems: true,
      description: 'Slab thicknesses to compute, in layers (default 3, 5, 7): γ should converge with them.',
    },
    vacuumAngstrom: { type: 'number', minimum: 4, maximum: 40, description: 'Vacuum on each side of the slab, Å (default 8).' },
    size: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 4 },
      minItems: 2,
      maxItems: 2,
      description: 'Lateral cell, p × q (default 1 × 1).',
    },
    relax: {
      type: 'boolean',
      description: 'Relax every atom of the slab, both faces alike (default false: the unrelaxed surface energy).',
    },
    forceThresholdEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: 'With relax: force threshold, eV/Å (default 0.01).',
    },
    ...SETTINGS_SCHEMA,
  },
  required: ['element'],
  additionalProperties: false,
} as const;

function resolve(inputs: InputsOf<typeof INPUT_SCHEMA>, env: WorkflowEnvironment): SurfaceInputs {
  // the shared crystal and settings resolvers read the fields one by one
  const raw: Record<string, unknown> = { ...inputs };
  const element = raw.element as string;
  const table = ELEMENT_CRYSTALS[element];
  const facet = (raw.facet as Facet | undefined) ?? (table ? DEFAULT_FACET[table.structure] : undefined);
  if (!facet) throw new ObjectiveError(`inputs.facet: ${element} has no default surface here; name the facet (${FACETS.join(', ')}).`);
  const bravais = facet.replace(/\d+$/, '') as Bravais;
  if (table && table.structure !== bravais && raw.latticeConstantAngstrom === undefined) {
    throw new ObjectiveError(
      `inputs.latticeConstantAngstrom: ${element} is ${table.structure}, but ${facet} is a ${bravais} surface; give the ${bravais} lattice constant.`,
    );
  }
  const a = (raw.latticeConstantAngstrom as number | undefined) ?? table?.a;
  if (a === undefined)
    throw new ObjectiveError(`inputs.latticeConstantAngstrom: no lattice constant of ${element} is on record here; give it.`);
  const layers = [...((raw.layers as number[] | undefined) ?? [3, 5, 7])].sort((x, y) => x - y);
  return {
    element,
    facet,
    bravais,
    latticeConstantAngstrom: a,
    layers,
    vacuumAngstrom: (raw.vacuumAngstrom as number | undefined) ?? 8,
    size: (raw.size as [number, number] | undefined) ?? [1, 1],
    relax: (raw.relax as boolean | undefined) ?? false,
    forceThresholdEvPerAngstrom: (raw.forceThresholdEvPerAngstrom as number | undefined) ?? 0.01,
    settings: resolveSettings(raw, [element], env),
    bulkAtoms: bravais === 'hcp' ? 2 : 1,
  };
}

const surfaceName = (i: SurfaceInputs): string => `${i.element}(${i.facet.replace(/^[a-z]+/, '')})`;

function steps(i: SurfaceInputs): TemplateStep[] {
  const e = electronicArgs(i.settings);
  const bulk: Crystal = {
    kind: 'named',
    species: [i.element],
    bravais: i.bravais,
    latticeConstantAngstrom: i.latticeConstantAngstrom,
    ...(i.bravais === 'hcp' ? { cOverA: Math.sqrt(8 / 3) } : {}),
    name: `${i.bravais} ${i.element}`,
  };
  const s = settingsSteps(i.settings, BULK, 'bulk', e);
  const perLayer = i.size[0] * i.size[1];
  const out: TemplateStep[] = [
    crystalStep('bulk', bulk, `the bulk the ${surfaceName(i)} slabs are cut from`),
    pseudopotentialsStep(i.settings, [i.element]),
    ...s.steps,
    {
      id: 'bulk-input',
      title: 'Bulk SCF input at the slab settings',
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: BULK,
        pseudopotentials: PSEUDOS,
        purpose: 'production',
        calculation: 'scf',
        ...e.args,
        ecutwfcRy: s.cut,
        ecutrhoRy: s.rho,
        kSpacingPerAngstrom: s.k,
      },
      reasons: {
        structure: 'the bulk crystal',
        pseudopotentials: 'the chosen pseudopotentials',
        purpose: 'the bulk energy per atom the slabs are measured against',
        calculation: 'the bulk at the lattice constant the slabs are cut at',
        ...e.reasons,
        ...s.reasons,
      },
      dependsOn: s.after,
    },
    {
      id: 'bulk-run',
      title: 'Run the bulk',
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.bulk-input.pw_input' },
      reasons: { input: 'the bulk' },
      dependsOn: ['bulk-input'],
    },
  ];
  for (const n of i.layers) {
    const id = `slab-${n}`;
    const atoms = n * perLayer;
    out.push(
      {
        id,
        title: `${surfaceName(i)} ${i.size.join('×')}, ${n} layers, ${i.vacuumAngstrom} Å vacuum`,
        worker: 'dft',
        tool: 'build_slab',
        args: {
          element: i.element,
          facet: i.facet,
          latticeConstantAngstrom: i.latticeConstantAngstrom,
          size: i.size,
          layers: n,
          vacuumAngstrom: i.vacuumAngstrom,
          fixedLayers: 0,
        },
        reasons: {
          element: 'the metal',
          facet: 'the surface of the study',
          latticeConstantAngstrom: 'the lattice constant the bulk is computed at',
          size: `${i.size.join('×')}: a clean surface needs no larger cell`,
          layers: `${n} layers: one thickness of the series ${i.layers.join(', ')}`,
          vacuumAngstrom: `${i.vacuumAngstrom} Å on each side`,
          fixedLayers: 'none: both faces alike, so the slab has two equal surfaces',
        },
      },
      {
        id: `${id}-input`,
        title: `${n}-layer slab ${i.relax ? 'relax' : 'SCF'} input`,
        worker: 'dft',
        tool: 'make_pw_input',
        args: {
          structure: `$step.${id}.slab`,
          pseudopotentials: PSEUDOS,
          purpose: 'production',
          calculation: i.relax ? 'relax' : 'scf',
          ...(i.relax ? { forceThresholdEvPerAngstrom: i.forceThresholdEvPerAngstrom } : {}),
          ...e.args,
          ecutwfcRy: s.cut,
          ecutrhoRy: s.rho,
          kSpacingPerAngstrom: s.k,
        },
        reasons: {
          structure: `the ${n}-layer slab`,
          pseudopotentials: 'the chosen pseudopotentials',
          purpose: 'its energy gives the surface energy',
          calculation: i.relax ? 'both faces relax alike' : 'the unrelaxed surface',
          ...(i.relax ? { forceThresholdEvPerAngstrom: `${i.forceThresholdEvPerAngstrom} eV/Å` } : {}),
          ...e.reasons,
          ...s.reasons,
          kSpacingPerAngstrom: `${typeof s.k === 'number' ? `${s.k} 1/Å` : "the bulk's spacing"}: in the plane as dense as the bulk, one point along the normal`,
        },
        dependsOn: [id, ...s.after],
      },
      {
        id: `${id}-run`,
        title: `Run the ${n}-layer slab`,
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: `$step.${id}-input.pw_input` },
        reasons: { input: `the ${n}-layer slab` },
        dependsOn: [`${id}-input`],
      },
      {
        id: `gamma-${n}`,
        title: `γ from the ${n}-layer slab`,
        worker: 'dft',
        tool: 'energy_difference',
        args: {
          quantity: 'surface_energy',
          energies: [`$all.${id}-run.total_energy`, '$all.bulk-run.total_energy'],
          coefficients: [1, -atoms / i.bulkAtoms],
          per: 'area',
          surfaces: 2,
          areaFrom: 0,
        },
        reasons: {
          quantity: 'the energy of the surface',
          energies: 'the slab, then the bulk at its settings',
          coefficients: `the slab's ${atoms} atoms against ${shown(atoms / i.bulkAtoms, 6)} bulk cells of ${i.bulkAtoms} atom(s)`,
          per: 'per area of surface',
          surfaces: 'two equal faces',
          areaFrom: "the slab's cell gives the area",
        },
        dependsOn: [`${id}-run`, 'bulk-run'],
      },
    );
  }
  out.push(
    reportStep(
      `Report the surface energy of ${surfaceName(i)}`,
      ['surface_energy', ...s.quantities],
      i.layers.map((n) => `gamma-${n}`),
    ),
  );
  return out;
}

function claimsAndText(ctx: ComposeContextOf<SurfaceInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const rows = ['| layers | γ (eV/Å²) | γ (J/m²) | artifact |', '| --- | --- | --- | --- |'];
  const values: { n: number; ref: string; v: EnergyDifferenceValue }[] = [];
  for (const n of i.layers) {
    const ref = need(ctx, `gamma-${n}`, 'energy_difference');
    const v = ctx.value(ref) as EnergyDifferenceValue;
    values.push({ n, ref, v });
    rows.push(`| ${n} | ${shown(v.value, 5)} | ${shown(v.valueJPerM2!, 4)} | ${ref} |`);
  }
  const best = values.at(-1)!;
  const previous = values.at(-2);
  const claims: ReportClaim[] = [
    {
      quantity: 'surface_energy',
      value: claimValue(best.v.valueJPerM2!, 3),
      unit: 'J/m^2',
      cites: `${best.ref}.valueJPerM2`,
      statement: `γ = ${claimValue(best.v.valueJPerM2!, 3)} J/m² (${best.n} layers)`,
    },
    {
      quantity: 'surface_energy',
      value: claimValue(best.v.value, 4),
      unit: 'eV/Å^2',
      cites: `${best.ref}.value`,
      statement: `γ = ${claimValue(best.v.value, 4)} eV/Å² (${best.n} layers)`,
    },
  ];
  const settings = sweptSettingsSentence(i.settings, ctx);
  const text = [
    `The ${i.relax ? 'relaxed' : 'unrelaxed'} surface energy of ${surfaceName(i)} is **${shown(best.v.valueJPerM2!, 3)} J/m²** (${shown(best.v.value, 4)} eV/Å², ${best.n} layers, ${best.ref})` +
      (previous
        ? `; the ${previous.n}-layer slab gives ${shown(previous.v.valueJPerM2!, 3)} J/m², ${shown(Math.abs(best.v.valueJPerM2! - previous.v.valueJPerM2!), 2)} J/m² away.`
        : '.'),
    '',
    ...rows,
    '',
    `${best.v.formula}. The slabs are ${i.size.join('×')} with ${i.vacuumAngstrom} Å of vacuum on each side, cut at a = ${i.latticeConstantAngstrom} Å, the lattice constant the bulk was computed at; the bulk shares the slabs' cutoffs, k-spacing and functional.`,
    '',
    settings.text,
  ].join('\n');
  return { text, claims: [...claims, ...settings.claims] };
}

export const SURFACE_ENERGY = defineWorkflow({
  id: 'surface-energy',
  title: 'Surface energy of a metal surface',
  description:
    'The surface energy γ = (E_slab − N E_bulk) / 2A of a metal surface (fcc111, fcc100, fcc110, bcc110, bcc100, hcp0001) from symmetric slabs ' +
    'of several thicknesses and the bulk at the same cutoffs, k-spacing and functional, in eV/Å² and J/m², unrelaxed or relaxed. Inputs: element, ' +
    'facet, lattice constant, layers, vacuum, functional, settings given or chosen by sweeps on the bulk.',
  inputSchema: INPUT_SCHEMA,
  inputsFromText: (text) => {
    if (!/\bsurface energy\b/i.test(text)) return undefined;
    // the slabs are cut from the element's own lattice: a sentence naming a structure file is not read as
    // this template's (its file would be ignored); it stays text for a model to plan
    if (structureFileNamedIn(text)) return undefined;
    const element = elementsInText(text)[0];
    if (!element) return undefined;
    const facet = /\((\d{3,4})\)/.exec(text)?.[1];
    const table = ELEMENT_CRYSTALS[element];
    const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
    return {
      element,
      ...(facet && table ? { facet: `${table.structure}${facet}` } : {}),
      ...(functional ? { functional: functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() } : {}),
    };
  },
  resolveInputs: resolve,
  steps,
  // an objective file's inputs as read get the line of their resolution without a machine (defineWorkflow)
  objective: (i) => `surface energy of ${surfaceName(i)} with ${i.settings.functional}`,
  composers: {
    title: (ctx) => `Surface energy of ${surfaceName(ctx.inputs)} (${ctx.inputs.settings.functional})`,
    text: (ctx) => claimsAndText(ctx).text,
    claims: (ctx) => claimsAndText(ctx).claims,
  },
});
