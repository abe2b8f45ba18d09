/**
 * The two scripted runs of the token benchmark, as the sequence of tool calls a DFT
 * worker makes: the fcc Al lattice constant (cutoff sweep, k sweep, EOS, a) and CO on
 * Pt(111) (Pt lattice constant, slab, CO at the top and fcc sites, E_ads, ΔBE). Each step
 * sees the outputs of the earlier ones, so references point at the real artifact ids.
 */
import type { ReportClaim } from '../../../src/core/guard/claimChecks';

export interface StepCall {
  tool: string;
  arguments: Record<string, unknown>;
  references?: Record<string, string>;
}

/** Outputs of earlier steps, by step label. */
export type Outputs = Record<string, string[]>;

/** The value recorded behind a reference. */
export type Resolve = (ref: string) => unknown;

export interface ScriptedStep {
  label: string;
  /** The plan step this call belongs to: one worker conversation per plan step. */
  plan: string;
  worker?: 'dft' | 'hpc';
  call: (o: Outputs, resolve: Resolve) => StepCall;
}

export interface ScriptedRun {
  name: string;
  objective: string;
  steps: ScriptedStep[];
}

const first = (o: Outputs, label: string): string => {
  const ids = o[label];
  if (!ids?.length) throw new Error(`scripted run: step ${label} produced no artifact`);
  return ids[0]!;
};
const energyOf = (o: Outputs, label: string) => first(o, label);

function sweep(prefix: string, inputsLabel: string, count: number, plan: string): ScriptedStep[] {
  return Array.from({ length: count }, (_, i) => ({
    label: `${prefix}${i}`,
    plan,
    worker: 'hpc' as const,
    call: (o: Outputs) => ({ tool: 'run_pw', arguments: { input: o[inputsLabel]![i]!, backend: 'local' } }),
  }));
}
const labels = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const smeared = { occupations: 'smearing', smearing: 'mv', degaussRy: 0.02, nspin: 1 };

