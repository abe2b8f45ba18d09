// The surface-energy plan: the bulk lattice constant computed at the study's settings (an EOS of
// the bulk cell, its fit, a through the cell's symmetry) before any slab is cut, the slabs and the
// bulk reference both at that a; the old cut at a given a only with latticeConstantAsGiven; the
// bulk from the user's structure file (objective file or sentence), refused with what was found
// when its crystal cannot be cut along the asked surface.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowEnvironment } from '../../../../../src/core/workflows';
import { parseObjectiveFile, parseObjectiveText } from '../../../../../src/core/workflows/objective';
import { SURFACE_ENERGY } from '../../../../../src/core/workflows/everyday/surfaceEnergy';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import { formatStructure } from '../../../../../src/core/dft/io/structureFile';
import { buildSlabTool } from '../../../../../src/core/tools/structureTools';
import type { Structure } from '../../../../../src/core/dft/types';
import type { TemplateStep } from '../../../../../src/core/workflows/types';
import { checkTemplateSteps } from '../templateSteps';

const ROOT = path.resolve(__dirname, '../../../../..');
const env: WorkflowEnvironment = { pseudopotential: ({ element }) => ({ file: `${element}.upf`, type: 'NC' }) };
const claim = { quantity: 'surface_energy', value: 0.05, unit: 'eV/Å^2' };
const plan = (inputs: Record<string, unknown>): TemplateStep[] => SURFACE_ENERGY.steps(SURFACE_ENERGY.resolveInputs(inputs, env));
const step = (steps: TemplateStep[], id: string): TemplateStep => {
  const s = steps.find((x) => x.id === id);
  assert.ok(s, `no step ${id} in ${steps.map((x) => x.id).join(', ')}`);
  return s;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-surface-files-'));
/** Write a structure file in the temporary directory, as a user would have it. */
function file(name: string, s: Structure, format: 'cif' | 'poscar'): string {
  fs.writeFileSync(path.join(dir, name), formatStructure(s, format));
  return name;
}
/** An objective file whose bulk is `structure: { file }`, read as dreams run reads it. */
function objective(lines: string[]): Record<string, unknown> {
  const f = path.join(dir, `o-${Math.random().toString(36).slice(2)}.yaml`);
  const yaml = ['workflow: surface-energy', 'inputs:', ...lines.map((l) => `  ${l}`), ''].join('\n');
  fs.writeFileSync(f, yaml);
  return parseObjectiveFile(yaml, f).inputs!;
}

describe('surface-energy: the slabs cut from the bulk lattice constant computed at the study settings', () => {
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('computes the bulk a by an EOS at the chosen cutoff and k-spacing before any slab is cut, and cuts the slabs and the bulk reference at it', () => {
    const steps = plan({ element: 'Al', functional: 'LDA', cutoffsRy: [15, 20, 25], kSpacingsPerAngstrom: [0.4, 0.3, 0.2] });
    checkTemplateSteps(steps, claim);
    const ids = steps.map((s) => s.id);
    for (const id of ['eos-input', 'eos-series', 'eos-runs', 'eos-fit', 'lattice', 'bulk-a0'])
      assert.ok(ids.indexOf(id) < ids.indexOf('slab-3'), `${id} comes before the first slab`);
    // the EOS runs at the sweeps' choices, as the slabs and the bulk reference do
    for (const id of ['eos-input', 'bulk-input', 'slab-3-input', 'slab-7-input']) {
      const a = step(steps, id).args!;
      assert.deepEqual(
        [a.ecutwfcRy, a.ecutrhoRy, a.kSpacingPerAngstrom],
        [
          '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy',
          '$step.cutoff-choice.converged_settings.chosen.ecutrhoRy',
          '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom',
        ],
        id,
      );
    }
    assert.deepEqual(step(steps, 'eos-series').args!.values, [0.95, 0.975, 1, 1.025, 1.05]);
    assert.equal(step(steps, 'eos-input').args!.structure, '$step.bulk.bulk_structure');
    assert.equal(step(steps, 'bulk').args!.latticeConstantAngstrom, 4.05, 'the experimental a is only where the EOS starts');
    assert.equal(step(steps, 'lattice').args!.bravais, 'fcc');
    assert.equal(step(steps, 'bulk-a0').args!.latticeConstantAngstrom, '$step.lattice.lattice_constant');
    assert.equal(step(steps, 'bulk-input').args!.structure, '$step.bulk-a0.bulk_structure');
    for (const n of [3, 5, 7]) {
      assert.equal(step(steps, `slab-${n}`).args!.latticeConstantAngstrom, '$step.lattice.lattice_constant');
      assert.deepEqual(step(steps, `gamma-${n}`).args!.energies, [`$all.slab-${n}-run.total_energy`, '$all.bulk-run.total_energy']);
    }
    assert.deepEqual(step(steps, 'report').reportQuantities, [
      'surface_energy',
      'lattice_constant',
      'converged_cutoff',
      'converged_kspacing',
    ]);
  });

  it('starts the EOS at a given latticeConstantAngstrom, and cuts at it without an EOS only with latticeConstantAsGiven', () => {
    const seeded = plan({ element: 'Al', functional: 'LDA', latticeConstantAngstrom: 3.99, ecutwfcRy: 15, kSpacingPerAngstrom: 0.3 });
    checkTemplateSteps(seeded, claim);
    assert.equal(step(seeded, 'bulk').args!.latticeConstantAngstrom, 3.99);
    assert.equal(step(seeded, 'slab-5').args!.latticeConstantAngstrom, '$step.lattice.lattice_constant');
    assert.deepEqual(step(seeded, 'eos-input').args!.kSpacingPerAngstrom, 0.3);

    const asGiven = plan({
      element: 'Al',
      functional: 'LDA',
      latticeConstantAngstrom: 3.99,
      latticeConstantAsGiven: true,
      ecutwfcRy: 15,
      kSpacingPerAngstrom: 0.3,
    });
    checkTemplateSteps(asGiven, claim);
    assert.ok(!asGiven.some((s) => s.id.startsWith('eos-') || s.id === 'lattice' || s.id === 'bulk-a0'));
    assert.equal(step(asGiven, 'slab-5').args!.latticeConstantAngstrom, 3.99);
    assert.equal(step(asGiven, 'bulk-input').args!.structure, '$step.bulk.bulk_structure');
    assert.deepEqual(step(asGiven, 'report').reportQuantities, ['surface_energy']);
    assert.throws(
      () => plan({ element: 'Al', latticeConstantAsGiven: true }),
      /latticeConstantAsGiven: give latticeConstantAngstrom \(or a structure file\) to cut at/,
    );
    assert.throws(() => plan({ element: 'Al', eos: { points: 6 } }), /inputs\.eos\.points: 6 is even/);
  });

  it("takes the bulk from the user's structure file: its primitive cell in the EOS, the facet from the Miller indices and the crystal", () => {
    // fcc Al in its conventional 4-atom cell, as a CIF would give it
    const al = file('Al-conv.cif', bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.04, cell: 'conventional' }), 'cif');
    const inputs = objective([
      `structure: { file: ${al} }`,
      'miller: "100"',
      'functional: LDA',
      'ecutwfcRy: 15',
      'kSpacingPerAngstrom: 0.3',
    ]);
    const steps = plan(inputs);
    checkTemplateSteps(steps, claim);
    const start = step(steps, 'bulk').args!;
    assert.equal(start.from, path.join(dir, al));
    assert.equal(start.cell, 'primitive');
    assert.match(String(start.sha256), /^[0-9a-f]{64}$/);
    assert.equal(step(steps, 'slab-3').args!.facet, 'fcc100');
    assert.equal(step(steps, 'slab-3').args!.element, 'Al');
    assert.equal(step(steps, 'lattice').args!.bravais, undefined, "the file's symmetry decides, not a name");
    assert.equal(step(steps, 'slab-3').args!.latticeConstantAngstrom, '$step.lattice.lattice_constant');
    const resolved = SURFACE_ENERGY.resolveInputs(inputs, env) as { latticeConstantAngstrom: number; latticeOrigin: string };
    assert.ok(Math.abs(resolved.latticeConstantAngstrom - 4.04) < 1e-9, 'the EOS starts at the file’s a');
    assert.equal(resolved.latticeOrigin, 'file');

    // hcp Mg keeps the file's c/a in the bulk and the slabs
    const mg = objective([`structure: { file: ${path.join(ROOT, 'examples/Mg-hcp.cif')} }`, 'ecutwfcRy: 15', 'kSpacingPerAngstrom: 0.3']);
    const mgSteps = plan(mg);
    checkTemplateSteps(mgSteps, claim);
    const slabArgs = step(mgSteps, 'slab-3').args!;
    assert.equal(slabArgs.facet, 'hcp0001');
    assert.ok(Math.abs((slabArgs.cOverA as number) - 1.624) < 0.01, `c/a ${String(slabArgs.cOverA)}`);
    assert.equal(step(mgSteps, 'bulk-a0').args!.cOverA, slabArgs.cOverA);
  });

  it('refuses a file whose crystal cannot be cut along the asked surface, saying what the crystal is and which surfaces it has', () => {
    const fe = file('Fe.vasp', bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.87, cell: 'conventional' }), 'poscar');
    assert.throws(
      () => objective([`structure: { file: ${fe} }`, 'miller: "111"']),
      /Fe\.vasp is bcc Fe \(Im-3m \(229\)\): it cannot be cut along \(111\); the bcc surfaces here are bcc110, bcc100\./,
    );
    assert.throws(
      () => objective([`structure: { file: ${fe} }`, 'facet: fcc111']),
      /it cannot be cut along fcc\(111\); the bcc surfaces here are bcc110, bcc100/,
    );
    assert.throws(
      () => objective([`structure: { file: ${path.join(ROOT, 'examples/NaCl.cif')} }`, 'miller: "111"']),
      /NaCl\.cif holds NaCl in Fm-3m \(225\) with 2 atom\(s\) per primitive cell: it cannot be cut along \(111\) here.*a compound's slab needs a choice of termination/,
    );
    const si = file('Si.cif', bulk({ kind: 'diamond', symbols: ['Si'], aAngstrom: 5.43, cell: 'primitive' }), 'cif');
    assert.throws(
      () => objective([`structure: { file: ${si} }`]),
      /holds Si in Fd-3m \(227\).*cannot be cut along its close-packed surface here/,
    );
    const alFile = file('Al-prim.cif', bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.04, cell: 'primitive' }), 'cif');
    assert.throws(
      () => plan(objective([`structure: { file: ${alFile} }`, 'element: Cu'])),
      /inputs\.element: Cu, but Al-prim\.cif holds Al/,
    );
  });

  it('reads a sentence that names the bulk file, and refuses one whose crystal is not a metal it can cut', () => {
    const al = file('Al.cif', bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.04, cell: 'conventional' }), 'cif');
    const o = parseObjectiveText(`surface energy of (111) from ${al} with LDA`, { baseDir: dir });
    assert.equal(o.workflow, 'surface-energy');
    assert.equal((o.inputs!.structure as { file: string }).file, path.join(dir, al));
    assert.equal(o.inputs!.miller, '111');
    assert.equal(o.inputs!.functional, 'LDA');
    assert.equal(step(plan(o.inputs!), 'slab-3').args!.facet, 'fcc111');
    assert.throws(
      () => parseObjectiveText('surface energy of Pt(111) from examples/NaCl.cif', { forModel: true, baseDir: ROOT }),
      /examples\/NaCl\.cif holds NaCl in Fm-3m \(225\).*cannot be cut along \(111\) here/,
    );
  });

  it('build_slab cuts an hcp0001 slab at the c/a it is given, and refuses a c/a for a cubic facet', async () => {
    const args = {
      element: 'Mg',
      facet: 'hcp0001',
      latticeConstantAngstrom: 3.2,
      size: [1, 1],
      layers: 2,
      vacuumAngstrom: 5,
      fixedLayers: 0,
    };
    const ideal = (await buildSlabTool.run(args as never, {} as never)).artifacts[0]!.value as Structure;
    const real = (await buildSlabTool.run({ ...args, cOverA: 1.624 } as never, {} as never)).artifacts[0]!.value as Structure;
    const dz = (s: Structure) => Math.abs(s.positions[1]![2] - s.positions[0]![2]);
    assert.ok(Math.abs(dz(ideal) - (3.2 * Math.sqrt(8 / 3)) / 2) < 1e-9);
    assert.ok(Math.abs(dz(real) - (3.2 * 1.624) / 2) < 1e-9, `layer spacing ${dz(real)}`);
    await assert.rejects(
      buildSlabTool.run({ ...args, facet: 'fcc111', cOverA: 1.6 } as never, {} as never),
      /cOverA is the c\/a of an hcp crystal/,
    );
  });
});
