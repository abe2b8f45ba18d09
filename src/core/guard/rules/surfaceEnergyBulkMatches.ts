/**
 * A surface energy γ = (E_slab − N_slab/N_bulk E_bulk) / 2A subtracts a bulk energy from a slab's:
 * the bulk must be computed at the slab's cutoffs, k-point density and functional (and
 * pseudopotentials), or the difference measures the settings, not the surface. k-density is
 * compared by spacing (1/Å), which both must state: the meshes of a slab and a bulk cell differ.
 * The slab must also be cut from the bulk's lattice: each of its in-plane cell vectors as long as a
 * translation of the bulk crystal (its primitive cell's lattice vectors; 0.1 %), or the slab is strained against its reference and γ
 * counts that strain energy as surface energy (a slab cut at the experimental a, a bulk at its own).
 */
import { compositionOfSource, energySourceOf, hasVacuum } from '../../artifacts/energySource';
import { settingsDifferences } from '../../dft/qe/settings';
import { sameNumber } from '../../provenance/references';
import { reciprocalCell } from '../../dft/structure/cell';
import { analyseSymmetry } from '../../dft/structure/symmetry';
import type { Structure, Vec3 } from '../../dft/types';
import { verdict, type TierOneRule } from './ruleInput';

export const RULE = 'surface-energy-bulk-matches';

/** Relative tolerance of the in-plane check: 0.1 % in length (strain energy ~ε², negligible at this size). */
const IN_PLANE_TOLERANCE = 1e-3;
/** Lattice vectors enumerated at most; a larger search is skipped (no verdict on the lattice). */
const MAX_LATTICE_VECTORS = 200_000;

const norm = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);

/**
 * The slab's in-plane cell vectors (those along its periodic directions; the first two when all
 * three are periodic) that are no translation's length of the bulk crystal, with the nearest such
 * length; empty when each matches, undefined when it cannot be checked.
 */
export function inPlaneMismatches(slab: Structure, bulk: Structure): { length: number; nearest: number }[] | undefined {
  const axes = slab.pbc.some((p) => !p) ? [0, 1, 2].filter((i) => slab.pbc[i]) : [0, 1];
  if (axes.length !== 2) return undefined;
  const lengths = axes.map((i) => norm(slab.cell[i]!));
  const longest = Math.max(...lengths) * (1 + 2 * IN_PLANE_TOLERANCE);
  // the crystal's translations are those of its primitive cell (a conventional cell misses a/√2 of fcc)
  let cell = bulk.cell;
  try {
    cell = analyseSymmetry(bulk, bulk.labels ? { byLabel: true } : {}).primitive.cell;
  } catch {
    // no symmetry found: the cell as computed (its own vectors are translations)
  }
  let recip: Vec3[];
  try {
    recip = reciprocalCell(cell);
  } catch {
    return undefined;
  }
  // |n_i| = |R · b_i| / 2π ≤ |R| |b_i| / 2π: every bulk lattice vector up to `longest` is within these bounds
  const bounds = recip.map((b) => Math.ceil((longest * norm(b)) / (2 * Math.PI)));
  if (bounds.reduce((p, n) => p * (2 * n + 1), 1) > MAX_LATTICE_VECTORS) return undefined;
  const found: number[] = [];
  const c = cell;
  for (let i = -bounds[0]!; i <= bounds[0]!; i++)
    for (let j = -bounds[1]!; j <= bounds[1]!; j++)
      for (let k = -bounds[2]!; k <= bounds[2]!; k++) {
        if (!i && !j && !k) continue;
        const l = norm([0, 1, 2].map((x) => i * c[0][x] + j * c[1][x] + k * c[2][x]) as Vec3);
        if (l <= longest) found.push(l);
      }
  const out: { length: number; nearest: number }[] = [];
  for (const length of lengths) {
    const nearest = found.reduce((best, l) => (Math.abs(l - length) < Math.abs(best - length) ? l : best), Number.POSITIVE_INFINITY);
    if (!(Math.abs(nearest - length) <= IN_PLANE_TOLERANCE * length)) out.push({ length, nearest });
  }
  return out;
}

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
  const strained = inPlaneMismatches(slab.structure!, bulk.structure!);
  if (strained?.length) {
    const worst = strained.reduce((w, m) => (Math.abs(m.length / m.nearest - 1) > Math.abs(w.length / w.nearest - 1) ? m : w));
    const strain = 100 * (worst.length / worst.nearest - 1);
    return [
      verdict(
        RULE,
        'fail',
        [
          `the slab ${slabs[0]!.ref} is not cut from the lattice of the bulk ${bulks[0]!.ref}: its in-plane cell vector of ${worst.length.toFixed(4)} Å is no lattice vector of the bulk ` +
            `(nearest ${Number.isFinite(worst.nearest) ? `${worst.nearest.toFixed(4)} Å, ${strain > 0 ? '+' : ''}${strain.toFixed(2)} %` : 'none'}), so γ would count the slab's strain as surface energy. ` +
            "Cut the slab at the bulk's lattice constant (the one computed at these settings), or compute the bulk at the slab's.",
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
        `the bulk ${bulks[0]!.ref} shares the slab's cutoffs (${slab.settings.ecutwfcRy}/${slab.settings.ecutrhoRy} Ry), k-spacing (${ks} 1/Å) and functional (${slab.settings.functional})${strained ? ', and the slab is cut from its lattice' : ''}`,
      ],
      'energies',
    ),
  ];
};
