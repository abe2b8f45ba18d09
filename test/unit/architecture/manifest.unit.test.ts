// The settings VS Code offers must say what the core accepts: a cluster profile written in the
// settings editor is checked by the core's schema, model roles by the core's role list, and
// every setting the extension reads is declared (an undeclared one cannot be set from the UI).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CLUSTER_PROFILE_SCHEMA } from '../../../src/core/hpc/clusterProfile';
import { LLM_ROLES } from '../../../src/core/llm/models';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    configuration: {
      properties: Record<
        string,
        {
          properties?: Record<string, unknown>;
          items?: { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] };
        }
      >;
    };
  };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const settings = manifest.contributes.configuration.properties;

describe('extension manifest settings', () => {
  it('dreams.clusters items have the core cluster profile properties, required fields and limits', () => {
    const items = settings['dreams.clusters']!.items!;
    assert.deepEqual(Object.keys(items.properties).sort(), Object.keys(CLUSTER_PROFILE_SCHEMA.properties).sort());
    assert.deepEqual([...items.required].sort(), [...CLUSTER_PROFILE_SCHEMA.required].sort());
    assert.deepEqual(
      Object.keys(items.properties.limits!.properties!).sort(),
      Object.keys(CLUSTER_PROFILE_SCHEMA.properties.limits.properties).sort(),
    );
  });

  it('dreams.models offers every model role of the core', () => {
    assert.deepEqual(Object.keys(settings['dreams.models']!.properties!).sort(), [...LLM_ROLES].sort());
  });

  it('every dreams.* setting the extension reads is declared, and those that run things are restricted in untrusted workspaces', () => {
    const read = new Set<string>();
    const files = fs.readdirSync(path.join(root, 'src/extension'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, 'src/extension', f), 'utf8');
      if (!/getConfiguration\('dreams'\)/.test(text)) continue;
      for (const m of text.matchAll(/\bc\.get<[^>]+>\('([A-Za-z.]+)'/g)) read.add(`dreams.${m[1]}`);
    }
    assert.ok(read.size >= 5, `found only ${[...read].join(', ')}: the scan no longer matches the code`);
    for (const key of read) assert.ok(settings[key], `${key} is read by the extension but not declared in package.json`);
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of [
      'dreams.pwCommand',
      'dreams.pseudoDir',
      'dreams.clusters',
      'dreams.provider',
      'dreams.approvalPolicy',
      'dreams.backend',
    ]) {
      assert.ok(restricted.includes(key), `${key} is not restricted in untrusted workspaces`);
    }
  });
});
