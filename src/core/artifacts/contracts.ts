/**
 * The artifacts the tool catalogue makes, declared once: each name with its kind, its unit
 * (for scalars and vectors, and tables whose numbers share one) and the TypeScript shape of
 * its value (artifacts/shapes.ts and neighbours). A tool lists the contracts it may create
 * (defineTool `outputs`); the registry refuses any other name, kind or unit, and a draft's
 * value is checked against the shape by the compiler. Workflow templates' `$step.<id>.<name>`
 * hints name these (test/unit/core/workflows/stepHints.outputs.unit.test.ts).
 */
import type { ArtifactKind } from '../provenance/types';
import type { Structure } from '../dft/types';
import type { ConfigurationValue, SearchState, SlipAnalysisValue, SurfaceValue } from './adsorptionSearch';
import type { BandGapValue, BandPathValue, BandStructureValue, DosValue, PdosValue } from './electronic';
import type { EnergyDifferenceValue, MagnetizationValue, RelaxationValue } from './relaxation';
import type {
  BeefStatsValue,
  ConvergenceSelectionValue,
  EnergyMeta,
  EosFitValue,
  LatticeParametersValue,
  PseudopotentialTableValue,
  PwInputValue,
} from './shapes';

/** One artifact a tool may make. `V` (its value) and `M` (its meta) are for the compiler only. */
export interface ArtifactContract<N extends string = string, V = unknown, M = Record<string, unknown>> {
  readonly name: N;
  readonly kind: ArtifactKind;
  readonly unit?: string;
  /** What it is, in a phrase a reader of the provenance graph understands. */
  readonly description: string;
  /** Compile-time only: the shape of its value and meta (never set). */
  readonly shape?: { value: V; meta: M };
}

/** A contract with its value (and meta) shape: `artifact<ValueShape>()({ name, kind, unit, description })`. */
export const artifact =
  <V, M = Record<string, unknown>>() =>
  <const N extends string>(c: { name: N; kind: ArtifactKind; unit?: string; description: string }): ArtifactContract<N, V, M> =>
    c;

