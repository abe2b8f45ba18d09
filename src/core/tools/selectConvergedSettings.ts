/** select_converged_settings: the cheapest converged cutoff or k-spacing of a sweep (dft/convergence.ts). */
import { selectConvergedValue } from '../dft/convergence';
import { artifactRefListSchema, quantitySchema } from '../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../guard/toolSpec';
import { ARTIFACT, type ConvergenceSelectionValue, type SweptParameter } from '../artifacts/shapes';
import { energyInputs } from './energyInputs';

interface Args {
  parameter: SweptParameter;
  energies: string[];
  toleranceMevPerAtom: number;
}

export const selectConvergedSettingsTool: GuardedToolSpec = {
  name: 'select_converged_settings',
  description:
    'Choose the cheapest converged value of a sweep: the cutoff (ecutwfc, swept at the finest k-spacing) or the k-spacing ' +
    '(swept at the chosen cutoff). The error of each run is its energy per atom against the finest run of the sweep; the ' +
    'choice is the cheapest value from which every finer value is within the tolerance. If only the finest value qualifies, ' +
    'the result is provisional and the summary suggests values that extend the sweep.',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      parameter: { type: 'string', enum: ['ecutwfc', 'kspacing'], description: 'The swept setting.' },
      energies: artifactRefListSchema('Total energies of the sweep (run_pw outputs), one per tested value.', { names: [ARTIFACT.totalEnergy], kinds: ['scalar'], unit: 'eV' }, { minItems: 3 }),
      toleranceMevPerAtom: quantitySchema('Largest tolerated error per atom against the finest run', 'meV/atom', { exclusiveMinimum: 0 }),
    },
    required: ['parameter', 'energies', 'toleranceMevPerAtom'],
    additionalProperties: false,
  },
  rules: ['settings-comparable'],
  crossParameterJudge: true,
  parameterNotes: {
    toleranceMevPerAtom: '1 meV/atom or tighter for lattice constants and bulk moduli; for adsorption energies, well below the energy differences reported.',
    energies: 'every run of one sweep, differing only in the swept setting, all converged SCF runs.',
  },
  async run(raw, ctx) {
    const args = raw as unknown as Args;
    const inputs = energyInputs(ctx, args.energies, 'select_converged_settings');
    const sel = selectConvergedValue(args.parameter, inputs.map((e) => ({
      energyEv: e.energyEv, natoms: e.meta.natoms, settings: e.meta.settings, label: e.ref,
    })), args.toleranceMevPerAtom);
    const converged = sel.outcome.status === 'converged';
    const chosenValue = converged ? (sel.outcome as { chosenValue: number }).chosenValue : sel.referenceValue;
    const atChosen = inputs.find((e) => (args.parameter === 'ecutwfc' ? e.meta.settings.ecutwfcRy : e.meta.settings.kSpacingPerAngstrom) === chosenValue)!;
    const value: ConvergenceSelectionValue = {
      parameter: args.parameter,
      tested: sel.table.map((r) => {
        const pressure = inputs.find((e) => e.ref === r.label)?.meta.pressureKbar;
        return { value: r.value, energyEvPerAtom: r.energyPerAtomEv, deltaMevPerAtom: r.errorMevPerAtom, ...(typeof pressure === 'number' ? { pressureKbar: pressure } : {}) };
      }),
      chosenValue,
      chosen: args.parameter === 'ecutwfc'
        ? { ecutwfcRy: chosenValue, ecutrhoRy: atChosen.meta.settings.ecutrhoRy }
        : { kSpacingPerAngstrom: chosenValue },
      toleranceMevPerAtom: args.toleranceMevPerAtom,
      converged,
    };
    const unit = sel.unit;
    return {
      artifacts: [{
        kind: 'table', name: ARTIFACT.convergedSettings, value,
        status: converged ? 'final' : 'provisional',
        meta: { settings: atChosen.meta.settings, unit },
      }],
      summary: converged
        ? `${args.parameter} converged at ${chosenValue} ${unit} (within ${args.toleranceMevPerAtom} meV/atom of ${sel.referenceValue} ${unit}; tested ${sel.table.map((r) => r.value).join(', ')})`
        : (sel.outcome as { message: string }).message,
    };
  },
};
