// build_bulk from the user's structure file, on a real run directory (event log, registry, file store).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry, type RegistryContext } from '../../../../src/core/agents/toolRegistry';
import type { Structure } from '../../../../src/core/dft/types';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import type { ToolUseBlock } from '../../../../src/core/llm/types';
import { createRun, type Run } from '../../../../src/core/run/directory';

const ROOT = path.resolve(__dirname, '../../../..');
const registry = new ToolRegistry();
const use = (args: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: 'tu_build_bulk',
  name: 'build_bulk',
  input: { arguments: args, references: {}, reasons: { from: "the user's file" }, context: 'structure from a file' },
});
const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');

describe('build_bulk from a structure file', () => {
  let root: string;
  let run: Run | undefined;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-build-bulk-'));
  });
  afterEach(async () => {
    await run?.close();
    run = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });
  const ctxOf = (r: Run): RegistryContext => ({
    provenance: r.registry,
    approvals: new ApprovalBook(r.log),
    policy: 'auto-approve',
    events: r.log,
    run: { runId: r.runId, runDir: r.dir, signal: new AbortController().signal, progress: () => {}, services: {} },
  });

  it('records the crystal as read, with its file and sha256, and keeps a copy of the file in the run', async () => {
    run = await createRun(root, { objective: 't', slug: 't' });
    const cif = path.join(ROOT, 'examples/NaCl.cif');
    const r = await registry.call(use({ from: cif, sha256: sha(cif) }), 'dft', ctxOf(run));
    assert.equal(r.outcome.status, 'ok', r.toolResult.content);
    const a = run.registry.artifact((r.outcome as { outputs: string[] }).outputs[0]!)!;
    const s = a.value as Structure;
    assert.equal(s.symbols.length, 8);
    assert.deepEqual(s.source, { file: cif, sha256: sha(cif), format: 'cif' });
    assert.equal(a.contentHash, sha(cif), "the artifact is the user's file, by its hash");
    assert.equal(a.meta?.spaceGroup, 'Fm-3m (225)');
    assert.ok(a.location, 'the file is stored in the run');
    assert.equal(fs.readFileSync(path.join(run.dir, a.location!), 'utf8'), fs.readFileSync(cif, 'utf8'));
  });

  it('computes the standardised primitive cell of the crystal when asked, still recording the file', async () => {
    run = await createRun(root, { objective: 't', slug: 't' });
    const cif = path.join(ROOT, 'examples/NaCl.cif');
    const r = await registry.call(use({ from: cif, cell: 'primitive' }), 'dft', ctxOf(run));
    assert.equal(r.outcome.status, 'ok', r.toolResult.content);
    const a = run.registry.artifact((r.outcome as { outputs: string[] }).outputs[0]!)!;
    const s = a.value as Structure;
    assert.deepEqual([...s.symbols].sort(), ['Cl', 'Na']);
    assert.equal(s.source?.sha256, sha(cif));
    assert.equal(a.meta?.cell, 'primitive');
    assert.match(r.toolResult.content, /2 atom\(s\) in the standardised primitive cell \(8 in the file\)/);
  });

  it('refuses a file changed since the objective recorded it, a slab, and a file it cannot read, saying what to do', async () => {
    run = await createRun(root, { objective: 't', slug: 't' });
    const copy = path.join(root, 'NaCl.cif');
    fs.copyFileSync(path.join(ROOT, 'examples/NaCl.cif'), copy);
    const before = sha(copy);
    fs.appendFileSync(copy, '# edited\n');
    const changed = await registry.call(use({ from: copy, sha256: before }), 'dft', ctxOf(run));
    assert.equal(changed.outcome.status, 'failed');
    assert.match(changed.toolResult.content, /changed since the objective was read .*Start a new run/);
    const slab = await registry.call(use({ from: path.join(ROOT, 'test/fixtures/structures/POSCAR-slab-selective') }), 'dft', ctxOf(run));
    assert.equal(slab.outcome.status, 'ok', 'a slab periodic in three directions with vacuum is still a cell pw.x can compute');
    const bad = await registry.call(use({ from: path.join(ROOT, 'test/fixtures/structures/partial-occupancy.cif') }), 'dft', ctxOf(run));
    assert.equal(bad.outcome.status, 'failed');
    assert.match(bad.toolResult.content, /partial-occupancy\.cif:\d+: CIF: /);
  });

  it('still builds a crystal by name, and refuses a call with neither', async () => {
    run = await createRun(root, { objective: 't', slug: 't' });
    const named = await registry.call(use({ elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 }), 'dft', ctxOf(run));
    assert.equal(named.outcome.status, 'ok', named.toolResult.content);
    const neither = await registry.call(use({ bravais: 'fcc' }), 'dft', ctxOf(run));
    assert.notEqual(neither.outcome.status, 'ok');
  });
});
