import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ObjectiveError, workflowTemplate, type WorkflowEnvironment } from '../../../../../src/core/workflows';
import { parseObjectiveFile, parseObjectiveText, prepareWorkflow } from '../../../../../src/core/workflows/objective';
import { RELAX } from '../../../../../src/core/workflows/everyday/relax';
import { MAGNETIC_ORDERING } from '../../../../../src/core/workflows/everyday/magneticOrdering';
import { FORMATION_ENERGY } from '../../../../../src/core/workflows/everyday/formationEnergy';
import { SURFACE_ENERGY } from '../../../../../src/core/workflows/everyday/surfaceEnergy';
import { elementsInText } from '../../../../../src/core/workflows/everyday/common';
import { buildBulkTool } from '../../../../../src/core/tools/structureTools';
import type { Structure } from '../../../../../src/core/dft/types';
import { checkTemplateSteps } from '../templateSteps';

const env: WorkflowEnvironment = {
  pseudopotential: ({ element }) => ({ file: `${element}.upf`, type: ['Si', 'Al', 'Mg'].includes(element) ? 'NC' : 'US' }),
};
const plan = (t: typeof RELAX, inputs: Record<string, unknown>) => t.steps(t.resolveInputs(inputs, env));
const claim = { quantity: 'relaxed_energy', value: -1, unit: 'eV' };

