/**
 * Field names and numbers as a lab notebook writes them, for the artifact cards: a value's key
 * carries its unit as a suffix in the core's convention (`gapEv`, `forceEvPerAngstrom`,
 * `volumeAngstrom3`, `totalBohrMagnetonPerCell`), read here into a name and a unit ("gap", "eV");
 * each unit has one precision (energies in eV to the meV, total energies to 10 µeV, forces to
 * 0.1 meV/Å, moments to three significant digits), so one quantity reads the same on every card.
 * Pure (no DOM): the cards and the plots' legends use it, and unit tests run it in Node.
 */

/** Unit suffixes of value keys, longest first; a suffix counts only after a lower-case letter or digit. */
const UNIT_SUFFIXES: readonly (readonly [string, string])[] = [
  ['BohrMagnetonPerCell', 'μB/cell'],
  ['BohrMagnetonPerAtom', 'μB/atom'],
  ['PerInverseAngstrom', 'per Å⁻¹'],
  ['EvPerAngstrom3', 'eV/Å³'],
  ['EvPerAngstrom2', 'eV/Å²'],
  ['EvPerAngstrom', 'eV/Å'],
  ['BohrMagneton', 'μB'],
  ['MevPerAtom', 'meV/atom'],
  ['MeVPerAtom', 'meV/atom'],
  ['EvPerAtom', 'eV/atom'],
  ['PerAngstrom', '1/Å'],
  ['Angstrom3', 'Å³'],
  ['Angstrom2', 'Å²'],
  ['Angstrom', 'Å'],
  ['JPerM2', 'J/m²'],
  ['Seconds', 's'],
  ['Percent', '%'],
  ['Kbar', 'kbar'],
  ['Bohr', 'bohr'],
  ['GPa', 'GPa'],
  ['Mev', 'meV'],
  ['MeV', 'meV'],
  ['A3', 'Å³'],
  ['Ev', 'eV'],
  ['Ry', 'Ry'],
];

/** Words of a camelCase key written as a practitioner writes them. */
const WORDS: Record<string, string> = {
  scf: 'SCF',
  nscf: 'NSCF',
  dos: 'DOS',
  pdos: 'PDOS',
  vbm: 'VBM',
  cbm: 'CBM',
  fermi: 'Fermi',
  lowdin: 'Löwdin',
  kpoint: 'k-point',
  kpoints: 'k-points',
  bfgs: 'BFGS',
  eos: 'E(V)',
};

export interface FieldName {
  label: string;
  unit?: string;
}

/** `fermiEnergyEv` → "Fermi energy", eV; `kpointCount` → "k-point count"; QE's own names (`forc_conv_thr`) as they are. */
export function fieldName(key: string): FieldName {
  if (key.includes('_') || !/[A-Z]/.test(key)) return { label: WORDS[key] ?? key };
  let base = key;
  let unit: string | undefined;
  for (const [suffix, u] of UNIT_SUFFIXES) {
    if (key.length > suffix.length && key.endsWith(suffix) && /[a-z0-9]/.test(key[key.length - suffix.length - 1]!)) {
      base = key.slice(0, -suffix.length);
      unit = u;
      break;
    }
  }
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((w) => w.toLowerCase());
  const label = words.map((w) => WORDS[w] ?? w).join(' ');
  return unit ? { label, unit } : { label };
}

/** A number without a unit of ours: up to 6 significant digits, no trailing zeros. */
export function plainNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) return x.toExponential(4);
  return String(Number(x.toPrecision(6)));
}

/** Decimals per unit (a fixed count, so 6.738 and 6.7378 eV both read 6.738). */
const DECIMALS: Record<string, number> = {
  'eV/Å': 4,
  'eV/Å²': 4,
  'eV/Å³': 5,
  'eV/atom': 4,
  'meV/atom': 2,
  meV: 1,
  Å: 4,
  'Å²': 2,
  'Å³': 3,
  '1/Å': 3,
  'J/m²': 3,
  GPa: 1,
  kbar: 2,
  bohr: 4,
  s: 1,
  '%': 2,
};
/** Units shown to three significant digits, trailing zeros kept ("2.30 μB"). */
const SIGNIFICANT3 = new Set(['μB', 'μB/cell', 'μB/atom', 'e']);

/** A number in `unit` at that unit's precision; counts and settings (Ry, no unit) as they are. */
export function formatQuantity(x: number, unit?: string): string {
  if (!Number.isFinite(x)) return String(x);
  if (unit === 'eV') return x.toFixed(Math.abs(x) >= 100 ? 5 : 3);
  if (unit && SIGNIFICANT3.has(unit)) return x === 0 ? '0.00' : Math.abs(x) < 1e-3 ? x.toExponential(2) : x.toPrecision(3);
  const d = unit ? DECIMALS[unit] : undefined;
  if (d !== undefined) {
    const a = Math.abs(x);
    if (a !== 0 && a < 10 ** -d) return x.toExponential(2);
    return x.toFixed(d);
  }
  return plainNumber(x);
}

/** A number with its unit after it: "0.579 eV", "76". */
export const withUnit = (x: number, unit?: string): string => (unit ? `${formatQuantity(x, unit)} ${unit}` : formatQuantity(x));

/** One line of a card: a name, and either its text or the fields of a record inside it. */
export type CardField = { label: string; text: string } | { label: string; fields: CardField[] };

/** Short lists are written out ("[12, 12, 12]", "Γ, X"); long ones are counted. */
const SHORT_LIST = 6;

/** A value under `unit` as text: numbers at their precision, booleans yes/no, short lists written out. */
export function formatField(v: unknown, unit?: string): string {
  if (typeof v === 'number') return withUnit(v, unit);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '—';
  if (Array.isArray(v)) {
    if (v.length <= SHORT_LIST && v.every((x) => typeof x === 'number'))
      return `[${v.map((x) => formatQuantity(x as number, unit)).join(', ')}]${unit ? ` ${unit}` : ''}`;
    if (v.length <= SHORT_LIST && v.every((x) => typeof x === 'string')) return v.join(', ');
    return `${v.length} entries`;
  }
  const n = Object.keys(v as object).length;
  return `${n} field${n === 1 ? '' : 's'}`;
}

/**
 * The fields of a record as a card lists them, each named with its unit: a record inside it
 * becomes fields of its own (`vbm` → energy 6.270 eV, location Γ), to `depth` levels.
 */
export function cardFields(value: Record<string, unknown>, depth = 2): CardField[] {
  return Object.entries(value).map(([key, v]) => {
    const { label, unit } = fieldName(key);
    if (v && typeof v === 'object' && !Array.isArray(v) && depth > 1)
      return { label, fields: cardFields(v as Record<string, unknown>, depth - 1) };
    return { label, text: formatField(v, unit) };
  });
}

/** The fields as one line of text ("energy 6.270 eV · location Γ"), for a table cell. */
export function fieldsLine(fields: CardField[]): string {
  return fields.map((f) => ('text' in f ? `${f.label} ${f.text}` : `${f.label}: ${fieldsLine(f.fields)}`)).join(' · ');
}
