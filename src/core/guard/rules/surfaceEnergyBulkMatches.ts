/**
 * A surface energy γ = (E_slab − N_slab/N_bulk E_bulk) / 2A subtracts a bulk energy from a slab's:
 * the bulk must be computed at the slab's cutoffs, k-point density and functional (and
 * pseudopotentials), or the difference measures the settings, not the surface. k-density is
 * compared by spacing (1/Å), which both must state: the meshes of a slab and a bulk cell differ.
 */
import { compositionOfSource, energySourceOf, hasVacuum } from '../../artifacts/energySource';
import { settingsDifferences } from '../../dft/qe/settings';
import { sameNumber } from '../../provenance/references';
import { verdict, type TierOneRule } from './ruleInput';

export const RULE = 'surface-energy-bulk-matches';

export const surfaceEnergyBulkMatches: TierOneRule = (input) => {
  const { args } = input.call;
  if (input.call.tool !== 'energy_difference' || args.quantity !== 'surface_energy')
    return [verdict(RULE, 'pass', ['not a surface energy'])];
  if (args.per !== 'area')
    return [verdict(RULE, 'fail', [`a surface energy is per area of surface (per 'area'), not per ${String(args.per)}.`], 'per')];
  const energies = Array.isArray(args.energies) ? args.energies.map(String) : [];
  const coefficients = Array.isArray(args.coefficients) ? args.coefficients.map(Number) : [];
  const terms = energies.map((ref, i) => ({ ref, coefficient: coefficients[i] ?? 0, source: energySourceOf(input.provenance, ref) }));
  if (terms.some((t) => !t.source?.structure))
    return [
      verdict(
        RULE,
        'warn',
        ['the structures behind some energies are not on record: which is the slab and which the bulk cannot be checked.'],
        'energies',
      ),
    ];
  const slabs = terms.filter((t) => hasVacuum(t.source!.structure!));
  const bulks = terms.filter((t) => !hasVacuum(t.source!.structure!));
  const problems: string[] = [];
  if (slabs.length !== 1 || slabs[0]!.coefficient <= 0)
    problems.push(
      `one slab (a cell with vacuum) with a positive coefficient is needed, here ${slabs.map((t) => `${t.ref} × ${t.coefficient}`).join(', ') || 'none'}`,
    );
  if (bulks.length !== 1 || bulks[0]!.coefficient >= 0)
    problems.push(
      `one bulk cell with a negative coefficient is needed, here ${bulks.map((t) => `${t.ref} × ${t.coefficient}`).join(', ') || 'none'}`,
    );
  const areaFrom = typeof args.areaFrom === 'number' ? args.areaFrom : 0;
  if (slabs.length === 1 && terms[areaFrom]?.ref !== slabs[0]!.ref)
    problems.push(
      `the area must come from the slab (areaFrom ${energies.indexOf(slabs[0]!.ref)}), not from ${terms[areaFrom]?.ref ?? `index ${areaFrom}`}`,
    );
  if (problems.length) return [verdict(RULE, 'fail', [`${problems.join('; ')}.`], 'energies')];
  const slab = slabs[0]!.source!;
  const bulk = bulks[0]!.source!;
  const slabComp = compositionOfSource(slab)!;
  const bulkComp = compositionOfSource(bulk)!;
  const ratios = Object.keys({ ...slabComp, ...bulkComp }).map((el) => (slabComp[el] ?? 0) / (bulkComp[el] || NaN));
  if (ratios.some((x) => !Number.isFinite(x)) || ratios.some((x) => Math.abs(x - ratios[0]!) > 1e-9)) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the slab (${JSON.stringify(slabComp)}) is not a whole number of the bulk cell's formula (${JSON.stringify(bulkComp)}): a non-stoichiometric slab needs chemical potentials, not a surface energy of this form.`,
        ],
        'energies',
      ),
    ];
  }
  const diffs = settingsDifferences(slab.settings, bulk.settings, ['kSpacingPerAngstrom', 'kMesh', 'kShift']).filter(
    (d) => ['ecutwfcRy', 'ecutrhoRy', 'functional'].includes(String(d.setting)) || String(d.setting).startsWith('pseudopotentials.'),
  );
  const ks = slab.settings.kSpacingPerAngstrom;
  const kb = bulk.settings.kSpacingPerAngstrom;
  const kProblem =
    ks === undefined || kb === undefined
      ? `the k-point density of ${ks === undefined ? slabs[0]!.ref : bulks[0]!.ref} is a mesh without a spacing: give both a k-spacing (1/Å), so the bulk is sampled as densely as the slab in its plane`
      : !sameNumber(ks, kb)
        ? `k-point spacing: ${ks} 1/Å (slab) vs ${kb} 1/Å (bulk)`
        : undefined;
  if (diffs.length || kProblem) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the bulk ${bulks[0]!.ref} is not at the slab ${slabs[0]!.ref}'s settings: ${[...diffs.map((d) => d.description), ...(kProblem ? [kProblem] : [])].join('; ')}. ` +
            "Compute the bulk at the slab's cutoffs, k-spacing and functional.",
        ],
        'energies',
      ),
    ];
  }
  return [
    verdict(
      RULE,
      'pass',
      [
        `the bulk ${bulks[0]!.ref} shares the slab's cutoffs (${slab.settings.ecutwfcRy}/${slab.settings.ecutrhoRy} Ry), k-spacing (${ks} 1/Å) and functional (${slab.settings.functional})`,
      ],
      'energies',
    ),
  ];
};
