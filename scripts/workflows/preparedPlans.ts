/**
 * Every example objective's prepared plan as JSON, for comparing a change of the workflow templates
 * that should leave the plans as they were: each objective file in examples/ and a few objective
 * sentences (surface energy and lattice constant of elements and of files), each prepared against
 * three pseudopotential directories (Debian's, and the two of test/fixtures/workflows), with the
 * resolved inputs, the objective line and the steps. Paths inside the checkout are written as <root>,
 * so two checkouts compare byte for byte:
 *
 *   node --import tsx scripts/workflows/preparedPlans.ts [--root DIR] --out FILE
 *   (e.g. one checkout before the change and one after, then cmp the two files)
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const SENTENCES = [
  'Surface energy of Al(111) with LDA',
  'Surface energy of Cu(100) with PBE',
  'Surface energy of Mg(0001) from examples/Mg-hcp.cif with PBE',
  'Surface energy of Pt(111) with PBE',
  'Lattice constant of rocksalt NaCl from examples/NaCl.cif with LDA',
  'Lattice constant of hcp Mg from examples/Mg-hcp.cif with PBE',
  'Lattice constant of GaAs from examples/GaAs.cif with LDA by energy within 1 meV/atom',
];

interface Objective {
  text: string;
  workflow?: string;
  inputs?: Record<string, unknown>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { root: { type: 'string' }, out: { type: 'string' } } });
  if (!values.out) throw new Error('give --out FILE: where the plans are written as JSON');
  const root = path.resolve(values.root ?? path.join(__dirname, '../..'));
  // the checkout's own modules, so one script compares any two checkouts
  const objective = await import(path.join(root, 'src/core/workflows/objective.ts'));
  const { workflowEnvironment } = await import(path.join(root, 'src/core/workflows/environment.ts'));
  const pseudoDirs = {
    debian: '/usr/share/espresso/pseudo',
    fixture: path.join(root, 'test/fixtures/workflows/pseudo'),
    nc: path.join(root, 'test/fixtures/workflows/pseudo-nc'),
  };
  const examples = path.join(root, 'examples');
  const objectives: [string, () => Objective][] = [
    ...fs
      .readdirSync(examples)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f): [string, () => Objective] => [
        f,
        () => objective.parseObjectiveFile(fs.readFileSync(path.join(examples, f), 'utf8'), path.join(examples, f)),
      ]),
    ...SENTENCES.map((s): [string, () => Objective] => [s, () => objective.parseObjectiveText(s, { forModel: true, baseDir: root })]),
  ];
  const plans: Record<string, unknown> = {};
  for (const [name, read] of objectives)
    for (const [dirName, dir] of Object.entries(pseudoDirs)) {
      try {
        const o = read();
        if (!o.workflow) {
          plans[`${name} @ ${dirName}`] = { noWorkflow: o.text };
          continue;
        }
        const p = objective.prepareWorkflow(o.workflow, o.inputs ?? {}, workflowEnvironment({ pseudoDir: dir }));
        plans[`${name} @ ${dirName}`] = { workflow: o.workflow, inputs: p.inputs, objective: p.objective, steps: p.steps };
      } catch (e) {
        plans[`${name} @ ${dirName}`] = { error: (e as Error).message };
      }
    }
  fs.writeFileSync(values.out, JSON.stringify(plans, null, 1).replaceAll(root, '<root>'));
  const all = Object.values(plans) as { steps?: unknown; error?: unknown }[];
  console.log(
    `${all.length} objectives × pseudopotential directories: ${all.filter((p) => p.steps).length} plans prepared, ${all.filter((p) => p.error).length} refused -> ${values.out}`,
  );
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
