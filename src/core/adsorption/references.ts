/**
 * Energy references for adsorption energies, E_ads = E(slab+adsorbate) − E(slab) − E(adsorbate):
 * the relaxed clean slab and the relaxed gas-phase adsorbate itself (the radical as it
 * adsorbs, e.g. OH, not a combination of H2O and H2), both from the same calculator with
 * the same relaxation settings. Why: they need no choice of reservoir molecules, they have
 * exactly the composition of the adsorbed system so no other energy enters, and every
 * configuration of one search shares them, so the ranking does not depend on them at all;
 * the absolute value matters only for the strong-binding bond criterion (E_ads < −0.5 eV).
 */
import type { RelaxResult } from '../calculators/types';
import type { Structure, Vec3 } from '../dft/types';
import type { Adsorbate } from './adsorbate';
import type { ConfigurationExecutor } from './executor';
import { mean, sub } from './geometry';
import type { StandardisedSlab } from './slab';

/** Edge of the cubic box around a gas-phase adsorbate, Å: wide enough for periodic codes and any cutoff used here. */
export const GAS_BOX_ANGSTROM = 15;

export interface EnergyReferences {
  cleanSlabEv: number;
  gasPhaseEv: number;
  cleanSlab: RelaxResult;
  gasPhase: RelaxResult;
  description: string;
}

export function gasPhaseStructure(a: Adsorbate): Structure {
  const c = mean(a.positions);
  const half = GAS_BOX_ANGSTROM / 2;
  return {
    symbols: [...a.symbols],
    positions: a.positions.map((p) => sub(p, c).map((x) => x + half) as Vec3),
    cell: [
      [GAS_BOX_ANGSTROM, 0, 0],
      [0, GAS_BOX_ANGSTROM, 0],
      [0, 0, GAS_BOX_ANGSTROM],
    ],
    pbc: [true, true, true],
  };
}

export async function computeReferences(
  executor: ConfigurationExecutor,
  slab: StandardisedSlab,
  a: Adsorbate,
  signal?: AbortSignal,
): Promise<EnergyReferences> {
  const cleanSlab = await executor.relaxReference(slab.slab, 'clean-slab', 'clean slab', signal);
  const gasPhase = await executor.relaxReference(gasPhaseStructure(a), 'gas-phase', `gas-phase ${a.name}`, signal);
  return {
    cleanSlabEv: cleanSlab.energyEv,
    gasPhaseEv: gasPhase.energyEv,
    cleanSlab,
    gasPhase,
    description: `E_ads = E(slab+${a.name}) − E(relaxed clean slab) − E(relaxed gas-phase ${a.name} in a ${GAS_BOX_ANGSTROM} Å box)`,
  };
}
