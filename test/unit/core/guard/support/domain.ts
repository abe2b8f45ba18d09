/** Small, physically sensible artifacts for guard tests: fcc Al, its settings, energies and tests. */
import type { PhysicalSettings, Structure } from '../../../../../src/core/dft/types';
import type { ProposedCall } from '../../../../../src/core/guard/types';
import type { SeedArtifact } from './memoryProvenance';

export const AL_A = 4.04;

export function fccAl(a = AL_A): Structure {
  const h = a / 2;
  return {
    symbols: ['Al'],
    positions: [[0, 0, 0]],
    pbc: [true, true, true],
    cell: [
      [0, h, h],
      [h, 0, h],
      [h, h, 0],
    ],
    info: { bravais: 'fcc' },
  };
}

export function alSettings(over: Partial<PhysicalSettings> = {}): PhysicalSettings {
  return {
    code: 'pw.x',
    functional: 'PZ',
    ecutwfcRy: 20,
    ecutrhoRy: 80,
    pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF', sha256: 'aa11' } },
    kSpacingPerAngstrom: 0.2,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
    ...over,
  };
}

export function energy(
  id: string,
  ev: number,
  over: { settings?: Partial<PhysicalSettings>; volume?: number; natoms?: number; status?: SeedArtifact['status']; cell?: unknown } = {},
): SeedArtifact {
  return {
    id,
    kind: 'scalar',
    name: 'total_energy',
    value: ev,
    unit: 'eV',
    creatorTool: 'run_pw',
    status: over.status ?? 'final',
    meta: {
      settings: alSettings(over.settings),
      natoms: over.natoms ?? 1,
      volumeAngstrom3: over.volume ?? AL_A ** 3 / 4,
      formula: 'Al',
      scfConverged: true,
      ...(over.cell ? { cellAngstrom: over.cell } : {}),
    },
  };
}

export function cutoffSelection(id: string, tested: number[], chosen: number, over: Partial<SeedArtifact> = {}): SeedArtifact {
  return {
    id,
    kind: 'table',
    name: 'converged_settings',
    creatorTool: 'select_converged_settings',
    value: {
      parameter: 'ecutwfc',
      chosenValue: chosen,
      chosen: { ecutwfcRy: chosen, ecutrhoRy: 4 * chosen },
      toleranceMevPerAtom: 1,
      converged: true,
      tested: tested.map((v, i) => ({ value: v, energyEvPerAtom: -57 - i * 0.001, deltaMevPerAtom: (tested.length - 1 - i) * 0.5 })),
    },
    meta: { settings: alSettings() },
    ...over,
  };
}

export function kSelection(id: string, tested: number[], chosen: number, atEcutRy: number): SeedArtifact {
  return {
    id,
    kind: 'table',
    name: 'converged_settings',
    creatorTool: 'select_converged_settings',
    value: {
      parameter: 'kspacing',
      chosenValue: chosen,
      chosen: { kSpacingPerAngstrom: chosen },
      toleranceMevPerAtom: 1,
      converged: true,
      tested: tested.map((v) => ({ value: v, energyEvPerAtom: -57, deltaMevPerAtom: 0.1 })),
    },
    meta: { settings: alSettings({ ecutwfcRy: atEcutRy, ecutrhoRy: 4 * atEcutRy }) },
  };
}

export function structureArtifact(id: string, s: Structure = fccAl(), name = 'bulk_structure'): SeedArtifact {
  return { id, kind: 'structure', name, value: s, creatorTool: 'build_bulk' };
}

export function pseudoTable(id: string, wfc?: number, rho?: number): SeedArtifact {
  return {
    id,
    kind: 'table',
    name: 'pseudopotentials',
    creatorTool: 'select_pseudopotentials',
    value: {
      directory: '/usr/share/espresso/pseudo',
      byElement: {
        Al: {
          file: 'Al.pbe-nl-rrkjus_psl.1.0.0.UPF',
          sha256: 'bb22',
          ...(wfc !== undefined ? { suggestedEcutwfcRy: wfc } : {}),
          ...(rho !== undefined ? { suggestedEcutrhoRy: rho } : {}),
        },
      },
    },
  };
}

export function proposed(
  tool: string,
  args: Record<string, unknown>,
  refs: Record<string, string> = {},
  reasons: Record<string, string> = {},
): ProposedCall {
  return { tool, args, refs, reasons, context: 'test', agent: { role: 'dft' } };
}

/** A converging cutoff sweep of fcc Al: E(ecut) approaches -57.2 eV. */
export function cutoffSweep(firstId: number, cutoffs = [20, 25, 30, 35, 40], over: Partial<PhysicalSettings> = {}): SeedArtifact[] {
  return cutoffs.map((ecut, i) =>
    energy(`a-${firstId + i}`, -57.2 + 0.5 * Math.exp(-(ecut - 20) / 2), { settings: { ecutwfcRy: ecut, ecutrhoRy: 4 * ecut, ...over } }),
  );
}

/** EOS energies of fcc Al around V0 = 16.5 Å^3 (a parabola, enough for the rules and a fit). */
export function eosSeries(firstId: number, volumes = [15.0, 15.75, 16.5, 17.25, 18.0]): SeedArtifact[] {
  return volumes.map((v, i) => energy(`a-${firstId + i}`, -57.2 + 0.05 * (v - 16.5) ** 2 + 0.002 * (v - 16.5) ** 3, { volume: v }));
}
