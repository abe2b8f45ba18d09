/**
 * The JSON schemas the editor validates DREAMS files with, generated from the core's own
 * schemas (the ones `dreams run` checks with ajv), so completion and diagnostics in the
 * editor say exactly what a run accepts:
 *   media/schemas/clusters.schema.json   cluster profiles files (package.json jsonValidation)
 *   media/schemas/objective.schema.json  objective files (yamlValidation for the Red Hat YAML
 *                                        extension, jsonValidation for *.objective.json)
 * Refresh after a schema changes in the core:  node --import tsx scripts/ui/jsonSchemas.ts
 * (test/unit/ui/jsonSchemas.unit.test.ts fails while the files are out of date).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLUSTER_PROFILE_SCHEMA } from '../../src/core/hpc/clusterProfile';
import { builtInWorkflowTemplates } from '../../src/core/workflows';
import { OBJECTIVE_FILE_SCHEMA } from '../../src/core/workflows/objective';

export const SCHEMA_DIR = path.resolve(__dirname, '../../media/schemas');
const DRAFT = 'http://json-schema.org/draft-07/schema#';

export function clustersFileSchema(): object {
  return {
    $schema: DRAFT,
    title: 'DREAMS cluster profiles',
    description:
      'Clusters DREAMS runs pw.x on (dreams run --clusters FILE, $DREAMS_CLUSTERS, ~/.config/dreams/clusters.json). The dreams.clusters setting takes the same objects.',
    definitions: { profile: CLUSTER_PROFILE_SCHEMA },
    anyOf: [
      {
        type: 'object',
        required: ['clusters'],
        additionalProperties: false,
        properties: { clusters: { type: 'array', items: { $ref: '#/definitions/profile' } } },
      },
      { type: 'array', items: { $ref: '#/definitions/profile' } },
    ],
  };
}

export function objectiveFileSchema(): object {
  const templates = builtInWorkflowTemplates();
  const base = OBJECTIVE_FILE_SCHEMA as { properties: Record<string, object> };
  return {
    $schema: DRAFT,
    title: 'DREAMS objective',
    description: 'A study for dreams run (or an objective cell): a built-in workflow, its inputs, and run preferences.',
    ...OBJECTIVE_FILE_SCHEMA,
    properties: {
      ...base.properties,
      workflow: { type: 'string', enum: templates.map((t) => t.id), description: 'the built-in workflow to run' },
    },
    // each workflow's own inputs, as the core checks them
    allOf: templates.map((t) => ({
      if: { required: ['workflow'], properties: { workflow: { const: t.id } } },
      then: { properties: { inputs: t.inputSchema } },
    })),
  };
}

export function schemaFiles(): Record<string, string> {
  const text = (o: object) => `${JSON.stringify(o, null, 2)}\n`;
  return { 'clusters.schema.json': text(clustersFileSchema()), 'objective.schema.json': text(objectiveFileSchema()) };
}

if (require.main === module) {
  fs.mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const [name, text] of Object.entries(schemaFiles())) {
    fs.writeFileSync(path.join(SCHEMA_DIR, name), text);
    console.log(`written: ${path.relative(process.cwd(), path.join(SCHEMA_DIR, name))}`);
  }
}
