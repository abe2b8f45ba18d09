import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { ProvenanceFold, valueSummary } from '../../../../src/extension/provenance/graphModel';
import { transitiveReduction } from '../../../../webview-ui/provenance/transitiveReduction';
import { syntheticRunEvents } from '../../../harness/syntheticRun';

const asEvents = (inputs: ReturnType<typeof syntheticRunEvents>): CanvasEvent[] =>
  inputs.map((e, i) => ({ ...e, v: 1, seq: i + 1, ts: '', crc: '' }) as CanvasEvent);

describe('provenance graph model', () => {
  it('leaves out exactly the edges implied by a longer path, and keeps every reachability', () => {
    const nodes = ['s', 'c1', 'a1', 'c2', 'a2'];
    const edges = [
      { from: 's', to: 'c1' },
      { from: 'c1', to: 'a1' },
      { from: 'a1', to: 'c2' },
      { from: 's', to: 'c2' },
      { from: 'c2', to: 'a2' },
    ];
    const { kept, omitted } = transitiveReduction(nodes, edges);
    assert.deepEqual(omitted, [3], 's→c2 is implied by s→c1→a1→c2');
    assert.equal(kept.length, 4);
  });

  it('keeps edges on a cycle rather than looping (a damaged log must still draw)', () => {
    const { kept, omitted } = transitiveReduction(
      ['a', 'b'],
      [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    );
    assert.equal(kept.length, 2);
    assert.equal(omitted.length, 0);
  });

  it("says what an artifact's value is in a few words: a structure by its formula, a record by its first numbers", () => {
    const slab = {
      symbols: [...Array(12).fill('Pt'), 'C', 'O'],
      positions: Array(14).fill([0, 0, 0]),
      cell: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      pbc: [true, true, false],
    };
    assert.equal(valueSummary(slab), 'Pt12CO · 14 atoms');
    assert.equal(valueSummary({ symbols: ['Al'], positions: [[0, 0, 0]] }), 'Al · 1 atom');
    assert.equal(
      valueSummary({ model: 'birch-murnaghan', v0Angstrom3: 15.48941234, b0GPa: 83.1, e0Ev: -57.0093 }),
      'v0Angstrom3 15.4894, b0GPa 83.1, …',
    );
    assert.equal(valueSummary({ method: 'x' }), '{…}');
    assert.equal(valueSummary({ energyEv: -5, gapEv: 0.5 }), 'energyEv -5, gapEv 0.5');
    assert.equal(valueSummary({ energyEv: -5, unit: 'eV' }), 'energyEv -5, …');
    assert.equal(valueSummary(true), 'true');
    assert.equal(valueSummary(25, 'Ry'), '25 Ry');
    assert.equal(valueSummary(null), '');
  });

  it('folds calls, artifacts, verdicts, concerns and status into nodes with flags and reveal targets', () => {
    const g = new ProvenanceFold().applyAll(asEvents(syntheticRunEvents({ nodes: 1200 }))).graph();
    const calls = g.nodes.filter((n) => n.type === 'call');
    const arts = g.nodes.filter((n) => n.type === 'artifact');
    assert.ok(calls.length > 50 && arts.length > 150);
    assert.ok(
      g.nodes.some((n) => n.stale),
      'no stale node',
    );
    assert.ok(
      g.nodes.some((n) => n.warned && n.verdict === 'warn'),
      'no warned node',
    );
    assert.ok(
      calls.some((n) => n.failed),
      'no failed call',
    );
    // run_scf carries a tier-1 pass and an unjudged tier-2 verdict: "not judged" must win over "pass".
    assert.ok(calls.filter((n) => n.label === 'run_scf' && !n.failed && !n.warned).every((n) => n.verdict === 'not-judged'));
    assert.ok(calls.filter((n) => n.label === 'select_converged').every((n) => n.verdict === 'pass'));
    const input = arts.find((n) => n.kind === 'qe-input')!;
    assert.match(input.file!, /^files\/c-\d+\/pw\.in$/);
    // the canvas shows an artifact in the cell of the call that made it (shared with that call's batch)
    const creator = g.edges.find((e) => e.kind === 'create' && e.to === input.id)!.from;
    assert.match(input.cell!, /^calls\/c-\d+$/);
    assert.equal(calls.find((c) => c.id === creator)!.cell, input.cell);
    for (const e of g.edges) assert.ok(g.nodes.some((n) => n.id === e.from) && g.nodes.some((n) => n.id === e.to));
  });

  it('scopes to the upstream of an artifact: its creator and the inputs behind it, nothing downstream', () => {
    const fold = new ProvenanceFold().applyAll(asEvents(syntheticRunEvents({ nodes: 1200 })));
    const whole = fold.graph();
    const chosen = whole.nodes.find((n) => n.label === 'chosen_settings')!;
    const up = fold.graph({ kind: 'upstream', of: chosen.id });
    const ids = new Set(up.nodes.map((n) => n.id));
    assert.ok(ids.has(chosen.id) && ids.has('a-1'), 'the structure at the root is upstream');
    assert.ok(up.nodes.length < whole.nodes.length);
    assert.ok(!up.nodes.some((n) => n.label === 'pw_output'), 'a pw output is a sibling, not an input, of a selection');
  });

  it('reveals every artifact in the very cell the canvas shows it in', () => {
    const events = asEvents(syntheticRunEvents({ nodes: 600 }));
    const g = new ProvenanceFold().applyAll(events).graph();
    const p = new CanvasProjection();
    p.applyAll(events);
    const cells = new Set(p.cells().map((c) => c.id));
    for (const n of g.nodes.filter((x) => x.type === 'artifact')) {
      assert.equal(n.cell, p.cellIdOf(n.id), n.id);
      assert.ok(cells.has(n.cell!), `${n.id}: no cell ${n.cell}`);
    }
  });
});
