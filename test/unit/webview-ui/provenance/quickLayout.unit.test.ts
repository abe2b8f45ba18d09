// The provisional layout the graph is first drawn with: layered like ELK's (every edge points
// right), no two nodes on top of each other, a call's outputs next to it, and a damaged log
// with a cycle still laid out.
import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { ProvenanceFold } from '../../../../src/extension/provenance/graphModel';
import { NODE_HEIGHT, NODE_WIDTH, quickLayout } from '../../../../webview-ui/provenance/quickLayout';
import { transitiveReductionIndexed } from '../../../../webview-ui/provenance/transitiveReduction';
import { syntheticRunEvents } from '../../../harness/syntheticRun';

function layOut(nodes: number) {
  const events = syntheticRunEvents({ nodes }).map((e, i) => ({ ...e, v: 1, seq: i + 1, ts: '', crc: '' }) as CanvasEvent);
  const g = new ProvenanceFold().applyAll(events).graph();
  const index = new Map(g.nodes.map((n, i) => [n.id, i]));
  const from = Int32Array.from(g.edges, (e) => index.get(e.from)!);
  const to = Int32Array.from(g.edges, (e) => index.get(e.to)!);
  const { kept } = transitiveReductionIndexed(g.nodes.length, from, to);
  return { g, from, to, kept, l: quickLayout(g.nodes.length, from, to, kept) };
}

describe('provisional provenance layout', () => {
  it('puts every edge of the graph left to right, laid-out and implied edges alike', () => {
    const { g, from, to, l } = layOut(2000);
    for (let k = 0; k < g.edges.length; k++)
      assert.ok(l.x[to[k]!]! > l.x[from[k]!]!, `${g.edges[k]!.from} → ${g.edges[k]!.to} points left`);
  });

  it('never puts two nodes on top of each other, and its size holds every node', () => {
    const { g, l } = layOut(2000);
    const byColumn = new Map<number, number[]>();
    for (let i = 0; i < g.nodes.length; i++) byColumn.set(l.x[i]!, [...(byColumn.get(l.x[i]!) ?? []), l.y[i]!]);
    for (const ys of byColumn.values()) {
      ys.sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++) assert.ok(ys[i]! - ys[i - 1]! >= NODE_HEIGHT, `overlap at ${ys[i - 1]} and ${ys[i]}`);
    }
    for (let i = 0; i < g.nodes.length; i++) {
      assert.ok(l.x[i]! >= 0 && l.x[i]! + NODE_WIDTH <= l.width + 1e-9 && l.y[i]! >= 0 && l.y[i]! + NODE_HEIGHT <= l.height + 1e-9);
    }
  });

  it('draws each laid-out edge from the right side of its source to the left side of its target', () => {
    const { kept, from, to, l } = layOut(300);
    assert.equal(l.edge.length, kept.length);
    for (let r = 0; r < l.edge.length; r++) {
      const k = l.edge[r]!;
      const pts = l.points.subarray(l.offsets[r]!, l.offsets[r + 1]!);
      assert.deepEqual(
        [...pts],
        [l.x[from[k]!]! + NODE_WIDTH, l.y[from[k]!]! + NODE_HEIGHT / 2, l.x[to[k]!]!, l.y[to[k]!]! + NODE_HEIGHT / 2],
      );
    }
  });

  it("keeps a call's outputs together, next to it", () => {
    const { g, l } = layOut(300);
    const creator = new Map<number, number>();
    g.edges.forEach((e) => {
      if (e.kind === 'create')
        creator.set(
          g.nodes.findIndex((n) => n.id === e.to),
          g.nodes.findIndex((n) => n.id === e.from),
        );
    });
    const far = [...creator].filter(([a, c]) => Math.abs(l.y[a]! - l.y[c]!) > 4 * (NODE_HEIGHT + 14));
    assert.ok(far.length <= creator.size * 0.05, `${far.length} of ${creator.size} artifacts are far from the call that made them`);
  });

  it('lays out a graph with a cycle (a damaged log) without looping', () => {
    const from = Int32Array.from([0, 1, 2, 3]);
    const to = Int32Array.from([1, 2, 1, 0]);
    const l = quickLayout(4, from, to, [0, 1, 2, 3]);
    for (let i = 0; i < 4; i++) assert.ok(Number.isFinite(l.x[i]!) && Number.isFinite(l.y[i]!));
  });
});
