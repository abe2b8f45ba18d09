// The lattice-constant report of a crystal read from a file: the result against the file's own
// cell, and the file's cell beside the one computed on.
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseObjectiveFile, parseObjectiveText, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { workflowEnvironment } from '../../../../src/core/workflows/environment';
import { LATTICE_REPORT_COMPOSERS } from '../../../../src/core/workflows/latticeConstantReport';
import type { LatticeConstantInputs } from '../../../../src/core/workflows/latticeConstantInputs';
import type { ComposeContextOf } from '../../../../src/core/workflows/defineWorkflow';

const ROOT = path.resolve(__dirname, '../../../..');
const NC = path.join(ROOT, 'test/fixtures/workflows/pseudo-nc');

/** A run's artifacts as the composer reads them: step and name to reference, reference to value. */
function context(inputs: LatticeConstantInputs, artifacts: Record<string, [string, unknown]>): ComposeContextOf<LatticeConstantInputs> {
  const byRef = new Map(Object.values(artifacts));
  return {
    provenance: { artifact: () => undefined } as unknown as ComposeContextOf<LatticeConstantInputs>['provenance'],
    ref: (step, name) => artifacts[`${step}/${name}`]?.[0],
    refs: (step, name) => (artifacts[`${step}/${name}`] ? [artifacts[`${step}/${name}`]![0]] : []),
    value: (ref) => byRef.get(ref),
    inputs,
  };
}

const selection = (parameter: 'ecutwfc' | 'kspacing', value: number, chosen: object) => ({
  parameter,
  tested: [{ value, energyEvPerAtom: -100, deltaMevPerAtom: 0 }],
  chosenValue: value,
  chosen,
  converged: true,
});

