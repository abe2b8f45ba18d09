/**
 * The pressure side of convergence for a lattice constant: what a pressure error does to the
 * equilibrium lattice constant, and the bulk modulus that converts one into the other, read
 * from pw.x's pressures at a few strained cells (a "probe"). Pressures in kbar (pw.x's unit),
 * bulk moduli in GPa (1 GPa = 10 kbar), volumes in Å³, lattice shifts in % of a.
 *
 * A constant pressure offset ΔP moves the equilibrium volume by ΔV/V ≈ ΔP/B0 and so the
 * lattice constant by Δa/a ≈ ΔP/(3·B0).
 */
import { DftScienceError } from './scienceError';

/** |ΔP|/(3·B) as a percentage of the lattice constant. */
export function latticeShiftPercent(deltaKbar: number, bulkModulusGPa: number): number {
  return (100 * Math.abs(deltaKbar)) / (3 * bulkModulusGPa * 10);
}

/** The pressure difference (kbar) that moves the lattice constant by `percent` % at bulk modulus B. */
export function pressureForLatticeShift(percent: number, bulkModulusGPa: number): number {
  return (3 * bulkModulusGPa * 10 * percent) / 100;
}

/**
 * What a sweep's choice costs in the lattice constant, read from the pressures of the same
 * runs: the chosen value's pressure differs from the finest value's by ΔP at the same cell,
 * so the lattice constant moves by about ΔP/(3·B0). With the energy criterion this is an
 * a-posteriori check (B0 from the EOS fit); the pressure criterion selects on it.
 */
export function latticeShiftFromPressure(
  tested: { value: number; pressureKbar?: number; pulayKbar?: number }[],
  chosenValue: number,
  finestValue: number,
  b0GPa: number,
): { chosenKbar: number; finestKbar: number; deltaKbar: number; shiftPercent: number } | undefined {
  // the pressure a constant-cutoff E(V) sees: pw.x's plus the Pulay term, where the sweep estimated one
  const at = (v: number) => {
    const t = tested.find((x) => x.value === v);
    return t?.pressureKbar === undefined ? undefined : t.pressureKbar + (t.pulayKbar ?? 0);
  };
  const chosen = at(chosenValue);
  const finest = at(finestValue);
  if (chosen === undefined || finest === undefined || !(b0GPa > 0)) return undefined;
  const deltaKbar = chosen - finest;
  return { chosenKbar: chosen, finestKbar: finest, deltaKbar, shiftPercent: latticeShiftPercent(deltaKbar, b0GPa) };
}

/** The bulk modulus a probe gives, and how it was read. */
export interface BulkModulusEstimate {
  /** The value used to convert a pressure tolerance: B at the probed cell, lowered toward zero pressure when that cell is compressed. */
  gpa: number;
  /** −dP/dlnV at the probed cells (least squares over the points), GPa. */
  atCellGPa: number;
  /** The pressure at the probe's middle volume (interpolated), GPa. */
  pressureGPa: number;
  /** B′ assumed for the zero-pressure correction (used only when the cell is compressed). */
  assumedB0Prime: number;
  points: { volumeAngstrom3: number; pressureKbar: number }[];
  note: string;
}

/** B′ of most elemental solids lies between 3.5 and 6; 4 is used for the correction, which only ever lowers B. */
const ASSUMED_B0_PRIME = 4;

/**
 * B from pw.x's pressures at two or more volumes of the same crystal and settings: B = −dP/dlnV
 * by least squares. The sweep's cell is the starting lattice constant, not the equilibrium: where
 * it is compressed (P > 0) B there exceeds B0 by about B′·P, so B0 ≈ B − 4·P (never below B/2);
 * where it is expanded B is below B0 and is kept, which only tightens the tolerance.
 */
