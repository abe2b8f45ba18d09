/**
 * Which physical settings differ between two energies, as the comparability rule sees
 * them: dft/settingsComparison.ts for everything but k-sampling, which is compared
 * through the spacing when both state one, and through the mesh only on the same cell
 * (a molecule at Γ in a box and a slab with a k-mesh rightly differ).
 */
import { physicalSettingsDifferences as dftDifferences } from '../../dft/settingsComparison';
import type { PhysicalSettings } from '../../dft/types';
import { sameNumber } from '../../provenance/references';

export interface SettingsDifference {
  field: string;
  a: unknown;
  b: unknown;
}

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

export function physicalSettingsDifferences(a: PhysicalSettings, b: PhysicalSettings, opts: { sameCell: boolean }): SettingsDifference[] {
  const out: SettingsDifference[] = dftDifferences(a, b, ['kSpacingPerAngstrom', 'kMesh', 'kShift']).map((d) => ({
    field: d.setting,
    a: d.a,
    b: d.b,
  }));
  if (a.kSpacingPerAngstrom !== undefined && b.kSpacingPerAngstrom !== undefined) {
    if (!sameNumber(a.kSpacingPerAngstrom, b.kSpacingPerAngstrom))
      out.push({ field: 'kSpacingPerAngstrom', a: a.kSpacingPerAngstrom, b: b.kSpacingPerAngstrom });
  } else if (opts.sameCell && !same(a.kMesh, b.kMesh)) {
    out.push({ field: 'kMesh', a: a.kMesh, b: b.kMesh });
  }
  if (opts.sameCell && !same(a.kShift, b.kShift)) out.push({ field: 'kShift', a: a.kShift, b: b.kShift });
  return out;
}
