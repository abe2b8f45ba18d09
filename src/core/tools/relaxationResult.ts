/**
 * relaxation_result: what a relax or vc-relax ended at, read from its pw.x output: the final
 * energy (eV), forces (eV/Å), stress and pressure (kbar), volume (Å³), the cell, and the
 * trajectory (energy and largest force per geometry) a report plots. Final only when the output
 * shows it converged: BFGS converged, no failure kind, and the last forces (and free stress
 * components of a vc-relax) within the thresholds the output states; otherwise provisional,
 * with the reasons, so nothing can cite it as a converged geometry.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { summariseRelaxation, type CellDofree } from '../dft/relaxation';
import { cellVolume } from '../dft/structure/cell';
import type { Vec3 } from '../dft/types';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';
import type { RelaxationValue } from '../artifacts/relaxation';
import { finishedRunOf, formulaOf } from './runOutput';

const fmt = (x: number, digits = 6): string => String(Number(x.toPrecision(digits)));

export const relaxationResultTool = defineTool({
  name: 'relaxation_result',
  description:
    'The result of a relax or vc-relax (reference the total_energy run_pw returned for it): final energy (eV), forces (eV/Å), stress and ' +
    'pressure (kbar), volume (Å³), cell, and the trajectory (energy and largest force per geometry), read from its pw.x output. ' +
    'Converged only when BFGS converged and the last forces (and free stress components of a vc-relax) are within the thresholds the ' +
    'output states; otherwise the result is provisional, with the reasons. A relaxation run_pw found unconverged goes to the convergence advisor instead.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      relaxation: artifactRefSchema('The total energy of a relax or vc-relax run (run_pw output).', {
        names: [ARTIFACT.totalEnergy],
        kinds: ['scalar'],
      }),
    },
    required: ['relaxation'],
    additionalProperties: false,
  },
  // an unconverged relaxation may be summarised (its result is provisional); using it as converged is what the rule refuses
  rules: [],
  outputs: [ARTIFACTS.relaxation],
  parameterJudge: false,
  async run({ relaxation }, ctx) {
    const run = finishedRunOf(ctx, relaxation, 'relaxation_result');
    const { input, output } = run;
    if (input.calculation !== 'relax' && input.calculation !== 'vc-relax') {
      throw new Error(
        `relaxation_result: ${relaxation} comes from a calculation='${input.calculation}' run, which does not relax anything; reference the energy of a relax or vc-relax run.`,
      );
    }
    const s = summariseRelaxation(output, {
      ...(input.options?.cellDofree ? { cellDofree: input.options.cellDofree as CellDofree } : {}),
      ...(input.options?.targetPressureKbar !== undefined ? { targetPressureKbar: input.options.targetPressureKbar } : {}),
      ...(input.structure.fixed ? { fixed: input.structure.fixed } : {}),
      startCellAngstrom: input.structure.cell,
    });
    if (s.finalEnergyEv === undefined) {
      throw new Error(
        `relaxation_result: the pw.x output of ${run.call.id} has no total energy (${s.problems.join('; ') || 'no "!" line'}); run the relaxation again.`,
      );
    }
    const natoms = input.structure.symbols.length;
    const initialEnergyEv = s.steps[0]?.energyEv;
    const start = input.structure.positions;
    const final = s.positionsAngstrom?.length === natoms ? s.positionsAngstrom : undefined;
    const moved = final
      ? Math.max(0, ...final.map((p, i) => Math.hypot(p[0] - start[i]![0], p[1] - start[i]![1], p[2] - start[i]![2])))
      : undefined;
    const value: RelaxationValue = {
      calculation: s.calculation,
      converged: s.converged,
      problems: s.problems,
      ...(s.failure ? { failureKind: s.failure.kind } : {}),
      checks: s.checks,
      thresholds: {
        ...(s.thresholds.forceEvPerAngstrom !== undefined ? { forceEvPerAngstrom: s.thresholds.forceEvPerAngstrom } : {}),
        ...(s.thresholds.pressureKbar !== undefined ? { pressureKbar: s.thresholds.pressureKbar } : {}),
      },
      steps: s.steps,
      finalEnergyEv: s.finalEnergyEv,
      ...(initialEnergyEv !== undefined ? { initialEnergyEv, relaxationEnergyEv: s.finalEnergyEv - initialEnergyEv } : {}),
      ...(s.maxForceEvPerAngstrom !== undefined ? { maxForceEvPerAngstrom: s.maxForceEvPerAngstrom } : {}),
      ...(s.totalForceEvPerAngstrom !== undefined ? { totalForceEvPerAngstrom: s.totalForceEvPerAngstrom } : {}),
      ...(s.forcesEvPerAngstrom ? { forcesEvPerAngstrom: s.forcesEvPerAngstrom } : {}),
      ...(s.stressKbar ? { stressKbar: s.stressKbar } : {}),
      ...(s.pressureKbar !== undefined ? { pressureKbar: s.pressureKbar } : {}),
      ...(s.targetPressureKbar !== undefined ? { targetPressureKbar: s.targetPressureKbar } : {}),
      ...(s.cellDofree ? { cellDofree: s.cellDofree } : {}),
      volumeAngstrom3: s.volumeAngstrom3,
      volumePerAtomAngstrom3: s.volumeAngstrom3 / natoms,
      startVolumeAngstrom3: cellVolume(input.structure.cell),
      cellAngstrom: s.cellAngstrom,
      cellLengthsAngstrom: s.cellAngstrom.map((v) => Math.hypot(...v)) as Vec3,
      natoms,
      formula: formulaOf(input.structure.symbols),
      ...(output.settings.kPoints !== undefined ? { kpointCount: output.settings.kPoints } : {}),
      ...(s.bfgsSteps !== undefined ? { bfgsSteps: s.bfgsSteps } : {}),
      ...(moved !== undefined ? { maxDisplacementAngstrom: moved } : {}),
      settings: run.meta.settings,
      title: `${s.calculation} of ${formulaOf(input.structure.symbols)} (${run.call.id})`,
    };
    const status = s.converged && run.energy.status === 'final' ? ('final' as const) : ('provisional' as const);
    const head =
      `${s.calculation} of ${value.formula}: ${s.steps.length} geometries, E = ${fmt(s.finalEnergyEv, 10)} eV, ` +
      `largest force ${s.maxForceEvPerAngstrom !== undefined ? `${fmt(s.maxForceEvPerAngstrom, 3)} eV/Å` : 'not printed'}` +
      (s.calculation === 'vc-relax'
        ? `, P = ${s.pressureKbar ?? '?'} kbar, V = ${fmt(s.volumeAngstrom3, 6)} Å³ (from ${fmt(value.startVolumeAngstrom3, 6)})`
        : `, V = ${fmt(s.volumeAngstrom3, 6)} Å³`);
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.relaxation,
          value,
          status,
          inputs: [run.outputArtifact.id],
          meta: { settings: run.meta.settings, natoms, formula: value.formula },
        },
      ],
      summary:
        status === 'final'
          ? `${head}; converged: ${s.checks.map((c) => c.statement).join('; ')}`
          : `${head}; NOT converged (provisional): ${s.problems.join('; ')}`,
    };
  },
});
