/**
 * What a live update of a canvas notebook changes, decided without the VS Code API (so it is
 * tested in Node): for each projected cell the run changed, nothing (it already shows that),
 * its text and record number only (its outputs are the same: they stay drawn), the whole cell
 * (its outputs changed: VS Code draws that cell's outputs again, no other cell's), or a new
 * cell inserted where the projection orders it. A step that gains a call line, or the summary
 * rewritten after each event, therefore never redraws an output.
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

export type CellUpdate = { kind: 'text'; index: number; cell: CanvasCell } | { kind: 'replace'; index: number; cell: CanvasCell };

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
 * cells in the notebook (user cells included).
 */
export function planCellUpdates(
  changed: readonly CanvasCell[],
  shown: ReadonlyMap<string, ShownCell>,
  order: readonly string[],
  cellCount: number,
): CellUpdatePlan {
  const updates: CellUpdate[] = [];
  const added: CanvasCell[] = [];
  for (const cell of changed) {
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
  const rank = new Map(order.map((id, i) => [id, i]));
  const inserts = new Map<number, CanvasCell[]>();
  for (const cell of added.sort((x, y) => (rank.get(x.id) ?? 0) - (rank.get(y.id) ?? 0))) {
    const r = rank.get(cell.id) ?? order.length;
    let index = cellCount;
    for (let k = r + 1; k < order.length; k++) {
      const existing = shown.get(order[k]!);
      if (existing !== undefined) {
        index = existing.index;
        break;
      }
    }
    const list = inserts.get(index);
    if (list) list.push(cell);
    else inserts.set(index, [cell]);
  }
  return { updates, inserts: [...inserts].map(([index, cells]) => ({ index, cells })) };
}
