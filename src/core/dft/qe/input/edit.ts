/**
 * Writing a pw.x input back and changing it by text edits: only the bytes of the
 * changed item move, so comments, spacing, order and the way every other value was
 * written stay as they were.
 */
import names from '../defs/names.json';
import { formatFortranValue } from './fortran';
import type { Card, PwInput, Position, Range } from './model';
import { parsePwInput } from './parse';
import { assignedOf, cardOf, namelistOf } from './query';

export interface TextEdit {
  range: Range;
  newText: string;
}

/** The input as text: the tokens joined, so a parsed input gives back its exact bytes. */
export function serializePwInput(input: PwInput): string {
  let s = '';
  for (const t of input.tokens) s += t.text;
  return s;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  }
  return starts;
}

export function offsetAt(text: string, p: Position, starts = lineStarts(text)): number {
  const line = Math.min(Math.max(p.line, 0), starts.length - 1);
  return Math.min(starts[line]! + p.character, text.length);
}

/** Applies non-overlapping edits (positions refer to the original text). */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((e) => ({ from: offsetAt(text, e.range.start, starts), to: offsetAt(text, e.range.end, starts), text: e.newText }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  for (let k = 1; k < spans.length; k++) {
    if (spans[k]!.from < spans[k - 1]!.to) {
      throw new Error(`text edits overlap at offset ${spans[k]!.from}; combine them into one edit.`);
    }
  }
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.from) + s.text;
    at = s.to;
  }
  return out + text.slice(at);
}

export function withEdits(input: PwInput, edits: TextEdit[]): PwInput {
  return parsePwInput(applyTextEdits(serializePwInput(input), edits));
}

/** A value to write: a JavaScript value (formatted as a Fortran literal) or literal text kept as given. */
export type NewValue = string | number | boolean | { raw: string };
const literal = (v: NewValue) => (typeof v === 'object' ? v.raw : formatFortranValue(v));

const point = (p: Position): Range => ({ start: p, end: p });
const NAMELIST_ORDER = names.namelists;

function lineText(input: PwInput, line: number): string {
  const text = serializePwInput(input);
  return text.split(/\r\n|\n|\r/)[line] ?? '';
}

/**
 * The edit that sets `key` (e.g. "ecutwfc", "celldm(1)") in a namelist: the value is
 * replaced where it is assigned; otherwise a line is added before the namelist's "/"
 * (or a namelist is added in pw.x's order).
 */
export function setVariableEdit(input: PwInput, namelist: string, key: string, value: NewValue): TextEdit {
  const text = literal(value);
  const assigned = assignedOf(input, namelist, key);
  if (assigned) return { range: assigned.item.range, newText: assigned.item.repeat ? `1*${text}` : text };
  const nl = namelistOf(input, namelist);
  const eol = input.eol;
  if (nl) {
    const last = nl.assignments[nl.assignments.length - 1];
    const indent = last ? ' '.repeat(last.nameRange.start.character) : '  ';
    if (nl.endRange) {
      const before = lineText(input, nl.endRange.start.line).slice(0, nl.endRange.start.character);
      if (before.trim() === '')
        return { range: point({ line: nl.endRange.start.line, character: 0 }), newText: `${indent}${key} = ${text}${eol}` };
      return { range: point(nl.endRange.start), newText: `${key} = ${text} ` };
    }
    const at = nl.range.end;
    return { range: point(at), newText: `${eol}${indent}${key} = ${text}` };
  }
  const block = `&${namelist.toUpperCase()}${eol}  ${key} = ${text}${eol}/${eol}`;
  const order = NAMELIST_ORDER.indexOf(namelist.toUpperCase());
  const next = input.namelists.find((n) => NAMELIST_ORDER.indexOf(n.name) > order);
  const anchor = next?.headerRange.start ?? input.cards[0]?.nameRange.start;
  if (anchor) return { range: point({ line: anchor.line, character: 0 }), newText: block };
  const end = { line: input.lineCount, character: 0 };
  const trailing = serializePwInput(input);
  return { range: point(end), newText: trailing === '' || /[\r\n]$/.test(trailing) ? block : `${eol}${block}` };
}

export function withVariable(input: PwInput, namelist: string, key: string, value: NewValue): PwInput {
  return withEdits(input, [setVariableEdit(input, namelist, key, value)]);
}

/** The edits that remove an assignment; its whole line goes when nothing else is on it. */
export function removeVariableEdits(input: PwInput, namelist: string, key: string): TextEdit[] {
  const nl = namelistOf(input, namelist);
  if (!nl) return [];
  const k = key.toLowerCase().replace(/\s+/g, '');
  const edits: TextEdit[] = [];
  for (const a of nl.assignments.filter((x) => x.key === k)) {
    const line = lineText(input, a.range.start.line);
    const others = nl.assignments.filter(
      (x) => x !== a && (x.range.start.line === a.range.start.line || x.range.end.line === a.range.start.line),
    );
    const endsHere = nl.endRange && nl.endRange.start.line === a.range.start.line;
    const headerHere = nl.headerRange.start.line === a.range.start.line;
    if (!others.length && !endsHere && !headerHere && a.range.start.line === a.range.end.line) {
      edits.push({
        range: { start: { line: a.range.start.line, character: 0 }, end: { line: a.range.start.line + 1, character: 0 } },
        newText: '',
      });
    } else {
      const after = line.slice(a.range.end.character);
      const comma = /^\s*,?\s*/.exec(after)![0];
      edits.push({
        range: { start: a.range.start, end: { line: a.range.end.line, character: a.range.end.character + comma.length } },
        newText: '',
      });
    }
  }
  return edits;
}

export function withoutVariable(input: PwInput, namelist: string, key: string): PwInput {
  return withEdits(input, removeVariableEdits(input, namelist, key));
}

/** The edit that replaces a card's data lines (and, when given, its option), keeping the header as written otherwise. */
export function replaceCardEdit(input: PwInput, card: Card | string, body: { option?: string; lines: string[] }): TextEdit {
  const c = typeof card === 'string' ? cardOf(input, card) : card;
  if (!c) throw new Error(`the input has no ${String(card)} card to replace; add it with addCardEdit.`);
  const eol = input.eol;
  const header =
    body.option !== undefined && body.option !== c.option
      ? `${lineText(input, c.nameRange.start.line).slice(0, c.nameRange.end.character)} ${body.option ? `{${body.option}}` : ''}`.trimEnd()
      : lineText(input, c.headerRange.start.line).replace(/\s+$/, '');
  const lastLine = c.lines.length ? c.lines[c.lines.length - 1]!.range.end.line : c.headerRange.end.line;
  const end = { line: lastLine, character: lineText(input, lastLine).length };
  return { range: { start: { line: c.headerRange.start.line, character: 0 }, end }, newText: [header, ...body.lines].join(eol) };
}
