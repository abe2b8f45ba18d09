// A crystal whose file has noisy positions (a measured CIF, a relaxed POSCAR), studied with the
// symmetry tolerance the objective sets: the plan, build_bulk, lattice_constant_from_volume and the
// guard rule lattice-uses-cell-symmetry all find the one space group, and the sentences say at which tolerance.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { formatStructure, readStructureFile } from '../../../../src/core/dft/io/structureFile';
import { analyseSymmetry } from '../../../../src/core/dft/structure/symmetry';
import { bulk } from '../../../../src/core/dft/structure/bulk';
import type { Structure, Vec3 } from '../../../../src/core/dft/types';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import type { GuardedOutcome } from '../../../../src/core/guard/types';
import { workflowEnvironment } from '../../../../src/core/workflows/environment';
import { parseObjectiveFile, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { loadStructureFileInput } from '../../../../src/core/workflows/structureFileInput';
import type { TemplateStep } from '../../../../src/core/workflows/types';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const ROOT = path.resolve(__dirname, '../../../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/structures');
const NOISY = path.join(FIXTURES, 'NaCl-noisy.vasp');
const NC = path.join(ROOT, 'test/fixtures/workflows/pseudo-nc');
const registry = new ToolRegistry();
const step = (steps: TemplateStep[], id: string) => steps.find((s) => s.id === id)!;
const objectiveIn = (dir: string, yaml: string) => parseObjectiveFile(yaml, path.join(dir, 'objective.yaml'));
const nacl = (structure: string) =>
  `workflow: lattice-constant\ninputs:\n  structure: ${structure}\n  functional: PZ\n  cutoffsRy: [20, 25, 30]\n`;

function ctx(p: MemoryProvenance): GuardContext {
  return {
    provenance: p,
    approvals: new ApprovalBook(new MemoryEventLog()),
    policy: 'auto-approve',
    run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
  };
}
const guarded = (p: MemoryProvenance, tool: string, args: Record<string, unknown>): Promise<GuardedOutcome> =>
  guardedCall(registry.get(tool)!, { tool, args, refs: {}, reasons: {}, context: 'test', agent: { role: 'dft' } }, ctx(p));

/** An EOS fit of the cell, as fit_eos records it (its body needs pw.x energies). */
async function seedFit(p: MemoryProvenance, v0Angstrom3: number, natoms: number): Promise<string> {
  const [fit] = await seedCall(p, 'fit_eos', { energies: [], form: 'birch-murnaghan' }, [
    {
      kind: 'table',
      name: 'eos_fit',
      value: { form: 'birch-murnaghan', v0Angstrom3, e0Ev: -100, b0GPa: 25, b0Prime: 4.5, natoms, points: [], rmsResidualEv: 1e-4 },
    },
  ]);
  return fit!.id;
}

describe('a noisy crystal with the symmetry tolerance the objective sets', () => {
  it('the fixture is P1 at the default tolerance and Fm-3m at 1e-2 Å, as spglib 2.0.2 finds it too', () => {
    const s = readStructureFile(NOISY);
    assert.equal(analyseSymmetry(s).spaceGroup.number, 1);
    assert.equal(analyseSymmetry(s, { symprecAngstrom: 1e-2 }).spaceGroup.number, 225);
    assert.equal(analyseSymmetry({ ...s, symprecAngstrom: 1e-2 }).spaceGroup.number, 225, "the structure's own tolerance is used");
    assert.equal(analyseSymmetry({ ...s, symprecAngstrom: 1e-2 }, { symprecAngstrom: 1e-3 }).spaceGroup.number, 1, 'one asked for wins');
  });

  it('plans the cubic path on the standardised primitive cell with the tolerance, and says it; the default would vc-relax a P1 cell', () => {
    const o = objectiveIn(FIXTURES, nacl('{ file: NaCl-noisy.vasp, symprecAngstrom: 1e-2 }'));
    const loaded = o.inputs!.structure as { symprecAngstrom: number; structure: Structure };
    assert.equal(loaded.symprecAngstrom, 0.01);
    assert.equal(loaded.structure.symprecAngstrom, 0.01, 'the tolerance travels with the structure');
    const p = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }));
    assert.equal(p.objective, 'Lattice constant of NaCl (Fm-3m (225) at symprec 0.01 Å) from NaCl-noisy.vasp (PZ)');
    assert.equal(p.inputs.cellMethod, 'isotropic');
    assert.equal(step(p.steps, 'relax-input' as string) as TemplateStep | undefined, undefined, 'a cubic crystal has no shape to relax');
    const structure = step(p.steps, 'structure');
    assert.equal(structure.args!.symprecAngstrom, 0.01);
    assert.equal(structure.args!.cell, 'primitive');
    assert.match(
      structure.reasons!.symprecAngstrom!,
      /symmetry tolerance the objective set for NaCl-noisy\.vasp \(0\.01 Å instead of the default 0\.001 Å\)/,
    );
    assert.match(structure.title!, /Fm-3m \(225\) at symprec 0\.01 Å/);
    const plain = prepareWorkflow('lattice-constant', objectiveIn(FIXTURES, nacl('{ file: NaCl-noisy.vasp }')).inputs!, {});
    assert.equal(plain.objective, 'Lattice parameters of NaCl (P1 (1)) from NaCl-noisy.vasp (PZ)');
    assert.equal(step(plain.steps, 'relax-input').args!.calculation, 'vc-relax');
    assert.equal(step(plain.steps, 'structure').args!.symprecAngstrom, undefined);
  });

  it("build_bulk, lattice_constant_from_volume and the guard's lattice rule read the tolerance the plan set, through the structure", async () => {
    const o = objectiveIn(FIXTURES, nacl('{ file: NaCl-noisy.vasp, symprecAngstrom: 1e-2 }'));
    const plan = prepareWorkflow('lattice-constant', o.inputs!, workflowEnvironment({ pseudoDir: NC }));
    const pr = new MemoryProvenance();
    for (const cell of ['primitive', 'as-given'] as const) {
      const built = await guarded(pr, 'build_bulk', { ...step(plan.steps, 'structure').args!, cell });
      assert.equal(built.status, 'ok', JSON.stringify(built));
      const { outputs, summary } = built as { outputs: string[]; summary: string };
      const bulkArtifact = pr.artifact(outputs[0]!)!;
      const s = bulkArtifact.value as Structure;
      assert.equal(s.symprecAngstrom, 0.01);
      assert.equal(s.symbols.length, cell === 'primitive' ? 2 : 8);
      assert.equal(bulkArtifact.meta?.spaceGroup, 'Fm-3m (225)');
      assert.match(summary, /Fm-3m \(225\) at symprec 0\.01 Å/);
      // the series scaled this cell; V0 per computed cell, a through the conventional cell
      const v0 = cell === 'primitive' ? 41.5 : 166;
      const fit = await seedFit(pr, v0, s.symbols.length);
      const lattice = await guarded(pr, 'lattice_constant_from_volume', { eosFit: fit, structure: outputs[0]!, bravais: 'rocksalt' });
      assert.equal(lattice.status, 'ok', JSON.stringify(lattice));
      const rule = (lattice as { verdicts: { rule: string; level: string; reasons: string[] }[] }).verdicts.find(
        (v) => v.rule === 'lattice-uses-cell-symmetry',
      )!;
      assert.equal(rule.level, 'pass');
      assert.match(rule.reasons[0]!, /Fm-3m \(225\), cubic at symprec 0\.01 Å; \d+ computed cell\(s\) per conventional cell/);
      const a = pr.artifact((lattice as { outputs: string[] }).outputs[0]!)!;
      assert.ok(Math.abs((a.value as number) - Math.cbrt(166)) < 1e-9, `a = ${String(a.value)}`);
      assert.equal(a.meta?.spaceGroup, 'Fm-3m (225)');
      assert.equal(a.meta?.symprecAngstrom, 0.01);
      assert.match(String(a.meta?.relation), /\(symmetry found at symprec 0\.01 Å\)$/);
    }
    // the same noisy cell without the tolerance: the rule finds P1 and refuses rocksalt
    const noisy = readStructureFile(NOISY);
    const [bare] = await seedCall(pr, 'build_bulk', { from: NOISY }, [{ kind: 'structure', name: 'bulk_structure', value: noisy }]);
    const refused = await guarded(pr, 'lattice_constant_from_volume', {
      eosFit: await seedFit(pr, 166, 8),
      structure: bare!.id,
      bravais: 'rocksalt',
    });
    assert.equal(refused.status, 'refused');
    assert.match((refused as { message: string }).message, /bravais = "rocksalt" but the cell's symmetry is P1 \(1\), triclinic/);
  });

  it('refuses a tolerance that is not a positive distance in one line saying what to write, and names the field for a misspelt one', () => {
    for (const [bad, says] of [
      ['0', 'must be > 0 (got 0)'],
      ['-1e-3', 'must be > 0 (got -0.001)'],
      ['2', 'must be <= 0.5 (got 2)'],
      ['abc', 'must be number (got "abc")'],
    ] as const) {
      assert.throws(
        () => objectiveIn(FIXTURES, nacl(`{ file: NaCl-noisy.vasp, symprecAngstrom: ${bad} }`)),
        (e: Error) => {
          const lines = e.message.split('\n').filter((l) => l.startsWith('- '));
          assert.equal(lines.length, 1, e.message);
          assert.ok(
            lines[0]!.startsWith(`- inputs.structure.symprecAngstrom: ${says}; expected: Symmetry tolerance, Å (default 1e-3)`),
            e.message,
          );
          return true;
        },
      );
    }
    assert.throws(
      () => objectiveIn(FIXTURES, nacl('{ file: NaCl-noisy.vasp, symprec: 1e-2 }')),
      /inputs\.structure: "symprec" is not a known field \(did you mean "symprecAngstrom"\?\)/,
    );
    // inputs that reach the reader without the schema (a plan built in code) are checked there too
    assert.throws(
      () => loadStructureFileInput({ file: NOISY, symprecAngstrom: 0 }, ROOT, 'inputs.structure'),
      /inputs\.structure\.symprecAngstrom: 0 is not a symmetry tolerance; give a distance in Å above 0 and at most 0\.5 .*or leave it out for the default 0\.001 Å/,
    );
  });

  it('the everyday templates read the file with the tolerance too (a relax of the noisy crystal)', () => {
    const o = objectiveIn(
      FIXTURES,
      'workflow: relax\ninputs:\n  structure: { file: NaCl-noisy.vasp, symprecAngstrom: 1e-2 }\n  calculation: relax\n  ecutwfcRy: 20\n  kSpacingPerAngstrom: 0.4\n',
    );
    const s = step(prepareWorkflow('relax', o.inputs!, workflowEnvironment({ pseudoDir: NC })).steps, 'structure');
    assert.equal(s.tool, 'build_bulk');
    assert.equal(s.args!.symprecAngstrom, 0.01);
    assert.match(s.reasons!.symprecAngstrom!, /the symmetry tolerance the objective set for NaCl-noisy\.vasp/);
  });

  it('surface energy: a noisy fcc metal file is cut with the tolerance the objective set, and refused at the default', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-symprec-'));
    try {
      const al = bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.05, cell: 'conventional' });
      const shifts: Vec3[] = [
        [2e-3, -1e-3, 1.5e-3],
        [-1.8e-3, 2e-3, 0.5e-3],
        [1e-3, 1.7e-3, -2e-3],
        [-2e-3, -1.2e-3, 1.9e-3],
      ];
      const noisy: Structure = { ...al, positions: al.positions.map((p, i) => p.map((x, j) => x + shifts[i]![j]!) as Vec3) };
      fs.writeFileSync(path.join(dir, 'Al-noisy.vasp'), formatStructure(noisy, 'poscar'));
      const yaml = (file: string) =>
        `workflow: surface-energy\ninputs:\n  structure: ${file}\n  functional: PZ\n  cutoffsRy: [15, 20, 25]\n  kSpacingsPerAngstrom: [0.5, 0.4, 0.3]\n`;
      assert.throws(() => objectiveIn(dir, yaml('{ file: Al-noisy.vasp }')), /holds Al in P1 \(1\)/);
      const o = objectiveIn(dir, yaml('{ file: Al-noisy.vasp, symprecAngstrom: 1e-2 }'));
      const p = prepareWorkflow('surface-energy', o.inputs!, workflowEnvironment({ pseudoDir: '/usr/share/espresso/pseudo' }));
      const bulkStep = step(p.steps, 'bulk');
      assert.equal(bulkStep.args!.symprecAngstrom, 0.01);
      assert.match(bulkStep.title!, /fcc Al, Fm-3m \(225\) at symprec 0\.01 Å/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
