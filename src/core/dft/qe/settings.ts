/**
 * The physical settings of a pw.x input (contract: dft/types.ts PhysicalSettings) and
 * the differences between two of them. Only what changes the physics is recorded:
 * SCF-control parameters (mixing_beta, mixing_mode, electron_maxstep, diagonalization,
 * startingwfc, startingpot, conv_thr when tight, ...) are left out, so two energies that
 * differ only in how their SCF was driven compare equal.
 */
import { DreamsError } from '../../errors';
import { physicalSettingsDifferences, type SettingDifference, type SettingName } from '../settingsComparison';
import type { PhysicalSettings } from '../types';
import { QE_VERSIONS, qeDefinitions } from './definitions';
import { functionalName } from './functional';
import { elementOfSpeciesLabel, readAtomicSpecies, readHubbard, readKPoints } from './input/cards';
import { parseFortranLiteral, type FortranValue } from './input/fortran';
import type { PwInput } from './input/model';
import { parsePwInput } from './input/parse';
import { assignedValues, logicalIn, namelistOf, numberIn, stringIn } from './input/query';
import type { UpfHeader } from './upf';

/**
 * conv_thr (Ry) at or below which SCF convergence is treated as control, not physics:
 * the energy is then converged to ~0.1 meV per cell, below the meV/atom at which energy
 * differences are reported. A looser conv_thr is recorded as extra.conv_thr.
 */
export const CONV_THR_TOLERANCE_RY = 1e-5;

/** Input variables that change the computed physics (besides those PhysicalSettings names). */
const PHYSICS_VARIABLES: Record<string, string[]> = {
  CONTROL: ['tefield', 'dipfield', 'lelfield', 'lfcp', 'trism', 'gate'],
  SYSTEM: [
    'tot_charge',
    'tot_magnetization',
    'lspinorb',
    'noncolin',
    'vdw_corr',
    'london',
    'xdm',
    'dftd3_version',
    'dftd3_threebody',
    'london_s6',
    'london_rcut',
    'london_c6',
    'london_rvdw',
    'ts_vdw_isolated',
    'xdm_a1',
    'xdm_a2',
    'exx_fraction',
    'screening_parameter',
    'exxdiv_treatment',
    'x_gamma_extrapolation',
    'ecutfock',
    'ecutvcut',
    'nqx1',
    'nqx2',
    'nqx3',
    'lda_plus_u',
    'lda_plus_u_kind',
    'U_projection_type',
    'Hubbard_U',
    'Hubbard_J0',
    'Hubbard_alpha',
    'Hubbard_beta',
    'Hubbard_J',
    'Hubbard_V',
    'assume_isolated',
    'esm_bc',
    'esm_w',
    'esm_efield',
    'edir',
    'emaxpos',
    'eopreg',
    'eamp',
    'zgate',
    'relaxz',
    'block',
    'block_1',
    'block_2',
    'block_height',
    'lgcscf',
    'gcscf_mu',
    'one_atom_occupations',
    'constrained_magnetization',
    'lambda',
    'fixed_magnetization',
    'ecfixed',
    'qcutz',
    'q2sigma',
    'space_group',
  ],
};

/** pw.x's canonical name for each smearing alias, so 'mv' and 'cold' compare equal. */
function smearingName(raw: string): string {
  const v = qeDefinitions('develop').variable('system', 'smearing');
  const opt = v?.options.find((o) => o.values.some((x) => x.toLowerCase() === raw.toLowerCase()));
  return opt ? opt.values[0]! : raw.toLowerCase();
}

function vdwName(raw: string): string {
  const v = qeDefinitions('develop').variable('system', 'vdw_corr');
  const opt = v?.options.find((o) => o.values.some((x) => x.toLowerCase() === raw.toLowerCase()));
  return opt ? opt.values[0]!.toLowerCase() : raw.toLowerCase();
}

const plain = (v: FortranValue): string | number | boolean => (v.type === 'word' ? v.value : v.value);

/**
 * QE's stated default of a variable when it starts with a plain literal ("0.D0 for all
 * species", "0.001 a.u."); logicals without a stated default are .false. in pw.x.
 */
