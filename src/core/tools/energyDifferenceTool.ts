/**
 * energy_difference: a formula over total energies with stoichiometric coefficients,
 * ΔE = (Σ c_i E_i) / N, normalised per atom, formula unit, vacancy, adsorbate, magnetic atom,
 * or per area of surface (eV/Å² and J/m²). Formation, surface, vacancy, adsorption and
 * magnetic-ordering energies are all this. The atoms must balance and the energies share their
 * physical settings (settings-comparable); each quantity has its own tier-1 rule (references
 * that are elemental ground states, a bulk at the slab's settings, spin-polarised orders that
 * differ). The formula is written out in the artifact.
 */
import { energyDifference, surfaceAreaAngstrom2, type EnergyTerm, type Normalisation } from '../dft/energyDifference';
import { artifactRefListSchema } from '../guard/schemaAnnotations';
import { compositionOfSource, energySourceOf, hasVacuum } from '../artifacts/energySource';
import type { EnergyDifferenceValue } from '../artifacts/relaxation';
import { ARTIFACT } from '../artifacts/shapes';
import { ARTIFACTS } from '../artifacts/contracts';
import { defineTool } from './defineTool';
import { service } from './services';
import { formulaOf } from './runOutput';

export const ENERGY_QUANTITIES = [
  'formation_energy',
  'surface_energy',
  'vacancy_energy',
  'adsorption_energy',
  'magnetic_ordering_energy',
  'energy_difference',
] as const;
export type EnergyQuantity = (typeof ENERGY_QUANTITIES)[number];
export const PER = ['cell', 'atom', 'formula-unit', 'vacancy', 'adsorbate', 'magnetic-atom', 'area'] as const;

const SYMBOL: Record<EnergyQuantity, string> = {
  formation_energy: 'ΔH_f',
  surface_energy: 'γ',
  vacancy_energy: 'E_vac',
  adsorption_energy: 'E_ads',
  magnetic_ordering_energy: 'ΔE_order',
  energy_difference: 'ΔE',
};

/** Which normalisations make sense for each quantity. */
const ALLOWED_PER: Record<EnergyQuantity, readonly (typeof PER)[number][]> = {
  formation_energy: ['atom', 'formula-unit'],
  surface_energy: ['area'],
  vacancy_energy: ['vacancy', 'cell'],
  adsorption_energy: ['adsorbate', 'cell'],
  magnetic_ordering_energy: ['magnetic-atom', 'atom', 'formula-unit', 'cell'],
  energy_difference: PER,
};

