/**
 * Field names and numbers as a lab notebook writes them, for the artifact cards: a value's key
 * carries its unit as a suffix in the core's convention (`gapEv`, `forceEvPerAngstrom`,
 * `volumeAngstrom3`, `totalBohrMagnetonPerCell`), read here into a name and a unit ("gap", "eV");
 * each unit has one precision (energies in eV to the meV, forces to 0.1 meV/Å, moments to three
 * significant digits), and a total energy, named by its key, is written to 10 µeV whatever its
 * size, so one quantity reads the same on every card. Every numeric key of the artifact shapes is
 * read here or listed as unitless (test/unit/webview-ui/renderer/quantities.artifactKeys.unit.test.ts).
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
  ['MuBPerCell', 'μB/cell'],
  ['MuBPerAtom', 'μB/atom'],
  ['EvPerAtom', 'eV/atom'],
  ['PerAngstrom', '1/Å'],
  ['Angstrom3', 'Å³'],
  ['Angstrom2', 'Å²'],
  ['Angstrom', 'Å'],
  ['JPerM2', 'J/m²'],
  ['Degrees', '°'],
  ['Seconds', 's'],
  ['Percent', '%'],
  ['Kbar', 'kbar'],
  ['Bohr', 'bohr'],
  ['Deg', '°'],
  ['MuB', 'μB'],
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
  delta: 'Δ',
  be: 'BE',
};

/** Keys that are a unit on their own: pw.x's time of a run (`seconds`). */
const BARE_UNITS: Record<string, FieldName> = { seconds: { label: 'time', unit: 's' } };

/**
 * Keys of total energies (a run's, a relaxation's first and last, an E(V) fit's minimum and
 * points, a sweep's per atom): written to 10 µeV whatever their size, so a light cell near −57 eV
 * reads as finely as a heavy one near −800 eV (a 1 meV/atom sweep step is visible in both).
 */
const TOTAL_ENERGY_KEYS = new Set([
  'energyEv',
  'totalEnergyEv',
  'initialEnergyEv',
  'finalEnergyEv',
  'e0Ev',
  'energyTraceEv',
  'energyEvPerAtom',
]);
/** Records whose `energyEv` is a level (a band edge, a plot's zero), not a total energy. */
const LEVEL_RECORDS = new Set(['vbm', 'cbm', 'reference']);
/** Decimals of a total energy, in eV or eV/atom (pw.x prints Ry to 1e-8, about 0.1 µeV). */
const TOTAL_ENERGY_DECIMALS = 5;

export interface FieldName {
  label: string;
  unit?: string;
  /** A total energy: written to 10 µeV whatever its size. */
  totalEnergy?: true;
}

/**
 * `fermiEnergyEv` → "Fermi energy", eV; `deltaMomentMuBPerAtom` → "Δ moment", μB/atom; `kpointCount` →
 * "k-point count"; QE's own names (`forc_conv_thr`) as they are. `within` is the key of the record
 * holding it (a band edge's `energyEv` is a level, a run's a total energy).
 */
export function fieldName(key: string, within?: string): FieldName {
  if (BARE_UNITS[key]) return { ...BARE_UNITS[key] };
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
  if (!unit) return { label };
  const totalEnergy = TOTAL_ENERGY_KEYS.has(key) && !(within !== undefined && LEVEL_RECORDS.has(within));
  return totalEnergy ? { label, unit, totalEnergy } : { label, unit };
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
  '°': 2,
};
/** Units shown to three significant digits, trailing zeros kept ("2.30 μB"). */
const SIGNIFICANT3 = new Set(['μB', 'μB/cell', 'μB/atom', 'e']);

/**
 * A number in `unit` at that unit's precision; a total energy (eV or eV/atom) to 10 µeV whatever its
 * size; counts and settings (Ry, no unit) as they are.
 */
export function formatQuantity(x: number, unit?: string, totalEnergy = false): string {
  if (!Number.isFinite(x)) return String(x);
  if (totalEnergy && (unit === 'eV' || unit === 'eV/atom')) return x.toFixed(TOTAL_ENERGY_DECIMALS);
  if (unit === 'eV') return x.toFixed(3);
  if (unit && SIGNIFICANT3.has(unit)) return x === 0 ? '0.00' : Math.abs(x) < 1e-3 ? x.toExponential(2) : x.toPrecision(3);
  const d = unit ? DECIMALS[unit] : undefined;
  if (d !== undefined) {
    const a = Math.abs(x);
    if (a !== 0 && a < 10 ** -d) return x.toExponential(2);
    return x.toFixed(d);
  }
  return plainNumber(x);
}

/** A number with its unit after it: "0.579 eV", "76"; a total energy to 10 µeV ("-57.03682 eV"). */
export const withUnit = (x: number, unit?: string, totalEnergy = false): string =>
  unit ? `${formatQuantity(x, unit, totalEnergy)} ${unit}` : formatQuantity(x);

/** One line of a card: a name, and either its text or the fields of a record inside it. */
export type CardField = { label: string; text: string } | { label: string; fields: CardField[] };

/** Short lists are written out ("[12, 12, 12]", "Γ, X"); long ones are counted. */
const SHORT_LIST = 6;

/** A value under `unit` as text: numbers at their precision, booleans yes/no, short lists written out. */
export function formatField(v: unknown, unit?: string, totalEnergy = false): string {
  if (typeof v === 'number') return withUnit(v, unit, totalEnergy);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '—';
  if (Array.isArray(v)) {
    if (v.length <= SHORT_LIST && v.every((x) => typeof x === 'number'))
      return `[${v.map((x) => formatQuantity(x as number, unit, totalEnergy)).join(', ')}]${unit ? ` ${unit}` : ''}`;
    if (v.length <= SHORT_LIST && v.every((x) => typeof x === 'string')) return v.join(', ');
    return `${v.length} ${v.length === 1 ? 'entry' : 'entries'}`;
  }
  const n = Object.keys(v as object).length;
  return `${n} field${n === 1 ? '' : 's'}`;
}

/**
 * The fields of a record as a card lists them, each named with its unit: a record inside it
 * becomes fields of its own (`vbm` → energy 6.270 eV, location Γ), to `depth` levels.
 */
export function cardFields(value: Record<string, unknown>, depth = 2, within?: string): CardField[] {
  return Object.entries(value).map(([key, v]) => {
    const { label, unit, totalEnergy } = fieldName(key, within);
    if (v && typeof v === 'object' && !Array.isArray(v) && depth > 1)
      return { label, fields: cardFields(v as Record<string, unknown>, depth - 1, key) };
    return { label, text: formatField(v, unit, totalEnergy) };
  });
}

/** The fields as one line of text ("energy 6.270 eV · location Γ"), for a table cell. */
export function fieldsLine(fields: CardField[]): string {
  return fields.map((f) => ('text' in f ? `${f.label} ${f.text}` : `${f.label}: ${fieldsLine(f.fields)}`)).join(' · ');
}
