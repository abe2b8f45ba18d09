/**
 * Energies that are combined (subtracted, fitted, compared across a sweep) must come
 * from calculations with the same physical settings; only SCF-control parameters may
 * differ, and in a convergence sweep the swept parameter.
 */
import type { ArtifactRecord } from '../../provenance/types';
import type { PhysicalSettings } from '../../dft/types';
import type { SweptParameter } from '../../artifacts/shapes';
import { physicalSettingsDifferences } from './settingsDifferences';
import { referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'settings-comparable';

/** Settings fields the swept parameter of a convergence series may vary. */
const SWEPT_FIELDS: Record<SweptParameter, string[]> = {
  ecutwfc: ['ecutwfcRy', 'ecutrhoRy'],
  kspacing: ['kSpacingPerAngstrom', 'kMesh'],
};

export const settingsComparable: TierOneRule = (input) => {
  const withSettings = referencesOf(input)
    .filter((r) => r.asArtifact && r.resolution.ok)
    .map((r) => (r.resolution as { artifact: ArtifactRecord }).artifact)
    .filter((a) => a.meta?.settings);
  const unique = [...new Map(withSettings.map((a) => [a.id, a])).values()];
  if (unique.length < 2) return [verdict(RULE, 'pass', ['fewer than two energies to compare'])];
  const swept = input.call.args.parameter as SweptParameter | undefined;
  const allowed = new Set(swept && SWEPT_FIELDS[swept] ? SWEPT_FIELDS[swept] : []);
  const base = unique[0]!;
  const problems: string[] = [];
  for (const other of unique.slice(1)) {
    const diffs = physicalSettingsDifferences(base.meta!.settings as PhysicalSettings, other.meta!.settings as PhysicalSettings, {
      sameCell: sameCell(base, other),
    }).filter((d) => !allowed.has(d.field));
    for (const d of diffs) {
      problems.push(`${d.field} differs: ${base.id} has ${JSON.stringify(d.a)}, ${other.id} has ${JSON.stringify(d.b)}`);
    }
  }
  if (problems.length === 0) {
    return [
      verdict(RULE, 'pass', [
        `${unique.length} energies share their physical settings` + (allowed.size ? ` (apart from the swept ${swept})` : ''),
      ]),
    ];
  }
  return [
    verdict(RULE, 'fail', [
      `the energies were computed with different physical settings, so combining them is meaningless: ${problems.join('; ')}. ` +
        'Recompute them with one set of settings (only SCF-control parameters such as mixing_beta or conv_thr may differ).',
    ]),
  ];
};

function sameCell(a: ArtifactRecord, b: ArtifactRecord): boolean {
  const ca = a.meta?.cellAngstrom;
  const cb = b.meta?.cellAngstrom;
  return ca !== undefined && JSON.stringify(ca) === JSON.stringify(cb);
}