describe('lattice-constant report of a crystal from a file', () => {
  it("compares a with the file's own a, and says the file's 8-atom cell was computed on its 2-atom primitive cell", () => {
    const o = parseObjectiveText('Lattice constant of rocksalt NaCl from examples/NaCl.cif with LDA', { forModel: true, baseDir: ROOT });
    const inputs = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }))
      .inputs as unknown as LatticeConstantInputs;
    const ctx = context(inputs, {
      'lattice/lattice_constant': ['a-30', 5.4467],
      'eos-fit/eos_fit': ['a-29', { v0Angstrom3: 40.3968, b0GPa: 31.2, b0Prime: 4.9, form: 'birch-murnaghan', natoms: 2 }],
      'cutoff-choice/converged_settings': ['a-12', selection('ecutwfc', 40, { ecutwfcRy: 40, ecutrhoRy: 160 })],
      'k-choice/converged_settings': ['a-20', selection('kspacing', 0.3, { kSpacingPerAngstrom: 0.3 })],
    });
    const text = LATTICE_REPORT_COMPOSERS.text!(ctx) as string;
    assert.match(
      text,
      /Against the input structure: examples\/NaCl\.cif has a = 5\.64 Å \(its standardised conventional cell\); the PZ a = 5\.4467 Å is −3\.43 % from it \(Δa = −0\.1933 Å\)\./,
    );
    assert.match(
      text,
      /Structure: examples\/NaCl\.cif \(cif, sha256 [0-9a-f]{64}\): the file's 8-atom cell, Fm-3m \(225\), computed on its standardised 2-atom primitive cell/,
    );
    assert.match(text, /V0 = 40\.3968 Å³ per 2-atom cell/);
  });

  it('says the EOS ran with one k-mesh at every volume, and names the meshes when the volumes did not share one', () => {
    const o = parseObjectiveText('Lattice constant of rocksalt NaCl from examples/NaCl.cif with LDA', { forModel: true, baseDir: ROOT });
    const inputs = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }))
      .inputs as unknown as LatticeConstantInputs;
    const textWith = (meshes: number[][]) => {
      const runs = meshes.map((_, i) => `a-${40 + i}`);
      const base = context(inputs, {
        'lattice/lattice_constant': ['a-30', 5.4467],
        'eos-fit/eos_fit': ['a-29', { v0Angstrom3: 40.3968, b0GPa: 31.2, b0Prime: 4.9, form: 'birch-murnaghan', natoms: 2 }],
        'cutoff-choice/converged_settings': ['a-12', selection('ecutwfc', 40, { ecutwfcRy: 40, ecutrhoRy: 160 })],
        'k-choice/converged_settings': ['a-20', selection('kspacing', 0.3, { kSpacingPerAngstrom: 0.3 })],
      });
      const ctx: ComposeContextOf<LatticeConstantInputs> = {
        ...base,
        refs: (step, name) => (step === 'eos-runs' && name === 'total_energy' ? runs : base.refs(step, name)),
        provenance: {
          artifact: (id: string) => (runs.includes(id) ? { id, meta: { settings: { kMesh: meshes[runs.indexOf(id)] } } } : undefined),
        } as unknown as ComposeContextOf<LatticeConstantInputs>['provenance'],
      };
      return LATTICE_REPORT_COMPOSERS.text!(ctx) as string;
    };
    const one = textWith([5, 5, 5, 5, 5].map(() => [5, 5, 5]));
    assert.match(one, /in 5 points, with one k-mesh, 5×5×5, at every volume\./);
    const mixed = textWith([
      [6, 6, 6],
      [6, 6, 6],
      [5, 5, 5],
      [5, 5, 5],
      [5, 5, 5],
    ]);
    assert.match(mixed, /in 5 points, with k-meshes 6×6×6, 5×5×5 across the volumes \(not one mesh: the fit mixes k errors\)\./);
  });

  it("states the c/a tolerance the sweeps' choices record, not the one the inputs would plan today", () => {
    const o = parseObjectiveFile(
      'workflow: lattice-constant\ninputs:\n  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
      'the objective',
      path.join(ROOT, 'examples'),
    );
    const inputs = prepareWorkflow('lattice-constant', o.inputs!, {}).inputs as unknown as LatticeConstantInputs;
    assert.equal(inputs.cellMethod, 'vc-relax');
    const byPressure = (shape?: number) => ({
      criterion: {
        kind: 'pressure',
        toleranceLatticePercent: 0.05,
        bulkModulusGPa: 29.9,
        ...(shape !== undefined ? { toleranceShapePercent: shape, shapeModulusGPa: 14.95 } : {}),
      },
    });
    const textWith = (cutShape?: number, kShape?: number) =>
      LATTICE_REPORT_COMPOSERS.text!(
        context(inputs, {
          'lattice/lattice_constant': ['a-30', 3.1388],
          'eos-fit/eos_fit': ['a-29', { v0Angstrom3: 23.27, b0GPa: 39.7, b0Prime: 4.1, form: 'birch-murnaghan', natoms: 2 }],
          'cutoff-choice/converged_settings': [
            'a-12',
            { ...selection('ecutwfc', 15, { ecutwfcRy: 15, ecutrhoRy: 60 }), ...byPressure(cutShape) },
          ],
          'k-choice/converged_settings': [
            'a-20',
            { ...selection('kspacing', 0.096, { kSpacingPerAngstrom: 0.096 }), ...byPressure(kShape) },
          ],
        }),
      ) as string;
    assert.match(
      textWith(0.15, 0.15),
      /within 0\.05 % of a \(from the pressure against the finest run\) and 0\.15 % of c\/a \(from the deviatoric stress; nominal at a shape modulus C ≈ 14\.9 GPa, B\/2: a crystal whose shape is softer than that, such as hcp Zn or Cd at about 0\.4 B, may be off in c\/a by up to about 1\.35× the tolerance\): ecutwfc/,
    );
    // a run planned before the shape criterion, resumed with its recorded plan: its sweeps held c/a to nothing
    const old = textWith();
    assert.doesNotMatch(old, /% of c\/a/);
    assert.match(
      old,
      /within 0\.05 % of a \(from the pressure against the finest run\) \(neither sweep judged c\/a: no shape tolerance in their choices\): ecutwfc/,
    );
    assert.match(
      textWith(undefined, 0.3),
      /and 0\.3 % of c\/a \(from the deviatoric stress; nominal at a shape modulus C ≈ 14\.9 GPa, B\/2: [^)]*\) in the k-spacing sweep only: ecutwfc/,
    );
    assert.match(textWith(0.15, 0.3), /and 0\.15 % \(cutoff\) and 0\.3 % \(k-spacing\) of c\/a/);
    // a shape modulus given with the choice (not B/2): nominal at it, without the B/2 caveat
    const measured = {
      criterion: {
        kind: 'pressure',
        toleranceLatticePercent: 0.05,
        bulkModulusGPa: 29.9,
        toleranceShapePercent: 0.15,
        shapeModulusGPa: 24.1,
      },
    };
    const withC = LATTICE_REPORT_COMPOSERS.text!(
      context(inputs, {
        'lattice/lattice_constant': ['a-30', 3.1388],
        'eos-fit/eos_fit': ['a-29', { v0Angstrom3: 23.27, b0GPa: 39.7, b0Prime: 4.1, form: 'birch-murnaghan', natoms: 2 }],
        'cutoff-choice/converged_settings': ['a-12', { ...selection('ecutwfc', 15, { ecutwfcRy: 15, ecutrhoRy: 60 }), ...measured }],
        'k-choice/converged_settings': ['a-20', { ...selection('kspacing', 0.096, { kSpacingPerAngstrom: 0.096 }), ...measured }],
      }),
    ) as string;
    assert.match(withC, /0\.15 % of c\/a \(from the deviatoric stress; nominal at a shape modulus C ≈ 24\.1 GPa\): ecutwfc/);
  });

  it("says how the settings were chosen from the cutoff and k choices' own records (criterion, tolerance, B), both when they differ, not from the inputs", () => {
    const o = parseObjectiveText('Lattice constant of rocksalt NaCl from examples/NaCl.cif with LDA', { forModel: true, baseDir: ROOT });
    const planned = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }))
      .inputs as unknown as LatticeConstantInputs;
    // the inputs now say energy within 1 meV/atom; the choices were made (and recorded) otherwise
    const inputs = { ...planned, criterion: 'energy', toleranceMevPerAtom: 1, toleranceLatticePercent: 0.3 } as LatticeConstantInputs;
    const swept = (parameter: 'ecutwfc' | 'kspacing', values: number[], kbar: number[], chosen: object) => ({
      ...selection(parameter, values[0]!, chosen),
      tested: values.map((value, i) => ({ value, energyEvPerAtom: -100, deltaMevPerAtom: 0, pressureKbar: kbar[i] })),
    });
    const byPressure = (b: number, from: string[], given?: { ref?: string }) => ({
      criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: b },
      bulkModulus: { valueGPa: b, note: '', from, ...(given ? { given } : {}) },
    });
    const byEnergy = { toleranceMevPerAtom: 2, criterion: { kind: 'energy', toleranceMevPerAtom: 2 } };
    const textWith = (cut: object, k: object) =>
      LATTICE_REPORT_COMPOSERS.text!(
        context(inputs, {
          'lattice/lattice_constant': ['a-30', 5.4467],
          'eos-fit/eos_fit': ['a-29', { v0Angstrom3: 40.3968, b0GPa: 31.2, b0Prime: 4.9, form: 'birch-murnaghan', natoms: 2 }],
          'cutoff-choice/converged_settings': [
            'a-12',
            { ...swept('ecutwfc', [40, 50, 60], [-3, -1, -0.5], { ecutwfcRy: 40, ecutrhoRy: 160 }), ...cut },
          ],
          'k-choice/converged_settings': [
            'a-20',
            { ...swept('kspacing', [0.3, 0.2, 0.1], [2, 1, 0.8], { kSpacingPerAngstrom: 0.3 }), ...k },
          ],
        }),
      ) as string;
    const both = textWith(byPressure(29.9, ['a-5']), byPressure(29.9, ['a-5']));
    assert.match(both, /within 0\.05 % of a \(from the pressure against the finest run\): ecutwfc = 40 Ry/);
    assert.match(
      both,
      /The sweeps were chosen on this shift with B ≈ 29\.9 GPa from the probe; here it is recomputed with the fitted B0\./,
    );
    assert.doesNotMatch(both, /1 meV\/atom|not how/);
    // the study hands the cutoff choice's B on to the k choice by reference: the k choice records it, so the B is the probe's
    const handedOn = textWith(byPressure(29.9, ['a-5']), byPressure(29.9, [], { ref: 'a-12.criterion.bulkModulusGPa' }));
    assert.match(
      handedOn,
      /The sweeps were chosen on this shift with B ≈ 29\.9 GPa from the probe; here it is recomputed with the fitted B0\./,
    );
    assert.doesNotMatch(handedOn, /as given/);
    // a k choice recorded before the reference was kept: the same B as the cutoff's probe is taken to be handed on
    assert.equal(textWith(byPressure(29.9, ['a-5']), byPressure(29.9, [])), handedOn);
    // a B typed as a number equal to the probe's is said as given, by the record, not taken for the probe's
    assert.match(
      textWith(byPressure(29.9, ['a-5']), byPressure(29.9, [], {})),
      /The cutoff was chosen on this shift with B ≈ 29\.9 GPa from the probe, the k-spacing was chosen on this shift with B ≈ 29\.9 GPa as given; here/,
    );
    // the cutoff replanned by energy, the k-spacing kept by pressure with a B given with its reference
    const mixed = textWith(byEnergy, byPressure(24, []));
    assert.match(
      mixed,
      /within 2 meV\/atom \(cutoff\) and 0\.05 % of a \(from the pressure against the finest run\) \(k-spacing\): ecutwfc/,
    );
    assert.match(
      mixed,
      /The k-spacing was chosen on this shift with B ≈ 24(\.0)? GPa as given; here it is recomputed with the fitted B0\. The cutoff was chosen by energy alone: for it, this estimates how far the choice moves the lattice constant; it is not how it was chosen\./,
    );
    // both by pressure, with different B: each is said
    assert.match(
      textWith(byPressure(29.9, ['a-5']), byPressure(31, ['a-7'])),
      /The cutoff was chosen on this shift with B ≈ 29\.9 GPa from the probe, the k-spacing was chosen on this shift with B ≈ 31(\.0)? GPa from the probe; here/,
    );
    // both by energy: an estimate only
    assert.match(
      textWith(byEnergy, byEnergy),
      /within 2 meV\/atom: ecutwfc[\s\S]*This estimates how far each choice moves the lattice constant; it is not how they were chosen\./,
    );
  });
});
