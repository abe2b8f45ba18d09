import assert from 'node:assert/strict';
import { prepareWorkflow, parseObjectiveFile } from '../../../../src/core/workflows/objective';
import type { TemplateStep, WorkflowEnvironment } from '../../../../src/core/workflows/types';
import { checkTemplateSteps } from './templateSteps';

// The pslibrary files of test/fixtures/workflows/pseudo, as their headers describe them.
const SUGGESTED: Record<string, [number, number]> = { Pt: [39.1, 401.3], C: [40, 326], O: [47, 323] };
const SUGGESTED_LDA: Record<string, [number, number]> = { Pt: [39, 424], C: [40, 361], O: [47, 323] };
const env: WorkflowEnvironment = {
  pseudopotential: ({ element, functional, file }) => {
    const lda = functional === 'PZ';
    const [wfc, rho] = (lda ? SUGGESTED_LDA : SUGGESTED)[element] ?? [30, 240];
    return {
      file: file ?? `${element}.${lda ? 'pz' : 'pbe'}-n-rrkjus_psl.1.0.0.UPF`,
      type: 'US',
      functional: lda ? 'PZ' : 'PBE',
      suggestedEcutwfcRy: wfc,
      suggestedEcutrhoRy: rho,
    };
  },
};

const checkPlan = (steps: TemplateStep[]) => checkTemplateSteps(steps, { quantity: 'delta_be', value: 0.1, unit: 'eV' });

const TOY = { metal: 'Pt', latticeConstantAngstrom: 3.98, ecutwfcRy: 47, kMesh: [1, 1, 1], slab: { layers: 2, vacuumAngstrom: 5 } };
const byId = (steps: TemplateStep[]) => new Map(steps.map((s) => [s.id, s]));

