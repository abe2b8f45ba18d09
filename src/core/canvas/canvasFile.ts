/**
 * The `.dreams` file: a projection of a run's event log, plus the cells the user
 * wrote that are not yet in the log.
 *
 * The event log (JSON Lines, next to the file) is the source of truth. The
 * `.dreams` file is what VS Code opens and saves; rewriting it never touches the
 * log, so a save from the editor cannot lose anything an agent or tool wrote.
 */

import { DreamsError } from '../errors';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

export const CANVAS_FILE_FORMAT = 1;

export type CanvasCellKind =
  | 'objective' // user text the controller executes
  | 'markdown' // user commentary
  | 'summary' // the run at a glance, rewritten in place
  | 'step' // one plan step with what its calls made
  | 'plan'
  | 'note'
  | 'artifact'
  | 'approval'
  | 'verdict'
  | 'report'
  | 'job'
  | 'event'; // anything else from the log, shown read-only

/** One output item of a projected cell: a MIME type and its JSON or text payload. */
export interface CanvasOutputItem {
  mime: string;
  data: unknown;
}

export interface CanvasCell {
  kind: CanvasCellKind;
  /** Stable id: the canvas key for projected cells, a generated id for user cells. */
  id: string;
  /** The cell's source text (Markdown for everything but objectives). */
  text: string;
  /** Rendered outputs for projected cells. */
  outputs?: CanvasOutputItem[];
  /** Sequence number of the last event this cell reflects. */
  seq?: number;
}

export interface CanvasFile {
  dreams: number;
  /** Run this canvas shows; `log` is relative to the `.dreams` file. */
  run?: { id: string; log: string };
  /** Sequence number of the last event projected into `cells`. */
  lastSeq?: number;
  cells: CanvasCell[];
}

export class CanvasFileError extends DreamsError<'bad-input'> {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super('bad-input', message);
    this.name = 'CanvasFileError';
  }
}

const CELL_KINDS: ReadonlySet<string> = new Set<CanvasCellKind>([
  'objective',
  'markdown',
  'summary',
  'step',
  'plan',
  'note',
  'artifact',
  'approval',
  'verdict',
  'report',
  'job',
  'event',
]);

/** A fresh canvas: one empty objective cell for the user to fill in. */
export function emptyCanvasFile(): CanvasFile {
  return { dreams: CANVAS_FILE_FORMAT, cells: [{ kind: 'objective', id: 'objective-1', text: '' }] };
}

/**
 * Parse the text of a `.dreams` file. An empty file is a new canvas. Anything
 * else that is not a canvas throws a CanvasFileError saying what is wrong and
 * where, so the caller can refuse to open it rather than overwrite it.
 */
export function parseCanvasFile(text: string): CanvasFile {
  if (text.trim() === '') return emptyCanvasFile();
  const errors: ParseError[] = [];
  let raw: unknown;
  try {
    // JSON.parse first: on a 700 KB canvas it takes milliseconds where the JSONC parser takes
    // hundreds (and every open of a canvas waits for this); that parser only finds the line of an error.
    raw = JSON.parse(text);
  } catch {
    raw = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
  }
  if (errors.length) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new CanvasFileError(
      `not valid JSON (line ${line}: ${printParseErrorCode(first.error)}). Open the file as text to repair it, or rebuild it from the run's event log with \`dreams report <run>\`.`,
      line,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CanvasFileError('a .dreams file holds a JSON object with "dreams" and "cells" fields.');
  }
  const obj = raw as Record<string, unknown>;
  if (typeof obj.dreams !== 'number') {
    throw new CanvasFileError('missing the "dreams" format version: this does not look like a DREAMS canvas.');
  }
  if (obj.dreams > CANVAS_FILE_FORMAT) {
    throw new CanvasFileError(
      `this canvas uses file format ${obj.dreams}, newer than the ${CANVAS_FILE_FORMAT} this version of DREAMS reads. Update the extension to open it.`,
    );
  }
  if (!Array.isArray(obj.cells)) throw new CanvasFileError('"cells" must be an array.');
  const cells: CanvasCell[] = obj.cells.map((c, i) => {
    if (typeof c !== 'object' || c === null) throw new CanvasFileError(`cell ${i + 1} is not an object.`);
    const cell = c as Record<string, unknown>;
    if (typeof cell.kind !== 'string' || !CELL_KINDS.has(cell.kind)) {
      throw new CanvasFileError(`cell ${i + 1} has kind ${JSON.stringify(cell.kind)}; expected one of ${[...CELL_KINDS].join(', ')}.`);
    }
    if (typeof cell.id !== 'string' || cell.id === '') throw new CanvasFileError(`cell ${i + 1} has no "id".`);
    if (typeof cell.text !== 'string') throw new CanvasFileError(`cell ${i + 1} ("${cell.id}") has no "text".`);
    const out: CanvasCell = { kind: cell.kind as CanvasCellKind, id: cell.id, text: cell.text };
    if (Array.isArray(cell.outputs)) out.outputs = cell.outputs as CanvasOutputItem[];
    if (typeof cell.seq === 'number') out.seq = cell.seq;
    return out;
  });
  const file: CanvasFile = { dreams: obj.dreams, cells };
  const run = obj.run as Record<string, unknown> | undefined;
  if (run !== undefined) {
    if (typeof run !== 'object' || typeof run.id !== 'string' || typeof run.log !== 'string') {
      throw new CanvasFileError('"run" must be an object with string fields "id" and "log".');
    }
    file.run = { id: run.id, log: run.log };
  }
  if (typeof obj.lastSeq === 'number') file.lastSeq = obj.lastSeq;
  return file;
}

/** Stable, diff-friendly text of a canvas file. */
export function serializeCanvasFile(file: CanvasFile): string {
  return JSON.stringify(file, null, 1) + '\n';
}
