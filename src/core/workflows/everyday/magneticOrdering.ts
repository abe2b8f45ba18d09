/**
 * The magnetic-ordering template: a crystal computed spin-polarised (nspin = 2) in each
 * collinear order it is started in (ferromagnetic, and antiferromagnetic by two sublattices, or
 * the per-atom moments the objective gives), each order's total, absolute and site moments, and
 * E(order) − E(FM) per magnetic atom: which order is the ground state at these settings. The
 * cell holds both sublattices (a named crystal's conventional cubic cell); the settings are
 * given or chosen by sweeps on the ferromagnetic start, judged by the moment (what the study reports)
 * and by the energy to a looser tolerance. Energies in eV, moments in μB.
 */
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { EnergyDifferenceValue, MagnetizationValue } from '../../artifacts/relaxation';
import { layeredAntiferromagneticMoments, magneticLabels } from '../../dft/magnetism';
import { bulk } from '../../dft/structure/bulk';
import type { Structure } from '../../dft/types';
import { defineWorkflow, type ComposeContextOf, type InputsOf } from '../defineWorkflow';
import { structureFileNamedIn } from '../structureFileInput';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment } from '../types';
import {
  CRYSTAL_SCHEMA,
  crystalStep,
  electronicArgs,
  elementsInText,
  loadCrystalFile,
  need,
  PSEUDOS,
  pseudopotentialsStep,
  reportStep,
  resolveCrystal,
  resolveSettings,
  sweptSettingsSentence,
  settingsSteps,
  SETTINGS_SCHEMA,
  shown,
  type Crystal,
  type StudySettings,
} from './common';

interface Order {
  /** Step-id safe name: fm, afm, or the objective's own. */
  id: string;
  name: string;
  moments: number[];
  labels: string[];
  startingMagnetization: Record<string, number>;
}

export interface MagneticOrderingInputs {
  crystal: Crystal;
  /** The conventional cubic cell of a named crystal (its sublattices), or the primitive cell for a ferromagnet alone. */
  cubic: boolean;
  settings: StudySettings;
  orders: Order[];
  magneticAtoms: number;
}

const STRUCTURE = '$step.structure.bulk_structure';

/**
 * The sweeps' moment tolerance: pw.x prints the magnetization to 0.01 μB per cell, so 0.02 μB/atom lets a
 * run differ from the finest by one printed digit and no more; that is ~1 % of Fe's moment, well inside
 * the 0.1–0.2 μB by which PBE moments differ with the pseudopotential and the lattice constant.
 */
export const DEFAULT_MOMENT_TOLERANCE_MUB = 0.02;
/**
 * The sweeps' energy tolerance beside the moment's: the ordering energy E(AFM) − E(FM) is a difference at
 * identical settings, and its cutoff error is a small part of the total energy's (bcc Fe, pslibrary's n file,
 * 2-atom cubic cell: from 40 to 50 to 60 Ry the total energy moved 32 and 7 meV/atom, the ordering energy 0.6
 * and 0.01), so the total energy need not be converged to 1 meV/atom for what this study reports
 * (docs/notes/workflows-everyday.md).
 */
export const DEFAULT_ENERGY_TOLERANCE_MEV = 5;

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    ...CRYSTAL_SCHEMA,
    ...SETTINGS_SCHEMA,
    toleranceMevPerAtom: {
      ...SETTINGS_SCHEMA.toleranceMevPerAtom,
      description: `Sweep tolerance on the total energy against the finest run, meV/atom (default ${DEFAULT_ENERGY_TOLERANCE_MEV}: the moments are judged on their own, the ordering energy is a difference at equal settings).`,
    },
    toleranceMomentMuBPerAtom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      description: `Sweep tolerance on the magnetization per atom against the finest run, μB (default ${DEFAULT_MOMENT_TOLERANCE_MUB}: one printed digit of pw.x's 0.01 μB per cell).`,
    },
    orders: {
      oneOf: [
        {
          type: 'array',
          items: { type: 'string', enum: ['ferromagnetic', 'antiferromagnetic'] },
          minItems: 1,
          uniqueItems: true,
          description: 'The orders by name: ferromagnetic alone computes the moment in the primitive cell.',
        },
        {
          type: 'object',
          minProperties: 1,
          maxProperties: 6,
          additionalProperties: { type: 'array', items: { type: 'number', minimum: -1, maximum: 1 }, minItems: 1, maxItems: 200 },
          description:
            "Orders by name, each the starting magnetization of every atom of the cell (the file's, or a named crystal's conventional cell) in atom order.",
        },
      ],
      description: 'Orders to compare; default ferromagnetic and a two-sublattice antiferromagnet.',
    },
  },
  additionalProperties: false,
} as const;

