// The lattice-constant study of a binary compound named in a sentence (GaAs, rocksalt NaCl, CsCl,
// zincblende SiC) without a structure file: both species built by name in their prototype, the
// pseudopotentials of both chosen, and a of the conventional cubic cell in the report.
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseObjectiveFile, parseObjectiveText, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { workflowEnvironment } from '../../../../src/core/workflows/environment';
import { latticeInputsFromText } from '../../../../src/core/workflows/latticeConstantText';
import { LATTICE_REPORT_COMPOSERS } from '../../../../src/core/workflows/latticeConstantReport';
import type { LatticeConstantInputs } from '../../../../src/core/workflows/latticeConstantInputs';
import type { ComposeContextOf } from '../../../../src/core/workflows/defineWorkflow';
import type { TemplateStep } from '../../../../src/core/workflows/types';
import { objectiveReading } from '../../../../src/core/agents/supervisor';
import { bulk, type BulkKind } from '../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../src/core/dft/structure/cell';
import { latticeConstantFromVolume } from '../../../../src/core/dft/lattice';

const ROOT = path.resolve(__dirname, '../../../..');
const NC = path.join(ROOT, 'test/fixtures/workflows/pseudo-nc');
const step = (steps: TemplateStep[], id: string) => steps.find((s) => s.id === id)!;