export function bulkModulusFromPressures(points: { volumeAngstrom3: number; pressureKbar: number }[]): BulkModulusEstimate {
  const usable = points.filter((p) => Number.isFinite(p.volumeAngstrom3) && p.volumeAngstrom3 > 0 && Number.isFinite(p.pressureKbar));
  const volumes = [...new Set(usable.map((p) => p.volumeAngstrom3))];
  if (volumes.length < 2) {
    throw new DftScienceError(
      `a bulk modulus needs pressures at two or more volumes; got ${usable.length} point(s) at ${volumes.length} volume(s)` +
        `${points.length > usable.length ? ` (${points.length - usable.length} without a pressure: run them with tstress)` : ''}. ` +
        'Run the probe (the crystal scaled by 0.99, 1 and 1.01 at one setting) with pw.x printing the stress.',
      { points },
    );
  }
  const x = usable.map((p) => Math.log(p.volumeAngstrom3));
  const y = usable.map((p) => p.pressureKbar / 10); // GPa
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
  const sxy = x.reduce((s, v, i) => s + (v - mx) * (y[i]! - my), 0);
  const sxx = x.reduce((s, v) => s + (v - mx) ** 2, 0);
  const atCell = -sxy / sxx;
  if (!(atCell > 0)) {
    throw new DftScienceError(
      `the probe's pressures do not fall as the volume grows (−dP/dlnV = ${atCell.toFixed(2)} GPa from ${usable.map((p) => `${p.pressureKbar} kbar at ${p.volumeAngstrom3.toFixed(3)} Å³`).join(', ')}), ` +
        'so no bulk modulus can be read from them. Check that the probe scales the crystal and that its SCF runs converged.',
      { points: usable },
    );
  }
  const pressure = my; // at the mean ln V, the middle of a symmetric probe
  const corrected = pressure > 0 ? Math.max(atCell / 2, atCell - ASSUMED_B0_PRIME * pressure) : atCell;
  const note =
    pressure > 0
      ? `−dP/dlnV = ${atCell.toPrecision(4)} GPa at the probed cell, which is compressed (P = ${pressure.toPrecision(3)} GPa); B0 ≈ B − ${ASSUMED_B0_PRIME}·P = ${corrected.toPrecision(4)} GPa`
      : `−dP/dlnV = ${atCell.toPrecision(4)} GPa at the probed cell (P = ${pressure.toPrecision(3)} GPa, not compressed: used as it is, which can only tighten the tolerance)`;
  return { gpa: corrected, atCellGPa: atCell, pressureGPa: pressure, assumedB0Prime: ASSUMED_B0_PRIME, points: usable, note };
}

/** 1 eV/Å³ in kbar. */
const KBAR_PER_EV_PER_A3 = 1602.1766;

/**
 * The Pulay term of each run of a cutoff sweep, kbar: pw.x's stress is the derivative at a fixed
 * set of plane waves, but an equation of state at a fixed cutoff adds or drops plane waves as the
 * cell changes, and so sees P + (2/3)(Ecut/V)|dE/dEcut|. The slope is read from the sweep's own
 * energies (central differences inside, one-sided at the ends). Without it, a pressure that has
 * settled says nothing of the E(V) a constant-cutoff EOS fits (fcc Al, Al.pz-vbc, 20 Ry: pw.x's
 * pressure within 1.4 kbar of 60 Ry, the EOS's a 0.07 % off; the term is 4.4 kbar there).
 * Energies per cell in eV, cutoffs in Ry, volumes in Å³; runs in any order, results in that order.
 */
export function pulayPressuresKbar(runs: { ecutwfcRy: number; energyEv: number; volumeAngstrom3: number }[]): number[] {
  const order = runs.map((_, i) => i).sort((i, j) => runs[i]!.ecutwfcRy - runs[j]!.ecutwfcRy);
  const out = new Array<number>(runs.length).fill(0);
  if (runs.length < 2) return out;
  order.forEach((idx, k) => {
    const lo = runs[order[Math.max(0, k - 1)]!]!;
    const hi = runs[order[Math.min(order.length - 1, k + 1)]!]!;
    const slope = (hi.energyEv - lo.energyEv) / (hi.ecutwfcRy - lo.ecutwfcRy); // eV/Ry
    const r = runs[idx]!;
    out[idx] = (((2 / 3) * r.ecutwfcRy * Math.abs(slope)) / r.volumeAngstrom3) * KBAR_PER_EV_PER_A3;
  });
  return out;
}
