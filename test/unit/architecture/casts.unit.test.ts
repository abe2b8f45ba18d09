// The seams stay typed: no `x as unknown as T`, no `payload as T` (an event's payload is typed
// by its kind, run/eventCatalogue.ts) and no `services as T` (a tool's services are typed by
// defineTool) in src/, except where listed below with their count. The list may only shrink:
// a new cast fails this test, and so does a file listed with more casts than it has (lower its
// count). Tool bodies (src/core/tools) have none; defineTool.ts holds the one boundary where a
// tool's checked arguments and configured services get their types. Workflow templates have none
// either: defineWorkflow types a template's inputs from its schema (workflows/defineWorkflow.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../..');

/** Files allowed casts of these forms, and how many; each still to be typed. */
const ALLOWED: Record<string, number> = {
  // the one boundary: checked arguments and configured services typed for a tool body
  'src/core/tools/defineTool.ts': 1,
  // third-party and wire seams
  'src/core/hpc/ssh/connection.ts': 1,
  'src/core/llm/wire.ts': 1,
  'src/core/agents/adsorptionPlanner.ts': 1,
  // run settings read back from a run's start event
  'src/core/run/session.ts': 1,
  'src/core/run/controller.ts': 1,
  // a tier-1 rule reading a call's recorded arguments
  'src/core/guard/rules/calculatorMatchesReferences.ts': 1,
  // the MCP server: a client's tool input, run settings read back from a start event
  'src/mcp/server.ts': 2,
  // the extension's run views over a read-only log
  'src/extension/runs.ts': 2,
  'src/extension/qe/templates.ts': 1,
};

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts'))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
}

/** The casts of the three forms in a file's text, each as its source text. */
function seamCasts(text: string, fileName = 'x.ts'): string[] {
  const sf = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const stripParens = (e: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(e) ? stripParens(e.expression) : e);
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node)) {
      const inner = stripParens(node.expression);
      const viaUnknown = ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword;
      const name = ts.isPropertyAccessExpression(inner) ? inner.name.text : ts.isIdentifier(inner) ? inner.text : undefined;
      if (viaUnknown || name === 'payload' || name === 'services') {
        found.push(node.getText(sf));
        if (viaUnknown) return; // `x as unknown as T` is one cast, not two
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('typed seams: casts in src/', () => {
  it('finds each form of cast, and not a cast of another kind', () => {
    assert.equal(seamCasts('const a = raw as unknown as Args;').length, 1);
    assert.equal(seamCasts('const a = (e.payload as { x: number }).x;').length, 1);
    assert.equal(seamCasts('const s = ctx.services as { jobs: J };').length, 1);
    assert.equal(seamCasts('const s = (ctx.services as unknown as S).jobs;').length, 1);
    assert.equal(seamCasts('const v = ctx.resolve(ref) as Structure; const k = ["a"] as const;').length, 0);
    assert.equal(seamCasts('// raw as unknown as Args\nconst t = "payload as X";').length, 0, 'comments and strings are not casts');
  });

  it('has no cast of these forms beyond the listed files and counts, and none in a tool body', () => {
    const counts: Record<string, number> = {};
    for (const f of sourceFiles('src')) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      // parse only files where such a cast could be
      const n = /\bas unknown\b|payload\)? as\b|services\)? as\b/.test(text) ? seamCasts(text, f).length : 0;
      if (n) counts[f] = n;
    }
    const over = Object.entries(counts)
      .filter(([f, n]) => n > (ALLOWED[f] ?? 0))
      .map(([f, n]) => `${f}: ${n} (allowed ${ALLOWED[f] ?? 0})`);
    assert.deepEqual(over, [], 'type the seam instead: defineTool for a tool, the event catalogue for a payload');
    const stale = Object.entries(ALLOWED)
      .filter(([f, n]) => (counts[f] ?? 0) < n)
      .map(([f, n]) => `${f}: ${counts[f] ?? 0} (listed ${n})`);
    assert.deepEqual(stale, [], 'fewer casts than listed: lower the count in ALLOWED so it stays so');
    const inTools = Object.keys(counts).filter((f) => f.startsWith('src/core/tools/') && f !== 'src/core/tools/defineTool.ts');
    assert.deepEqual(inTools, []);
  });
});