describe('lattice-constant study of a binary compound named in a sentence', () => {
  it('reads GaAs, rocksalt NaCl, CsCl and zincblende SiC as two elements in their prototype with the tabulated a, and plans build_bulk of both species', () => {
    const cases: [string, string[], string, number, string][] = [
      ['Lattice constant of GaAs with PBE', ['Ga', 'As'], 'zincblende', 5.653, 'F-43m (216)'],
      ['Lattice constant of rocksalt NaCl with LDA', ['Na', 'Cl'], 'rocksalt', 5.64, 'Fm-3m (225)'],
      ['lattice constant of CsCl, PBEsol', ['Cs', 'Cl'], 'cesiumchloride', 4.123, 'Pm-3m (221)'],
      ['Lattice constant of zincblende SiC with LDA', ['Si', 'C'], 'zincblende', 4.36, 'F-43m (216)'],
    ];
    for (const [sentence, elements, structure, a, group] of cases) {
      const o = parseObjectiveText(sentence);
      assert.equal(o.workflow, 'lattice-constant', sentence);
      assert.deepEqual(o.inputs!.elements, elements, sentence);
      assert.equal(o.inputs!.structure, structure, sentence);
      assert.equal(o.inputs!.latticeConstantAngstrom, a, sentence);
      const p = prepareWorkflow('lattice-constant', o.inputs!, {});
      assert.equal(
        p.objective,
        `Lattice constant of ${structure} ${elements.join('')} (${o.inputs!.functional === 'PZ' ? 'PZ' : o.inputs!.functional})`,
      );
      const s = step(p.steps, 'structure');
      assert.deepEqual(s.args, { elements, bravais: structure, latticeConstantAngstrom: a });
      assert.match(s.reasons!.latticeConstantAngstrom!, /conventional cubic cell: the room-temperature experimental a .*CRC/);
      assert.match(
        s.reasons!.bravais!,
        new RegExp(`\\(${group.replace(/[()]/g, '\\$&')}\\): its primitive cell, one ${elements[0]} and one ${elements[1]}`),
      );
      assert.deepEqual(step(p.steps, 'pseudopotentials').args!.elements, elements);
      assert.equal(step(p.steps, 'lattice').args!.bravais, structure);
      // build_bulk on the planned arguments: the 2-atom primitive cell of both species
      const built = bulk({ kind: structure as BulkKind, symbols: elements, aAngstrom: a, cell: 'primitive' });
      assert.deepEqual(built.symbols, elements);
    }
  });

  it('chooses the pseudopotential of each species, and one the objective names for a species', () => {
    const o = parseObjectiveText('Lattice constant of NaCl with LDA');
    const p = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }));
    const pp = step(p.steps, 'pseudopotentials');
    assert.deepEqual(pp.args, { elements: ['Na', 'Cl'], functional: 'PZ', prefer: { Na: 'Na.pz-n-tm.UPF', Cl: 'Cl.pz-tm.UPF' } });
    assert.match(pp.reasons!.prefer!, /the library's PZ file for each species/);
    assert.equal(p.inputs.electronic, 'insulator', 'a compound with an anion starts the k sweep as an insulator');
    assert.equal(p.inputs.dual, 4, 'both files norm-conserving');
    const named = parseObjectiveFile(
      'workflow: lattice-constant\ninputs:\n  elements: [Na, Cl]\n  structure: rocksalt\n  latticeConstantAngstrom: 5.5\n  functional: PZ\n  pseudopotentials: { Cl: Cl.pz-tm.UPF }\n',
      'the objective',
      ROOT,
    );
    const q = prepareWorkflow('lattice-constant', named.inputs!, workflowEnvironment({ pseudoDir: NC }));
    assert.equal(step(q.steps, 'structure').args!.latticeConstantAngstrom, 5.5);
    assert.match(step(q.steps, 'structure').reasons!.latticeConstantAngstrom!, /the starting value given with the objective/);
    assert.throws(
      () => prepareWorkflow('lattice-constant', { ...named.inputs!, pseudopotentials: { K: 'K.UPF' } }, {}),
      /inputs\.pseudopotentials\.K: NaCl has no K; its species are Na, Cl/,
    );
  });

  it('reads an abbreviation of two capitals (NC, US, SI) as a word, not as a compound, unless the tables or a prototype word place it (BN, zincblende BP)', () => {
    const read = (t: string) => latticeInputsFromText(t)!;
    assert.equal(read('Lattice constant of fcc Al with PBE and NC pseudopotentials').element, 'Al');
    assert.equal(read('Lattice constant of fcc Al with PBE and NC pseudopotentials').elements, undefined);
    assert.equal(read('Lattice constant of bcc Fe with PBE, US pseudopotentials').element, 'Fe');
    assert.equal(read('Lattice constant of diamond Si with PBE, energies in SI units').element, 'Si');
    assert.deepEqual(read('Lattice constant of BN with PBE').elements, ['B', 'N']);
    assert.deepEqual(read('Lattice constant of zincblende BP with PBE, a0 = 4.54 Å').elements, ['B', 'P']);
  });

  it('does not take a k-spacing in reciprocal length for the starting lattice constant', () => {
    const read = (t: string) => parseObjectiveText(t).inputs!;
    assert.equal(read('Lattice constant of GaAs with PBE and a k-spacing of 0.2 Å⁻¹').latticeConstantAngstrom, 5.653);
    assert.equal(read('Lattice constant of GaAs with PBE, k spacing 0.2 Å^-1').latticeConstantAngstrom, 5.653);
    assert.equal(read('Lattice constant of fcc Al with LDA, k spacing 0.15 Å-1, a0 = 4.05 Å').latticeConstantAngstrom, 4.05);
    assert.equal(read('Lattice constant of fcc Al with LDA, 4.05 Å to start').latticeConstantAngstrom, 4.05);
  });

  it('asks for a starting a when the tables do not know the formula, and for the structure when neither a prototype word nor the tables place the pair', () => {
    assert.throws(() => parseObjectiveText('Lattice constant of zincblende GaSb with PBE'), /does not state latticeConstantAngstrom/);
    assert.equal(parseObjectiveText('Lattice constant of zincblende GaSb with PBE, a0 = 6.1 Å').inputs!.latticeConstantAngstrom, 6.1);
    assert.deepEqual(objectiveReading('Lattice constant of NaBr with PBE')!.missing, [
      'structure is missing; add it.',
      'latticeConstantAngstrom is missing; add it.',
    ]);
    assert.throws(
      () =>
        parseObjectiveFile(
          'workflow: lattice-constant\ninputs:\n  structure: zincblende\n  element: Ga\n  latticeConstantAngstrom: 5.6\n',
          'the objective',
          ROOT,
        ),
      /elements/,
    );
    assert.throws(
      () => prepareWorkflow('lattice-constant', { elements: ['Ga', 'Ga'], structure: 'zincblende', latticeConstantAngstrom: 5.6 }, {}),
      /inputs\.elements: zincblende needs two different elements/,
    );
  });

  it('reports a of the conventional cubic cell from V0 of the 2-atom primitive cell the series scaled', () => {
    const o = parseObjectiveText('Lattice constant of GaAs with LDA');
    const p = prepareWorkflow('lattice-constant', o.inputs!, {});
    const inputs = p.inputs as unknown as LatticeConstantInputs;
    const args = step(p.steps, 'structure').args!;
    // the primitive cell build_bulk makes from the planned arguments, at a fitted a of 5.60 Å
    const cell = bulk({ kind: args.bravais as BulkKind, symbols: args.elements as string[], aAngstrom: 5.6, cell: 'primitive' });
    const v0 = cellVolume(cell.cell);
    assert.ok(Math.abs(v0 - 5.6 ** 3 / 4) < 1e-9, 'the primitive cell holds a quarter of the cube');
    const a = latticeConstantFromVolume(v0, { bravais: step(p.steps, 'lattice').args!.bravais as 'zincblende', cell: 'primitive' });
    assert.ok(Math.abs(a.aAngstrom - 5.6) < 1e-9);
    const artifacts: Record<string, [string, unknown]> = {
      'lattice/lattice_constant': ['a-30', a.aAngstrom],
      'eos-fit/eos_fit': ['a-29', { v0Angstrom3: v0, b0GPa: 74.1, b0Prime: 4.6, form: 'birch-murnaghan', natoms: 2 }],
      'cutoff-choice/converged_settings': [
        'a-12',
        { parameter: 'ecutwfc', tested: [], chosenValue: 40, chosen: { ecutwfcRy: 40, ecutrhoRy: 160 }, converged: true },
      ],
      'k-choice/converged_settings': [
        'a-20',
        { parameter: 'kspacing', tested: [], chosenValue: 0.3, chosen: { kSpacingPerAngstrom: 0.3 }, converged: true },
      ],
    };
    const byRef = new Map(Object.values(artifacts));
    const ctx: ComposeContextOf<LatticeConstantInputs> = {
      provenance: { artifact: () => undefined } as unknown as ComposeContextOf<LatticeConstantInputs>['provenance'],
      ref: (s, n) => artifacts[`${s}/${n}`]?.[0],
      refs: (s, n) => (artifacts[`${s}/${n}`] ? [artifacts[`${s}/${n}`]![0]] : []),
      value: (r) => byRef.get(r),
      inputs,
    };
    const text = LATTICE_REPORT_COMPOSERS.text!(ctx) as string;
    assert.match(
      text,
      /The PZ lattice constant of zincblende GaAs is \*\*a = 5\.6 Å\*\* \(a-30\), from a birch-murnaghan fit \(a-29\) with V0 = 43\.904 Å³ per 2-atom cell/,
    );
    assert.match(
      text,
      /GaAs is cubic \(F-43m \(216\)\): the EOS series scaled the cell isotropically, and a follows from V0 through the standardised conventional cell/,
    );
    assert.match(text, /around the starting lattice constant 5\.653 Å/);
  });
});
