/**
 * A number with the wrong unit label: the value is right but it is the record expressed in
 * another unit of the same kind (a total energy in Ry labelled eV, a lattice constant in Å
 * labelled bohr). That is a unit error, for whoever wrote it to fix by relabelling or
 * converting, not a different value; the reference and claim checks report it as such.
 */
import { allowedDifference } from '../provenance/references';
import { convert, sameDimension, unitsLike, type Unit } from '../units';
import { halfLastDigit } from './statedPrecision';

/** Within noise, or within the precision the given number states. */
const agrees = (given: number, expected: number): boolean =>
  Math.abs(given - expected) <= Math.max(allowedDifference(expected), halfLastDigit(given));

/**
 * The unit `given` is really in, when it is not `labelled` but another unit of the same
 * kind in which the record (`recorded` in `recordedUnit`) reads as `given`; otherwise undefined
 * (the number agrees in its own label, or in no unit: a different value).
 */
export function mislabelledUnit(given: number, labelled: Unit, recorded: number, recordedUnit: Unit): Unit | undefined {
  if (!Number.isFinite(given) || !Number.isFinite(recorded) || given === 0 || recorded === 0) return undefined;
  if (!sameDimension(labelled, recordedUnit)) return undefined;
  if (agrees(given, convert(recorded, recordedUnit, labelled))) return undefined;
  return unitsLike(labelled).find((u) => u !== labelled && agrees(given, convert(recorded, recordedUnit, u)));
}
