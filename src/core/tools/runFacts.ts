/**
 * What run_pw records of a relaxation and of a spin-polarised run in its total_energy's meta,
 * so tier-1 rules can check a relaxation's thresholds and a magnetization claim from the
 * provenance alone: whether the output shows the relaxation converged (forces, and stress for
 * a vc-relax, within the thresholds it states), and the total, absolute and site moments; and an SCF's forces,
 * which a sweep judged by the force criterion compares.
 */
import type { PwOutput } from '../dft/qe/output/types';
import { magneticOrder } from '../dft/magnetism';
import { summariseRelaxation, type CellDofree } from '../dft/relaxation';
import type { MagnetizationFacts, RelaxationFacts } from '../artifacts/relaxation';
import type { PwInputValue } from '../artifacts/shapes';
import type { Vec3 } from '../dft/types';
import { convert } from '../units';

const RY_PER_BOHR_IN_EV_PER_ANGSTROM = convert(1, 'Ry/bohr', 'eV/Å');

export function relaxationFacts(
  input: Pick<PwInputValue, 'calculation' | 'options' | 'structure'>,
  out: PwOutput,
): RelaxationFacts | undefined {
  if (input.calculation !== 'relax' && input.calculation !== 'vc-relax') return undefined;
  if (!out.ionicSteps.length)
    return {
      calculation: input.calculation,
      converged: false,
      problems: ['the output lists no geometry: the relaxation did not start'],
      ...(out.failure ? { failureKind: out.failure.kind } : {}),
    };
  const s = summariseRelaxation(out, {
    ...(input.options?.cellDofree ? { cellDofree: input.options.cellDofree as CellDofree } : {}),
    ...(input.options?.targetPressureKbar !== undefined ? { targetPressureKbar: input.options.targetPressureKbar } : {}),
    ...(input.structure.fixed ? { fixed: input.structure.fixed } : {}),
  });
  const force = s.checks.find((c) => c.quantity === 'force');
  const stress = s.checks.find((c) => c.quantity === 'stress');
  return {
    calculation: s.calculation,
    converged: s.converged,
    problems: s.problems,
    ...(s.failure ? { failureKind: s.failure.kind } : {}),
    ...(s.maxForceEvPerAngstrom !== undefined ? { maxForceEvPerAngstrom: s.maxForceEvPerAngstrom } : {}),
    ...(force
      ? { forceThresholdEvPerAngstrom: force.threshold }
      : s.thresholds.forceEvPerAngstrom !== undefined
        ? { forceThresholdEvPerAngstrom: s.thresholds.forceEvPerAngstrom }
        : {}),
    ...(stress ? { stressDeviationKbar: stress.value, pressureThresholdKbar: stress.threshold } : {}),
    ...(s.targetPressureKbar !== undefined ? { targetPressureKbar: s.targetPressureKbar } : {}),
    ...(s.cellDofree ? { cellDofree: s.cellDofree } : {}),
    ...(s.bfgsSteps !== undefined ? { bfgsSteps: s.bfgsSteps } : {}),
  };
}

export function magnetizationFacts(nspin: number, out: PwOutput): MagnetizationFacts | undefined {
  if (nspin !== 2 || typeof out.totalMagnetization !== 'number' || out.absoluteMagnetization === undefined) return undefined;
  const sites = out.siteMoments?.map((m) => m.magnetization);
  return {
    totalBohrMagnetonPerCell: out.totalMagnetization,
    absoluteBohrMagnetonPerCell: out.absoluteMagnetization,
    ...(sites?.length ? { siteMomentsBohrMagneton: sites } : {}),
    order: sites?.length
      ? magneticOrder(sites, out.totalMagnetization)
      : Math.abs(out.totalMagnetization) >= 0.1
        ? 'ferromagnetic'
        : out.absoluteMagnetization >= 0.1
          ? 'antiferromagnetic'
          : 'non-magnetic',
  };
}

/**
 * The forces of an SCF as pw.x printed them (tprnfor), eV/Å, one row per atom in the structure's order, rounded
 * to 1e-6 eV/Å (pw.x prints 1e-8 Ry/bohr, 2.6e-7 eV/Å). Only for calculation = 'scf': a relaxation's forces
 * belong to its geometries, which its own facts summarise.
 */
export function scfForcesMeta(input: Pick<PwInputValue, 'calculation' | 'structure'>, out: PwOutput): { forcesEvPerAngstrom?: Vec3[] } {
  const f = out.forcesRyPerBohr;
  if (input.calculation !== 'scf' || !f?.length || f.length !== input.structure.symbols.length) return {};
  return { forcesEvPerAngstrom: f.map((row) => row.map((x) => Number((x * RY_PER_BOHR_IN_EV_PER_ANGSTROM).toFixed(6)) || 0) as Vec3) };
}

/** The meta fields run_pw adds for relaxations and spin-polarised runs (none for others). */
export function runFactsMeta(
  input: Pick<PwInputValue, 'calculation' | 'options' | 'structure' | 'settings'>,
  out: PwOutput,
): { relaxation?: RelaxationFacts; magnetization?: MagnetizationFacts; kpointCount?: number } {
  const relaxation = relaxationFacts(input, out);
  const magnetization = magnetizationFacts(input.settings.nspin, out);
  return {
    ...(relaxation ? { relaxation } : {}),
    ...(magnetization ? { magnetization } : {}),
    ...(out.settings.kPoints !== undefined ? { kpointCount: out.settings.kPoints } : {}),
  };
}