describe('the everyday templates: relax, magnetic-ordering, formation-energy, surface-energy', () => {
  it('are registered and read sentence objectives', () => {
    for (const id of ['relax', 'magnetic-ordering', 'formation-energy', 'surface-energy']) assert.ok(workflowTemplate(id), id);
    assert.deepEqual(parseObjectiveText('vc-relax Si with PBE').inputs, { calculation: 'vc-relax', element: 'Si', functional: 'PBE' });
    assert.equal(parseObjectiveText('magnetic moment of bcc Fe with PBE').workflow, 'magnetic-ordering');
    assert.deepEqual(parseObjectiveText('formation energy of MgO with LDA').inputs, {
      elements: ['Mg', 'O'],
      bravais: 'rocksalt',
      functional: 'LDA',
    });
    assert.deepEqual(parseObjectiveText('surface energy of Al(111) with LDA').inputs, {
      element: 'Al',
      facet: 'fcc111',
      functional: 'LDA',
    });
    // a sentence naming no element stays for a model to plan
    assert.equal(parseObjectiveText('relax the structure', { forModel: true }).workflow, undefined);
    assert.deepEqual(elementsInText('In PBE, the NaCl and O2 of CO (BFGS)'), ['Na', 'Cl', 'O', 'C']);
  });

  it('relax: a vc-relax with its thresholds, the sweeps when no settings are given, the relaxed structure written and reported', () => {
    const steps = plan(RELAX, { element: 'Si', pressureThresholdKbar: 0.2, cellDofree: 'ibrav' });
    checkTemplateSteps(steps, claim);
    assert.deepEqual(
      steps.map((s) => s.id),
      [
        'structure',
        'pseudopotentials',
        'cutoff-input',
        'cutoff-series',
        'cutoff-runs',
        'cutoff-choice',
        'k-input',
        'k-series',
        'k-runs',
        'k-choice',
        'relax-input',
        'relax-run',
        'relaxed',
        'result',
        'structure-files',
        'report',
      ],
    );
    const input = steps.find((s) => s.id === 'relax-input')!.args!;
    assert.equal(input.calculation, 'vc-relax');
    assert.equal(input.pressureThresholdKbar, 0.2);
    assert.equal(input.cellDofree, 'ibrav');
    assert.equal(input.forceThresholdEvPerAngstrom, 0.01);
    assert.equal(input.ecutwfcRy, '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy');
    assert.deepEqual(steps.at(-1)!.reportQuantities, [
      'relaxed_energy',
      'relaxation_energy',
      'force',
      'volume',
      'stress',
      'kpoint_count',
      'converged_cutoff',
      'converged_kspacing',
    ]);
    const relax = plan(RELAX, { element: 'Si', calculation: 'relax', ecutwfcRy: 20, kSpacingPerAngstrom: 0.3 });
    assert.equal(relax.find((s) => s.id === 'relax-input')!.args!.pressureThresholdKbar, undefined);
    assert.ok(!relax.some((s) => s.id === 'cutoff-input'));
  });

  it('relax: the step titles say whether the cell is fixed (relax) or relaxed too (vc-relax), so the plan reads without its arguments', () => {
    const titles = (calculation: string) =>
      plan(RELAX, { element: 'Si', calculation })
        .filter((s) => s.id === 'relax-input' || s.id === 'relax-run')
        .map((s) => s.title);
    assert.deepEqual(titles('relax'), ['relax (atoms in a fixed cell) input at 0.01 eV/Å', 'Run the relax (atoms in a fixed cell)']);
    assert.match(titles('vc-relax')[0]!, /^vc-relax \(atoms and cell\) input at 0\.01 eV\/Å and [\d.]+ kbar$/);
  });

  it('relax reads the crystal from a file named in a YAML objective, as given, with its sha256', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-relax-'));
    fs.writeFileSync(
      path.join(dir, 'si.xyz'),
      '2\nLattice="0 2.7 2.7 2.7 0 2.7 2.7 2.7 0" Properties=species:S:1:pos:R:3 pbc="T T T"\nSi 0 0 0\nSi 1.40 1.35 1.35\n',
    );
    fs.writeFileSync(
      path.join(dir, 'relax.yaml'),
      'workflow: relax\ninputs:\n  structure: { file: si.xyz }\n  calculation: relax\n  ecutwfcRy: 20\n  kSpacingPerAngstrom: 0.4\n',
    );
    const o = parseObjectiveFile(fs.readFileSync(path.join(dir, 'relax.yaml'), 'utf8'), path.join(dir, 'relax.yaml'));
    const p = prepareWorkflow(o.workflow!, o.inputs!, env);
    checkTemplateSteps(p.steps, claim);
    const s = p.steps[0]!;
    assert.equal(s.args!.from, path.join(dir, 'si.xyz'));
    assert.match(String(s.args!.sha256), /^[0-9a-f]{64}$/);
    assert.equal(s.args!.cell, 'as-given');
    assert.match(p.objective, /relax of the crystal of si\.xyz/);
  });

  it('magnetic-ordering: bcc Fe in its cubic cell, ferromagnetic and antiferromagnetic starts by species label, E_AFM − E_FM per magnetic atom', () => {
    const steps = plan(MAGNETIC_ORDERING, { element: 'Fe', ecutwfcRy: 25, kSpacingPerAngstrom: 0.3 });
    checkTemplateSteps(steps, { quantity: 'magnetization', value: 2.2, unit: 'μB' });
    assert.equal(steps[0]!.args!.cubic, true);
    assert.deepEqual(steps.find((s) => s.id === 'afm-configuration')!.args!.startingMagnetization, [0.5, -0.5]);
    assert.deepEqual(steps.find((s) => s.id === 'afm-input')!.args!.startingMagnetization, { Fe1: 0.5, Fe2: -0.5 });
    assert.deepEqual(steps.find((s) => s.id === 'fm-input')!.args!.startingMagnetization, { Fe: 0.5 });
    assert.equal(steps.find((s) => s.id === 'fm-input')!.args!.nspin, 2);
    const ordering = steps.find((s) => s.id === 'afm-ordering')!.args!;
    assert.deepEqual(
      [ordering.quantity, ordering.coefficients, ordering.per, ordering.count],
      ['magnetic_ordering_energy', [1, -1], 'magnetic-atom', 2],
    );
    // fcc Ni: the L1₀ layering of its 4-atom cubic cell
    assert.deepEqual(
      plan(MAGNETIC_ORDERING, { element: 'Ni', ecutwfcRy: 25, kSpacingPerAngstrom: 0.3 }).find((s) => s.id === 'afm-configuration')!.args!
        .startingMagnetization,
      [0.5, -0.5, -0.5, 0.5],
    );
    // a ferromagnet alone: the primitive cell, no ordering energy
    const fmOnly = plan(MAGNETIC_ORDERING, { element: 'Ni', orders: ['ferromagnetic'], ecutwfcRy: 25, kSpacingPerAngstrom: 0.3 });
    checkTemplateSteps(fmOnly, { quantity: 'magnetization', value: 0.6, unit: 'μB' });
    assert.equal(fmOnly[0]!.args!.cubic, undefined);
    assert.deepEqual(fmOnly.find((s) => s.id === 'fm-configuration')!.args!.startingMagnetization, [0.5]);
    assert.ok(!fmOnly.some((s) => s.tool === 'energy_difference'));
    assert.deepEqual(fmOnly.at(-1)!.reportQuantities, ['magnetization', 'kpoint_count']);
    assert.throws(
      () => MAGNETIC_ORDERING.resolveInputs({ element: 'Al' }, env),
      (e: unknown) => e instanceof ObjectiveError && /none of Al is magnetic/.test(e.message),
    );
    assert.throws(() => MAGNETIC_ORDERING.resolveInputs({ element: 'Fe', orders: { ferri: [0.5] } }, env), /1 moments for the 2 atoms/);
  });

  it("magnetic-ordering's sweeps judge the moment (0.02 μB/atom) beside a looser energy tolerance (5 meV/atom); the objective may set either", () => {
    const steps = plan(MAGNETIC_ORDERING, { element: 'Fe' });
    for (const id of ['cutoff-choice', 'k-choice']) {
      const s = steps.find((x) => x.id === id)!;
      assert.equal(s.args!.criterion, 'energy', id);
      assert.equal(s.args!.toleranceMevPerAtom, 5, id);
      assert.equal(s.args!.toleranceMomentMuBPerAtom, 0.02, id);
      assert.match(s.reasons!.toleranceMomentMuBPerAtom!, /the moments are the result: each run within 0\.02 μB\/atom/);
      assert.match(s.title, /within 5 meV\/atom and 0\.02 μB\/atom/);
    }
    const given = plan(MAGNETIC_ORDERING, { element: 'Fe', toleranceMevPerAtom: 1, toleranceMomentMuBPerAtom: 0.05 });
    const c = given.find((x) => x.id === 'cutoff-choice')!.args!;
    assert.deepEqual([c.toleranceMevPerAtom, c.toleranceMomentMuBPerAtom], [1, 0.05]);
    // the other everyday templates keep the energy criterion alone, at 1 meV/atom
    const relax = plan(RELAX, { element: 'Si' }).find((x) => x.id === 'cutoff-choice')!.args!;
    assert.deepEqual([relax.toleranceMevPerAtom, relax.toleranceMomentMuBPerAtom], [1, undefined]);
  });

  it("relax's sweeps judge the forces beside the energy: half the force threshold, 5 meV/atom for a fixed cell and 1 for vc-relax; the objective may set either", () => {
    const fixed = plan(RELAX, { element: 'Si', calculation: 'relax' });
    for (const id of ['cutoff-choice', 'k-choice']) {
      const s = fixed.find((x) => x.id === id)!;
      assert.equal(s.args!.criterion, 'energy', id);
      assert.equal(s.args!.toleranceMevPerAtom, 5, id);
      assert.equal(s.args!.toleranceForceEvPerAngstrom, 0.005, id);
      assert.match(s.reasons!.toleranceForceEvPerAngstrom!, /the relaxed geometry follows the forces: each run within 0\.005 eV\/Å/);
      assert.match(s.title, /within 5 meV\/atom and 0\.005 eV\/Å in the forces/);
    }
    // the sweep inputs print the forces the criterion reads (make_pw_input sets tprnfor for every calculation)
    assert.equal(fixed.find((x) => x.id === 'cutoff-input')!.tool, 'make_pw_input');
    const vc = plan(RELAX, { element: 'Si', forceThresholdEvPerAngstrom: 0.002 }).find((x) => x.id === 'k-choice')!.args!;
    assert.deepEqual([vc.toleranceMevPerAtom, vc.toleranceForceEvPerAngstrom], [1, 0.001]);
    const given = plan(RELAX, { element: 'Si', calculation: 'relax', toleranceMevPerAtom: 1, toleranceForceEvPerAngstrom: 0.01 });
    const c = given.find((x) => x.id === 'cutoff-choice')!.args!;
    assert.deepEqual([c.toleranceMevPerAtom, c.toleranceForceEvPerAngstrom], [1, 0.01]);
    // the other everyday templates judge no forces
    const mo = plan(MAGNETIC_ORDERING, { element: 'Fe' }).find((x) => x.id === 'cutoff-choice')!.args!;
    assert.equal(mo.toleranceForceEvPerAngstrom, undefined);
  });

  it("start the cutoff sweep at the pseudopotentials' suggestion (the largest of the study's files), four values in 10-Ry steps; a given sweep is kept", () => {
    // pslibrary's Si and Fe files suggest 43.7 and 46 Ry: a production input below that is refused by the guard
    const suggesting: WorkflowEnvironment = {
      pseudopotential: ({ element }) => ({
        file: `${element}.upf`,
        type: 'US',
        ...(
          { Si: { suggestedEcutwfcRy: 43.74 }, Fe: { suggestedEcutwfcRy: 46.0 }, O: { suggestedEcutwfcRy: 47.0 } } as Record<string, object>
        )[element],
      }),
    };
    const series = (t: typeof RELAX, inputs: Record<string, unknown>, e = suggesting) =>
      t.steps(t.resolveInputs(inputs, e)).find((s) => s.id === 'cutoff-series')!;
    const si = series(RELAX, { element: 'Si' });
    assert.deepEqual(si.args!.values, [45, 55, 65, 75]);
    assert.match(si.reasons!.values!, /from the 43\.7 Ry the pseudopotentials suggest upward in 10-Ry steps/);
    assert.deepEqual(series(MAGNETIC_ORDERING, { element: 'Fe' }).args!.values, [50, 60, 70, 80]);
    assert.deepEqual(
      series(SURFACE_ENERGY, { element: 'Al', functional: 'LDA' }).args!.values,
      [20, 30, 40, 50],
      'no suggestion: from 20 Ry',
    );
    // a compound: the largest suggestion of its species (Mg's file states none)
    assert.deepEqual(series(FORMATION_ENERGY, { elements: ['Mg', 'O'] }).args!.values, [50, 60, 70, 80]);
    const given = series(RELAX, { element: 'Si', cutoffsRy: [16, 20, 24, 30] });
    assert.deepEqual(given.args!.values, [16, 20, 24, 30]);
    assert.equal(given.reasons!.values, 'the values of the study, coarse to fine');
  });

  it('bound an extension of their sweeps by a predicted pw.x time: 1800 s unless the objective says otherwise', () => {
    for (const [t, inputs] of [
      [RELAX, { element: 'Si' }],
      [MAGNETIC_ORDERING, { element: 'Fe' }],
      [FORMATION_ENERGY, { elements: ['Mg', 'O'] }],
      [SURFACE_ENERGY, { element: 'Al', functional: 'LDA' }],
    ] as const) {
      for (const c of plan(t, inputs).filter((s) => s.id === 'cutoff-choice' || s.id === 'k-choice')) {
        assert.equal(c.args!.extensionBudgetSeconds, 1800, `${t.id} ${c.id}`);
        assert.match(c.reasons!.extensionBudgetSeconds!, /predicted to take more than 1800 s of pw\.x is not started without asking/);
      }
    }
    const given = plan(MAGNETIC_ORDERING, { element: 'Fe', extensionBudgetSeconds: 600 }).find((s) => s.id === 'k-choice')!;
    assert.equal(given.args!.extensionBudgetSeconds, 600);
  });

  it('formation-energy: MgO against hcp Mg and triplet O2 in a box, all spin-polarised and relaxed, per formula unit and per atom', () => {
    const steps = plan(FORMATION_ENERGY, { elements: ['Mg', 'O'], functional: 'LDA', ecutwfcRy: 30, kSpacingPerAngstrom: 0.3 });
    checkTemplateSteps(steps, { quantity: 'formation_energy', value: -6, unit: 'eV' });
    const per = steps.find((s) => s.id === 'formation-per-formula-unit')!.args!;
    assert.deepEqual(per.coefficients, [1, -0.5, -0.5]);
    assert.equal(per.count, 1);
    assert.equal(steps.find((s) => s.id === 'formation-per-atom')!.args!.count, 2);
    assert.equal(steps.find((s) => s.id === 'ref-o')!.tool, 'build_molecule');
    assert.deepEqual(steps.find((s) => s.id === 'ref-o-input')!.args!.kMesh, [1, 1, 1]);
    assert.deepEqual(steps.find((s) => s.id === 'ref-o-input')!.args!.startingMagnetization, { O: 0.5 });
    assert.equal(steps.find((s) => s.id === 'ref-o-input')!.args!.calculation, 'relax');
    assert.equal(steps.find((s) => s.id === 'ref-mg-input')!.args!.calculation, 'vc-relax');
    assert.equal(steps.find((s) => s.id === 'ref-mg')!.args!.bravais, 'hcp');
    assert.equal(steps.find((s) => s.id === 'compound-input')!.args!.nspin, 2);
    assert.equal(steps.find((s) => s.id === 'compound')!.args!.latticeConstantAngstrom, 4.212);
    assert.throws(() => FORMATION_ENERGY.resolveInputs({ element: 'Al', ecutwfcRy: 20 }, env), /holds one element/);
  });

  it('formation-energy: a pair no prototype word or table places (ZnO, wurtzite in nature) is asked for its prototype instead of built as rocksalt', () => {
    const read = parseObjectiveText('Formation energy of ZnO with PBE, a = 3.25 Å').inputs!;
    assert.equal(read.bravais, undefined);
    assert.equal(read.latticeConstantAngstrom, 3.25);
    assert.throws(
      () => FORMATION_ENERGY.resolveInputs({ elements: ['Zn', 'O'], latticeConstantAngstrom: 3.25 }, env),
      /inputs\.bravais: ZnO is not in the tables of binary compounds; name its prototype .* or give the crystal as structure: \{ file: ZnO\.cif \}/,
    );
    // the tables still place MgO without a word, and an abbreviation beside the formula is not read as elements
    assert.deepEqual(parseObjectiveText('Formation energy of MgO with PBE and NC pseudopotentials').inputs, {
      elements: ['Mg', 'O'],
      bravais: 'rocksalt',
      functional: 'PBE',
    });
    assert.equal(parseObjectiveText('Formation energy of MgO with PBE, k-spacing 0.25 Å⁻¹').inputs!.latticeConstantAngstrom, undefined);
  });

  it('formation-energy: GaAs and SiC are read as zincblende and CsCl as cesium chloride, each built with both species at its tabulated a', async () => {
    assert.equal(parseObjectiveText('formation energy of GaAs with PBE').inputs!.bravais, 'zincblende');
    assert.equal(parseObjectiveText('formation energy of SiC with PBE').inputs!.bravais, 'zincblende');
    assert.equal(parseObjectiveText('formation energy of CsCl with PBE').inputs!.bravais, 'cesiumchloride');
    assert.equal(parseObjectiveText('formation energy of NaCl in the caesium chloride structure').inputs!.bravais, 'cesiumchloride');
    assert.equal(parseObjectiveText('formation energy of ZnO in zinc blende').inputs!.bravais, 'zincblende');
    // bcc Cs is not in the table of element crystals, nor Cl2 among the default molecules: their references are given
    const csReference = { references: { Cs: { bravais: 'bcc', latticeConstantAngstrom: 6.14 }, Cl: { molecule: 'Cl2' } } };
    for (const [elements, bravais, a, natoms, extra] of [
      [['Si', 'C'], 'zincblende', 4.36, 2, {}],
      [['Cs', 'Cl'], 'cesiumchloride', 4.123, 2, csReference],
    ] as const) {
      const steps = plan(FORMATION_ENERGY, { elements: [...elements], bravais, ecutwfcRy: 30, kSpacingPerAngstrom: 0.3, ...extra });
      const build = steps.find((s) => s.id === 'compound')!;
      assert.deepEqual(build.args, { elements: [...elements], bravais, latticeConstantAngstrom: a });
      assert.equal(steps.find((s) => s.id === 'formation-per-atom')!.args!.count, natoms);
      const made = await buildBulkTool.run(build.args as never, {} as never);
      assert.deepEqual((made.artifacts[0]!.value as Structure).symbols, [...elements]);
    }
    assert.throws(
      () => FORMATION_ENERGY.resolveInputs({ elements: ['Ga'], bravais: 'zincblende', latticeConstantAngstrom: 5.65 }, env),
      /zincblende needs a cation and an anion, e\.g\. \["Ga", "As"\]/,
    );
    assert.throws(
      () =>
        FORMATION_ENERGY.resolveInputs(
          { elements: ['Si', 'C'], bravais: 'zincblende', references: { Si: { bravais: 'zincblende', latticeConstantAngstrom: 5.43 } } },
          env,
        ),
      /references\.Si\.bravais: zincblende is a prototype of two species/,
    );
  });

  it('surface-energy: Al(111) slabs of 3, 5 and 7 layers against the bulk at its settings, γ per area of two faces', () => {
    const steps = plan(SURFACE_ENERGY, { element: 'Al', functional: 'LDA', ecutwfcRy: 15, kSpacingPerAngstrom: 0.3 });
    checkTemplateSteps(steps, { quantity: 'surface_energy', value: 0.05, unit: 'eV/Å^2' });
    const g5 = steps.find((s) => s.id === 'gamma-5')!.args!;
    assert.deepEqual([g5.quantity, g5.coefficients, g5.per, g5.surfaces], ['surface_energy', [1, -5], 'area', 2]);
    assert.equal(steps.find((s) => s.id === 'slab-5-input')!.args!.kSpacingPerAngstrom, 0.3);
    assert.equal(steps.find((s) => s.id === 'bulk-input')!.args!.kSpacingPerAngstrom, 0.3);
    assert.equal(steps.find((s) => s.id === 'slab-3')!.args!.facet, 'fcc111');
    assert.throws(() => SURFACE_ENERGY.resolveInputs({ element: 'Al', facet: 'bcc110' }, env), /Al is fcc, but bcc110 is a bcc surface/);
  });
});
