/** fit_eos: an equation of state through total energies at several volumes (dft/eos.ts). */
import { ARTIFACTS } from '../artifacts/contracts';
import { EOS_FORMS, fitEos } from '../dft/eos';
import { artifactRefListSchema } from '../guard/schemaAnnotations';
import { ARTIFACT, type EosFitValue } from '../artifacts/shapes';
import { defineTool } from './defineTool';
import { energyInputs } from './energyInputs';

export const fitEosTool = defineTool({
  name: 'fit_eos',
  description:
    'Fit an equation of state E(V) through total energies of one cell at five or more volumes, giving V0 (Å^3), E0 (eV), ' +
    "B0 (GPa) and B0'. The volumes must bracket the minimum; a minimum outside the sampled range is refused.",
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      energies: artifactRefListSchema(
        'Total energies of the EOS series (run_pw outputs), one per volume.',
        { names: [ARTIFACT.totalEnergy], kinds: ['scalar'], unit: 'eV' },
        { minItems: 5 },
      ),
      form: { type: 'string', enum: [...EOS_FORMS], description: 'Equation of state; birch-murnaghan (3rd order) is the usual choice.' },
    },
    required: ['energies', 'form'],
    additionalProperties: false,
  },
  rules: ['settings-comparable', 'eos-brackets-minimum', 'energies-from-production-inputs'],
  outputs: [ARTIFACTS.eosFit],
  crossParameterJudge: true,
  parameterNotes: {
    energies: 'five to nine volumes spanning about ±5–10 % around the expected V0, all with the same converged settings.',
    form: 'birch-murnaghan unless there is a reason to prefer another.',
  },
  async run(args, ctx) {
    const inputs = energyInputs(ctx, args.energies, 'fit_eos');
    const natoms = inputs[0]!.meta.natoms;
    const fit = fitEos(
      inputs.map((e) => ({ volumeA3: e.meta.volumeAngstrom3, energyEv: e.energyEv })),
      args.form,
    );
    const value: EosFitValue = {
      form: fit.form,
      v0Angstrom3: fit.v0A3,
      e0Ev: fit.e0Ev,
      b0GPa: fit.b0Gpa,
      b0Prime: fit.b0Prime,
      natoms,
      points: inputs.map((e) => ({ volumeAngstrom3: e.meta.volumeAngstrom3, energyEv: e.energyEv })),
      rmsResidualEv: fit.rmsResidualEv,
    };
    return {
      artifacts: [ctx.artifact(ARTIFACTS.eosFit, { value, meta: { settings: inputs[0]!.meta.settings, warnings: fit.warnings } })],
      summary:
        `${fit.form}: V0 = ${fit.v0A3.toFixed(4)} Å^3, B0 = ${fit.b0Gpa.toFixed(1)} GPa, B0' = ${fit.b0Prime.toFixed(2)}, ` +
        `rms residual ${(fit.rmsResidualEv * 1000).toFixed(3)} meV${fit.warnings.length ? `. Note: ${fit.warnings.join(' ')}` : ''}`,
    };
  },
});
