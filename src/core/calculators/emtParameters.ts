/**
 * Effective-medium theory parameters.
 *
 * Metals (Al, Cu, Ag, Au, Ni, Pd, Pt): K. W. Jacobsen, P. Stoltze and J. K. Nørskov,
 * "A semi-empirical effective medium theory for metals and alloys", Surf. Sci. 366,
 * 394-402 (1996), Table 1.
 *
 * H, C, N, O: the extension distributed with ASE's EMT calculator (ase.calculators.emt,
 * ASE 3.22), which states that these elements are not well described by EMT and that
 * the values are not for serious use. They let adsorbates be screened on EMT metals;
 * adsorption energies from them are not physical numbers.
 *
 * Units as published: E0, V0 in eV; s0 in bohr; eta2, kappa, lambda in 1/bohr; n0 in 1/bohr^3.
 */

export interface EmtElementParameters {
  /** Cohesive energy (negative), eV. */
  e0Ev: number;
  /** Neutral-sphere radius, bohr. */
  s0Bohr: number;
  /** Pair-potential strength, eV. */
  v0Ev: number;
  eta2PerBohr: number;
  kappaPerBohr: number;
  lambdaPerBohr: number;
  /** Density parameter, 1/bohr^3. */
  n0PerBohr3: number;
  source: 'Jacobsen1996' | 'ASE-light-elements';
}

const p = (
  e0Ev: number,
  s0Bohr: number,
  v0Ev: number,
  eta2PerBohr: number,
  kappaPerBohr: number,
  lambdaPerBohr: number,
  n0PerBohr3: number,
  source: EmtElementParameters['source'],
): EmtElementParameters => ({ e0Ev, s0Bohr, v0Ev, eta2PerBohr, kappaPerBohr, lambdaPerBohr, n0PerBohr3, source });

export const EMT_PARAMETERS: Readonly<Record<string, EmtElementParameters>> = {
  Al: p(-3.28, 3.0, 1.493, 1.24, 2.0, 1.169, 0.007, 'Jacobsen1996'),
  Cu: p(-3.51, 2.67, 2.476, 1.652, 2.74, 1.906, 0.0091, 'Jacobsen1996'),
  Ag: p(-2.96, 3.01, 2.132, 1.652, 2.79, 1.892, 0.00547, 'Jacobsen1996'),
  Au: p(-3.8, 3.0, 2.321, 1.674, 2.873, 2.182, 0.00703, 'Jacobsen1996'),
  Ni: p(-4.44, 2.6, 3.673, 1.669, 2.757, 1.948, 0.0103, 'Jacobsen1996'),
  Pd: p(-3.9, 2.87, 2.773, 1.818, 3.107, 2.155, 0.00688, 'Jacobsen1996'),
  Pt: p(-5.85, 2.9, 4.067, 1.812, 3.145, 2.192, 0.00802, 'Jacobsen1996'),
  H: p(-3.21, 1.31, 0.132, 2.652, 2.79, 3.892, 0.00547, 'ASE-light-elements'),
  C: p(-3.5, 1.81, 0.332, 1.652, 2.79, 1.892, 0.01322, 'ASE-light-elements'),
  N: p(-5.1, 1.88, 0.132, 1.652, 2.79, 1.892, 0.01222, 'ASE-light-elements'),
  O: p(-4.6, 1.95, 0.332, 1.652, 2.79, 1.892, 0.0085, 'ASE-light-elements'),
};

export const EMT_ELEMENTS: readonly string[] = Object.keys(EMT_PARAMETERS);

/** β = (16π/3)^(1/3) / √2, rounded to 1.809 as in the published parameterisation. */
export const EMT_BETA = 1.809;
