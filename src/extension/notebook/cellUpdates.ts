/**
 * What a live update of a canvas notebook changes, decided without the VS Code API (so it is
 * tested in Node): for each projected cell the run changed, nothing (it already shows that),
 * its text and record number only (its outputs are the same: they stay drawn), the whole cell
 * (its outputs changed: VS Code draws that cell's outputs again, no other cell's), or a new
 * cell inserted where the projection orders it. A step that gains a call line, or the summary
 * rewritten after each event, therefore never redraws an output. When a plan version reorders
 * its steps, the step cells already shown move to the plan's order (each step slot the notebook
 * holds gets the step the plan now puts there), so an open canvas matches a reopened one.
 */
import type { CanvasCell, CanvasOutputItem } from '../../core/canvas/canvasFile';

/** A projected cell as the notebook shows it now. */
export interface ShownCell {
  index: number;
  text: string;
  seq?: number;
  /** Its outputs' fingerprint (`outputsKey`), read only when the text or record number differs. */
  outputs: () => string;
}

export type CellUpdate =
  | { kind: 'text'; index: number; cell: CanvasCell }
  | { kind: 'replace'; index: number; cell: CanvasCell }
  /** A step cell moved to this index (the slot of a step the plan now puts elsewhere): the whole cell is written there. */
  | { kind: 'move'; index: number; cell: CanvasCell };

export interface CellUpdatePlan {
  /** In-place updates of cells the notebook has: the text (and record number), or the whole cell. */
  updates: CellUpdate[];
  /** New cells: at each index (in the notebook as it is before this plan), in projection order. */
  inserts: { index: number; cells: CanvasCell[] }[];
}

/** Outputs compared by content: the same JSON for the same items in the same order. */
export function outputsKey(outputs: readonly CanvasOutputItem[] | undefined): string {
  return JSON.stringify((outputs ?? []).map((o) => [o.mime, o.data]));
}

/**
 * `changed`: the cells the projection changed, as it builds them now; `shown`: the projected
 * cells the notebook holds, by id; `order`: the projection's order of cell ids; `cellCount`:
 * cells in the notebook (user cells included); `cellOf`: any projected cell by id (a step cell that
 * must move without having changed); without it, cells shown are never moved.
 */
export function planCellUpdates(
  changed: readonly CanvasCell[],
  shown: ReadonlyMap<string, ShownCell>,
  order: readonly string[],
  cellCount: number,
  cellOf?: (id: string) => CanvasCell | undefined,
): CellUpdatePlan {
  const updates: CellUpdate[] = [];
  const added: CanvasCell[] = [];
  const rank = new Map(order.map((id, i) => [id, i]));
  // Where each cell shown will be after this plan's edits (a moved step cell takes another's slot).
  const at = new Map([...shown].map(([id, c]) => [id, c.index]));
  const moved = new Set<string>();
  if (cellOf) {
    const changedById = new Map(changed.map((c) => [c.id, c]));
    const slots = [...shown]
      .filter(([id]) => id.startsWith('steps/') && rank.has(id))
      .sort((x, y) => x[1].index - y[1].index)
      .map(([id, c]) => ({ id, index: c.index }));
    const wanted = slots.map((s) => s.id).sort((x, y) => rank.get(x)! - rank.get(y)!);
    const moves = slots.flatMap((s, k) => (s.id === wanted[k] ? [] : [{ index: s.index, id: wanted[k]! }]));
    const cells = moves.map((m) => changedById.get(m.id) ?? cellOf(m.id));
    if (cells.every((c) => c !== undefined))
      moves.forEach((m, k) => {
        updates.push({ kind: 'move', index: m.index, cell: cells[k]! });
        at.set(m.id, m.index);
        moved.add(m.id);
      });
  }
  for (const cell of changed) {
    if (moved.has(cell.id)) continue; // written whole at its new place above
    const now = shown.get(cell.id);
    if (!now) {
      added.push(cell);
      continue;
    }
    // the same record and text: nothing changed (without a record number, the outputs decide)
    if (now.seq !== undefined && now.seq === cell.seq && now.text === cell.text) continue;
    if (now.outputs() !== outputsKey(cell.outputs)) updates.push({ kind: 'replace', index: now.index, cell });
    else if (now.text !== cell.text || now.seq !== cell.seq) updates.push({ kind: 'text', index: now.index, cell });
  }
  // New cells go where the projection puts them (the summary first, the report last): before
  // the first later cell already in the notebook, else at the end.
  const inserts = new Map<number, CanvasCell[]>();
  for (const cell of added.sort((x, y) => (rank.get(x.id) ?? 0) - (rank.get(y.id) ?? 0))) {
    const r = rank.get(cell.id) ?? order.length;
    let index = cellCount;
    for (let k = r + 1; k < order.length; k++) {
      const existing = at.get(order[k]!);
      if (existing !== undefined) {
        index = existing;
        break;
      }
    }
    const list = inserts.get(index);
    if (list) list.push(cell);
    else inserts.set(index, [cell]);
  }
  return { updates, inserts: [...inserts].map(([index, cells]) => ({ index, cells })) };
}
