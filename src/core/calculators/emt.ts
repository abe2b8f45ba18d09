/**
 * Effective-medium theory (Jacobsen, Stoltze & Nørskov, Surf. Sci. 366, 394 (1996)):
 * each atom's energy is the cohesive function of its neutral-sphere radius, set by the
 * embedding density from its neighbours, plus an atomic-sphere pair correction. The
 * interactions are smoothly cut off between the third and fourth fcc shells of the
 * largest element in the parameter table, so every structure sees the same cutoff.
 *
 * The energy zero is each element's fcc bulk at its equilibrium volume: an isolated atom
 * has energy -E0 (its cohesive energy). Fast and analytic: the embedded default for
 * testing searches, not for final numbers.
 */
import type { Structure, Vec3 } from '../dft/types';
import { BOHR_IN_ANGSTROM } from '../units';
import { volume } from './cellMath';
import { EMT_BETA, EMT_PARAMETERS, type EmtElementParameters } from './emtParameters';
import { NeighbourList } from './neighbourList';
import { CalculatorError, type CalculateOptions, type Calculator, type CalculatorResult, type CalculatorSettings } from './types';

interface ElementTerms {
  e0: number;
  s0: number;
  v0: number;
  eta2: number;
  kappa: number;
  lambda: number;
  n0: number;
  gamma1: number;
  gamma2: number;
}

const FCC_SHELLS = [12, 6, 24];

/** The global cutoff (Å) and the steepness (1/Å) of the Fermi-like cutoff function. */
function cutoffFor(params: Record<string, EmtElementParameters>): { rc: number; steepness: number } {
  const s0Max = Math.max(...Object.values(params).map((x) => x.s0Bohr)) * BOHR_IN_ANGSTROM;
  const rc = EMT_BETA * s0Max * 0.5 * (Math.sqrt(3) + 2);
  const fourthShell = (rc * 4) / (Math.sqrt(3) + 2);
  return { rc, steepness: Math.log(9999) / (fourthShell - rc) };
}

export class EmtCalculator implements Calculator {
  readonly name = 'EMT';
  readonly settings: CalculatorSettings;
  private readonly rc: number;
  private readonly steepness: number;
  /** Neighbour-list cutoff: where the cutoff function has fallen to ~1e-5 of its value. */
  readonly listCutoffAngstrom: number;
  private readonly terms = new Map<string, ElementTerms>();
  private readonly neighbours: NeighbourList;

  constructor() {
    const { rc, steepness } = cutoffFor(EMT_PARAMETERS as Record<string, EmtElementParameters>);
    this.rc = rc;
    this.steepness = steepness;
    this.listCutoffAngstrom = rc + 0.5;
    this.neighbours = new NeighbourList(this.listCutoffAngstrom, 0.4);
    this.settings = {
      method: 'emt',
      production: false,
      details: { parameters: 'Jacobsen, Stoltze & Nørskov 1996; H, C, N, O as extended in ASE', cutoffAngstrom: Number(rc.toFixed(4)) },
    };
  }

  /** Neighbour-list rebuilds so far (they are skipped while atoms stay within the skin). */
  get neighbourListBuilds(): number {
    return this.neighbours.builds;
  }

  private theta(r: number): { theta: number; x: number } {
    const x = Math.exp(this.steepness * (r - this.rc));
    return { theta: 1 / (1 + x), x };
  }

  private termsOf(symbol: string): ElementTerms {
    const cached = this.terms.get(symbol);
    if (cached) return cached;
    const p = EMT_PARAMETERS[symbol];
    if (!p) {
      throw new CalculatorError(
        'EMT',
        `no EMT parameters for element "${symbol}"; EMT covers ${Object.keys(EMT_PARAMETERS).join(', ')}. Use pw.x or an i-PI engine for other elements.`,
      );
    }
    const s0 = p.s0Bohr * BOHR_IN_ANGSTROM;
    const eta2 = p.eta2PerBohr / BOHR_IN_ANGSTROM;
    const kappa = p.kappaPerBohr / BOHR_IN_ANGSTROM;
    let gamma1 = 0;
    let gamma2 = 0;
    FCC_SHELLS.forEach((count, k) => {
      const r = s0 * EMT_BETA * Math.sqrt(k + 1);
      const w = (count / 12) * this.theta(r).theta;
      gamma1 += w * Math.exp(-eta2 * (r - EMT_BETA * s0));
      gamma2 += w * Math.exp((-kappa / EMT_BETA) * (r - EMT_BETA * s0));
    });
    const t: ElementTerms = {
      e0: p.e0Ev,
      s0,
      v0: p.v0Ev,
      eta2,
      kappa,
      lambda: p.lambdaPerBohr / BOHR_IN_ANGSTROM,
      n0: p.n0PerBohr3 / BOHR_IN_ANGSTROM ** 3,
      gamma1,
      gamma2,
    };
    this.terms.set(symbol, t);
    return t;
  }

  async calculate(structure: Structure, opts: CalculateOptions = {}): Promise<CalculatorResult> {
    return this.compute(structure, opts.stress ?? false);
  }

