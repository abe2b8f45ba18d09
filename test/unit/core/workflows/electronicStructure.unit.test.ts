import assert from 'node:assert/strict';
import path from 'node:path';
import { BAND_STRUCTURE } from '../../../../src/core/workflows/bandStructure';
import { DENSITY_OF_STATES } from '../../../../src/core/workflows/dos';
import { ObjectiveError, workflowTemplate, type WorkflowEnvironment } from '../../../../src/core/workflows';

const env: WorkflowEnvironment = {
  pseudopotential: ({ element }) => ({ file: `${element}.upf`, type: element === 'Si' || element === 'Al' ? 'NC' : 'US' }),
};
const plan = (t: typeof BAND_STRUCTURE, inputs: Record<string, unknown>) => t.steps(t.resolveInputs(inputs, env));

describe('band-structure and dos templates', () => {
  it('are registered and read a sentence objective: "band structure of Si with PBE"', () => {
    assert.equal(workflowTemplate('band-structure'), BAND_STRUCTURE);
    assert.equal(workflowTemplate('dos'), DENSITY_OF_STATES);
    assert.deepEqual(BAND_STRUCTURE.inputsFromText!('band structure of Si with PBE'), { element: 'Si', functional: 'PBE' });
    assert.deepEqual(DENSITY_OF_STATES.inputsFromText!('density of states of fcc Al with LDA'), {
      element: 'Al',
      structure: 'fcc',
      functional: 'PZ',
    });
    assert.equal(BAND_STRUCTURE.inputsFromText!('lattice constant of Al'), undefined);
  });

  it("takes an element's ground-state crystal and fixed occupations for an insulator, with cutoff and k sweeps when no settings are given", () => {
    const i = BAND_STRUCTURE.resolveInputs({ element: 'Si' }, env) as Record<string, unknown>;
    assert.equal(i.structure, 'diamond');
    assert.equal(i.latticeConstantAngstrom, 5.431);
    assert.equal(i.occupations, 'fixed');
    assert.equal((i.settings as { dual: number }).dual, 4);
    const steps = BAND_STRUCTURE.steps(i);
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
        'scf-input',
        'scf',
        'band-path',
        'bands-input',
        'bands',
        'bands-x',
        'gap',
        'report',
      ],
    );
    const scfInput = steps.find((s) => s.id === 'scf-input')!;
    assert.equal(scfInput.args!.ecutwfcRy, '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy');
    assert.equal(scfInput.args!.purpose, 'production');
    assert.deepEqual(steps.at(-1)!.reportQuantities, ['band_gap', 'direct_gap', 'kpoint_count', 'converged_cutoff', 'converged_kspacing']);
  });

  it('bounds an extension of its sweeps by a predicted pw.x time: 1800 s unless the objective says otherwise', () => {
    const choices = (inputs: Record<string, unknown>) =>
      BAND_STRUCTURE.steps(BAND_STRUCTURE.resolveInputs(inputs, env)).filter((s) => s.id === 'cutoff-choice' || s.id === 'k-choice');
    for (const c of choices({ element: 'Si' })) {
      assert.equal(c.args!.extensionBudgetSeconds, 1800, c.id);
      assert.match(c.reasons!.extensionBudgetSeconds!, /predicted to take more than 1800 s of pw\.x is not started without asking/);
    }
    assert.deepEqual(
      choices({ element: 'Si', extensionBudgetSeconds: 300 }).map((c) => c.args!.extensionBudgetSeconds),
      [300, 300],
    );
  });

  it('starts the default cutoff sweep at the largest cutoff the files suggest (Si PSL: 43.7 Ry), or at 20 Ry when none states one', () => {
    const suggesting: WorkflowEnvironment = {
      pseudopotential: ({ element }) => ({
        file: `${element}.pbe-nl-rrkjus_psl.1.0.0.UPF`,
        type: 'US',
        suggestedEcutwfcRy: 43.7,
        suggestedEcutrhoRy: 175,
      }),
    };
    const i = BAND_STRUCTURE.resolveInputs({ element: 'Si' }, suggesting) as { settings: { cutoffsRy: number[] } };
    assert.deepEqual(i.settings.cutoffsRy, [45, 55, 65, 75, 85]);
    const series = BAND_STRUCTURE.steps(i as never).find((s) => s.id === 'cutoff-series')!;
    assert.equal(series.reasons!.values, "from the pseudopotential's suggested 43.7 Ry upward in 10-Ry steps");
    assert.deepEqual(
      (BAND_STRUCTURE.resolveInputs({ element: 'Si' }, env) as { settings: { cutoffsRy: number[] } }).settings.cutoffsRy,
      [20, 30, 40, 50, 60],
    );
    assert.deepEqual(
      (BAND_STRUCTURE.resolveInputs({ element: 'Si', cutoffsRy: [20, 25, 30] }, suggesting) as { settings: { cutoffsRy: number[] } })
        .settings.cutoffsRy,
      [20, 25, 30],
    );
  });

  it('takes the settings as the everyday templates do: LDA read as PZ, dual 4 for a semilocal norm-conserving file, given sweeps sorted', () => {
    const semilocal: WorkflowEnvironment = { pseudopotential: ({ element }) => ({ file: `${element}.pz-mt_fhi.UPF`, type: 'SL' }) };
    const i = BAND_STRUCTURE.resolveInputs(
      { element: 'Fe', functional: 'LDA', cutoffsRy: [50, 30, 40], kSpacingsPerAngstrom: [0.2, 0.3, 0.25] },
      semilocal,
    ) as { settings: { functional: string; dual: number; cutoffsRy: number[]; kSpacingsPerAngstrom: number[] } };
    assert.equal(i.settings.functional, 'PZ');
    assert.equal(i.settings.dual, 4);
    assert.deepEqual(i.settings.cutoffsRy, [30, 40, 50]);
    assert.deepEqual(i.settings.kSpacingsPerAngstrom, [0.3, 0.25, 0.2]);
    const given = BAND_STRUCTURE.resolveInputs({ element: 'Si', dual: 6 }, semilocal) as { settings: { dual: number } };
    assert.equal(given.settings.dual, 6, "a given dual wins over the pseudopotentials' default");
    const agreeing = BAND_STRUCTURE.resolveInputs({ element: 'Si', ecutwfcRy: 20, ecutrhoRy: 160, dual: 8 }, semilocal) as {
      settings: { dual: number };
    };
    assert.equal(agreeing.settings.dual, 8, 'a dual and an ecutrhoRy that say the same are taken');
    const ratio = BAND_STRUCTURE.resolveInputs({ element: 'Si', ecutwfcRy: 20, ecutrhoRy: 160 }, semilocal) as {
      settings: { dual: number };
    };
    assert.equal(ratio.settings.dual, 8);
  });

  it('refuses a dual that disagrees with ecutrhoRy, and ecutrhoRy without ecutwfcRy, saying which field to keep, instead of running one of them silently', () => {
    const refusal = (inputs: Record<string, unknown>): string => {
      try {
        BAND_STRUCTURE.resolveInputs(inputs, env);
      } catch (e) {
        assert.ok(e instanceof ObjectiveError, String(e));
        return e.message;
      }
      assert.fail(`resolved ${JSON.stringify(inputs)} without a word`);
    };
    const both = refusal({ element: 'Si', ecutwfcRy: 45, ecutrhoRy: 360, dual: 4 });
    assert.match(
      both,
      /inputs\.dual and inputs\.ecutrhoRy disagree: dual 4 means ecutrho = 180 Ry, but ecutrhoRy is 360 Ry \(8 × ecutwfcRy 45 Ry\)/,
    );
    assert.match(both, /Keep one of them: dual, or ecutrhoRy/);
    const alone = refusal({ element: 'Fe', ecutrhoRy: 480 });
    assert.match(alone, /inputs\.ecutrhoRy: 480 Ry is given without ecutwfcRy/);
    assert.match(alone, /Give ecutwfcRy as well .* or give the ratio ecutrho \/ ecutwfc as dual/);
    assert.match(refusal({ element: 'Si', ecutwfcRy: 45, ecutrhoRy: 100 }), /below the 4 × ecutwfc .* Give ecutrhoRy ≥ 180 Ry/);
  });

  it('skips the sweeps for given settings, and the gap for a metal (smeared occupations)', () => {
    const steps = plan(BAND_STRUCTURE, { element: 'Al', ecutwfcRy: 20, kSpacingPerAngstrom: 0.3 });
    assert.deepEqual(
      steps.map((s) => s.id),
      ['structure', 'pseudopotentials', 'scf-input', 'scf', 'band-path', 'bands-input', 'bands', 'bands-x', 'report'],
    );
    assert.equal(steps.find((s) => s.id === 'scf-input')!.args!.occupations, 'smearing');
  });

  it('refuses fixed occupations for a metal and an element it has no crystal for, saying what to give', () => {
    assert.throws(
      () => BAND_STRUCTURE.resolveInputs({ element: 'Al', occupations: 'fixed' }, env),
      (e: unknown) => e instanceof ObjectiveError && /Al is a metal/.test(e.message),
    );
    assert.throws(() => BAND_STRUCTURE.resolveInputs({ element: 'Xe' }, env), /give its structure and lattice constant/);
  });

  it("plans a DOS on a mesh twice the SCF's with tetrahedra, dos.x and projwfc.x", () => {
    const steps = plan(DENSITY_OF_STATES, { element: 'Al', ecutwfcRy: 20, kSpacingPerAngstrom: 0.3 });
    assert.deepEqual(
      steps.map((s) => s.tool),
      [
        'build_bulk',
        'select_pseudopotentials',
        'make_pw_input',
        'run_pw',
        'make_nscf_input',
        'run_nscf',
        'run_dos_x',
        'run_projwfc',
        'write_report',
      ],
    );
    const nscf = steps.find((s) => s.id === 'nscf-input')!;
    assert.deepEqual(nscf.args!.kMesh, { $compose: 'dosMesh' });
    assert.equal(nscf.args!.occupations, 'tetrahedra_opt');
    assert.ok(DENSITY_OF_STATES.composers!.dosMesh);
  });

  it('reads a structure file named with the objective: its path, sha256 and species, computed on its standardised primitive cell', () => {
    const loaded = BAND_STRUCTURE.loadInputFiles!({ structureFile: 'Mg-hcp.cif' }, path.resolve(__dirname, '../../../../examples'));
    assert.match(String(loaded.structureSha256), /^[0-9a-f]{64}$/);
    assert.deepEqual(loaded.structureSpecies, ['Mg']);
    const steps = plan(BAND_STRUCTURE, { ...loaded, ecutwfcRy: 20, kSpacingPerAngstrom: 0.3 });
    assert.deepEqual(steps[0]!.args, { from: loaded.structureFile, cell: 'primitive', sha256: loaded.structureSha256 });
    assert.equal(steps.find((s) => s.id === 'scf-input')!.args!.occupations, 'smearing', 'Mg is a metal');
    assert.throws(
      () => BAND_STRUCTURE.loadInputFiles!({ structureFile: 'nowhere.cif' }, '/tmp'),
      /does not exist; the path is relative to the objective file/,
    );
  });
});
