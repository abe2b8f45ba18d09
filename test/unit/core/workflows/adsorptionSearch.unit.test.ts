// The adsorption-search template: objectives a person writes (YAML with a slab file and a
// SMILES, or a sentence), the defaults it resolves, and plan steps every tool accepts.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseObjectiveFile, parseObjectiveText, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { ObjectiveError, type WorkflowEnvironment } from '../../../../src/core/workflows/types';
import { freshDir } from './support/adsorptionSearch';
import { checkTemplateSteps } from './templateSteps';

const AA20 = path.resolve(__dirname, '../../../fixtures/adsmind/aa20');

const checkSteps = (steps: ReturnType<typeof prepareWorkflow>['steps']) =>
  checkTemplateSteps(steps, { quantity: 'adsorption_energy', value: -1.5, unit: 'eV' });

const env: WorkflowEnvironment = {
  pseudopotential: ({ element, file }) => ({
    file: file ?? `${element}.pbe-n-rrkjus_psl.1.0.0.UPF`,
    type: 'US',
    functional: 'PBE',
    suggestedEcutwfcRy: element === 'O' ? 47 : 31,
    suggestedEcutrhoRy: 323,
  }),
};

describe('adsorption-search template', () => {
  it("EMT on a generated slab: EMT's own lattice constant, the AdsMind defaults, and steps every tool accepts", () => {
    const { steps, inputs } = prepareWorkflow(
      'adsorption-search',
      { slab: { generate: { metal: 'Pt' } }, adsorbate: 'CO', calculator: { kind: 'emt' } },
      {},
    );
    checkSteps(steps);
    assert.deepEqual(
      steps.map((s) => s.id),
      ['slab', 'surface', 'gas-molecule', 'relax-clean', 'relax-gas', 'search', 'report'],
    );
    const slab = steps[0]!.args!;
    // EMT's Pt minimum, measured by the adsorption bench's golden-section search (3.922 Å).
    assert.ok(Math.abs((slab.latticeConstantAngstrom as number) - 3.922) < 2e-3, String(slab.latticeConstantAngstrom));
    const search = steps.find((s) => s.id === 'search')!.args!;
    assert.deepEqual(
      {
        planner: search.planner,
        maxRelaxations: search.maxRelaxations,
        terminateToleranceEv: search.terminateToleranceEv,
        fmax: search.fmaxEvPerAngstrom,
        maxSteps: search.maxSteps,
      },
      { planner: 'offline-heuristic', maxRelaxations: 10, terminateToleranceEv: 0.05, fmax: 0.1, maxSteps: 200 },
    );
    assert.deepEqual(search.ablations, { slipFeedback: true, forbid: true, terminate: true, oneShot: false });
    assert.deepEqual(steps.at(-1)!.reportQuantities, ['screening_adsorption_energy']);
    assert.match(String(inputs.calculator && (inputs.calculator as { kind: string }).kind), /emt/);
  });

  it('gives the degenerate tolerance a reason true of the fmax at hand: the default sized for 0.1 eV/Å, and what a tighter fmax leaves', () => {
    const reason = (fmax?: number, tol?: number) =>
      prepareWorkflow(
        'adsorption-search',
        {
          slab: { generate: { metal: 'Pt' } },
          adsorbate: 'CO',
          calculator: { kind: 'emt' },
          ...(fmax ? { relaxation: { fmaxEvPerAngstrom: fmax } } : {}),
          ...(tol ? { degenerateToleranceEv: tol } : {}),
        },
        {},
      ).steps.find((s) => s.id === 'search')!.reasons!.degenerateToleranceEv!;
    assert.match(
      reason(),
      /^0\.01 eV: the default, sized for relaxations to fmax 0\.1 eV\/Å .* at this search's fmax 0\.1 eV\/Å .* ≈ 0\.005 eV per mode/,
    );
    assert.match(reason(0.02), /at this search's fmax 0\.02 eV\/Å .* ≈ 0\.0002 eV per mode/);
    assert.match(reason(0.02, 0.003), /^0\.003 eV: as the objective set it; at this search's fmax 0\.02 eV\/Å/);
    assert.doesNotMatch(reason(0.02), /the energy a relaxation to fmax 0\.02 eV\/Å resolves/);
  });

  it("pw.x: cutoffs from the pseudopotentials' suggestion, Γ for the gas phase, the same settings for both references and the search", () => {
    const { steps } = prepareWorkflow(
      'adsorption-search',
      {
        slab: { generate: { metal: 'Pt', latticeConstantAngstrom: 3.97 } },
        adsorbate: 'CO',
        calculator: { kind: 'pw.x', functional: 'PBE' },
        planner: 'llm',
      },
      env,
    );
    checkSteps(steps);
    const byId = new Map(steps.map((s) => [s.id, s.args!]));
    assert.deepEqual(byId.get('pseudopotentials')!.elements, ['Pt', 'C', 'O']);
    const clean = byId.get('relax-clean')!;
    assert.equal(clean.ecutwfcRy, 50); // the oxygen suggestion, 47 Ry, rounded up to 5 Ry
    assert.equal(clean.ecutrhoRy, 400); // ultrasoft: 8 × ecutwfc
    assert.equal(clean.kSpacingPerAngstrom, 0.25);
    assert.deepEqual(byId.get('relax-gas')!.kMesh, [1, 1, 1]);
    const search = byId.get('search')!;
    for (const k of [
      'ecutwfcRy',
      'ecutrhoRy',
      'kSpacingPerAngstrom',
      'smearing',
      'degaussRy',
      'occupations',
      'nspin',
      'pseudopotentials',
      'backend',
    ])
      assert.deepEqual(search[k], clean[k], k);
    assert.equal(search.planner, 'llm');
    assert.deepEqual(steps.at(-1)!.reportQuantities, ['adsorption_energy']);
    assert.throws(
      () =>
        prepareWorkflow('adsorption-search', { slab: { generate: { metal: 'Pt' } }, adsorbate: 'CO', calculator: { kind: 'pw.x' } }, env),
      (e: Error) =>
        e instanceof ObjectiveError && /latticeConstantAngstrom is missing: with pw.x give the Pt lattice constant/.test(e.message),
    );
    // an i-PI calculator has no functional: the lattice constant is the calculator's own
    assert.throws(
      () =>
        prepareWorkflow(
          'adsorption-search',
          { slab: { generate: { metal: 'Pt' } }, adsorbate: 'CO', calculator: { kind: 'ipi', command: ['python3', 'client.py'] } },
          env,
        ),
      (e: Error) =>
        e instanceof ObjectiveError &&
        /latticeConstantAngstrom is missing: with your i-PI calculator give the Pt lattice constant that calculator gives/.test(e.message),
    );
  });

  it('an objective file names the slab file (relative to it) and the adsorbate by SMILES; the run records the structure and its sha256', () => {
    const dir = freshDir('dreams-objective-');
    fs.mkdirSync(path.join(dir, 'slabs'));
    fs.copyFileSync(path.join(AA20, '09_Pt_111.xyz'), path.join(dir, 'slabs', 'pt111.xyz'));
    const file = path.join(dir, 'search.yaml');
    fs.writeFileSync(
      file,
      [
        'workflow: adsorption-search',
        'inputs:',
        '  slab: { file: slabs/pt111.xyz }',
        '  adsorbate: { smiles: "[OH]" }',
        '  calculator: { kind: emt }',
        '  maxRelaxations: 6',
        '',
      ].join('\n'),
    );
    const o = parseObjectiveFile(fs.readFileSync(file, 'utf8'), file);
    const slab = o.inputs!.slab as { file: string; structure: { symbols: string[] }; sha256: string };
    assert.equal(slab.file, path.join(dir, 'slabs', 'pt111.xyz'));
    assert.equal(slab.sha256, crypto.createHash('sha256').update(fs.readFileSync(slab.file)).digest('hex'));
    assert.ok(slab.structure.symbols.length > 10 && slab.structure.symbols.every((s) => s === 'Pt'));
    const { steps, inputs } = prepareWorkflow('adsorption-search', o.inputs!, {});
    checkSteps(steps);
    assert.equal(inputs.adsorbate, 'OH');
    assert.equal(inputs.adsorbateSmiles, '[OH]');
    assert.equal(steps[0]!.tool, 'import_structure');
    assert.match(String(steps[0]!.args!.source), new RegExp(`pt111\\.xyz \\(sha256 ${slab.sha256}\\)`));
    assert.equal(steps.find((s) => s.id === 'search')!.args!.maxRelaxations, 6);
  });

  it('says what to fix: an unknown SMILES, a missing file, an element EMT lacks', () => {
    const dir = freshDir('dreams-objective-');
    const parse = (lines: string[]) => {
      const file = path.join(dir, 'o.yaml');
      fs.writeFileSync(file, ['workflow: adsorption-search', 'inputs:', ...lines].join('\n'));
      const o = parseObjectiveFile(fs.readFileSync(file, 'utf8'), file);
      return prepareWorkflow('adsorption-search', o.inputs!, {});
    };
    assert.throws(
      () => parse(['  slab: { generate: { metal: Pt } }', '  adsorbate: { smiles: "CCO" }', '  calculator: { kind: emt }']),
      (e: Error) => e instanceof ObjectiveError && /SMILES "CCO" is not one of the molecules[\s\S]*\[C-\]#\[O\+\] \(CO\)/.test(e.message),
    );
    assert.throws(
      () => parse(['  slab: { file: nowhere.extxyz }', '  adsorbate: CO', '  calculator: { kind: emt }']),
      (e: Error) =>
        e instanceof ObjectiveError && /nowhere\.extxyz does not exist; the path is relative to the objective file/.test(e.message),
    );
    assert.throws(
      () =>
        parse([
          '  slab: { generate: { metal: Fe, latticeConstantAngstrom: 2.87, facet: fcc110 } }',
          '  adsorbate: CO',
          '  calculator: { kind: emt }',
        ]),
      (e: Error) => e instanceof ObjectiveError && /EMT has no parameters for Fe .*use calculator kind 'pw.x'/.test(e.message),
    );
  });

  it('reads a sentence: "the most stable configuration of O on Cu(100) with EMT"', () => {
    const o = parseObjectiveText('Find the most stable configuration of O on Cu(100) with EMT, at most 5 relaxations');
    assert.equal(o.workflow, 'adsorption-search');
    assert.deepEqual(o.inputs, {
      adsorbate: 'O',
      slab: { generate: { metal: 'Cu', facet: 'fcc100' } },
      calculator: { kind: 'emt' },
      maxRelaxations: 5,
    });
  });
});
