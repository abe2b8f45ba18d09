// The layer rule of docs/ARCHITECTURE.md, enforced: core never imports the VS Code API;
// browser code never imports Node; imports point downward only.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

/** Every module specifier a file imports, requires or dynamically imports. */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+['"]([^'"]+)['"]/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!);
  return specs;
}

const nodeModules = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const isNodeBuiltin = (spec: string) => nodeModules.has(spec) || nodeModules.has(spec.split('/')[0]!);

function resolvesInto(file: string, spec: string, dir: string): boolean {
  if (!spec.startsWith('.')) return false;
  const target = path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec));
  return target === dir || target.startsWith(dir + path.sep);
}

describe('layer rule', () => {
  it('finds the files it checks (guards against checking nothing)', () => {
    assert.ok(sourceFiles('src/core').length > 0, 'no files found under src/core');
    assert.ok(sourceFiles('webview-ui').length > 0, 'no files found under webview-ui');
  });

  it('the import scanner sees every form of import', () => {
    const text = `import * as vscode from 'vscode';\nimport type { X } from "a";\nconst f = require('fs');\nawait import('node:path');\nexport { y } from './y';\nimport './side-effect';`;
    assert.deepEqual(importsOf(text).sort(), ['./side-effect', './y', 'a', 'fs', 'node:path', 'vscode'].sort());
  });

  it('src/core never imports vscode, the extension, the CLI or browser code', () => {
    const offences: string[] = [];
    for (const f of sourceFiles('src/core')) {
      for (const spec of importsOf(fs.readFileSync(path.join(root, f), 'utf8'))) {
        if (spec === 'vscode' || ['src/extension', 'src/cli', 'webview-ui'].some((d) => resolvesInto(f, spec, d))) {
          offences.push(`${f} imports '${spec}'`);
        }
      }
    }
    assert.deepEqual(offences, []);
  });

  it('webview-ui and src/shared never import Node modules, vscode or core code', () => {
    const offences: string[] = [];
    for (const f of [...sourceFiles('webview-ui'), ...sourceFiles('src/shared')]) {
      for (const spec of importsOf(fs.readFileSync(path.join(root, f), 'utf8'))) {
        if (isNodeBuiltin(spec) || spec === 'vscode' || resolvesInto(f, spec, 'src/core') || resolvesInto(f, spec, 'src/extension')) {
          offences.push(`${f} imports '${spec}'`);
        }
      }
    }
    assert.deepEqual(offences, []);
  });

  it('the CLI never imports the extension', () => {
    const offences = sourceFiles('src/cli').flatMap((f) =>
      importsOf(fs.readFileSync(path.join(root, f), 'utf8'))
        .filter((s) => s === 'vscode' || resolvesInto(f, s, 'src/extension'))
        .map((s) => `${f} imports '${s}'`));
    assert.deepEqual(offences, []);
  });
});
