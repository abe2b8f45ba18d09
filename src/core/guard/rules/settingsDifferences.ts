/**
 * Which physical settings differ between two energies, as the comparability rule sees
 * them. k-sampling is compared through the spacing when both state one, and through
 * the mesh only on the same cell (a molecule in a box and a slab rightly differ).
 */
import type { PhysicalSettings } from '../../dft/types';

export interface SettingsDifference {
  field: string;
  a: unknown;
  b: unknown;
}

const SCALAR_FIELDS = ['code', 'functional', 'ecutwfcRy', 'ecutrhoRy', 'occupations', 'smearing', 'degaussRy', 'nspin'] as const;

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

export function physicalSettingsDifferences(a: PhysicalSettings, b: PhysicalSettings, opts: { sameCell: boolean }): SettingsDifference[] {
  const out: SettingsDifference[] = [];
  for (const f of SCALAR_FIELDS) if (!same(a[f], b[f])) out.push({ field: f, a: a[f], b: b[f] });
  const elements = [...new Set([...Object.keys(a.pseudopotentials), ...Object.keys(b.pseudopotentials)])].sort();
  for (const el of elements) {
    const pa = a.pseudopotentials[el];
    const pb = b.pseudopotentials[el];
    // An element present in only one calculation (the adsorbate's atoms) is no difference in settings.
    if (!pa || !pb) continue;
    const hashDiffers = pa.sha256 && pb.sha256 ? pa.sha256 !== pb.sha256 : false;
    if (pa.file !== pb.file || hashDiffers) out.push({ field: `pseudopotentials.${el}`, a: pa, b: pb });
  }
  if (a.kSpacingPerAngstrom !== undefined && b.kSpacingPerAngstrom !== undefined) {
    if (a.kSpacingPerAngstrom !== b.kSpacingPerAngstrom) out.push({ field: 'kSpacingPerAngstrom', a: a.kSpacingPerAngstrom, b: b.kSpacingPerAngstrom });
  } else if (opts.sameCell && !same(a.kMesh, b.kMesh)) {
    out.push({ field: 'kMesh', a: a.kMesh, b: b.kMesh });
  }
  if (opts.sameCell && !same(a.kShift, b.kShift)) out.push({ field: 'kShift', a: a.kShift, b: b.kShift });
  const extras = [...new Set([...Object.keys(a.extra ?? {}), ...Object.keys(b.extra ?? {})])].sort();
  for (const k of extras) if (!same(a.extra?.[k], b.extra?.[k])) out.push({ field: `extra.${k}`, a: a.extra?.[k], b: b.extra?.[k] });
  return out;
}