function latticeSteps(element: string, bravais: string, a: number, functional: string, prefix = ''): ScriptedStep[] {
  const p = (l: string) => `${prefix}${l}`;
  return [
    {
      label: p('bulk'),
      plan: p('structure'),
      call: () => ({ tool: 'build_bulk', arguments: { elements: [element], bravais, latticeConstantAngstrom: a } }),
    },
    {
      label: p('pseudos'),
      plan: p('pseudopotentials'),
      call: () => ({ tool: 'select_pseudopotentials', arguments: { elements: [element], functional } }),
    },
    {
      label: p('cutTemplate'),
      plan: p('cutoff-input'),
      call: (o) => ({
        tool: 'make_pw_input',
        arguments: {
          structure: first(o, p('bulk')),
          pseudopotentials: first(o, p('pseudos')),
          purpose: 'convergence-test',
          calculation: 'scf',
          ecutwfcRy: 30,
          ecutrhoRy: 240,
          kSpacingPerAngstrom: 0.15,
          ...smeared,
        },
      }),
    },
    {
      label: p('cutInputs'),
      plan: p('cutoff-series'),
      call: (o) => ({
        tool: 'generate_series',
        arguments: { template: first(o, p('cutTemplate')), kind: 'ecutwfc', values: [30, 35, 40, 45, 50] },
      }),
    },
    ...sweep(p('cut'), p('cutInputs'), 5, p('cutoff-runs')),
    {
      label: p('cutSel'),
      plan: p('cutoff-choice'),
      call: (o) => ({
        tool: 'select_converged_settings',
        arguments: { parameter: 'ecutwfc', energies: labels(p('cut'), 5).map((l) => energyOf(o, l)), toleranceMevPerAtom: 1 },
      }),
    },
    {
      label: p('kTemplate'),
      plan: p('k-input'),
      call: (o) => ({
        tool: 'make_pw_input',
        arguments: {
          structure: first(o, p('bulk')),
          pseudopotentials: first(o, p('pseudos')),
          purpose: 'convergence-test',
          calculation: 'scf',
          kSpacingPerAngstrom: 0.15,
          ...smeared,
        },
        references: { ecutwfcRy: `${first(o, p('cutSel'))}.chosen.ecutwfcRy`, ecutrhoRy: `${first(o, p('cutSel'))}.chosen.ecutrhoRy` },
      }),
    },
    {
      label: p('kInputs'),
      plan: p('k-series'),
      call: (o) => ({
        tool: 'generate_series',
        arguments: { template: first(o, p('kTemplate')), kind: 'kspacing', values: [0.4, 0.3, 0.25, 0.2, 0.15] },
      }),
    },
    ...sweep(p('k'), p('kInputs'), 5, p('k-runs')),
    {
      label: p('kSel'),
      plan: p('k-choice'),
      call: (o) => ({
        tool: 'select_converged_settings',
        arguments: { parameter: 'kspacing', energies: labels(p('k'), 5).map((l) => energyOf(o, l)), toleranceMevPerAtom: 1 },
      }),
    },
    {
      label: p('eosTemplate'),
      plan: p('eos-input'),
      call: (o) => ({
        tool: 'make_pw_input',
        arguments: {
          structure: first(o, p('bulk')),
          pseudopotentials: first(o, p('pseudos')),
          purpose: 'production',
          calculation: 'scf',
          ...smeared,
        },
        references: {
          ecutwfcRy: `${first(o, p('cutSel'))}.chosen.ecutwfcRy`,
          ecutrhoRy: `${first(o, p('cutSel'))}.chosen.ecutrhoRy`,
          kSpacingPerAngstrom: `${first(o, p('kSel'))}.chosen.kSpacingPerAngstrom`,
        },
      }),
    },
    {
      label: p('eosInputs'),
      plan: p('eos-series'),
      call: (o) => ({
        tool: 'generate_series',
        arguments: { template: first(o, p('eosTemplate')), kind: 'eos', values: [0.97, 0.985, 1.0, 1.015, 1.03] },
      }),
    },
    ...sweep(p('eos'), p('eosInputs'), 5, p('eos-runs')),
    {
      label: p('eosFit'),
      plan: p('eos-fit'),
      call: (o) => ({ tool: 'fit_eos', arguments: { energies: labels(p('eos'), 5).map((l) => energyOf(o, l)), form: 'birch-murnaghan' } }),
    },
    {
      label: p('lattice'),
      plan: p('lattice'),
      call: (o) => ({
        tool: 'lattice_constant_from_volume',
        arguments: { eosFit: first(o, p('eosFit')), structure: first(o, p('bulk')), bravais },
      }),
    },
  ];
}

export function reportStep(claims: (o: Outputs, resolve: Resolve) => ReportClaim[], title: string): ScriptedStep {
  return {
    label: 'report',
    plan: 'report',
    call: (o, r) => ({
      tool: 'write_report',
      arguments: { title, text: `${title}: see the claims and their provenance.`, claims: claims(o, r) },
    }),
  };
}

const round = (x: unknown, figures: number) => Number((x as number).toPrecision(figures));

export const LATTICE_RUN: ScriptedRun = {
  name: 'lattice-constant',
  objective: 'Compute the PZ lattice constant of fcc Al with converged cutoff and k-point sampling.',
  steps: [
    ...latticeSteps('Al', 'fcc', 4.05, 'PZ'),
    reportStep(
      (o, r) => [{ quantity: 'lattice_constant', value: round(r(first(o, 'lattice')), 5), unit: 'Å', cites: first(o, 'lattice') }],
      'fcc Al lattice constant',
    ),
  ],
};

/** The Pt study's converged settings, by reference. */
const converged = (o: Outputs): Record<string, string> => ({
  ecutwfcRy: `${first(o, 'pt.cutSel')}.chosen.ecutwfcRy`,
  ecutrhoRy: `${first(o, 'pt.cutSel')}.chosen.ecutrhoRy`,
  kSpacingPerAngstrom: `${first(o, 'pt.kSel')}.chosen.kSpacingPerAngstrom`,
});

