/**
 * BEEF-vdW ensemble statistics. Each of the (usually 2,000) ensemble members is one
 * functional; a quantity computed with each member gives a spread that estimates the
 * functional's error (J. Wellendorff et al., Phys. Rev. B 85, 235149 (2012)). For site
 * preference, ΔBE_i = E_ads,i(ontop) − E_ads,i(fcc) per member, and the fraction of members
 * with ΔBE_i > 0 is the ensemble's confidence that the fcc hollow is favoured.
 *
 * σ is the ensemble standard deviation with the 1/N normalisation the BEEF papers use for
 * the ensemble spread (the members are the population, not a sample).
 */
import { DftScienceError } from './scienceError';

export interface EnsembleStatistics {
  count: number;
  meanEv: number;
  sigmaEv: number;
  minEv: number;
  maxEv: number;
  /** Fraction of members with a value > 0 (for ΔBE: members favouring fcc). */
  fractionPositive: number;
}

export function ensembleStatistics(valuesEv: number[]): EnsembleStatistics {
  checkValues(valuesEv, 'ensemble values');
  const n = valuesEv.length;
  const mean = valuesEv.reduce((s, x) => s + x, 0) / n;
  const variance = valuesEv.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
  return {
    count: n,
    meanEv: mean,
    sigmaEv: Math.sqrt(variance),
    minEv: Math.min(...valuesEv),
    maxEv: Math.max(...valuesEv),
    fractionPositive: valuesEv.filter((x) => x > 0).length / n,
  };
}

/**
 * Member-by-member ΔBE from the ensembles of the four (or six) energies. All arrays must
 * list the same members in the same order: the k-th value of each is the same functional.
 */
export function ensembleDeltaBindingEnergy(e: {
  ontopSlabWithAdsorbateEv: number[];
  fccSlabWithAdsorbateEv: number[];
  /** When the two sites share one clean slab and one gas reference these cancel; pass them if they differ. */
  ontopSlabEv?: number[];
  fccSlabEv?: number[];
}): number[] {
  const arrays = Object.entries(e).filter(([, v]) => v !== undefined) as [string, number[]][];
  arrays.forEach(([name, v]) => checkValues(v, name));
  const n = arrays[0][1].length;
  const odd = arrays.find(([, v]) => v.length !== n);
  if (odd) {
    throw new DftScienceError(
      `ensembles differ in size: ${arrays.map(([k, v]) => `${k} ${v.length}`).join(', ')}. Each must hold the same members (2000 for BEEF-vdW) in the same order.`,
      { sizes: Object.fromEntries(arrays.map(([k, v]) => [k, v.length])) },
    );
  }
  if ((e.ontopSlabEv === undefined) !== (e.fccSlabEv === undefined)) {
    throw new DftScienceError('pass both ontopSlabEv and fccSlabEv, or neither (a shared clean slab cancels).', {});
  }
  return e.ontopSlabWithAdsorbateEv.map(
    (x, k) => x - e.fccSlabWithAdsorbateEv[k] - (e.ontopSlabEv ? e.ontopSlabEv[k] - e.fccSlabEv![k] : 0),
  );
}

export interface HistogramBin {
  /** Inclusive lower edge, eV. */
  fromEv: number;
  /** Exclusive upper edge (inclusive for the last bin), eV. */
  toEv: number;
  count: number;
}

/** Equal-width bins over [min, max] (or a given range), for plotting an ensemble. */
export function histogram(valuesEv: number[], binCount: number, range?: [number, number]): HistogramBin[] {
  checkValues(valuesEv, 'histogram values');
  if (!Number.isInteger(binCount) || binCount < 1) {
    throw new DftScienceError(`bin count ${binCount} is not a positive integer; pass e.g. 40.`, { binCount });
  }
  let [lo, hi] = range ?? [Math.min(...valuesEv), Math.max(...valuesEv)];
  if (!(hi > lo)) {
    if (range) throw new DftScienceError(`histogram range [${lo}, ${hi}] is empty; pass [low, high] with low < high, in eV.`, { range });
    // all values equal: one bin around them
    lo -= 0.5e-3;
    hi += 0.5e-3;
  }
  const width = (hi - lo) / binCount;
  const bins: HistogramBin[] = Array.from({ length: binCount }, (_, i) => ({
    fromEv: lo + i * width,
    toEv: lo + (i + 1) * width,
    count: 0,
  }));
  bins[binCount - 1].toEv = hi;
  for (const x of valuesEv) {
    if (x < lo || x > hi) continue;
    const i = Math.min(binCount - 1, Math.floor((x - lo) / width));
    bins[i].count++;
  }
  return bins;
}

function checkValues(v: number[], what: string): void {
  if (!Array.isArray(v) || v.length === 0) {
    throw new DftScienceError(`${what}: no values. Pass the ensemble energies in eV (the BEEFens block of a calculation='ensemble' run).`, {
      what,
    });
  }
  const bad = v.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new DftScienceError(`${what}: member ${bad} is ${v[bad]}, not a finite number in eV.`, { what, index: bad });
}