/** The cell the orders are set on: the conventional cell of a named crystal, the file's cell as given. */
function cellOf(c: Crystal, cubic: boolean): Pick<Structure, 'symbols' | 'positions' | 'cell'> {
  if (c.kind === 'file') return c.file!.structure;
  return bulk({
    kind: c.bravais!,
    symbols: c.elements ?? [c.species[0]!],
    aAngstrom: c.latticeConstantAngstrom!,
    ...(c.cOverA ? { cAngstrom: c.cOverA * c.latticeConstantAngstrom! } : {}),
    cell: cubic ? 'conventional' : 'primitive',
  });
}

const stepId = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24) || 'order';

function resolve(inputs: InputsOf<typeof INPUT_SCHEMA>, env: WorkflowEnvironment): MagneticOrderingInputs {
  const named = Array.isArray(inputs.orders) ? inputs.orders : undefined;
  // a ferromagnet alone needs no second sublattice: the primitive cell
  const ferromagnetOnly = named !== undefined && !named.includes('antiferromagnetic');
  const probe = resolveCrystal(inputs, 'a magnetic ordering');
  const cubic = probe.kind === 'named' && probe.bravais !== 'hcp' && !ferromagnetOnly;
  const crystal = resolveCrystal(inputs, 'a magnetic ordering', cubic);
  const settings: StudySettings = {
    ...resolveSettings(inputs, crystal.species, env),
    spinPolarized: true,
    toleranceMevPerAtom: inputs.toleranceMevPerAtom ?? DEFAULT_ENERGY_TOLERANCE_MEV,
    toleranceMomentMuBPerAtom: inputs.toleranceMomentMuBPerAtom ?? DEFAULT_MOMENT_TOLERANCE_MUB,
  };
  const start = settings.startingMagnetization;
  if (!Object.values(start).some((m) => m !== 0)) {
    throw new ObjectiveError(
      `inputs.startingMagnetization: none of ${crystal.species.join(', ')} is magnetic by default; give the starting moment of the magnetic species, e.g. { ${crystal.species[0]}: 0.5 }.`,
    );
  }
  const cell = cellOf(crystal, cubic);
  const given = inputs.orders && !Array.isArray(inputs.orders) ? inputs.orders : undefined;
  const magneticAtoms = cell.symbols.filter((el) => (start[el] ?? 0) !== 0).length;
  let orders: [string, number[]][];
  if (given) {
    for (const [name, m] of Object.entries(given)) {
      if (m.length !== cell.symbols.length)
        throw new ObjectiveError(
          `inputs.orders.${name}: ${m.length} moments for the ${cell.symbols.length} atoms of the cell; give one per atom, in atom order.`,
        );
    }
    orders = Object.entries(given);
  } else {
    const fm = cell.symbols.map((el) => Math.abs(start[el] ?? 0));
    const afm = ferromagnetOnly ? undefined : layeredAntiferromagneticMoments(cell, start);
    if (!afm && !ferromagnetOnly) {
      throw new ObjectiveError(
        `the cell of ${crystal.name} has ${magneticAtoms} magnetic atom(s), which no layering splits into two equal sublattices: give a supercell (structure: { file }) or the orders' moments (inputs.orders).`,
      );
    }
    orders = [['ferromagnetic', fm], ...(afm ? [['antiferromagnetic', afm] as [string, number[]]] : [])];
  }
  return {
    crystal,
    cubic,
    settings,
    magneticAtoms,
    orders: orders.map(([name, moments]) => {
      const { labels, startingMagnetization } = magneticLabels(cell.symbols, moments);
      return {
        id: name === 'ferromagnetic' ? 'fm' : name === 'antiferromagnetic' ? 'afm' : stepId(name),
        name,
        moments,
        labels,
        startingMagnetization,
      };
    }),
  };
}

