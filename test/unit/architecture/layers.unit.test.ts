// The layer rule of docs/ARCHITECTURE.md, enforced: core never imports the VS Code API;
// browser code never imports Node; inside core, a room imports only the rooms written above
// it in "The order inside core" (type imports included); no two files of src/ import each
// other, directly or round a longer loop.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(d.name) && !d.name.endsWith('.d.ts'))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
}

/**
 * Every module specifier a file imports, exports from, requires or dynamically imports,
 * `import type` and `typeof import()` included; specifiers in comments and strings are not imports.
 */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const nodeModules = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const isNodeBuiltin = (spec: string) => nodeModules.has(spec) || nodeModules.has(spec.split('/')[0]!);

function resolvesInto(file: string, spec: string, dir: string): boolean {
  if (!spec.startsWith('.')) return false;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  return target === dir || target.startsWith(dir + '/');
}

/** The file a relative specifier names, among `files` (root-relative, '/'-separated). */
function resolveIn(files: ReadonlySet<string>, from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(c)) return c;
  return undefined;
}

/** file → the files of the set it imports. */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const files = new Set(sources.keys());
  const graph = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const to = new Set<string>();
    for (const spec of importsOf(text)) {
      const target = resolveIn(files, file, spec);
      if (target && target !== file) to.add(target);
    }
    graph.set(file, to);
  }
  return graph;
}

/** Groups of files that import each other round a loop (strongly connected components of more than one file). */
export function importCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * The order written in docs/ARCHITECTURE.md ("The order inside core"): one line per level,
 * lowest first; several rooms on a line are peers. A room is a directory of src/core ("dft/")
 * or a base file at its top ("units.ts").
 */
export function writtenOrder(markdown: string): string[][] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('The order inside core'));
  if (!section) throw new Error('docs/ARCHITECTURE.md has no section "## The order inside core"');
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('"The order inside core" in docs/ARCHITECTURE.md has no ``` block with the rooms');
  return block[1]!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.split(/\s+/));
}

/** The room of a file of src/core: its top directory ("guard/") or, for a file at the top, itself ("units.ts"). */
export function roomOf(file: string): string | undefined {
  const rest = file.startsWith('src/core/') ? file.slice('src/core/'.length) : undefined;
  if (rest === undefined) return undefined;
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/** Imports against the order: to a room on the same line (a peer) or below the importer's line. */
export function orderViolations(graph: ReadonlyMap<string, ReadonlySet<string>>, order: string[][]): string[] {
  const level = new Map<string, number>();
  order.forEach((line, i) => line.forEach((room) => level.set(room, i)));
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = roomOf(from);
    if (a === undefined) continue;
    if (!level.has(a)) {
      out.push(`${from}: its room ${a} is not in the written order; add it to "The order inside core" in docs/ARCHITECTURE.md`);
      continue;
    }
    for (const to of targets) {
      const b = roomOf(to);
      if (b === undefined || b === a || !level.has(b)) continue;
      if (level.get(b)! >= level.get(a)!) {
        out.push(`${from} imports ${to}: ${b} is ${level.get(b) === level.get(a) ? `a peer of ${a}` : `above ${a}`} in the written order`);
      }
    }
  }
  return out.sort();
}

const readAll = (files: string[]) => new Map(files.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));

describe('layer rule', () => {
  it('finds the files it checks (guards against checking nothing)', () => {
    assert.ok(sourceFiles('src/core').length > 0, 'no files found under src/core');
    assert.ok(sourceFiles('webview-ui').length > 0, 'no files found under webview-ui');
  });

  it('the import scanner sees every form of import and nothing in comments or strings', () => {
    const text = [
      `import * as vscode from 'vscode';`,
      `import type { X } from "a";`,
      `const f = require('fs');`,
      `await import('node:path');`,
      `export { y } from './y';`,
      `export type { Z } from './z';`,
      `import './side-effect';`,
      `type T = typeof import('./t');`,
      `// import x from './comment'`,
      `const s = "import q from './string'";`,
    ].join('\n');
    assert.deepEqual(importsOf(text).sort(), ['./side-effect', './t', './y', './z', 'a', 'fs', 'node:path', 'vscode'].sort());
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
        .map((s) => `${f} imports '${s}'`),
    );
    assert.deepEqual(offences, []);
  });
});

