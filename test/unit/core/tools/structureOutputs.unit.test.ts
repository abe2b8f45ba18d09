import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { readStructureText } from '../../../../src/core/dft/io/structureFile';
import { bulk } from '../../../../src/core/dft/structure/bulk';
import { slab } from '../../../../src/core/dft/structure/surface';
import type { Structure } from '../../../../src/core/dft/types';
import type { ArtifactDraft } from '../../../../src/core/provenance/types';
import { magneticLabels } from '../../../../src/core/tools/structureOutputs';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const registry = new ToolRegistry();
const ctxFor = (p: MemoryProvenance): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (tool: string, args: Record<string, unknown>) => ({
  tool,
  args,
  refs: {},
  reasons: {},
  context: 't',
  agent: { role: 'dft' as const },
});

describe('magnetic_configuration', () => {
  it('labels atoms of one element by their starting moment, and keeps an element alike everywhere as it is', () => {
    assert.deepEqual(magneticLabels(['Fe', 'Fe', 'O', 'O'], [0.5, -0.5, 0, 0]), {
      labels: ['Fe1', 'Fe2', 'O', 'O'],
      startingMagnetization: { Fe1: 0.5, Fe2: -0.5, O: 0 },
    });
    assert.deepEqual(magneticLabels(['Ni', 'Ni'], [0.6, 0.6]).labels, ['Ni', 'Ni']);
  });

  it('makes the antiferromagnetic start of bcc Fe in its cubic cell, with the argument make_pw_input needs', async () => {
    const p = new MemoryProvenance();
    const [s] = await seedCall(p, 'build_bulk', {}, [
      { kind: 'structure', name: 'bulk_structure', value: bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'conventional' }) },
    ]);
    const out = await guardedCall(
      registry.get('magnetic_configuration')!,
      call('magnetic_configuration', { structure: s!.id, startingMagnetization: [0.5, -0.5] }),
      ctxFor(p),
    );
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const made = p.artifact((out as { outputs: string[] }).outputs[0]!)!;
    assert.deepEqual((made.value as Structure).labels, ['Fe1', 'Fe2']);
    assert.deepEqual(made.meta!.startingMagnetization, { Fe1: 0.5, Fe2: -0.5 });
    assert.match((out as { summary: string }).summary, /antiferromagnetic or ferrimagnetic start \(1 up, 1 down\)/);
    const wrong = await guardedCall(
      registry.get('magnetic_configuration')!,
      call('magnetic_configuration', { structure: s!.id, startingMagnetization: [0.5] }),
      ctxFor(p),
    );
    assert.match((wrong as { error: string }).error, /1 starting moments for 2 atoms/);
  });
});

describe('write_structure_files', () => {
  it('writes a crystal in every format, each read back to the same atoms, and says what CIF cannot hold', async () => {
    const p = new MemoryProvenance();
    const s: Structure = {
      ...bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.04, cell: 'conventional' }),
      fixed: [true, false, false, false],
    };
    const [made] = await seedCall(p, 'relaxed_structure', {}, [{ kind: 'structure', name: 'relaxed_structure', value: s }]);
    const drafts: ArtifactDraft[] = [];
    const spec = registry.get('write_structure_files')!;
    const out = await spec.run(
      { structure: made!.id },
      {
        callId: 'c-9',
        references: {},
        runId: 'r',
        runDir: '/nonexistent',
        signal: new AbortController().signal,
        progress: () => {},
        resolve: (r) => p.artifact(r)!.value,
        services: {},
      },
    );
    drafts.push(...out.artifacts);
    assert.deepEqual(
      drafts.map((d) => d.file!.name),
      ['Al4.cif', 'Al4.vasp', 'Al4.extxyz', 'Al4.xsf', 'Al4.pwi'],
    );
    const formats = { 'Al4.cif': 'cif', 'Al4.vasp': 'poscar', 'Al4.extxyz': 'extxyz', 'Al4.xsf': 'xsf', 'Al4.pwi': 'pwx-in' } as const;
    for (const d of drafts) {
      const back = readStructureText(String(d.file!.bytes), formats[d.file!.name as keyof typeof formats]);
      assert.deepEqual(back.symbols, s.symbols, d.file!.name);
    }
    assert.match(JSON.stringify(drafts[0]!.meta!.notWritten), /no fixed atoms/);
  });

  it('leaves out the formats a slab cannot be written in when all were asked for, and refuses one asked for by name', async () => {
    const p = new MemoryProvenance();
    const s = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 4.04, size: [1, 1], layers: 3, vacuumAngstrom: 6 });
    const [made] = await seedCall(p, 'relaxed_structure', {}, [{ kind: 'structure', name: 'relaxed_structure', value: s }]);
    const all = await guardedCall(
      registry.get('write_structure_files')!,
      call('write_structure_files', { structure: made!.id }),
      ctxFor(p),
    );
    assert.equal(all.status, 'ok', JSON.stringify(all));
    assert.match((all as { summary: string }).summary, /not written: cif \(the structure is not periodic/);
    const cif = await guardedCall(
      registry.get('write_structure_files')!,
      call('write_structure_files', { structure: made!.id, formats: ['cif'] }),
      ctxFor(p),
    );
    assert.equal(cif.status, 'failed');
  });
});
