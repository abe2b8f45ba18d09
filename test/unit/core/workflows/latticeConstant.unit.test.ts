import assert from 'node:assert/strict';
import {
  eosScaleFactors,
  defaultCutoffsRy,
  defaultDual,
  type LatticeConstantInputs,
} from '../../../../src/core/workflows/latticeConstantInputs';
import { latticeInputsFromText } from '../../../../src/core/workflows/latticeConstantText';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';
import type { WorkflowEnvironment } from '../../../../src/core/workflows/types';
import { checkTemplateSteps } from './templateSteps';

const env: WorkflowEnvironment = {
  pseudopotential: ({ element, file }) => ({
    file: file ?? `${element}.pbe-n-rrkjus_psl.1.0.0.UPF`,
    type: 'US',
    functional: 'PBE',
    suggestedEcutwfcRy: 31,
    suggestedEcutrhoRy: 240,
  }),
};

describe('lattice-constant workflow template', () => {
  it('every step names a catalogue tool its worker may call, with arguments its schema accepts', () => {
    const { steps } = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04 }, env);
    checkTemplateSteps(steps, { quantity: 'lattice_constant', value: 4.04, unit: 'Å' });
  });

  it('sweeps the cutoff at the middle of the k sweep with a bulk-modulus probe, then k at the chosen cutoff, then the EOS at both chosen settings', () => {
    const { steps, inputs } = prepareWorkflow(
      'lattice-constant',
      { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04, kSpacingsPerAngstrom: [0.2, 0.3, 0.15] },
      env,
    );
    const byId = new Map(steps.map((s) => [s.id, s]));
    assert.equal(byId.get('cutoff-input')!.args!.kSpacingPerAngstrom, 0.2);
    assert.equal(byId.get('k-input')!.args!.kSpacingPerAngstrom, 0.2, "the k sweep template shares the cutoff sweep's spacing");
    assert.deepEqual(byId.get('k-series')!.args!.values, [0.3, 0.2, 0.15]);
    assert.equal(byId.get('cutoff-input')!.args!.purpose, 'convergence-test');
    assert.equal(byId.get('k-input')!.args!.ecutwfcRy, '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy');
    assert.equal(byId.get('eos-input')!.args!.purpose, 'production');
    assert.equal(byId.get('eos-input')!.args!.kSpacingPerAngstrom, '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom');
    assert.deepEqual(byId.get('eos-series')!.args!.values, [0.95, 0.975, 1, 1.025, 1.05]);
    assert.deepEqual(byId.get('report')!.reportQuantities, [
      'lattice_constant',
      'bulk_modulus',
      'equilibrium_volume',
      'converged_cutoff',
      'converged_kspacing',
    ]);
    // Ultrasoft: ecutrho = 8 × ecutwfc; cutoffs start at the header's suggestion, rounded up to 5 Ry, in 10-Ry steps.
    assert.equal(inputs.dual, 8);
    assert.deepEqual(inputs.cutoffsRy, [35, 45, 55, 65]);
    assert.equal(byId.get('cutoff-input')!.args!.ecutrhoRy, 520);
    // no tolerance stated: the pressure criterion at 0.05 % of a, B from a probe at the lowest cutoff and the sweep's spacing
    assert.equal(inputs.criterion, 'pressure');
    assert.deepEqual(byId.get('bulk-modulus-input')!.args!.ecutwfcRy, 35);
    assert.deepEqual(byId.get('bulk-modulus-input')!.args!.kSpacingPerAngstrom, 0.2);
    assert.deepEqual(byId.get('bulk-modulus-series')!.args!.values, [0.99, 1, 1.01]);
    assert.deepEqual(byId.get('cutoff-choice')!.args, {
      parameter: 'ecutwfc',
      energies: '$all.cutoff-runs.total_energy',
      criterion: 'pressure',
      toleranceLatticePercent: 0.05,
      bulkModulusFrom: '$all.bulk-modulus-runs.total_energy',
      extensionBudgetSeconds: 1800,
    });
    assert.deepEqual(byId.get('cutoff-choice')!.dependsOn, ['cutoff-runs', 'bulk-modulus-runs']);
    assert.equal(byId.get('k-choice')!.args!.bulkModulusGPa, '$step.cutoff-choice.converged_settings.criterion.bulkModulusGPa');
  });

  it('starts the k sweep where a metal or an insulator converges, and keeps the energy criterion when only an energy tolerance is stated', () => {
    const metal = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04 }, env).inputs;
    assert.deepEqual(metal.kSpacingsPerAngstrom, [0.3, 0.25, 0.2, 0.15, 0.11]);
    assert.equal(metal.cutoffSweepKSpacingPerAngstrom, 0.2);
    const si = prepareWorkflow('lattice-constant', { element: 'Si', structure: 'diamond', latticeConstantAngstrom: 5.43 }, env).inputs;
    assert.deepEqual(
      [si.electronic, si.kSpacingsPerAngstrom, si.cutoffSweepKSpacingPerAngstrom],
      ['insulator', [0.5, 0.4, 0.3, 0.25], 0.3],
    );
    // Ge closes its gap in PBE: a metal's sweep
    assert.equal(
      prepareWorkflow('lattice-constant', { element: 'Ge', structure: 'diamond', latticeConstantAngstrom: 5.66 }, env).inputs.electronic,
      'metal',
    );
    const energy = prepareWorkflow(
      'lattice-constant',
      { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04, toleranceMevPerAtom: 3 },
      env,
    );
    assert.equal(energy.inputs.criterion, 'energy');
    assert.equal(
      energy.steps.some((s) => s.id.startsWith('bulk-modulus')),
      false,
      'no probe without the pressure criterion',
    );
    assert.deepEqual(energy.steps.find((s) => s.id === 'k-choice')!.args, {
      parameter: 'kspacing',
      energies: '$all.k-runs.total_energy',
      criterion: 'energy',
      toleranceMevPerAtom: 3,
      extensionBudgetSeconds: 1800,
    });
    assert.equal(
      prepareWorkflow(
        'lattice-constant',
        { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04, toleranceMevPerAtom: 3, toleranceLatticePercent: 0.1 },
        env,
      ).inputs.criterion,
      'both',
    );
    assert.throws(
      () =>
        prepareWorkflow(
          'lattice-constant',
          { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.04, cutoffSweepKSpacingPerAngstrom: 0.17 },
          env,
        ),
      /cutoffSweepKSpacingPerAngstrom: 0\.17 1\/Å is not one of the k sweep's spacings \(0\.3, 0\.25, 0\.2, 0\.15, 0\.11\)/,
    );
  });

  it("raises the default dual where the file's suggested density cutoff needs it at the sweep's lowest cutoff (V: 48/645 Ry)", () => {
    const v: WorkflowEnvironment = {
      pseudopotential: () => ({
        file: 'V.pbe-spnl-rrkjus_psl.1.0.0.UPF',
        type: 'US',
        functional: 'PBE',
        suggestedEcutwfcRy: 47.552,
        suggestedEcutrhoRy: 645.077,
      }),
    };
    const prepared = prepareWorkflow('lattice-constant', { element: 'V', structure: 'bcc', latticeConstantAngstrom: 3.03 }, v);
    const { steps } = prepared;
    const inputs = prepared.inputs as unknown as LatticeConstantInputs;
    assert.deepEqual(inputs.cutoffsRy, [50, 60, 70, 80]);
    // 8 × 50 = 400 Ry would be below 645 Ry at every cutoff of the sweep up to 80 Ry: 645/50 = 12.9 → 13
    assert.equal(inputs.dual, 13);
    assert.ok(inputs.cutoffsRy.every((c) => inputs.dual * c >= 645.077));
    assert.equal(steps.find((s) => s.id === 'cutoff-input')!.args!.ecutrhoRy, 1040);
    assert.match(String(steps.find((s) => s.id === 'cutoff-input')!.reasons!.ecutrhoRy), /suggested density cutoff/);
    // the usual ratio where it is enough, and the user's own dual as given
    assert.equal(defaultDual(false, 35, 240), 8);
    assert.equal(defaultDual(true, 20, 90), 5);
    assert.equal(defaultDual(false, 40, undefined), 8);
    // a sweep the user starts below the file's wavefunction suggestion: the ratio the file asks for, not 645/20
    assert.equal(
      prepareWorkflow(
        'lattice-constant',
        { element: 'V', structure: 'bcc', latticeConstantAngstrom: 3.03, cutoffsRy: [20, 30, 40, 60, 80] },
        v,
      ).inputs.dual,
      14,
    );
    assert.equal(
      prepareWorkflow(
        'lattice-constant',
        { element: 'V', structure: 'bcc', latticeConstantAngstrom: 3.03, dual: 8, cutoffsRy: [85, 90, 100] },
        v,
      ).inputs.dual,
      8,
    );
    // a dual that puts the sweep below the file's suggestion is refused before anything runs, with the fixes
    assert.throws(
      () => prepareWorkflow('lattice-constant', { element: 'V', structure: 'bcc', latticeConstantAngstrom: 3.03, dual: 8 }, v),
      /inputs\.dual: 8 × 50 Ry .* = 400 Ry is below the 645\.1 Ry density cutoff V\.pbe-spnl-rrkjus_psl\.1\.0\.0\.UPF suggests.*dual ≥ 13, start cutoffsRy at 81 Ry or above/,
    );
  });

  it('runs Fe, Co and Ni spin-polarized with a starting magnetization, and Al without', () => {
    for (const [element, spin] of [
      ['Fe', 2],
      ['Ni', 2],
      ['Co', 2],
      ['Al', 1],
    ] as const) {
      const { steps } = prepareWorkflow(
        'lattice-constant',
        { element, structure: element === 'Fe' ? 'bcc' : 'fcc', latticeConstantAngstrom: 3.5 },
        env,
      );
      const input = steps.find((s) => s.id === 'eos-input')!;
      assert.equal(input.args!.nspin, spin, element);
      assert.equal(input.args!.startingMagnetization !== undefined, spin === 2, element);
    }
  });

  it('norm-conserving pseudopotentials get ecutrho = 4 × ecutwfc; hcp gets the ideal c/a, stated', () => {
    const nc: WorkflowEnvironment = { pseudopotential: () => ({ file: 'Al.pz-vbc.UPF', type: 'NC', functional: 'PZ' }) };
    const { inputs, steps } = prepareWorkflow(
      'lattice-constant',
      { element: 'Mg', structure: 'hcp', latticeConstantAngstrom: 3.21, functional: 'LDA' },
      nc,
    );
    assert.equal(inputs.dual, 4);
    assert.equal(inputs.functional, 'PZ');
    assert.equal(steps.find((s) => s.id === 'structure')!.args!.cOverA, 1.632993);
    assert.deepEqual(defaultCutoffsRy(undefined), [20, 30, 40, 50]);
  });

  it('refuses inputs a person must fix, saying what to write', () => {
    assert.throws(
      () => prepareWorkflow('lattice-constant', { element: 'Xx', structure: 'fcc', latticeConstantAngstrom: 4 }, env),
      /"Xx" is not a chemical symbol/,
    );
    assert.throws(
      () => prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4, eos: { points: 6 } }, env),
      /use an odd number/,
    );
    const missing: WorkflowEnvironment = { pseudopotential: () => undefined };
    assert.throws(
      () =>
        prepareWorkflow(
          'lattice-constant',
          { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4, pseudopotential: 'Al.nope.UPF' },
          missing,
        ),
      /Al\.nope\.UPF is not in the pseudopotential directory/,
    );
  });

  it('spans ±range % of the lattice constant in equal steps', () => {
    assert.deepEqual(eosScaleFactors(5, 5), [0.95, 0.975, 1, 1.025, 1.05]);
    assert.deepEqual(eosScaleFactors(7, 3), [0.97, 0.98, 0.99, 1, 1.01, 1.02, 1.03]);
  });

  it('reads a text objective', () => {
    assert.deepEqual(
      latticeInputsFromText('Compute the lattice constant of fcc Al with PBE, a0 = 4.04 Å, using Al.pbe-nl-rrkjus_psl.1.0.0.UPF'),
      {
        element: 'Al',
        structure: 'fcc',
        latticeConstantAngstrom: 4.04,
        functional: 'PBE',
        pseudopotential: 'Al.pbe-nl-rrkjus_psl.1.0.0.UPF',
      },
    );
    assert.deepEqual(latticeInputsFromText('lattice parameter of bcc Fe starting at 2.87 A, LDA'), {
      element: 'Fe',
      structure: 'bcc',
      latticeConstantAngstrom: 2.87,
      functional: 'PZ',
    });
    assert.equal(latticeInputsFromText('adsorption energy of CO on Pt(111)'), undefined);
  });
});
