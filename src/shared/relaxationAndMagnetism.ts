/**
 * The data a relaxation trajectory plot, a magnetization table and an energy-difference card
 * draw, as the report's SVG and the notebook renderer both read them: the relaxation,
 * magnetization and energy_difference artifacts carry these shapes as they are. Energies in eV,
 * forces in eV/Å, pressures in kbar, volumes in Å³, moments in Bohr magnetons (μB).
 */

export interface RelaxationTrajectoryPlotData {
  calculation: 'relax' | 'vc-relax';
  /** One point per geometry pw.x computed, in order; the final SCF of a vc-relax is the last, flagged. */
  steps: {
    step: number;
    energyEv?: number;
    maxForceEvPerAngstrom?: number;
    pressureKbar?: number;
    volumeAngstrom3: number;
    finalScf?: boolean;
  }[];
  /** The thresholds the output states, drawn as lines. */
  thresholds: { forceEvPerAngstrom?: number; pressureKbar?: number };
  converged: boolean;
  title?: string;
}

export interface MagnetizationTableData {
  totalBohrMagnetonPerCell: number;
  absoluteBohrMagnetonPerCell: number;
  totalBohrMagnetonPerAtom: number;
  order: 'non-magnetic' | 'ferromagnetic' | 'antiferromagnetic' | 'ferrimagnetic';
  /** Where the site moments come from: pw.x's spheres around each atom, or projwfc.x's Löwdin analysis. */
  siteSource?: 'pw.x' | 'löwdin';
  sites: { atom: number; symbol: string; label?: string; momentBohrMagneton: number; charge?: number }[];
  title?: string;
}

export interface EnergyDifferenceCardData {
  /** formation_energy, surface_energy, vacancy_energy, adsorption_energy, magnetic_ordering_energy, energy_difference. */
  quantity: string;
  /** The formula with every term, its coefficient and its energy's reference. */
  formula: string;
  value: number;
  unit: string;
  /** Surface energies also in J/m². */
  valueJPerM2?: number;
  terms: { energy: string; coefficient: number; energyEv: number; formula: string; natoms: number }[];
}