describe('adsorption-site-preference template', () => {
  it('given a lattice constant: relaxations of the clean slab and both sites with the bottom layers fixed, E_ads from them and the gas molecule, ΔBE = ontop − fcc', () => {
    const { steps, inputs } = prepareWorkflow('adsorption-site-preference', TOY, env);
    checkPlan(steps);
    const s = byId(steps);
    assert.deepEqual(s.get('slab')!.args, {
      element: 'Pt',
      facet: 'fcc111',
      latticeConstantAngstrom: 3.98,
      size: [2, 2],
      layers: 2,
      vacuumAngstrom: 5,
      fixedLayers: 1,
    });
    for (const id of ['relax-clean-input', 'relax-ontop-input', 'relax-fcc-input', 'gas-input']) {
      assert.equal(s.get(id)!.args!.calculation, 'relax', id);
      assert.equal(s.get(id)!.args!.purpose, 'production', id);
      assert.equal(s.get(id)!.args!.ecutwfcRy, 47, id);
      // at least the highest suggestion of the three files (Pt 401.3 Ry)
      assert.equal(s.get(id)!.args!.ecutrhoRy, 402, id);
    }
    assert.deepEqual(s.get('gas-input')!.args!.kMesh, [1, 1, 1]);
    // given settings are not called converged; a toy box is not said to keep images apart
    assert.equal(
      s.get('relax-clean-input')!.reasons!.ecutwfcRy,
      '47 Ry, the cutoff given with the study (its convergence is not tested here)',
    );
    const box = s.get('gas-molecule')!;
    assert.equal(box.reasons!.boxAngstrom, `${box.args!.boxAngstrom} Å: periodic images of the molecule do not interact`);
    const toyBox = byId(prepareWorkflow('adsorption-site-preference', { ...TOY, moleculeBoxAngstrom: 8 }, env).steps).get('gas-molecule')!;
    assert.match(toyBox.reasons!.boxAngstrom!, /^8 Å, the box given with the study: below the 10–15 Å .* \(toy settings\)$/);
    assert.equal(s.get('ads-ontop')!.args!.site, 'ontop');
    assert.equal(s.get('ads-fcc')!.args!.site, 'fcc');
    assert.deepEqual(s.get('eads-fcc')!.args, {
      slabWithAdsorbate: '$step.relax-fcc-run.total_energy',
      slab: '$step.relax-clean-run.total_energy',
      adsorbate: '$step.gas-run.total_energy',
    });
    assert.deepEqual(s.get('site-preference')!.args, {
      ontop: '$step.eads-ontop.adsorption_energy',
      fcc: '$step.eads-fcc.adsorption_energy',
    });
    assert.deepEqual(s.get('report')!.reportQuantities, ['delta_be', 'adsorption_energy']);
    assert.deepEqual(inputs.pseudopotentials as Record<string, string>, {
      Pt: 'Pt.pbe-n-rrkjus_psl.1.0.0.UPF',
      C: 'C.pbe-n-rrkjus_psl.1.0.0.UPF',
      O: 'O.pbe-n-rrkjus_psl.1.0.0.UPF',
    });
    assert.deepEqual(s.get('pseudopotentials')!.args!.prefer, inputs.pseudopotentials, 'every step uses the files the plan was made with');
  });

  it('LDA: the PZ pseudopotentials and their larger density cutoff', () => {
    const { steps, inputs } = prepareWorkflow('adsorption-site-preference', { ...TOY, functional: 'LDA' }, env);
    assert.equal(inputs.functional, 'PZ');
    const s = byId(steps);
    assert.equal(s.get('pseudopotentials')!.args!.functional, 'PZ');
    assert.equal(s.get('relax-fcc-input')!.args!.ecutrhoRy, 424);
  });

  it('computing the bulk: the lattice-constant steps prefixed "bulk-", their cutoff sweep starting at the highest suggestion of Pt, C and O, their choices feeding the slab', () => {
    const { steps, inputs } = prepareWorkflow(
      'adsorption-site-preference',
      { metal: 'Pt', functional: 'LDA', bulk: { startingLatticeConstantAngstrom: 3.92 }, slab: { layers: 3, vacuumAngstrom: 8 } },
      env,
    );
    checkPlan(steps);
    const s = byId(steps);
    for (const id of ['bulk-structure', 'bulk-cutoff-runs', 'bulk-k-choice', 'bulk-eos-fit', 'bulk-lattice']) assert.ok(s.has(id), id);
    assert.ok(!steps.some((x) => x.id === 'bulk-report'), 'the enclosing study reports');
    assert.deepEqual((inputs.bulk as { cutoffsRy: number[] }).cutoffsRy, [50, 55, 60, 65, 75]);
    // ecutrho/ecutwfc so that the lowest cutoff still meets Pt.pz's 424 Ry density suggestion
    assert.equal((inputs.bulk as { dual: number }).dual, 9);
    assert.equal(s.get('bulk-cutoff-choice')!.args!.energies, '$all.bulk-cutoff-runs.total_energy');
    assert.equal(s.get('slab')!.args!.latticeConstantAngstrom, '$step.bulk-lattice.lattice_constant');
    assert.equal(s.get('relax-fcc-input')!.args!.ecutwfcRy, '$step.bulk-cutoff-choice.converged_settings.chosen.ecutwfcRy');
    assert.equal(s.get('relax-fcc-input')!.args!.kSpacingPerAngstrom, '$step.bulk-k-choice.converged_settings.chosen.kSpacingPerAngstrom');
    assert.deepEqual(s.get('report')!.reportQuantities, [
      'delta_be',
      'adsorption_energy',
      'lattice_constant',
      'converged_cutoff',
      'converged_kspacing',
    ]);
  });

  it('a slab sweep: ΔBE single points per layer count at the largest vacuum, the layer choice, then the vacuum sweep at the chosen layers joined by that slab', () => {
    const { steps } = prepareWorkflow(
      'adsorption-site-preference',
      { ...TOY, slab: { layers: [3, 4, 5], vacuumAngstrom: [8, 10], toleranceEv: 0.01 } },
      env,
    );
    checkPlan(steps);
    const s = byId(steps);
    for (const n of [3, 4, 5]) {
      const slab = s.get(`sweep-l${n}-v10-slab`)!;
      assert.equal(slab.args!.layers, n);
      assert.equal(slab.args!.vacuumAngstrom, 10);
      assert.equal(slab.args!.fixedLayers, Math.floor(n / 2));
      assert.equal(s.get(`sweep-l${n}-v10-fcc-input`)!.args!.calculation, 'scf');
    }
    assert.deepEqual(s.get('layers-choice')!.args, {
      values: ['$all.sweep-l3-v10-dbe.delta_be', '$all.sweep-l4-v10-dbe.delta_be', '$all.sweep-l5-v10-dbe.delta_be'],
      dimension: 'layers',
      toleranceEv: 0.01,
    });
    const vac = s.get('sweep-lchosen-v8-slab')!;
    assert.equal(vac.args!.layers, '$step.layers-choice.converged_slab.chosen.layers');
    assert.equal(vac.args!.vacuumAngstrom, 8);
    assert.ok(!s.has('sweep-lchosen-v10-slab'), 'the chosen slab at 10 Å is not computed twice');
    assert.equal(s.get('vacuum-choice')!.args!.previous, '$step.layers-choice.converged_slab');
    assert.equal(s.get('ads-fcc')!.args!.slab, '$step.vacuum-choice.slab');
    assert.equal(s.get('relax-clean-input')!.args!.structure, '$step.vacuum-choice.slab');
  });

  it('starting heights per site reach place_adsorbate with their reason; without them the covalent-radius default stands', () => {
    const { steps } = prepareWorkflow('adsorption-site-preference', { ...TOY, startingHeightsAngstrom: { ontop: 1.85, fcc: 1.3 } }, env);
    checkPlan(steps);
    const s = byId(steps);
    assert.equal(s.get('ads-ontop')!.args!.heightAngstrom, 1.85);
    assert.equal(s.get('ads-fcc')!.args!.heightAngstrom, 1.3);
    assert.match(String(s.get('ads-fcc')!.reasons!.heightAngstrom), /1\.3 Å, the study's starting height at the fcc site/);
    const plain = byId(prepareWorkflow('adsorption-site-preference', TOY, env).steps);
    assert.equal(plain.get('ads-ontop')!.args!.heightAngstrom, undefined);
    assert.throws(
      () => prepareWorkflow('adsorption-site-preference', { ...TOY, startingHeightsAngstrom: { hcp: 1.3 } }, env),
      /startingHeightsAngstrom/,
    );
    assert.throws(
      () => prepareWorkflow('adsorption-site-preference', { ...TOY, startingHeightsAngstrom: { ontop: 9 } }, env),
      /startingHeightsAngstrom/,
    );
  });

  it('SCF control given with the study reaches every production input (gas, slab, sites, BEEF), with its reason; bad values are refused', () => {
    const scf = { mixingMode: 'local-TF', mixingBeta: 0.3 };
    const s = byId(prepareWorkflow('adsorption-site-preference', { ...TOY, scf }, env).steps);
    for (const id of ['gas-input', 'relax-clean-input', 'relax-ontop-input', 'relax-fcc-input']) {
      assert.equal(s.get(id)!.args!.mixingMode, 'local-TF', id);
      assert.equal(s.get(id)!.args!.mixingBeta, 0.3, id);
      assert.match(String(s.get(id)!.reasons!.mixingBeta), /SCF control given with the study \(it does not change the energies\)/);
    }
    const beef = byId(prepareWorkflow('beef-ensemble', { ...TOY, scf }, env).steps);
    assert.equal(beef.get('beef-fcc-input')!.args!.mixingMode, 'local-TF');
    assert.equal(byId(prepareWorkflow('adsorption-site-preference', TOY, env).steps).get('relax-fcc-input')!.args!.mixingBeta, undefined);
    assert.throws(() => prepareWorkflow('adsorption-site-preference', { ...TOY, scf: { mixingBeta: 2 } }, env), /scf/);
    assert.throws(() => prepareWorkflow('adsorption-site-preference', { ...TOY, scf: { mixing: 0.3 } }, env), /scf/);
  });

  it('refuses inputs a person must fix, saying what to write', () => {
    const prep = (x: Record<string, unknown>) => () => prepareWorkflow('adsorption-site-preference', x, env);
    assert.throws(prep({ metal: 'Pt', ecutwfcRy: 47, kMesh: [1, 1, 1] }), /either inputs\.latticeConstantAngstrom .* or inputs\.bulk/);
    assert.throws(prep({ ...TOY, bulk: { startingLatticeConstantAngstrom: 3.9 } }), /not both/);
    assert.throws(prep({ metal: 'Pt', latticeConstantAngstrom: 3.98, kMesh: [1, 1, 1] }), /ecutwfcRy is missing/);
    assert.throws(prep({ ...TOY, slab: { layers: 2, fixedLayers: 2 } }), /leave nothing to relax in a 2-layer slab/);
    assert.throws(
      prep({ ...TOY, pseudopotentials: { Au: 'Au.pbe-n-rrkjus_psl.1.0.0.UPF' } }),
      /names Au, which the study does not contain/,
    );
    const missing: WorkflowEnvironment = { pseudopotential: () => undefined };
    assert.throws(
      () => prepareWorkflow('adsorption-site-preference', { ...TOY, pseudopotentials: { Pt: 'Pt.nope.UPF' } }, missing),
      /Pt\.nope\.UPF is not in the pseudopotential directory/,
    );
  });
});

describe('beef-ensemble template', () => {
  it('ensemble runs (calculation ensemble, input_dft BEEF-vdW, the study settings) on the two relaxed geometries, then ΔBE over the members', () => {
    const { steps } = prepareWorkflow('beef-ensemble', TOY, env);
    checkPlan(steps);
    const s = byId(steps);
    for (const site of ['ontop', 'fcc']) {
      const input = s.get(`beef-${site}-input`)!;
      assert.equal(input.args!.structure, `$step.relaxed-${site}.relaxed_structure`);
      assert.equal(input.args!.calculation, 'ensemble');
      assert.equal(input.args!.inputDft, 'BEEF-vdW');
      assert.equal(input.args!.ecutwfcRy, 47);
      assert.deepEqual(s.get(`relaxed-${site}`)!.args, { relaxation: `$step.relax-${site}-run.total_energy` });
    }
    assert.deepEqual(s.get('beef-stats')!.args, {
      ontopSlabWithAdsorbate: '$step.beef-ontop-run.beef_ensemble',
      fccSlabWithAdsorbate: '$step.beef-fcc-run.beef_ensemble',
    });
    assert.ok(s.has('site-preference'), 'the PBE ΔBE is reported beside the ensemble');
    assert.deepEqual(s.get('report')!.reportQuantities, ['beef_ensemble', 'delta_be', 'adsorption_energy']);
  });

  it('without adsorption energies: only the two adsorbed states are relaxed (the shared references cancel in ΔBE)', () => {
    const { steps } = prepareWorkflow('beef-ensemble', { ...TOY, adsorptionEnergies: false }, env);
    checkPlan(steps);
    const ids = steps.map((s) => s.id);
    for (const gone of ['gas-molecule', 'gas-run', 'relax-clean-run', 'eads-fcc', 'site-preference']) assert.ok(!ids.includes(gone), gone);
    for (const kept of ['relax-ontop-run', 'relax-fcc-run', 'beef-stats', 'report']) assert.ok(ids.includes(kept), kept);
    assert.throws(
      () => prepareWorkflow('beef-ensemble', { ...TOY, adsorptionEnergies: false, slab: { layers: [2, 3], vacuumAngstrom: 5 } }, env),
      /sweeps layers or vacuum/,
    );
    assert.throws(() => prepareWorkflow('beef-ensemble', { ...TOY, functional: 'LDA' }, env), /functional: must be one of PBE/);
  });
});

describe('objective files for the science workflows', () => {
  it('the examples parse and plan', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = path.resolve(__dirname, '../../../../examples');
    const files = fs.readdirSync(dir).filter((f) => /^(copt111|beef)-.*\.ya?ml$/.test(f));
    assert.ok(files.length >= 3, `examples: ${files.join(', ')}`);
    for (const f of files) {
      const o = parseObjectiveFile(fs.readFileSync(path.join(dir, f), 'utf8'), f);
      const { steps } = prepareWorkflow(o.workflow!, o.inputs!, env);
      checkPlan(steps);
    }
  });
});
