/**
 * Equation-of-state fits of E(V): V0 (Å^3), E0 (eV), B0 (GPa), B0' and the residuals.
 *
 * Birch–Murnaghan (3rd order) and SJ are fitted by linear least squares (each is a cubic
 * in a power of V); Murnaghan and Vinet by Levenberg–Marquardt started from the
 * Birch–Murnaghan fit. A fit whose minimum lies outside the sampled volumes is refused,
 * with the side to extend: an extrapolated V0 is not a measurement.
 */
import { EV_PER_ANGSTROM3_IN_GPA } from '../units';
import { birchMurnaghanEnergy, murnaghanEnergy, vinetEnergy, type EosParameters } from './eosForms';
import { fitNonlinearEos } from './eosNonlinear';
import { evaluateCubicInVolumePower, fitCubicInVolumePower, type CubicInVolumePower } from './eosPolynomial';
import { DftScienceError } from './scienceError';

export type EosForm = 'birch-murnaghan' | 'murnaghan' | 'vinet' | 'sj';
export const EOS_FORMS = ['birch-murnaghan', 'murnaghan', 'vinet', 'sj'] as const satisfies readonly EosForm[];

export interface EosPoint {
  /** Cell volume, Å^3 (the same cell for every point). */
  volumeA3: number;
  /** Total energy of that cell, eV. */
  energyEv: number;
}

export interface EosFit {
  form: EosForm;
  v0A3: number;
  e0Ev: number;
  b0Gpa: number;
  b0Prime: number;
  /** E_fit(V_i) - E_i for each input point, in input order, eV. */
  residualsEv: number[];
  rmsResidualEv: number;
  maxAbsResidualEv: number;
  sampledVolumesA3: [number, number];
  /** Things a careful reader should know, e.g. the lowest sampled energy is at an end of the range. */
  warnings: string[];
  /** Fitted energy at a volume (Å^3 → eV), for plots and checks. */
  energyAtEv: (volumeA3: number) => number;
}

/** The fewest points with at least one degree of freedom left for four parameters. */
export const MIN_EOS_POINTS = 5;

export function fitEos(points: EosPoint[], form: EosForm): EosFit {
  if (!EOS_FORMS.includes(form)) {
    throw new DftScienceError(`unknown equation of state "${form}". Use one of: ${EOS_FORMS.join(', ')}.`, { form });
  }
  checkPoints(points);
  const volumes = points.map((p) => p.volumeA3);
  const energies = points.map((p) => p.energyEv);

  const bm = fitCubicInVolumePower(volumes, energies, -2 / 3);
  let params: EosParameters;
  let energyAt: (v: number) => number;
  if (form === 'birch-murnaghan' || form === 'sj') {
    const fit = form === 'sj' ? fitCubicInVolumePower(volumes, energies, -1 / 3) : bm;
    if (!fit.ok) throw noMinimum(points, form);
    params = fit.parameters;
    const poly: CubicInVolumePower = fit.polynomial;
    energyAt = (v) => evaluateCubicInVolumePower(poly, v);
  } else {
    if (!bm.ok) throw noMinimum(points, form);
    const energyForm = form === 'murnaghan' ? murnaghanEnergy : vinetEnergy;
    const nl = fitNonlinearEos(volumes, energies, energyForm, bm.parameters);
    if (!(nl.restartDrift < 1e-5)) {
      throw new DftScienceError(
        `the ${form} fit did not converge (parameters still moved by ${(nl.restartDrift * 100).toPrecision(2)} % on restart) ` +
          `for volumes ${fmtList(volumes)} Å^3. Check the energies for an outlier, or use the birch-murnaghan form.`,
        { form, points },
      );
    }
    params = nl.parameters;
    const p = params;
    energyAt = (v) => energyForm(v, p);
  }

  if (![params.v0, params.b0, params.b0Prime, params.e0].every(Number.isFinite)) throw noMinimum(points, form);
  const [vMin, vMax] = [Math.min(...volumes), Math.max(...volumes)];
  if (!(params.v0 >= vMin && params.v0 <= vMax)) {
    const side = params.v0 < vMin ? 'smaller' : 'larger';
    throw new DftScienceError(
      `the ${form} minimum V0 = ${params.v0.toFixed(3)} Å^3 lies outside the sampled volumes ` +
        `${vMin.toFixed(3)}–${vMax.toFixed(3)} Å^3, so it is an extrapolation. Add points at ${side} volumes ` +
        `(e.g. scale the lattice constant ${side === 'smaller' ? 'down' : 'up'} by 1–2 %) until the lowest energy is inside the range.`,
      { form, v0A3: params.v0, sampledVolumesA3: [vMin, vMax], extendTowards: side },
    );
  }
  if (!(params.b0 > 0)) throw noMinimum(points, form);

  const residualsEv = points.map((p) => energyAt(p.volumeA3) - p.energyEv);
  const warnings: string[] = [];
  const lowest = energies.indexOf(Math.min(...energies));
  const order = [...volumes].sort((a, b) => a - b);
  if (volumes[lowest] === order[0] || volumes[lowest] === order[order.length - 1]) {
    warnings.push(
      `the lowest sampled energy is at the ${volumes[lowest] === order[0] ? 'smallest' : 'largest'} volume ` +
        `(${volumes[lowest]} Å^3): the minimum is inside the range only by the fit; centre the points on V0 for a reliable B0 and B0'.`,
    );
  }
  return {
    form,
    v0A3: params.v0,
    e0Ev: params.e0,
    b0Gpa: params.b0 * EV_PER_ANGSTROM3_IN_GPA,
    b0Prime: params.b0Prime,
    residualsEv,
    rmsResidualEv: Math.sqrt(residualsEv.reduce((s, r) => s + r * r, 0) / residualsEv.length),
    maxAbsResidualEv: Math.max(...residualsEv.map(Math.abs)),
    sampledVolumesA3: [vMin, vMax],
    warnings,
    energyAtEv: energyAt,
  };
}

