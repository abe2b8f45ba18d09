// The lattice-constant study for any bulk crystal: objectives naming a structure file, and the
// plan the crystal's species and symmetry give (compounds, non-cubic cells, spin per species).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseObjectiveBytes, parseObjectiveFile, parseObjectiveText, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { workflowEnvironment } from '../../../../src/core/workflows/environment';
import type { TemplateStep } from '../../../../src/core/workflows/types';
import { objectiveReading } from '../../../../src/core/agents/supervisor';

const ROOT = path.resolve(__dirname, '../../../..');
const EXAMPLES = path.join(ROOT, 'examples');
const NC = path.join(ROOT, 'test/fixtures/workflows/pseudo-nc');
const step = (steps: TemplateStep[], id: string) => steps.find((s) => s.id === id);

/** The objective as if written in `dir` (files it names are relative to it); nothing is written there. */
function objectiveIn(dir: string, yaml: string) {
  return parseObjectiveFile(yaml, path.join(dir, 'objective.yaml'));
}

describe('lattice-constant study of a crystal from a file', () => {
  it("reads structure: { file } relative to the objective, with the file's sha256, and plans from its species and symmetry", () => {
    const o = objectiveIn(
      EXAMPLES,
      'workflow: lattice-constant\ninputs:\n  structure: { file: NaCl.cif }\n  functional: PZ\n  cutoffsRy: [20, 25, 30]\n',
    );
    const s = o.inputs!.structure as { file: string; sha256: string; structure: { symbols: string[] } };
    assert.equal(s.file, path.join(EXAMPLES, 'NaCl.cif'));
    assert.match(s.sha256, /^[0-9a-f]{64}$/);
    assert.equal(s.structure.symbols.length, 8);
    const p = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }));
    assert.equal(p.objective, 'Lattice constant of NaCl (Fm-3m (225)) from NaCl.cif (PZ)');
    assert.deepEqual(step(p.steps, 'structure')!.args, { from: s.file, sha256: s.sha256, cell: 'primitive' });
    assert.deepEqual(step(p.steps, 'pseudopotentials')!.args!.elements, ['Na', 'Cl']);
    assert.deepEqual(step(p.steps, 'pseudopotentials')!.args!.prefer, { Na: 'Na.pz-n-tm.UPF', Cl: 'Cl.pz-tm.UPF' });
    assert.equal(step(p.steps, 'relax-input'), undefined, 'a cubic crystal has no shape to relax');
    assert.deepEqual(
      Object.keys(step(p.steps, 'lattice')!.args!).sort(),
      ['eosFit', 'structure'],
      'no Bravais name: the symmetry of the cell decides',
    );
    assert.equal(step(p.steps, 'cutoff-input')!.args!.nspin, 1);
    assert.match(step(p.steps, 'cutoff-input')!.reasons!.nspin!, /no magnetic species in NaCl/);
    assert.equal(p.inputs.electronic, 'insulator', 'a compound with an anion starts the k sweep as an insulator');
  });

  it('relaxes the shape of a non-cubic crystal before the EOS and reports its lattice parameters', () => {
    const o = objectiveIn(
      EXAMPLES,
      'workflow: lattice-constant\ninputs:\n  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
    );
    const p = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: '/usr/share/espresso/pseudo' }));
    assert.equal(p.objective, 'Lattice parameters of Mg (P6_3/mmc (194)) from Mg-hcp.cif (PZ)');
    assert.equal(step(p.steps, 'relax-input')!.args!.calculation, 'vc-relax');
    assert.equal(step(p.steps, 'relax-input')!.args!.ecutwfcRy, '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy');
    assert.equal(step(p.steps, 'relaxed')!.tool, 'relaxed_structure');
    assert.equal(step(p.steps, 'eos-input')!.args!.structure, '$step.relaxed.relaxed_structure');
    assert.deepEqual(step(p.steps, 'eos-input')!.dependsOn, ['relaxed']);
    assert.equal(step(p.steps, 'lattice')!.args!.structure, '$step.relaxed.relaxed_structure');
    assert.ok(step(p.steps, 'report')!.reportQuantities!.includes('lattice_parameters'));
    const fixed = objectiveIn(
      EXAMPLES,
      'workflow: lattice-constant\ninputs:\n  structure: { file: Mg-hcp.cif }\n  cellShape: fixed\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
    );
    assert.equal(step(prepareWorkflow('lattice-constant', fixed.inputs!, {}).steps, 'relax-input'), undefined);
  });

  it('spins up a crystal with a magnetic species, with a starting magnetization per species', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-fe-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'FeO.cif'),
        fs
          .readFileSync(path.join(EXAMPLES, 'NaCl.cif'), 'utf8')
          .replace(/\bNa\b/g, 'Fe')
          .replace(/\bCl\b/g, 'O'),
      );
      const o = objectiveIn(
        dir,
        'workflow: lattice-constant\ninputs:\n  structure: { file: FeO.cif }\n  startingMagnetization: { Fe: 0.7 }\n  cutoffsRy: [30, 40, 50]\n',
      );
      const p = prepareWorkflow('lattice-constant', o.inputs!, {});
      const args = step(p.steps, 'cutoff-input')!.args!;
      assert.equal(args.nspin, 2);
      assert.deepEqual(args.startingMagnetization, { Fe: 0.7 });
      const plain = objectiveIn(dir, 'workflow: lattice-constant\ninputs:\n  structure: { file: FeO.cif }\n  cutoffsRy: [30, 40, 50]\n');
      assert.deepEqual(step(prepareWorkflow('lattice-constant', plain.inputs!, {}).steps, 'cutoff-input')!.args!.startingMagnetization, {
        Fe: 0.5,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file it cannot read with the file and line, a missing file with where paths start, and a slab', () => {
    assert.throws(
      () =>
        objectiveIn(
          path.join(ROOT, 'test/fixtures/structures'),
          'workflow: lattice-constant\ninputs:\n  structure: { file: partial-occupancy.cif }\n',
        ),
      /inputs\.structure\.file: .*partial-occupancy\.cif:\d+: CIF: /,
    );
    assert.throws(
      () => objectiveIn(EXAMPLES, 'workflow: lattice-constant\ninputs:\n  structure: { file: nowhere.cif }\n'),
      /nowhere\.cif does not exist; the path is relative to the objective file/,
    );
  });

  it('still needs the element and a starting lattice constant for a named structure, and a sentence without them stays for the model', () => {
    assert.throws(
      () => objectiveIn(EXAMPLES, 'workflow: lattice-constant\ninputs:\n  structure: fcc\n  element: Al\n'),
      /latticeConstantAngstrom/,
    );
    assert.deepEqual(parseObjectiveText('lattice constant of fcc Al with PBE', { forModel: true }), {
      text: 'lattice constant of fcc Al with PBE',
    });
    assert.throws(() => parseObjectiveText('lattice constant of fcc Al with PBE'), /does not state latticeConstantAngstrom/);
  });

  it('reads a structure file a sentence names, relative to the working directory or the canvas, and asks for no element or starting a', () => {
    const sentence = 'Lattice constant of rocksalt NaCl from examples/NaCl.cif with LDA';
    for (const opts of [{ forModel: true, baseDir: ROOT }, { baseDir: ROOT }]) {
      const o = parseObjectiveText(sentence, opts);
      assert.equal(o.workflow, 'lattice-constant');
      const s = o.inputs!.structure as { file: string; name: string; sha256: string };
      assert.equal(s.file, path.join(EXAMPLES, 'NaCl.cif'));
      assert.equal(s.name, 'examples/NaCl.cif');
      assert.equal(
        s.sha256,
        createHash('sha256')
          .update(fs.readFileSync(path.join(EXAMPLES, 'NaCl.cif')))
          .digest('hex'),
      );
      assert.equal(o.inputs!.functional, 'PZ');
      assert.equal(o.inputs!.element, undefined);
      assert.equal(o.inputs!.latticeConstantAngstrom, undefined);
      assert.equal(
        prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC })).objective,
        'Lattice constant of NaCl (Fm-3m (225)) from examples/NaCl.cif (PZ)',
      );
    }
    // a notebook cell's sentence: relative to its canvas's folder; a quoted path too
    assert.equal(
      (
        parseObjectiveText('lattice parameters of "Mg-hcp.cif", PBE', { forModel: true, baseDir: EXAMPLES }).inputs!.structure as {
          file: string;
        }
      ).file,
      path.join(EXAMPLES, 'Mg-hcp.cif'),
    );
    assert.throws(
      () => parseObjectiveText('Lattice constant of NaCl from nowhere/NaCl.cif with LDA', { forModel: true, baseDir: ROOT }),
      new RegExp(
        `names the structure file nowhere/NaCl\\.cif, but ${ROOT}/nowhere/NaCl\\.cif does not exist: a file named in an objective sentence is relative to ${ROOT}`,
      ),
    );
  });

  it('asks a sentence that names a compound the tables and words do not place for the structure and a, and an element with no lattice for the lattice and a', () => {
    // a compound the tables know (rocksalt NaCl) is built by name: latticeConstantCompound.unit.test.ts
    assert.deepEqual(objectiveReading('Lattice constant of NaBr with LDA')!.missing, [
      'structure is missing; add it.',
      'latticeConstantAngstrom is missing; add it.',
    ]);
    assert.deepEqual(objectiveReading('Lattice constant of Al with LDA')!.missing, [
      'structure is missing; add it.',
      'latticeConstantAngstrom is missing; add it.',
    ]);
    assert.throws(
      () => objectiveIn(EXAMPLES, 'workflow: lattice-constant\ninputs:\n  functional: PZ\n'),
      (e: Error) => /structure is missing/.test(e.message) && !/element|latticeConstantAngstrom/.test(e.message),
    );
  });

  it('names the study from the file when the objective file gives no objective line', () => {
    const o = objectiveIn(EXAMPLES, 'workflow: lattice-constant\ninputs:\n  structure: { file: Mg-hcp.cif }\n  functional: LDA\n');
    assert.equal(o.text, 'Lattice parameters of Mg (P6_3/mmc (194)) from Mg-hcp.cif (PZ)');
  });

  it('reads files a notebook cell names relative to the canvas', () => {
    const o = parseObjectiveFile('workflow: lattice-constant\ninputs:\n  structure: { file: GaAs.cif }\n', 'the objective cell', EXAMPLES);
    assert.equal((o.inputs!.structure as { file: string }).file, path.join(EXAMPLES, 'GaAs.cif'));
  });

  it('plans the example objectives that start from files: NaCl and GaAs lattice constants, a search on a CIF slab', () => {
    for (const [file, workflow, first] of [
      ['nacl-lattice-constant.yaml', 'lattice-constant', 'build_bulk'],
      ['gaas-lattice-constant.yaml', 'lattice-constant', 'build_bulk'],
      ['pt111-cif-search.yaml', 'adsorption-search', 'import_structure'],
    ] as const) {
      const o = parseObjectiveBytes(fs.readFileSync(path.join(EXAMPLES, file)), path.join(EXAMPLES, file));
      assert.equal(o.workflow, workflow, file);
      const p = prepareWorkflow(o.workflow!, o.inputs!, {});
      assert.equal(p.steps[0]!.tool, first, file);
    }
  });

  it("judges a non-cubic crystal's sweeps also by the shape its stress anisotropy implies, and leaves cubic crystals' choices as they were", () => {
    const choiceArgs = (yaml: string, env = {}) => {
      const p = prepareWorkflow('lattice-constant', objectiveIn(EXAMPLES, `workflow: lattice-constant\ninputs:\n${yaml}`).inputs!, env);
      return [step(p.steps, 'cutoff-choice')!, step(p.steps, 'k-choice')!];
    };
    for (const s of choiceArgs('  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n')) {
      assert.equal(s.args!.toleranceShapePercent, 0.15, s.id);
      assert.match(s.reasons!.toleranceShapePercent!, /Mg is hexagonal: the vc-relax sets c\/a from the stress anisotropy/);
      assert.match(s.title, /within 0\.05 % of a and 0\.15 % of c\/a/);
    }
    const [, k] = choiceArgs(
      '  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n  toleranceShapePercent: 0.3\n',
    );
    assert.equal(k!.args!.toleranceShapePercent, 0.3, 'the objective may set it');
    // cubic crystals (a file, a named lattice), a shape the objective fixes, and the energy criterion: the arguments they had
    const before = ['bulkModulusFrom', 'criterion', 'energies', 'extensionBudgetSeconds', 'parameter', 'toleranceLatticePercent'];
    for (const yaml of [
      '  structure: { file: NaCl.cif }\n  functional: PZ\n  cutoffsRy: [20, 25, 30]\n',
      '  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
      '  element: Mg\n  structure: hcp\n  latticeConstantAngstrom: 3.21\n  cOverA: 1.624\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
      '  structure: { file: Mg-hcp.cif }\n  cellShape: fixed\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n',
    ]) {
      const [cut, kc] = choiceArgs(yaml, yaml.includes('NaCl') ? workflowEnvironment({ pseudoDir: NC }) : {});
      assert.deepEqual(Object.keys(cut!.args!).sort(), before, yaml);
      assert.deepEqual(Object.keys(kc!.args!).sort(), before.map((a) => (a === 'bulkModulusFrom' ? 'bulkModulusGPa' : a)).sort(), yaml);
      assert.doesNotMatch(kc!.title, /c\/a/, yaml);
    }
    const [, energy] = choiceArgs(
      '  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n  toleranceMevPerAtom: 1\n',
    );
    assert.equal(
      energy!.args!.toleranceShapePercent,
      undefined,
      'the energy criterion has no bulk modulus to estimate the shape modulus from',
    );
  });

  it('refuses a c/a tolerance with the energy criterion, which could not apply it, and says to use pressure or both', () => {
    const plan = (yaml: string) =>
      prepareWorkflow(
        'lattice-constant',
        objectiveIn(
          EXAMPLES,
          `workflow: lattice-constant\ninputs:\n  structure: { file: Mg-hcp.cif }\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n${yaml}`,
        ).inputs!,
        {},
      );
    assert.throws(
      () => plan('  criterion: energy\n  toleranceShapePercent: 0.3\n'),
      /inputs\.toleranceShapePercent: 0\.3 % of c\/a needs criterion pressure or both, but the criterion is energy: .*Set criterion: both \(keeps the energy tolerance\) or criterion: pressure/,
    );
    assert.throws(
      () => plan('  toleranceMevPerAtom: 1\n  toleranceShapePercent: 0.3\n'),
      /the criterion is energy \(chosen because only toleranceMevPerAtom is given\)/,
    );
    const [both] = plan('  criterion: both\n  toleranceMevPerAtom: 1\n  toleranceShapePercent: 0.3\n').steps.filter(
      (s) => s.id === 'k-choice',
    );
    assert.equal(both!.args!.toleranceShapePercent, 0.3, 'criterion both applies it');
  });
});