function steps(i: MagneticOrderingInputs): TemplateStep[] {
  const reference = i.orders.find((o) => o.name === 'ferromagnetic') ?? i.orders[0]!;
  const s = settingsSteps(i.settings, STRUCTURE, 'structure', electronicArgs(i.settings, reference.startingMagnetization));
  const out: TemplateStep[] = [
    crystalStep(
      'structure',
      i.crystal,
      i.orders.length > 1 ? "the cell that holds every order's sublattices" : 'the primitive cell of the ferromagnet',
      i.cubic,
    ),
    pseudopotentialsStep(i.settings, i.crystal.species),
    ...s.steps,
  ];
  for (const o of i.orders) {
    const e = electronicArgs(i.settings, o.startingMagnetization);
    out.push(
      {
        id: `${o.id}-configuration`,
        title: `${o.name} start: moments ${o.moments.join(', ')}`,
        worker: 'dft',
        tool: 'magnetic_configuration',
        args: { structure: STRUCTURE, startingMagnetization: o.moments },
        reasons: { structure: 'the cell of the study', startingMagnetization: `the ${o.name} order, atom by atom` },
        dependsOn: ['structure'],
      },
      {
        id: `${o.id}-input`,
        title: `${o.name} SCF input`,
        worker: 'dft',
        tool: 'make_pw_input',
        args: {
          structure: `$step.${o.id}-configuration.magnetic_structure`,
          pseudopotentials: PSEUDOS,
          purpose: 'production',
          calculation: 'scf',
          ...e.args,
          ecutwfcRy: s.cut,
          ecutrhoRy: s.rho,
          kSpacingPerAngstrom: s.k,
        },
        reasons: {
          structure: `the cell with the ${o.name} species labels`,
          pseudopotentials: 'the chosen pseudopotentials',
          purpose: 'its energy and moments are the result',
          calculation: 'a self-consistent spin-polarised ground state from this start',
          ...e.reasons,
          ...s.reasons,
        },
        dependsOn: [`${o.id}-configuration`, ...s.after],
      },
      {
        id: `${o.id}-run`,
        title: `Run the ${o.name} SCF`,
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: `$step.${o.id}-input.pw_input` },
        reasons: { input: `the ${o.name} start` },
        dependsOn: [`${o.id}-input`],
      },
      {
        id: `${o.id}-magnetization`,
        title: `Moments of the ${o.name} run`,
        worker: 'dft',
        tool: 'magnetization',
        args: { energy: `$step.${o.id}-run.total_energy` },
        reasons: { energy: `the ${o.name} run: does it keep its order?` },
        dependsOn: [`${o.id}-run`],
      },
    );
  }
  for (const o of i.orders.filter((x) => x !== reference)) {
    out.push({
      id: `${o.id}-ordering`,
      title: `E(${o.name}) − E(${reference.name}) per magnetic atom`,
      worker: 'dft',
      tool: 'energy_difference',
      args: {
        quantity: 'magnetic_ordering_energy',
        energies: [`$all.${o.id}-run.total_energy`, `$all.${reference.id}-run.total_energy`],
        coefficients: [1, -1],
        per: 'magnetic-atom',
        count: i.magneticAtoms,
      },
      reasons: {
        quantity: 'the energy of one magnetic order against another',
        energies: `the ${o.name} and ${reference.name} runs, same cell and settings`,
        coefficients: 'the same cell: one minus the other',
        per: 'per magnetic atom, as orderings are compared',
        count: `${i.magneticAtoms} magnetic atoms in the cell`,
      },
      dependsOn: [`${o.id}-magnetization`, `${reference.id}-magnetization`],
    });
  }
  const last = i.orders.filter((x) => x !== reference).map((o) => `${o.id}-ordering`);
  out.push(
    reportStep(
      last.length ? 'Report the magnetic orders, their moments and energies' : 'Report the moments',
      ['magnetization', ...(last.length ? ['magnetic_ordering_energy'] : []), 'kpoint_count', ...s.quantities],
      last.length ? last : [`${reference.id}-magnetization`],
    ),
  );
  return out;
}

