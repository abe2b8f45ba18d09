// The map matches the territory: every file or folder docs/ARCHITECTURE.md and docs/DEVELOPING.md
// name in backticks exists. A name is read from the project root, from src/, from src/core/, or
// from the room whose bullet it sits in ("- **`guard/`**: ... `guardedCall.ts`"); a bare file name
// outside a room's bullet (an example: `guardedCall.realRun.unit.test.ts`) must be some file's name.
// Names with a placeholder (`tools/<tool>.ts`, `*.qe.test.ts`) and run-directory paths are skipped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** The paths a markdown text names in inline code, each with the room whose bullet it is in. */
function namedPaths(markdown: string): { name: string; room?: string; line: number }[] {
  const found: { name: string; room?: string; line: number }[] = [];
  let fenced = false;
  let room: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    if (text.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    if (/^\S/.test(text) || /^- /.test(text)) room = /^- \*\*`([\w-]+)\/`\*\*/.exec(text)?.[1];
    for (const m of text.matchAll(/`([^`\s]+)`/g)) {
      const name = m[1]!;
      if (!/[\w-]\.(ts|mjs|md|json|grit|yaml|sh)$|\/$/.test(name) || !/[/.]/.test(name)) continue;
      if (/[<>*$]|^\.\.?\/|^https?:|^runs\//.test(name)) continue;
      found.push({ name, room, line: i + 1 });
    }
  });
  return found;
}

/** Base names of the project's files, for a bare file name outside a room's bullet. */
function baseNames(): Set<string> {
  const names = new Set<string>();
  for (const dir of ['src', 'test', 'scripts', 'webview-ui'])
    for (const d of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) names.add(d.name);
  return names;
}

function missing(doc: string, names: Set<string>): string[] {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  return namedPaths(text)
    .filter(({ name, room }) => {
      const bases = ['', 'src', 'src/core', ...(room ? [`src/core/${room}`] : [])];
      if (bases.some((b) => fs.existsSync(path.join(root, b, name)))) return false;
      // "(`guardedCall.realRun.unit.test.ts` for one aspect)": a bare name outside a room's bullet is an example
      return room !== undefined || name.includes('/') || !names.has(name);
    })
    .map(({ name, line }) => `${doc}:${line}: ${name}`);
}

describe('the architecture documents', () => {
  it('reads the names a text gives, with their room, and leaves out placeholders and fenced blocks', () => {
    const text = [
      '- **`guard/`**: the guarded call (`guardedCall.ts`) and `tools/<tool>.ts`',
      '  continues the bullet: `rules/`',
      '- **A new tool**: `tools/defineTool.ts` and `*.qe.test.ts`',
      '```',
      'src/core/nothing.ts `fenced.ts`',
      '```',
      'Run `dreams run x.yaml` on `examples/al.yaml` in `./runs/`.',
    ].join('\n');
    assert.deepEqual(namedPaths(text), [
      { name: 'guard/', room: 'guard', line: 1 },
      { name: 'guardedCall.ts', room: 'guard', line: 1 },
      { name: 'rules/', room: 'guard', line: 2 },
      { name: 'tools/defineTool.ts', room: undefined, line: 3 },
      { name: 'examples/al.yaml', room: undefined, line: 7 },
    ]);
  });

  it('names only files and folders that exist, in ARCHITECTURE.md and DEVELOPING.md', () => {
    const named = namedPaths(fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8'));
    assert.ok(named.length > 50, `ARCHITECTURE.md names ${named.length} paths: the reader finds them`);
    const names = baseNames();
    assert.deepEqual([...missing('docs/ARCHITECTURE.md', names), ...missing('docs/DEVELOPING.md', names)], []);
  });
});
