/**
 * Which physical settings differ between two energies. Two total energies may be
 * subtracted or compared only when none differ (apart from the ones a sweep varies on
 * purpose, passed as `ignore`).
 */
import type { PhysicalSettings } from './types';

export type SettingName = keyof PhysicalSettings | `extra.${string}` | `pseudopotentials.${string}`;

export interface SettingDifference {
  setting: SettingName;
  a: unknown;
  b: unknown;
}

const SWEEP_FIELDS: (keyof PhysicalSettings)[] = [
  'code',
  'ecutwfcRy',
  'ecutrhoRy',
  'kSpacingPerAngstrom',
  'kMesh',
  'kShift',
  'occupations',
  'smearing',
  'degaussRy',
  'nspin',
];

/**
 * pw.x variables that steer how the SCF (or the relaxation) reaches its answer and never
 * the answer itself: two energies that differ only in these compare equal, also when an
 * energy's settings list one of them among its extras.
 */
export const SCF_CONTROL_VARIABLES: ReadonlySet<string> = new Set([
  'electron_maxstep',
  'mixing_beta',
  'mixing_mode',
  'mixing_ndim',
  'mixing_fixed_ns',
  'diagonalization',
  'diago_thr_init',
  'diago_full_acc',
  'diago_david_ndim',
  'diago_cg_maxiter',
  'diago_ppcg_maxiter',
  'startingwfc',
  'startingpot',
  'scf_must_converge',
  'electron_dynamics',
  'forc_conv_thr',
  'etot_conv_thr',
  'nstep',
  'ion_dynamics',
  'upscale',
  'bfgs_ndim',
]);

/** `extra.mixing_beta`, `extra.Hubbard_U(1)` → whether the variable is SCF control. */
export const isScfControl = (extraKey: string): boolean => SCF_CONTROL_VARIABLES.has(extraKey.replace(/\(.*$/, '').toLowerCase());

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

export function physicalSettingsDifferences(
  a: PhysicalSettings,
  b: PhysicalSettings,
  ignore: readonly SettingName[] = [],
): SettingDifference[] {
  const out: SettingDifference[] = [];
  const skip = new Set<string>(ignore);
  for (const f of SWEEP_FIELDS) {
    if (!skip.has(f) && !same(a[f], b[f])) out.push({ setting: f, a: a[f], b: b[f] });
  }
  // QE spells functionals in either case ('PBE', 'pbe'); a version is compared only when both are known.
  if (!skip.has('functional') && String(a.functional).toLowerCase() !== String(b.functional).toLowerCase()) {
    out.push({ setting: 'functional', a: a.functional, b: b.functional });
  }
  if (!skip.has('codeVersion') && a.codeVersion && b.codeVersion && a.codeVersion !== b.codeVersion) {
    out.push({ setting: 'codeVersion', a: a.codeVersion, b: b.codeVersion });
  }
  if (!skip.has('pseudopotentials')) {
    const elements = new Set([...Object.keys(a.pseudopotentials ?? {}), ...Object.keys(b.pseudopotentials ?? {})]);
    for (const el of elements) {
      const pa = a.pseudopotentials?.[el];
      const pb = b.pseudopotentials?.[el];
      // Absent on one side means that energy has no such element (an adsorbate): not a conflict.
      if (!pa || !pb) continue;
      const differ = pa.sha256 && pb.sha256 ? pa.sha256 !== pb.sha256 : pa.file !== pb.file;
      if (differ) out.push({ setting: `pseudopotentials.${el}`, a: pa, b: pb });
    }
  }
  if (!skip.has('extra')) {
    const keys = new Set([...Object.keys(a.extra ?? {}), ...Object.keys(b.extra ?? {})]);
    for (const k of keys) {
      if (isScfControl(k)) continue;
      const name = `extra.${k}` as SettingName;
      if (!skip.has(name) && !same(a.extra?.[k], b.extra?.[k])) out.push({ setting: name, a: a.extra?.[k], b: b.extra?.[k] });
    }
  }
  return out;
}