function claimsAndText(ctx: ComposeContextOf<MagneticOrderingInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const claims: ReportClaim[] = [];
  const rows: string[] = [
    '| order | started | ended in | total (μB/cell) | absolute (μB/cell) | site moments (μB) | E − E_ref (eV/magnetic atom) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const reference = i.orders.find((o) => o.name === 'ferromagnetic') ?? i.orders[0]!;
  let lowest = { name: reference.name, value: 0 };
  for (const o of i.orders) {
    const mRef = need(ctx, `${o.id}-magnetization`, 'magnetization');
    const m = ctx.value(mRef) as MagnetizationValue;
    claims.push({
      quantity: 'magnetization',
      value: claimValue(m.absoluteBohrMagnetonPerCell, 3),
      unit: 'μB',
      cites: `${mRef}.absoluteBohrMagnetonPerCell`,
      statement: `${o.name}: absolute magnetization ${claimValue(m.absoluteBohrMagnetonPerCell, 3)} μB per cell`,
    });
    if (o === reference) {
      claims.push({
        quantity: 'magnetization',
        value: claimValue(m.totalBohrMagnetonPerAtom, 3),
        unit: 'μB/atom',
        cites: `${mRef}.totalBohrMagnetonPerAtom`,
        statement: `${o.name}: ${claimValue(m.totalBohrMagnetonPerAtom, 3)} μB per atom`,
      });
      if (m.kpointCount !== undefined)
        claims.push({
          quantity: 'kpoint_count',
          value: m.kpointCount,
          unit: 'count',
          cites: `${mRef}.kpointCount`,
          statement: `${m.kpointCount} irreducible k-points`,
        });
    }
    const dRef = o === reference ? undefined : ctx.ref(`${o.id}-ordering`, 'energy_difference');
    const d = dRef ? (ctx.value(dRef) as EnergyDifferenceValue) : undefined;
    if (d && dRef) {
      claims.push({
        quantity: 'magnetic_ordering_energy',
        value: claimValue(d.value, 4),
        unit: 'eV',
        cites: `${dRef}.value`,
        statement: `E(${o.name}) − E(${reference.name}) = ${claimValue(d.value, 4)} eV per magnetic atom`,
      });
      if (d.value < lowest.value) lowest = { name: o.name, value: d.value };
    }
    const sites = m.sites.map((x) => `${x.label ?? x.symbol}(${x.atom}) ${shown(x.momentBohrMagneton, 3)}`).join(', ');
    rows.push(
      `| ${o.name} | ${o.moments.join(', ')} | ${m.order} | ${shown(m.totalBohrMagnetonPerCell, 3)} | ${shown(m.absoluteBohrMagnetonPerCell, 3)} | ${sites || '—'}${m.siteSource ? ` (${m.siteSource})` : ''} | ${d ? `${shown(d.value, 4)} (${dRef})` : '0 (reference)'} |`,
    );
  }
  const settings = sweptSettingsSentence(i.settings, ctx);
  const text = [
    i.orders.length > 1
      ? `At these settings the **${lowest.name}** order of ${i.crystal.name} is the lowest in energy of those computed (${i.magneticAtoms} magnetic atoms per cell).`
      : `The ${reference.name} moment of ${i.crystal.name} (${i.magneticAtoms} magnetic atom(s) per cell):`,
    '',
    ...rows,
    '',
    settings.text,
  ].join('\n');
  return { text, claims: [...claims, ...settings.claims] };
}

export const MAGNETIC_ORDERING = defineWorkflow({
  id: 'magnetic-ordering',
  title: 'Magnetic order: ferromagnetic against antiferromagnetic',
  description:
    'A crystal computed spin-polarised (nspin = 2) from each collinear order it is started in (ferromagnetic and a two-sublattice ' +
    "antiferromagnet by default, or the moments given per atom), with each order's total, absolute and site moments and its energy " +
    'against the ferromagnet per magnetic atom. Inputs: element (its ground-state crystal, in its cubic cell) or bravais and lattice ' +
    'constant, or structure: { file }; functional; starting magnetization per species; settings given or chosen by sweeps.',
  inputSchema: INPUT_SCHEMA,
  inputsFromText: (text) => {
    if (!/\b(magneti[sz](ation|m)|magnetic (order|moment)|antiferromagnet\w*|ferromagnet\w*)\b/i.test(text)) return undefined;
    // a structure file the sentence names is the crystal, read when the objective is
    const file = structureFileNamedIn(text);
    const symbol = file ? undefined : elementsInText(text)[0];
    if (!file && !symbol) return undefined;
    const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
    return {
      ...(file ? { structure: { file } } : { element: symbol }),
      ...(functional ? { functional: functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() } : {}),
    };
  },
  loadInputFiles: (inputs, baseDir) => loadCrystalFile(inputs, baseDir),
  resolveInputs: resolve,
  steps,
  // an objective file's inputs as read get the line of their resolution without a machine (defineWorkflow)
  objective: (i) => `magnetic order of ${i.crystal.name} (${i.orders.map((o) => o.name).join(' vs ')}) with ${i.settings.functional}`,
  composers: {
    title: (ctx) => `Magnetic order of ${ctx.inputs.crystal.name} (${ctx.inputs.settings.functional})`,
    text: (ctx) => claimsAndText(ctx).text,
    claims: (ctx) => claimsAndText(ctx).claims,
  },
});