export const energyDifferenceTool = defineTool({
  name: 'energy_difference',
  description:
    'ΔE = (Σ c_i E_i) / N over total energies with stoichiometric coefficients: formation energy (compound minus elemental ground states, ' +
    'per atom or formula unit), surface energy (slab minus N_slab/N_bulk bulk, per area of its two surfaces: eV/Å² and J/m²), vacancy, ' +
    'adsorption and magnetic-ordering energies (E_AFM − E_FM per magnetic atom). The coefficients must balance every element and the ' +
    'energies share their physical settings; the artifact states the formula.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      quantity: { type: 'string', enum: [...ENERGY_QUANTITIES], description: 'What the difference is; each has its own checks.' },
      energies: artifactRefListSchema(
        'Total energies (run_pw outputs), in the order of coefficients.',
        { names: [ARTIFACT.totalEnergy], kinds: ['scalar'], unit: 'eV' },
        { minItems: 2, maxItems: 12 },
      ),
      coefficients: {
        type: 'array',
        items: { type: 'number' },
        minItems: 2,
        maxItems: 12,
        description:
          'Stoichiometric coefficient of each energy: +1 for the compound or slab, −n for a reference (−½ for O2 per O, −N_slab/N_bulk for a bulk cell).',
      },
      per: {
        type: 'string',
        enum: [...PER],
        description:
          "What the result is per: 'atom' or 'formula-unit' (count of them in the compound's term), 'area' (of the slab's surface), 'vacancy', 'adsorbate', 'magnetic-atom', or 'cell' (no division).",
      },
      count: {
        type: 'number',
        exclusiveMinimum: 0,
        description: 'How many atoms, formula units, vacancies, adsorbates or magnetic atoms the sum is for (not for per area or cell).',
      },
      surfaces: {
        type: 'integer',
        enum: [1, 2],
        description: 'per area: the surfaces the slab exposes (2 for a symmetric slab, the default).',
      },
      areaFrom: {
        type: 'integer',
        minimum: 0,
        description: 'per area: the index (from 0) of the slab energy whose cell gives the area; default the first energy.',
      },
    },
    required: ['quantity', 'energies', 'coefficients', 'per'],
    additionalProperties: false,
  },
  rules: [
    'settings-comparable',
    'energies-from-production-inputs',
    'energy-formula-balanced',
    'relaxation-under-thresholds',
    'formation-references-elemental',
    'surface-energy-bulk-matches',
    'magnetization-needs-spin',
  ],
  outputs: [ARTIFACTS.energyDifference],
  crossParameterJudge: true,
  parameterNotes: {
    coefficients:
      'the stoichiometry: a formation energy of MgO from hcp Mg (2 atoms) and O2 is [1, −0.5, −0.5]; a 5-layer slab against a 1-atom bulk is [1, −5].',
    count:
      'atoms or formula units in the compound term (times its coefficient), vacancies or adsorbates in the cell, or magnetic atoms of the cell.',
  },
  async run(a, ctx) {
    const view = service(ctx, 'provenance', 'energy_difference', 'the guard passes the run provenance to every call');
    if (a.coefficients.length !== a.energies.length) {
      throw new Error(
        `energy_difference: ${a.energies.length} energies but ${a.coefficients.length} coefficients; give one coefficient per energy.`,
      );
    }
    if (!ALLOWED_PER[a.quantity].includes(a.per)) {
      throw new Error(
        `energy_difference: a ${a.quantity.replace(/_/g, ' ')} is per ${ALLOWED_PER[a.quantity].join(' or ')}, not per ${a.per}.`,
      );
    }
    if (a.per !== 'area' && a.per !== 'cell' && a.count === undefined)
      throw new Error(`energy_difference: per ${a.per} needs count (how many ${a.per}s the sum is for).`);
    const terms: EnergyTerm[] = a.energies.map((ref, i) => {
      const s = energySourceOf(view, ref);
      const composition = compositionOfSource(s);
      if (!s || !composition)
        throw new Error(
          `energy_difference: ${ref} is not a total energy of a run_pw call on a make_pw_input input, so its atoms are unknown; reference the energies run_pw returned.`,
        );
      return {
        label: ref,
        coefficient: a.coefficients[i]!,
        energyEv: s.energy.value as number,
        composition,
        settings: s.settings,
        ...(s.cellAngstrom ? { cellAngstrom: s.cellAngstrom } : {}),
      };
    });
    let n: Normalisation;
    let areaAngstrom2: number | undefined;
    if (a.per === 'area') {
      const i = a.areaFrom ?? 0;
      const source = energySourceOf(view, a.energies[i] ?? '');
      if (!source?.structure || !source.cellAngstrom)
        throw new Error(`energy_difference: areaFrom ${i} names no energy with a known cell.`);
      if (!hasVacuum(source.structure))
        throw new Error(
          `energy_difference: ${a.energies[i]} (areaFrom ${i}) is a bulk cell with no vacuum, so it has no surface; name the slab's energy.`,
        );
      areaAngstrom2 = surfaceAreaAngstrom2(source.cellAngstrom, source.structure.pbc);
      n = { per: 'area', areaAngstrom2, surfaces: a.surfaces ?? 2 };
    } else if (a.per === 'cell') {
      n = { per: 'cell' };
    } else {
      n = { per: a.per, count: a.count! };
    }
    const r = energyDifference(terms, n, SYMBOL[a.quantity]);
    if (!r.ok) throw new Error(`energy_difference: ${r.message}`);
    const value: EnergyDifferenceValue = {
      quantity: a.quantity,
      formula: r.formula,
      value: r.value,
      unit: r.unit,
      ...(r.valueJPerM2 !== undefined ? { valueJPerM2: r.valueJPerM2 } : {}),
      terms: terms.map((t) => ({
        energy: t.label,
        coefficient: t.coefficient,
        energyEv: t.energyEv,
        formula: formulaOf(Object.entries(t.composition).flatMap(([el, k]) => Array(k).fill(el))),
        natoms: Object.values(t.composition).reduce((x, y) => x + y, 0),
      })),
      sumEv: r.sumEv,
      per: r.per,
      divisor: r.divisor,
      ...(areaAngstrom2 !== undefined ? { areaAngstrom2, surfaces: a.surfaces ?? 2 } : {}),
    };
    const shown = (x: number) => String(Number(x.toPrecision(6)));
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.energyDifference,
          value,
          unit: r.unit,
          meta: { settings: terms[0]!.settings, quantity: a.quantity },
        },
      ],
      summary: `${r.formula} = ${shown(r.value)} ${r.unit}${r.valueJPerM2 !== undefined ? ` (${shown(r.valueJPerM2)} J/m²)` : ''}`,
    };
  },
});
