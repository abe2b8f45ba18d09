/**
 * Choosing the slab: the quantity of interest (here ΔBE) computed on slabs that differ in
 * one dimension (layers, or vacuum) is compared with its value on the largest slab
 * tested. The chosen slab is the smallest one whose value, and the value of every larger
 * slab, lies within the tolerance of the largest: one lucky thin slab does not count.
 * When only the largest qualifies, the sweep has not shown convergence and no slab is chosen.
 */
import { DreamsError } from '../errors';

export type SlabDimension = 'layers' | 'vacuum';

export interface SlabVariant {
  layers: number;
  /** Vacuum on each side of the slab, Å. */
  vacuumAngstrom: number;
  fixedLayers: number;
  /** The converged quantity on this slab, eV. */
  valueEv: number;
  /** Reference of the slab structure (for the record). */
  slab: string;
  /** Reference of the value (for the record). */
  source: string;
}

export interface SlabSelection {
  dimension: SlabDimension;
  toleranceEv: number;
  /** Every variant, smallest first, with its deviation from the largest. */
  tested: (SlabVariant & { deviationEv: number })[];
  converged: boolean;
  /** The chosen variant (the largest when not converged, so a caller can still say what was tested). */
  chosen: SlabVariant;
  /** When not converged: one sentence on what to add. */
  advice?: string;
}

const sizeOf = (v: SlabVariant, d: SlabDimension): number => (d === 'layers' ? v.layers : v.vacuumAngstrom);

export class SlabSelectionError extends DreamsError<'science'> {
  override readonly name = 'SlabSelectionError';
  constructor(message: string) {
    super('science', message);
  }
}

export function selectConvergedSlab(variants: SlabVariant[], dimension: SlabDimension, toleranceEv: number): SlabSelection {
  if (!(toleranceEv > 0)) throw new SlabSelectionError(`tolerance ${toleranceEv} eV is not positive; pass e.g. 0.02 eV.`);
  if (variants.length < 2) {
    throw new SlabSelectionError(
      `a slab sweep needs at least two slabs that differ in ${dimension}; got ${variants.length}. Add slabs to the sweep.`,
    );
  }
  const other: SlabDimension = dimension === 'layers' ? 'vacuum' : 'layers';
  const fixedOther = new Set(variants.map((v) => sizeOf(v, other)));
  if (fixedOther.size > 1) {
    throw new SlabSelectionError(
      `a ${dimension} sweep must keep the ${other} fixed, but the slabs have ${other} ${[...fixedOther].join(', ')}. ` +
        `Sweep one dimension at a time (${dimension} at one ${other}).`,
    );
  }
  const sorted = [...variants].sort((a, b) => sizeOf(a, dimension) - sizeOf(b, dimension));
  const sizes = sorted.map((v) => sizeOf(v, dimension));
  if (new Set(sizes).size !== sizes.length) {
    throw new SlabSelectionError(
      `two slabs of the sweep have the same ${dimension} (${sizes.join(', ')}); each slab must differ in ${dimension}.`,
    );
  }
  const bad = sorted.find((v) => !Number.isFinite(v.valueEv));
  if (bad) throw new SlabSelectionError(`the value for the slab ${bad.slab} (${bad.source}) is ${bad.valueEv}, not a number in eV.`);
  const reference = sorted.at(-1)!;
  const tested = sorted.map((v) => ({ ...v, deviationEv: Math.abs(v.valueEv - reference.valueEv) }));
  // the smallest slab from which on every larger one stays within the tolerance
  let first = tested.length - 1;
  while (first > 0 && tested[first - 1]!.deviationEv <= toleranceEv) first--;
  const converged = first < tested.length - 1;
  const { deviationEv: _d, ...chosen } = tested[first]!;
  const step = sizes.length > 1 ? sizes.at(-1)! - sizes.at(-2)! : 1;
  return {
    dimension,
    toleranceEv,
    tested,
    converged,
    chosen,
    ...(converged
      ? {}
      : {
          advice:
            `only the largest slab (${dimension} ${sizes.at(-1)}) is within ${toleranceEv} eV of itself: convergence is not shown. ` +
            `Add slabs with ${dimension} ${sizes.at(-1)! + step} and ${sizes.at(-1)! + 2 * step}, or loosen the tolerance knowingly.`,
        }),
  };
}