export const fitBirchMurnaghan = (points: EosPoint[]) => fitEos(points, 'birch-murnaghan');
export const fitMurnaghan = (points: EosPoint[]) => fitEos(points, 'murnaghan');
export const fitVinet = (points: EosPoint[]) => fitEos(points, 'vinet');
export const fitSjPolynomial = (points: EosPoint[]) => fitEos(points, 'sj');

/** Energies of the four forms at known parameters (B0 in GPa), for synthetic data and plots. */
export function eosEnergyEv(
  form: Exclude<EosForm, 'sj'>,
  volumeA3: number,
  p: { e0Ev: number; v0A3: number; b0Gpa: number; b0Prime: number },
): number {
  const params: EosParameters = { e0: p.e0Ev, v0: p.v0A3, b0: p.b0Gpa / EV_PER_ANGSTROM3_IN_GPA, b0Prime: p.b0Prime };
  const f = form === 'birch-murnaghan' ? birchMurnaghanEnergy : form === 'murnaghan' ? murnaghanEnergy : vinetEnergy;
  return f(volumeA3, params);
}

function checkPoints(points: EosPoint[]): void {
  if (!Array.isArray(points) || points.length < MIN_EOS_POINTS) {
    throw new DftScienceError(
      `an EOS fit needs at least ${MIN_EOS_POINTS} (volume, energy) points; got ${Array.isArray(points) ? points.length : typeof points}. ` +
        'Run more volumes around the expected minimum (e.g. lattice constants scaled by 0.98–1.02).',
      { count: Array.isArray(points) ? points.length : undefined },
    );
  }
  points.forEach((p, i) => {
    if (!Number.isFinite(p.volumeA3) || p.volumeA3 <= 0) {
      throw new DftScienceError(`EOS point ${i}: volume ${p.volumeA3} Å^3 is not a positive number. Pass the cell volume in Å^3.`, {
        index: i,
        point: p,
      });
    }
    if (!Number.isFinite(p.energyEv)) {
      throw new DftScienceError(`EOS point ${i}: energy ${p.energyEv} eV is not a finite number. Pass the total energy in eV.`, {
        index: i,
        point: p,
      });
    }
  });
  const sorted = points.map((p) => p.volumeA3).sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] - sorted[i - 1] <= 1e-9 * sorted[i]) {
      throw new DftScienceError(
        `EOS volumes must be distinct; ${sorted[i]} Å^3 appears twice. Remove the duplicate or average its energies first.`,
        { volumeA3: sorted[i] },
      );
    }
  }
}

function noMinimum(points: EosPoint[], form: EosForm): DftScienceError {
  return new DftScienceError(
    `the ${form} fit of E(V) has no minimum with positive curvature for volumes ${fmtList(points.map((p) => p.volumeA3))} Å^3 ` +
      `and energies ${fmtList(points.map((p) => p.energyEv))} eV. The energies do not bracket a minimum: ` +
      'check that the points span both sides of the equilibrium volume and that no energy is an outlier.',
    { form, points },
  );
}

const fmtList = (xs: number[]) => `[${xs.map((x) => x.toPrecision(8)).join(', ')}]`;
