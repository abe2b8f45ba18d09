// The editor's schemas for cluster profiles and objective files are the core's own, and
// they accept what dreams run accepts and refuse what it refuses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { SCHEMA_DIR, schemaFiles } from '../../../../scripts/ui/jsonSchemas';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    jsonValidation: { fileMatch: string | string[]; url: string }[];
    yamlValidation: { fileMatch: string | string[]; url: string }[];
  };
};
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });

describe('editor schemas for cluster profiles and objective files', () => {
  it('are up to date with the core schemas (refresh: node --import tsx scripts/ui/jsonSchemas.ts)', () => {
    for (const [name, text] of Object.entries(schemaFiles()))
      assert.equal(fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'), text, `${name} is out of date`);
  });

  it('are wired to the files they describe in package.json, and the files they name ship', () => {
    const json = manifest.contributes.jsonValidation;
    const yaml = manifest.contributes.yamlValidation;
    const clusters = json.find((j) => j.url === './media/schemas/clusters.schema.json');
    assert.ok(clusters && [clusters.fileMatch].flat().includes('**/.config/dreams/clusters.json'));
    assert.ok(json.some((j) => j.url === './media/schemas/objective.schema.json'));
    assert.ok(yaml.some((y) => y.url === './media/schemas/objective.schema.json' && [y.fileMatch].flat().includes('*.objective.yaml')));
    for (const { url } of [...json, ...yaml]) assert.ok(fs.existsSync(path.join(root, url)), `${url} does not exist`);
  });

  it('the objective schema accepts every example objective file', () => {
    const validate = ajv.compile(load('objective.schema.json'));
    const files = fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.yaml'));
    assert.ok(files.length >= 5, `only ${files.length} examples`);
    for (const f of files) {
      const data = parseYaml(fs.readFileSync(path.join(root, 'examples', f), 'utf8')) as unknown;
      assert.ok(validate(data), `${f}: ${ajv.errorsText(validate.errors)}`);
    }
  });

  it('the objective schema refuses an unknown workflow, a mistyped input of the named workflow, and a run option that does not exist', () => {
    const validate = ajv.compile(load('objective.schema.json'));
    const ok = parseYaml(fs.readFileSync(path.join(root, 'examples/al-lattice-constant.yaml'), 'utf8')) as {
      workflow: string;
      inputs: Record<string, unknown>;
    };
    assert.equal(validate({ ...ok, workflow: 'lattice-constants' }), false);
    assert.equal(validate({ ...ok, inputs: { ...ok.inputs, structure: 'fcc-ish' } }), false);
    assert.match(ajv.errorsText(validate.errors), /inputs\/structure/);
    assert.equal(validate({ ...ok, run: { approval: 'yes-please' } }), false);
    assert.equal(validate({ ...ok, run: { approval: 'wait', budget: { maxJobs: 10 } } }), true);
  });

  it("the clusters schema accepts the README's profile, as a file or a bare list, and names a mistyped field", () => {
    const validate = ajv.compile(load('clusters.schema.json'));
    const profile = {
      name: 'hpc1',
      sshHost: 'hpc1',
      scheduler: 'slurm',
      workRoot: '~/dreams',
      pwCommand: 'srun pw.x',
      prelude: ['module load quantum-espresso/7.2'],
      partition: 'standard',
      limits: { maxNtasks: 128, coresPerNode: 64 },
    };
    assert.ok(validate({ clusters: [profile] }), ajv.errorsText(validate.errors));
    assert.ok(validate([profile]));
    assert.equal(validate({ clusters: [{ ...profile, sshhost: 'x' }] }), false);
    assert.match(ajv.errorsText(validate.errors), /additional properties|sshhost/i);
    assert.equal(validate({ clusters: [{ ...profile, scheduler: 'sge' }] }), false);
  });
});