  /** Synchronous energy, forces and (for 3D-periodic cells) stress. */
  compute(structure: Structure, withStress = false): CalculatorResult {
    const n = structure.symbols.length;
    const terms = structure.symbols.map((s) => this.termsOf(s));
    const pairs = this.neighbours.update(structure);
    const pos = structure.positions;
    const sigma1 = new Float64Array(n);
    const forces = new Float64Array(3 * n);
    const virial = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    let energy = 0;
    const m = pairs.count;
    const dx = new Float64Array(m),
      dy = new Float64Array(m),
      dz = new Float64Array(m),
      rr = new Float64Array(m);
    const addPairForce = (k: number, i: number, j: number, dEdr: number) => {
      const r = rr[k]!;
      const fx = (dEdr * dx[k]!) / r,
        fy = (dEdr * dy[k]!) / r,
        fz = (dEdr * dz[k]!) / r;
      forces[3 * i] += fx;
      forces[3 * i + 1] += fy;
      forces[3 * i + 2] += fz;
      forces[3 * j] -= fx;
      forces[3 * j + 1] -= fy;
      forces[3 * j + 2] -= fz;
      if (withStress) {
        const d = [dx[k]!, dy[k]!, dz[k]!],
          f = [fx, fy, fz];
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) virial[3 * a + b] += f[a]! * d[b]!;
      }
    };

    // Pass 1: embedding densities and the pair correction.
    for (let k = 0; k < m; k++) {
      const i = pairs.first[k]!,
        j = pairs.second[k]!;
      dx[k] = pos[j]![0] + pairs.offset[3 * k]! - pos[i]![0];
      dy[k] = pos[j]![1] + pairs.offset[3 * k + 1]! - pos[i]![1];
      dz[k] = pos[j]![2] + pairs.offset[3 * k + 2]! - pos[i]![2];
      const r = Math.sqrt(dx[k]! * dx[k]! + dy[k]! * dy[k]! + dz[k]! * dz[k]!);
      rr[k] = r;
      if (r >= this.listCutoffAngstrom) continue;
      if (r < 1e-8) {
        throw new CalculatorError(
          'EMT',
          `atoms ${i} (${structure.symbols[i]}) and ${j} (${structure.symbols[j]}) sit on the same point; separate them before computing energies.`,
        );
      }
      const ti = terms[i]!,
        tj = terms[j]!;
      const chi = tj.n0 / ti.n0;
      const { theta, x } = this.theta(r);
      const yi = (0.5 * ti.v0 * Math.exp(-tj.kappa * (r / EMT_BETA - tj.s0)) * chi * theta) / ti.gamma2;
      const yj = (0.5 * tj.v0 * Math.exp(-ti.kappa * (r / EMT_BETA - ti.s0)) * theta) / chi / tj.gamma2;
      energy -= yi + yj;
      addPairForce(k, i, j, (yi * tj.kappa + yj * ti.kappa) / EMT_BETA + (yi + yj) * this.steepness * theta * x);
      sigma1[i] += (Math.exp(-tj.eta2 * (r - EMT_BETA * tj.s0)) * chi * theta) / ti.gamma1;
      sigma1[j] += (Math.exp(-ti.eta2 * (r - EMT_BETA * ti.s0)) * theta) / chi / tj.gamma1;
    }

    // Cohesive function of each atom's neutral-sphere radius, and its slope in sigma1.
    const dEdSigma = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      const t = terms[a]!;
      if (!(sigma1[a]! > 0)) {
        energy -= t.e0;
        continue;
      }
      const ds = -Math.log(sigma1[a]! / 12) / (EMT_BETA * t.eta2);
      const x = t.lambda * ds;
      const y = Math.exp(-x);
      const z = 6 * t.v0 * Math.exp(-t.kappa * ds);
      dEdSigma[a] = (x * y * t.e0 * t.lambda + t.kappa * z) / (sigma1[a]! * EMT_BETA * t.eta2);
      energy += t.e0 * ((1 + x) * y - 1) + z;
    }

    // Pass 2: forces from the embedding densities.
    for (let k = 0; k < m; k++) {
      const r = rr[k]!;
      if (r >= this.listCutoffAngstrom) continue;
      const i = pairs.first[k]!,
        j = pairs.second[k]!;
      const ti = terms[i]!,
        tj = terms[j]!;
      const chi = tj.n0 / ti.n0;
      const { theta, x } = this.theta(r);
      const yi = ((Math.exp(-tj.eta2 * (r - EMT_BETA * tj.s0)) * chi) / ti.gamma1) * theta * dEdSigma[i]!;
      const yj = (Math.exp(-ti.eta2 * (r - EMT_BETA * ti.s0)) / chi / tj.gamma1) * theta * dEdSigma[j]!;
      addPairForce(k, i, j, -(yi * tj.eta2 + yj * ti.eta2 + (yi + yj) * this.steepness * theta * x));
    }

    const result: CalculatorResult = {
      energyEv: energy,
      forcesEvPerAngstrom: Array.from({ length: n }, (_, a) => [forces[3 * a]!, forces[3 * a + 1]!, forces[3 * a + 2]!] as Vec3),
    };
    if (withStress) {
      if (!structure.pbc.every(Boolean)) {
        throw new CalculatorError(
          'EMT',
          `stress needs a cell periodic in all three directions; this structure has pbc=${JSON.stringify(structure.pbc)}.`,
        );
      }
      const v = volume(structure.cell);
      result.stressEvPerAngstrom3 = [0, 1, 2].map((a) => [0, 1, 2].map((b) => (virial[3 * a + b]! + virial[3 * b + a]!) / (2 * v))) as [
        Vec3,
        Vec3,
        Vec3,
      ];
    }
    return result;
  }
}