export const CO_PT_RUN: ScriptedRun = {
  name: 'co-pt111',
  objective: 'Compare CO adsorption at the top and fcc sites of Pt(111) with PBE (ΔBE = E_ads(top) − E_ads(fcc)).',
  steps: [
    ...latticeSteps('Pt', 'fcc', 3.92, 'PBE', 'pt.'),
    {
      label: 'pseudos',
      plan: 'pseudopotentials',
      call: () => ({ tool: 'select_pseudopotentials', arguments: { elements: ['Pt', 'C', 'O'], functional: 'PBE' } }),
    },
    {
      label: 'slab',
      plan: 'slab',
      call: (o) => ({
        tool: 'build_slab',
        arguments: { element: 'Pt', facet: 'fcc111', size: [2, 2], layers: 4, vacuumAngstrom: 12, fixedLayers: 2 },
        references: { latticeConstantAngstrom: first(o, 'pt.lattice') },
      }),
    },
    {
      label: 'top',
      plan: 'adsorbates',
      call: (o) => ({ tool: 'place_adsorbate', arguments: { slab: first(o, 'slab'), adsorbate: 'CO', site: 'ontop' } }),
    },
    {
      label: 'fcc',
      plan: 'adsorbates',
      call: (o) => ({ tool: 'place_adsorbate', arguments: { slab: first(o, 'slab'), adsorbate: 'CO', site: 'fcc' } }),
    },
    { label: 'co', plan: 'gas-reference', call: () => ({ tool: 'build_molecule', arguments: { name: 'CO', boxAngstrom: 12 } }) },
    ...(['slab', 'top', 'fcc'] as const).map(
      (s): ScriptedStep => ({
        label: `${s}Input`,
        plan: 'inputs',
        call: (o) => ({
          tool: 'make_pw_input',
          arguments: {
            structure: first(o, s),
            pseudopotentials: first(o, 'pseudos'),
            purpose: 'production',
            calculation: 'relax',
            ...smeared,
          },
          references: converged(o),
        }),
      }),
    ),
    {
      label: 'coInput',
      plan: 'inputs',
      call: (o) => {
        const { kSpacingPerAngstrom: _k, ...cutoffs } = converged(o);
        return {
          tool: 'make_pw_input',
          arguments: {
            structure: first(o, 'co'),
            pseudopotentials: first(o, 'pseudos'),
            purpose: 'production',
            calculation: 'relax',
            kMesh: [1, 1, 1],
            ...smeared,
          },
          references: cutoffs,
        };
      },
    },
    ...(['slab', 'top', 'fcc', 'co'] as const).map(
      (s): ScriptedStep => ({
        label: `e.${s}`,
        plan: 'runs',
        worker: 'hpc',
        call: (o) => ({ tool: 'run_pw', arguments: { input: first(o, `${s}Input`), backend: 'local' } }),
      }),
    ),
    {
      label: 'eadsTop',
      plan: 'adsorption-energies',
      call: (o) => ({
        tool: 'adsorption_energy',
        arguments: { slabWithAdsorbate: first(o, 'e.top'), slab: first(o, 'e.slab'), adsorbate: first(o, 'e.co') },
      }),
    },
    {
      label: 'eadsFcc',
      plan: 'adsorption-energies',
      call: (o) => ({
        tool: 'adsorption_energy',
        arguments: { slabWithAdsorbate: first(o, 'e.fcc'), slab: first(o, 'e.slab'), adsorbate: first(o, 'e.co') },
      }),
    },
    {
      label: 'dbe',
      plan: 'delta-be',
      call: (o) => ({ tool: 'delta_be', arguments: { ontop: first(o, 'eadsTop'), fcc: first(o, 'eadsFcc') } }),
    },
    reportStep(
      (o, r) => [
        { quantity: 'delta_be', value: round(r(first(o, 'dbe')), 4), unit: 'eV', cites: first(o, 'dbe') },
        { quantity: 'adsorption_energy', value: round(r(first(o, 'eadsTop')), 4), unit: 'eV', cites: first(o, 'eadsTop') },
        { quantity: 'adsorption_energy', value: round(r(first(o, 'eadsFcc')), 4), unit: 'eV', cites: first(o, 'eadsFcc') },
      ],
      'CO on Pt(111): top versus fcc',
    ),
  ],
};
