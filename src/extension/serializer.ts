import * as vscode from 'vscode';
import {
  type CanvasCell,
  type CanvasCellKind,
  type CanvasFile,
  type CanvasOutputItem,
  CANVAS_FILE_FORMAT,
  parseCanvasFile,
  serializeCanvasFile,
} from '../core/canvas/canvasFile';

export const NOTEBOOK_TYPE = 'dreams-canvas';
export const OBJECTIVE_LANGUAGE = 'dreams-objective';
export const RECORD_LANGUAGE = 'dreams-record';

/** Cell metadata that carries a cell's identity through VS Code and back. */
interface CellMeta {
  kind: CanvasCellKind;
  id: string;
  seq?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toOutputItem(item: CanvasOutputItem): vscode.NotebookCellOutputItem {
  if (item.mime.endsWith('json')) return vscode.NotebookCellOutputItem.json(item.data, item.mime);
  return vscode.NotebookCellOutputItem.text(String(item.data), item.mime);
}

export function fromOutputItem(item: vscode.NotebookCellOutputItem): CanvasOutputItem {
  const text = decoder.decode(item.data);
  if (item.mime.endsWith('json')) {
    try {
      return { mime: item.mime, data: JSON.parse(text) };
    } catch {
      return { mime: item.mime, data: text };
    }
  }
  return { mime: item.mime, data: text };
}

/** Cells shown as Markdown: the user's own commentary, the agents' notes and the run's summary. */
const MARKUP_KINDS: ReadonlySet<CanvasCellKind> = new Set(['markdown', 'note', 'summary']);

export function cellToNotebookCellData(c: CanvasCell): vscode.NotebookCellData {
  const data = MARKUP_KINDS.has(c.kind)
    ? new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, c.text, 'markdown')
    : new vscode.NotebookCellData(vscode.NotebookCellKind.Code, c.text, c.kind === 'objective' ? OBJECTIVE_LANGUAGE : RECORD_LANGUAGE);
  const meta: CellMeta = { kind: c.kind, id: c.id };
  if (c.seq !== undefined) meta.seq = c.seq;
  data.metadata = { dreams: meta };
  // One output per item: items of one output are alternative renderings, and VS Code shows only one of them.
  if (c.outputs?.length) data.outputs = c.outputs.map((o) => new vscode.NotebookCellOutput([toOutputItem(o)]));
  return data;
}

export function canvasToNotebookData(file: CanvasFile): vscode.NotebookData {
  const cells = file.cells.map(cellToNotebookCellData);
  const nb = new vscode.NotebookData(cells);
  nb.metadata = { dreams: file.dreams, run: file.run, lastSeq: file.lastSeq };
  return nb;
}

export function notebookDataToCanvas(data: vscode.NotebookData): CanvasFile {
  let userCells = 0;
  const cells: CanvasCell[] = data.cells.map((c) => {
    const meta = (c.metadata?.dreams ?? undefined) as CellMeta | undefined;
    const kind: CanvasCellKind = meta?.kind ?? (c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : 'objective');
    const id = meta?.id ?? `${kind}-${Date.now().toString(36)}-${++userCells}`;
    const cell: CanvasCell = { kind, id, text: c.value };
    if (meta?.seq !== undefined) cell.seq = meta.seq;
    const outputs = (c.outputs ?? []).flatMap((o) => o.items.map(fromOutputItem));
    if (outputs.length) cell.outputs = outputs;
    return cell;
  });
  const md = (data.metadata ?? {}) as Partial<CanvasFile>;
  const file: CanvasFile = { dreams: CANVAS_FILE_FORMAT, cells };
  if (md.run) file.run = md.run;
  if (typeof md.lastSeq === 'number') file.lastSeq = md.lastSeq;
  return file;
}

/** Maps the bytes of a `.dreams` file to notebook data and back; nothing else. */
export class CanvasSerializer implements vscode.NotebookSerializer {
  /** `onDeserialized`: called after each canvas's cells are made (activation loads the rest of DREAMS then). */
  constructor(private readonly onDeserialized?: () => void) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    try {
      // A CanvasFileError propagates: VS Code then refuses to open the file (and offers
      // the text editor) instead of showing a canvas whose save would overwrite it.
      return canvasToNotebookData(parseCanvasFile(decoder.decode(content)));
    } finally {
      this.onDeserialized?.();
    }
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return encoder.encode(serializeCanvasFile(notebookDataToCanvas(data)));
  }
}