export const ARTIFACTS = {
  // structures
  bulkStructure: artifact<Structure>()({
    name: 'bulk_structure',
    kind: 'structure',
    description: 'a bulk crystal built from a lattice (Å)',
  }),
  slab: artifact<Structure>()({ name: 'slab', kind: 'structure', description: 'a surface slab (Å)' }),
  slabWithAdsorbate: artifact<Structure>()({
    name: 'slab_with_adsorbate',
    kind: 'structure',
    description: 'a slab with an adsorbate placed on a site (Å)',
  }),
  molecule: artifact<Structure>()({ name: 'molecule', kind: 'structure', description: 'a molecule in a box (Å)' }),
  relaxedStructure: artifact<Structure>()({
    name: 'relaxed_structure',
    kind: 'structure',
    description: 'the geometry a relaxation ended with (Å)',
  }),
  restartStructure: artifact<Structure>()({
    name: 'restart_structure',
    kind: 'structure',
    description: 'the last geometry an interrupted relaxation reached (Å)',
  }),
  magneticStructure: artifact<Structure>()({
    name: 'magnetic_structure',
    kind: 'structure',
    description: 'a structure with a magnetic order (species per spin)',
  }),
  structureFile: artifact<undefined>()({
    name: 'structure_file',
    kind: 'file',
    description: 'a structure written in a file format (CIF, POSCAR, extxyz, pw.x)',
  }),
  // pw.x inputs and outputs
  pseudopotentials: artifact<PseudopotentialTableValue>()({
    name: 'pseudopotentials',
    kind: 'table',
    description: 'the UPF file of each element, with its hash and suggested cutoffs',
  }),
  pwInput: artifact<PwInputValue>()({
    name: 'pw_input',
    kind: 'qe-input',
    description: 'a validated pw.x input and the physical settings its energies carry',
  }),
  pwOutput: artifact<undefined>()({ name: 'pw_output', kind: 'file', description: "pw.x's output file" }),
  nscfOutput: artifact<undefined>()({ name: 'nscf_output', kind: 'file', description: "pw.x's output of a non-self-consistent run" }),
  totalEnergy: artifact<number, EnergyMeta>()({
    name: 'total_energy',
    kind: 'scalar',
    unit: 'eV',
    description: 'a total energy with the settings it was computed with',
  }),
  beefEnsemble: artifact<number[]>()({
    name: 'beef_ensemble',
    kind: 'vector',
    unit: 'eV',
    description: "the BEEF-vdW ensemble's deviations from the self-consistent energy",
  }),
  // convergence, equation of state, lattice
  convergedSettings: artifact<ConvergenceSelectionValue>()({
    name: 'converged_settings',
    kind: 'table',
    description: 'a convergence sweep and the setting chosen from it',
  }),
  convergedSlab: artifact<unknown>()({
    name: 'converged_slab',
    kind: 'table',
    description: 'a slab sweep (layers or vacuum) and the slab chosen from it',
  }),
  eosFit: artifact<EosFitValue>()({ name: 'eos_fit', kind: 'table', description: 'an equation of state fitted through E(V)' }),
  latticeConstant: artifact<number>()({
    name: 'lattice_constant',
    kind: 'scalar',
    unit: 'Å',
    description: 'the lattice constant a of the fitted equilibrium volume',
  }),
  latticeParameters: artifact<LatticeParametersValue>()({
    name: 'lattice_parameters',
    kind: 'table',
    description: 'the lattice parameters of the fitted equilibrium volume',
  }),
  relaxation: artifact<RelaxationValue>()({
    name: 'relaxation',
    kind: 'table',
    description: 'how a relaxation went: its steps, forces and energies',
  }),
  magnetization: artifact<MagnetizationValue>()({
    name: 'magnetization',
    kind: 'table',
    description: 'total and per-site magnetic moments of a run',
  }),
  energyDifference: artifact<EnergyDifferenceValue>()({
    name: 'energy_difference',
    kind: 'table',
    description: 'an energy difference between comparable runs',
  }),
  // adsorption
  adsorptionEnergy: artifact<number>()({
    name: 'adsorption_energy',
    kind: 'scalar',
    unit: 'eV',
    description: 'E(slab+adsorbate) − E(slab) − E(adsorbate)',
  }),
  deltaBe: artifact<number>()({
    name: 'delta_be',
    kind: 'scalar',
    unit: 'eV',
    description: 'the difference of two adsorption energies (site preference)',
  }),
  beefStats: artifact<BeefStatsValue>()({
    name: 'beef_ensemble_stats',
    kind: 'table',
    description: 'ΔBE over the BEEF-vdW ensemble members',
  }),
  adsorptionSurface: artifact<SurfaceValue>()({
    name: 'adsorption_surface',
    kind: 'table',
    description: 'a standardised slab, its sites and the adsorbate',
  }),
  standardisedSlab: artifact<Structure>()({
    name: 'standardised_slab',
    kind: 'structure',
    description: 'a slab in the standard orientation the site finder uses',
  }),
  adsorptionConfiguration: artifact<ConfigurationValue>()({
    name: 'adsorption_configuration',
    kind: 'table',
    description: 'one evaluated adsorption hypothesis',
  }),
  relaxedConfiguration: artifact<Structure>()({
    name: 'relaxed_configuration',
    kind: 'structure',
    description: 'the relaxed geometry of an adsorption hypothesis',
  }),
  slipAnalysis: artifact<SlipAnalysisValue>()({
    name: 'adsorption_slip_analysis',
    kind: 'table',
    description: 'whether a relaxed adsorbate slipped or dissociated',
  }),
  searchResult: artifact<SearchState>()({
    name: 'adsorption_search_result',
    kind: 'table',
    description: 'the adsorption search: hypotheses, energies and the best one',
  }),
  bestConfiguration: artifact<Structure>()({
    name: 'best_adsorption_configuration',
    kind: 'structure',
    description: 'the most stable configuration the search found',
  }),
  searchReport: artifact<undefined>()({ name: 'adsorption_search_report', kind: 'file', description: "the adsorption search's report" }),
  searchDrawing: artifact<undefined>()({
    name: 'adsorption_search_drawing',
    kind: 'file',
    description: 'a drawing of the adsorption search (SVG)',
  }),
  // electronic structure
  bandPath: artifact<BandPathValue>()({
    name: 'band_path',
    kind: 'table',
    description: 'a path through the Brillouin zone with its labelled points',
  }),
  bandStructure: artifact<BandStructureValue>()({
    name: 'band_structure',
    kind: 'table',
    unit: 'eV',
    description: 'band energies along a path',
  }),
  bandGap: artifact<BandGapValue>()({ name: 'band_gap', kind: 'table', unit: 'eV', description: 'the band gap and band edges' }),
  dos: artifact<DosValue>()({ name: 'dos', kind: 'table', unit: 'states/eV', description: 'the density of states' }),
  pdos: artifact<PdosValue>()({
    name: 'pdos',
    kind: 'table',
    unit: 'states/eV',
    description: 'the density of states projected on atomic orbitals',
  }),
  // convergence advice (its value's shape is the advisor's, agents/advisor.ts AdviceValue)
  convergenceAdvice: artifact<unknown>()({
    name: 'convergence_advice',
    kind: 'table',
    description: "the convergence advisor's diagnosis of a failed pw.x run and its suggestions",
  }),
  // reports
  report: artifact<{ title: string; claims: unknown[] }>()({
    name: 'report',
    kind: 'file',
    description: 'a report whose numbers each cite an artifact',
  }),
  reportClaim: artifact<number>()({
    name: 'report_claim',
    kind: 'report-claim',
    description: 'a number a report states, citing an artifact',
  }),
} as const;
