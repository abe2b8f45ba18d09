/**
 * Sanity bounds on what an objective may ask for, beyond each template's schema: values no
 * study needs (a 1e12 Ry cutoff, a 1e-9 1/Å k-spacing, a 2.7e9³ k-mesh) are refused with the
 * bound in the message, before anything is planned or submitted. Bounds go by the unit a
 * name carries (ecutwfcRy, kSpacingsPerAngstrom, vacuumAngstrom), so every workflow's
 * inputs get them. Numbers that are not numbers (YAML's .nan, .inf) are named as such.
 * Energies: Ry (cutoffs) and eV; lengths Å; k-spacings 1/Å with 2π.
 */

/** Largest objective file read (bytes): no study needs more; structures go in their own files. */
export const MAX_OBJECTIVE_FILE_BYTES = 256 * 1024;
/** Longest objective sentence (characters): it is read by the supervisor in every turn. */
export const MAX_OBJECTIVE_TEXT_CHARS = 10_000;

interface Bound {
  /** Which input names it covers. */
  names: RegExp;
  min?: number;
  max?: number;
  unit: string;
  why: string;
}

const BOUNDS: Bound[] = [
  {
    names: /^(ecutwfcRy|cutoffsRy|lowestCutoffRy)$/,
    max: 400,
    unit: 'Ry',
    why: 'the hardest pseudopotentials in common use suggest 100–150 Ry for ecutwfc, and a convergence sweep goes a little beyond',
  },
  { names: /^ecutrhoRy$/, max: 6400, unit: 'Ry', why: 'ecutrho is at most 16 × the largest ecutwfc (400 Ry)' },
  {
    names: /^kSpacings?PerAngstrom$/,
    min: 0.02,
    unit: '1/Å',
    why: '0.02 1/Å is already a ~135³ k-mesh for a one-atom fcc cell; converged lattice constants of the hardest metals need ~0.04',
  },
  {
    names: /^toleranceMevPerAtom$/,
    min: 0.01,
    unit: 'meV/atom',
    why: "a tighter tolerance is below the SCF's own noise, so a sweep would never end",
  },
  { names: /EvPerAngstrom$/, min: 1e-4, unit: 'eV/Å', why: 'forces are not converged below 1e-4 eV/Å by any SCF a study runs' },
  { names: /(?<!Per)Angstrom$/, max: 100, unit: 'Å', why: 'no cell, vacuum, box or height in a DFT study is 100 Å' },
];

const MAX_NUMBER = 1e6;
const MAX_ITEMS = 1000;
const MAX_STRING = 10_000;

const show = (x: number): string => (Number.isNaN(x) ? '.nan' : x === Infinity ? '.inf' : x === -Infinity ? '-.inf' : String(x));

/** Numbers that are not numbers (NaN, ±Infinity) anywhere in a parsed document, each with where it is. */
export function nonFiniteNumbers(data: unknown, at = ''): string[] {
  if (typeof data === 'number') {
    if (Number.isFinite(data)) return [];
    return [`${at || '(top level)'}: ${show(data)} is ${Number.isNaN(data) ? 'not a number (NaN)' : 'infinite'}; write a finite number.`];
  }
  if (Array.isArray(data)) return data.flatMap((x, i) => nonFiniteNumbers(x, `${at}[${i}]`));
  if (data && typeof data === 'object') return Object.entries(data).flatMap(([k, v]) => nonFiniteNumbers(v, at ? `${at}.${k}` : k));
  return [];
}

/** Every input beyond what a study needs, as "where = value: bound (why)". */
export function boundProblems(inputs: unknown, at = 'inputs', name = ''): string[] {
  if (typeof inputs === 'number') {
    if (!Number.isFinite(inputs)) return nonFiniteNumbers(inputs, at);
    const b = BOUNDS.find((x) => x.names.test(name));
    if (b?.max !== undefined && inputs > b.max)
      return [`${at} = ${inputs} ${b.unit} is above ${b.max} ${b.unit}, more than any study needs (${b.why}). Use a smaller value.`];
    if (b?.min !== undefined && inputs > 0 && inputs < b.min)
      return [`${at} = ${inputs} ${b.unit} is below ${b.min} ${b.unit}, finer than any study needs (${b.why}). Use a larger value.`];
    if (Math.abs(inputs) > MAX_NUMBER) return [`${at} = ${inputs} is beyond ±${MAX_NUMBER}: no input of any workflow needs such a number.`];
    return [];
  }
  if (typeof inputs === 'string') {
    return inputs.length > MAX_STRING
      ? [`${at} is ${inputs.length} characters long, over ${MAX_STRING}: put long content in a file and name the file.`]
      : [];
  }
  if (Array.isArray(inputs)) {
    if (inputs.length > MAX_ITEMS) return [`${at} has ${inputs.length} items, over ${MAX_ITEMS}: no workflow input needs that many.`];
    return inputs.flatMap((x, i) => boundProblems(x, `${at}[${i}]`, name));
  }
  if (inputs && typeof inputs === 'object') return Object.entries(inputs).flatMap(([k, v]) => boundProblems(v, `${at}.${k}`, k));
  return [];
}

/**
 * The first byte that is not UTF-8, or undefined when all are: a file with other bytes is
 * refused rather than read with replacement characters.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // overlong 3-byte forms, UTF-16 surrogates, and code points above U+10FFFF
    if (need === 2 && ((b === 0xe0 && bytes[i + 1]! < 0xa0) || (b === 0xed && bytes[i + 1]! > 0x9f))) return i;
    if (need === 3 && ((b === 0xf0 && bytes[i + 1]! < 0x90) || (b === 0xf4 && bytes[i + 1]! > 0x8f))) return i;
    i += need + 1;
  }
  return undefined;
}
