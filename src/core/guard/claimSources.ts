/**
 * Which artifacts may back which reported quantity: a lattice constant must come from
 * an EOS fit (through lattice_constant_from_volume), not from the structure it started
 * with or an input file; an adsorption energy from an energy combination; and so on.
 */
import { ARTIFACT } from '../artifacts/shapes';

export interface ClaimSource {
  /** Artifact names that may be cited. */
  names: string[];
  /** Tools that may have created the cited artifact. */
  tools: string[];
  /** An artifact of this name must lie upstream of the cited one. */
  derivedFrom?: string;
  /**
   * The quantity is a DFT number: nothing upstream may come from a screening model (EMT).
   * Default true; false for quantities that say they are screening results.
   */
  production?: boolean;
  /** A field of the cited artifact's value that must hold this value (an energy_difference's quantity, a magnetization's nspin). */
  requires?: { field: string; equals: string | number | boolean; why: string };
  description: string;
}

/** Quantities an energy_difference artifact may back: its own `quantity` must be the claim's. */
const energyDifference = (quantity: string, what: string): ClaimSource => ({
  names: [ARTIFACT.energyDifference],
  tools: ['energy_difference'],
  requires: {
    field: 'quantity',
    equals: quantity,
    why: `the energy difference must have been computed as a ${what}, with that quantity's checks`,
  },
  description: `a ${what} from energy_difference (quantity ${quantity})`,
});
const RELAXATION = { names: [ARTIFACT.relaxation], tools: ['relaxation_result'] };

export const CLAIM_SOURCES: Readonly<Record<string, ClaimSource>> = {
  lattice_constant: {
    names: [ARTIFACT.latticeConstant],
    tools: ['lattice_constant_from_volume'],
    derivedFrom: ARTIFACT.eosFit,
    description: 'a lattice constant derived from an EOS fit (lattice_constant_from_volume)',
  },
  lattice_parameters: {
    names: [ARTIFACT.latticeParameters],
    tools: ['lattice_constant_from_volume'],
    derivedFrom: ARTIFACT.eosFit,
    description: 'a lattice parameter (a, c, c/a, the volume) of a crystal at its EOS V0 (lattice_constant_from_volume)',
  },
  equilibrium_volume: { names: [ARTIFACT.eosFit], tools: ['fit_eos'], description: 'the V0 of an EOS fit' },
  bulk_modulus: { names: [ARTIFACT.eosFit], tools: ['fit_eos'], description: 'the B0 of an EOS fit' },
  adsorption_energy: {
    names: [ARTIFACT.adsorptionEnergy],
    tools: ['adsorption_energy'],
    description: 'an adsorption energy combined from total energies',
  },
  delta_be: {
    names: [ARTIFACT.deltaBe],
    tools: ['delta_be'],
    description: 'a binding-energy difference combined from adsorption energies',
  },
  total_energy: { names: [ARTIFACT.totalEnergy], tools: ['run_pw'], description: 'a total energy from a finished pw.x run' },
  converged_cutoff: {
    names: [ARTIFACT.convergedSettings],
    tools: ['select_converged_settings'],
    description: 'a cutoff chosen by a convergence test',
  },
  converged_kspacing: {
    names: [ARTIFACT.convergedSettings],
    tools: ['select_converged_settings'],
    description: 'a k-spacing chosen by a convergence test',
  },
  beef_ensemble: { names: [ARTIFACT.beefStats], tools: ['beef_ensemble_stats'], description: 'BEEF-vdW ensemble statistics' },
  band_gap: {
    names: [ARTIFACT.bandGap],
    tools: ['band_gap'],
    derivedFrom: ARTIFACT.bandStructure,
    description: 'the gap of an insulator from its band structure (band_gap)',
  },
  direct_gap: {
    names: [ARTIFACT.bandGap],
    tools: ['band_gap'],
    derivedFrom: ARTIFACT.bandStructure,
    description: 'the smallest direct gap of an insulator from its band structure (band_gap)',
  },
  fermi_energy: {
    names: [ARTIFACT.dos, ARTIFACT.bandStructure, ARTIFACT.pdos],
    tools: ['run_dos_x', 'run_bands_x', 'run_projwfc'],
    description: "the Fermi energy dos.x read (run_dos_x), or the SCF's carried with its band structure or PDOS",
  },
  formation_energy: energyDifference('formation_energy', 'formation energy'),
  surface_energy: energyDifference('surface_energy', 'surface energy'),
  vacancy_energy: energyDifference('vacancy_energy', 'vacancy formation energy'),
  magnetic_ordering_energy: energyDifference('magnetic_ordering_energy', 'magnetic ordering energy'),
  energy_difference: {
    names: [ARTIFACT.energyDifference],
    tools: ['energy_difference'],
    description: 'an energy difference from energy_difference',
  },
  force: {
    ...RELAXATION,
    description: "a force (the largest component or one atom's) at the end of a converged relaxation (relaxation_result)",
  },
  stress: { ...RELAXATION, description: 'the stress or pressure at the end of a converged relaxation (relaxation_result)' },
  volume: { ...RELAXATION, description: "the volume of a converged relaxation's cell (relaxation_result)" },
  relaxed_energy: { ...RELAXATION, description: 'the final energy of a converged relaxation (relaxation_result)' },
  relaxation_energy: {
    ...RELAXATION,
    description:
      "the energy a converged relaxation lowered: its final energy minus its first geometry's (relaxation_result: relaxationEnergyEv)",
  },
  magnetization: {
    names: [ARTIFACT.magnetization],
    tools: ['magnetization'],
    requires: { field: 'nspin', equals: 2, why: 'a magnetization needs a spin-polarised run (nspin = 2)' },
    description: 'a total, absolute or site magnetization of a spin-polarised run (magnetization)',
  },
  kpoint_count: {
    names: [ARTIFACT.bandPath, ARTIFACT.relaxation, ARTIFACT.magnetization],
    tools: ['band_path', 'relaxation_result', 'magnetization'],
    description:
      'the number of k-points along a band path (band_path), or the irreducible k-points pw.x used, as a relaxation or magnetization result records them (kpointCount)',
  },
  screening_adsorption_energy: {
    names: [ARTIFACT.adsorptionEnergy],
    tools: ['adsorption_energy'],
    production: false,
    description:
      'an adsorption energy from a screening model (EMT, or your own calculator over i-PI): it ranks configurations, it is not a DFT number',
  },
};

export const CLAIM_QUANTITIES = Object.keys(CLAIM_SOURCES);