describe('the order inside core (docs/ARCHITECTURE.md)', () => {
  const order = writtenOrder(fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8'));
  const core = readAll(sourceFiles('src/core').filter((f) => /\.tsx?$/.test(f)));

  it('is written, and names every room of src/core once', () => {
    const rooms = order.flat();
    assert.ok(
      order.length >= 10 && rooms.includes('guard/') && rooms.includes('run/'),
      `read ${JSON.stringify(order)}: the block no longer lists the rooms`,
    );
    assert.equal(new Set(rooms).size, rooms.length, `a room is written twice: ${rooms.join(' ')}`);
    const present = new Set([...core.keys()].map((f) => roomOf(f)!));
    assert.deepEqual([...present].filter((r) => !rooms.includes(r)).sort(), [], 'rooms of src/core missing from the written order');
    assert.deepEqual(
      rooms.filter((r) => !present.has(r)),
      [],
      'rooms in the written order that src/core does not have',
    );
  });

  it('the check finds an import of a room above, of a peer, and a type-only one (on a made-up core)', () => {
    const made = new Map([
      ['src/core/units.ts', `export const x = 1;`],
      ['src/core/dft/a.ts', `import { x } from '../units';`],
      ['src/core/guard/g.ts', `import type { S } from '../run/s';\nimport { a } from '../dft/a';`],
      ['src/core/hpc/h.ts', `import { l } from '../llm/l';`],
      ['src/core/llm/l.ts', `export const l = 1;`],
      ['src/core/run/s.ts', `import { g } from '../guard/g';\nexport type S = number;`],
      ['src/core/newroom/n.ts', `export const n = 1;`],
    ]);
    const v = orderViolations(importGraph(made), [['units.ts'], ['dft/'], ['hpc/', 'llm/'], ['guard/'], ['run/']]);
    assert.equal(v.length, 3, v.join('\n'));
    assert.match(v.join('\n'), /guard\/g\.ts imports src\/core\/run\/s\.ts: run\/ is above guard\//);
    assert.match(v.join('\n'), /hpc\/h\.ts imports src\/core\/llm\/l\.ts: llm\/ is a peer of hpc\//);
    assert.match(v.join('\n'), /newroom\/ is not in the written order/);
  });

  it('no file of src/core imports against the written order (type imports included)', () => {
    assert.deepEqual(orderViolations(importGraph(core), order), []);
  });

  it('hpc/ reads pw.x files only through dft/qe/jobFacts.ts, and adsorption/ makes no model call', () => {
    const graph = importGraph(core);
    const offences: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets) {
        if (from.startsWith('src/core/hpc/') && /^src\/core\/dft\/qe\/(input|output)\//.test(to))
          offences.push(`${from} imports ${to} (use dft/qe/jobFacts.ts)`);
        if (from.startsWith('src/core/adsorption/') && to.startsWith('src/core/llm/'))
          offences.push(`${from} imports ${to} (a model planner belongs in agents/)`);
      }
    }
    assert.deepEqual(offences, []);
  });

  it('report/ writes nothing: it never imports the file system', () => {
    const offences = [...core]
      .filter(([f]) => f.startsWith('src/core/report/'))
      .filter(([, text]) => importsOf(text).some((s) => s === 'fs' || s === 'node:fs' || s === 'fs/promises' || s === 'node:fs/promises'))
      .map(([f]) => f);
    assert.deepEqual(offences, []);
  });
});

describe('import cycles', () => {
  it('the cycle finder finds a loop of two files and one of three, and nothing in a chain', () => {
    const made = new Map([
      ['src/a.ts', `import { b } from './b';`],
      ['src/b.ts', `import type { A } from './a';`],
      ['src/c.ts', `import { d } from './d';`],
      ['src/d.ts', `export * from './e';`],
      ['src/e.ts', `const c = await import('./c');`],
      ['src/f.ts', `import { g } from './g';`],
      ['src/g.ts', `export const g = 1;`],
    ]);
    assert.deepEqual(importCycles(importGraph(made)), [
      ['src/a.ts', 'src/b.ts'],
      ['src/c.ts', 'src/d.ts', 'src/e.ts'],
    ]);
  });

  it('no two files of src/ import each other, directly or round a loop (type imports included)', () => {
    const src = readAll(sourceFiles('src').filter((f) => /\.tsx?$/.test(f)));
    assert.ok(src.size > 300, `only ${src.size} files under src/`);
    assert.deepEqual(
      importCycles(importGraph(src)).map((c) => c.join(' <-> ')),
      [],
    );
  });
});