function defaultOf(namelist: string, name: string): string | number | boolean | undefined {
  const v = QE_VERSIONS.map((ver) => qeDefinitions(ver).variable(namelist, name)).find((x) => x !== undefined);
  if (!v) return undefined;
  if (v.default === undefined) return v.type === 'LOGICAL' ? false : undefined;
  if (/[*+]/.test(v.default)) return undefined; // an expression such as "4 * ecutwfc"
  const first = parseFortranLiteral(v.default.trim().split(/\s+/)[0] ?? '');
  return first.type === 'word' ? undefined : plain(first);
}

export interface SettingsOptions {
  /** Headers of the pseudopotential files (by the name written in ATOMIC_SPECIES): the functional when input_dft is not set. */
  upfHeaders?: Record<string, UpfHeader | { error: string }>;
  /** sha256 of each pseudopotential file, by the name written in ATOMIC_SPECIES. */
  pseudoSha256?: Record<string, string>;
  codeVersion?: string;
  /** The spacing (1/Å, with 2π) the k-mesh was chosen from, when it was. */
  kSpacingPerAngstrom?: number;
}

export class SettingsError extends DreamsError<'bad-input'> {
  override readonly name = 'SettingsError';
  constructor(message: string) {
    super('bad-input', message);
  }
}

/** The physical settings an input's energies are computed with. */
export function physicalSettingsOf(source: string | PwInput, opts: SettingsOptions = {}): PhysicalSettings {
  const input = typeof source === 'string' ? parsePwInput(source) : source;
  const ecutwfc = numberIn(input, 'system', 'ecutwfc');
  if (ecutwfc === undefined) {
    throw new SettingsError('the input has no ecutwfc in &SYSTEM, so its physical settings are undefined; set ecutwfc (Ry).');
  }
  const species = readAtomicSpecies(input)?.value ?? [];
  const pseudopotentials: PhysicalSettings['pseudopotentials'] = {};
  // By element: species that split one element (fixed atoms as "Pt1") share its file. An element
  // whose species use different files keeps them by label, so settings comparisons see the difference.
  const element = elementOfSpeciesLabel;
  const filesOf = (el: string) => new Set(species.filter((s) => element(s.label) === el).map((s) => s.pseudopotential));
  for (const s of species) {
    const sha = opts.pseudoSha256?.[s.pseudopotential];
    const key = filesOf(element(s.label)).size === 1 ? element(s.label) : s.label;
    pseudopotentials[key] = sha ? { file: s.pseudopotential, sha256: sha } : { file: s.pseudopotential };
  }
  const inputDft = stringIn(input, 'system', 'input_dft');
  let functional: string;
  if (inputDft) functional = functionalName(inputDft);
  else {
    const names = [
      ...new Set(
        species
          .map((s) => opts.upfHeaders?.[s.pseudopotential])
          .filter((h): h is UpfHeader => !!h && !('error' in h))
          .map((h) => h.functional),
      ),
    ];
    functional = names.length ? names.join('+') : 'from the pseudopotentials';
  }
  const occupations = stringIn(input, 'system', 'occupations') ?? 'fixed';
  const settings: PhysicalSettings = {
    code: 'pw.x',
    functional,
    ecutwfcRy: ecutwfc,
    ecutrhoRy: numberIn(input, 'system', 'ecutrho') ?? 4 * ecutwfc,
    pseudopotentials,
    occupations,
    nspin: logicalIn(input, 'system', 'noncolin') ? 4 : ((numberIn(input, 'system', 'nspin') ?? 1) as 1 | 2 | 4),
  };
  if (opts.codeVersion) settings.codeVersion = opts.codeVersion;
  if (occupations === 'smearing') {
    settings.smearing = smearingName(stringIn(input, 'system', 'smearing') ?? 'gaussian');
    settings.degaussRy = numberIn(input, 'system', 'degauss') ?? 0;
  }
  const k = readKPoints(input)?.value;
  if (k?.kind === 'automatic') {
    settings.kMesh = k.mesh;
    settings.kShift = k.shift;
  } else if (k?.kind === 'gamma') {
    settings.kMesh = [1, 1, 1];
    settings.kShift = [0, 0, 0];
  }
  if (opts.kSpacingPerAngstrom !== undefined) settings.kSpacingPerAngstrom = opts.kSpacingPerAngstrom;
  const extra: Record<string, string | number | boolean> = {};
  for (const [namelist, names] of Object.entries(PHYSICS_VARIABLES)) {
    const nl = namelistOf(input, namelist);
    if (!nl) continue;
    const wanted = new Set(names.map((n) => n.toLowerCase()));
    const assigned = assignedValues(nl);
    for (const [key, v] of assigned) {
      const base = key.replace(/\(.*$/, '');
      if (!wanted.has(base)) continue;
      if (key.endsWith('(1)') && assigned.has(base)) continue; // "x = v" also answers for x(1)
      let value = plain(v.value);
      if (base === 'vdw_corr' && typeof value === 'string') value = vdwName(value);
      const def = defaultOf(namelist, base);
      // A value equal to QE's default is the same physics as leaving it out.
      if (def !== undefined && def === value) continue;
      extra[key] = value;
    }
  }
  const hubbard = readHubbard(input)?.value;
  if (hubbard && hubbard.entries.length) {
    extra.HUBBARD = `${hubbard.projectors ?? ''}: ${hubbard.entries.map((e) => `${e.parameter} ${e.manifolds.join(' ')}${e.atoms ? ` ${e.atoms.join(' ')}` : ''} ${e.valueEv}`).join('; ')}`;
  }
  const convThr = numberIn(input, 'electrons', 'conv_thr') ?? 1e-6;
  if (convThr > CONV_THR_TOLERANCE_RY) extra.conv_thr = convThr;
  if (k?.kind === 'list') extra.kPoints = `${k.unit}: ${k.points.map((p) => `${p.k ? p.k.join(' ') : p.label} ${p.weight}`).join('; ')}`;
  if (Object.keys(extra).length) settings.extra = extra;
  return settings;
}

export interface NamedDifference extends SettingDifference {
  /** What differs, in words, with both values and units. */
  description: string;
}

const UNITS: Partial<Record<string, string>> = { ecutwfcRy: ' Ry', ecutrhoRy: ' Ry', degaussRy: ' Ry', kSpacingPerAngstrom: ' 1/Å' };
const LABELS: Partial<Record<string, string>> = {
  ecutwfcRy: 'wavefunction cutoff',
  ecutrhoRy: 'density cutoff',
  degaussRy: 'smearing width',
  kMesh: 'k-point mesh',
  kShift: 'k-mesh shift',
  kSpacingPerAngstrom: 'k-point spacing',
  nspin: 'spin treatment',
  occupations: 'occupations',
  smearing: 'smearing',
  functional: 'functional',
  codeVersion: 'pw.x version',
  code: 'code',
};

function show(v: unknown, unit = ''): string {
  if (v === undefined || v === null) return 'unset';
  if (Array.isArray(v)) return v.join('×');
  if (typeof v === 'object') return JSON.stringify(v);
  return `${String(v)}${unit}`;
}

/**
 * Every physics-affecting difference between two settings, named. `ignore` leaves out
 * settings a caller varies on purpose (a cutoff sweep ignores ecutwfcRy and ecutrhoRy).
 */
export function settingsDifferences(a: PhysicalSettings, b: PhysicalSettings, ignore: readonly SettingName[] = []): NamedDifference[] {
  return physicalSettingsDifferences(a, b, ignore).map((d) => {
    const s = String(d.setting);
    const label = s.startsWith('pseudopotentials.')
      ? `pseudopotential of ${s.slice(17)}`
      : s.startsWith('extra.')
        ? s.slice(6)
        : (LABELS[s] ?? s);
    const unit = UNITS[s] ?? '';
    const fmt = (v: unknown) =>
      s.startsWith('pseudopotentials.') && v && typeof v === 'object' ? (v as { file: string }).file : show(v, unit);
    return { ...d, description: `${label}: ${fmt(d.a)} vs ${fmt(d.b)}` };
  });
}
