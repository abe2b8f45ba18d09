/**
 * CIF 1.1 syntax: data blocks of tag-value items and loops. Values may be bare, 'quoted',
 * "quoted" (a quote closes only before whitespace) or ;semicolon text fields;. Tags are kept
 * lower-case with "." read as "_" (so _space_group_symop.operation_xyz of mmCIF-style files
 * matches _space_group_symop_operation_xyz). Every value keeps its 1-based line.
 */
import { StructureFileError } from './errors';

export interface CifValue {
  text: string;
  line: number;
  /** Quoted or a text field: "?" and "." are then text, not unknown/inapplicable. */
  quoted: boolean;
}

export interface CifLoop {
  tags: string[];
  rows: CifValue[][];
  line: number;
}

export interface CifBlock {
  name: string;
  line: number;
  items: Map<string, CifValue>;
  loops: CifLoop[];
}

interface Token extends CifValue {
  kind: 'tag' | 'value' | 'loop' | 'data' | 'save';
}

const fail = (line: number, message: string): never => {
  throw new StructureFileError('cif', line, message);
};

function tokenize(text: string): Token[] {
  const lines = text.split(/\r\n|\r|\n/);
  const out: Token[] = [];
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k]!;
    const lineNo = k + 1;
    if (raw.startsWith(';')) {
      const parts = [raw.slice(1)];
      let j = k + 1;
      while (j < lines.length && !lines[j]!.startsWith(';')) parts.push(lines[j++]!);
      if (j >= lines.length)
        fail(lineNo, 'a text field opened with ";" at the start of this line is never closed; end it with a line starting with ";".');
      out.push({ kind: 'value', text: parts.join('\n').trim(), line: lineNo, quoted: true });
      k = j;
      continue;
    }
    let i = 0;
    while (i < raw.length) {
      const c = raw[i]!;
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (c === '#') break;
      if (c === "'" || c === '"') {
        let j = i + 1;
        while (j < raw.length && !(raw[j] === c && (j + 1 === raw.length || /\s/.test(raw[j + 1]!)))) j++;
        if (j >= raw.length)
          fail(
            lineNo,
            `the quote ${c} at column ${i + 1} is never closed on this line; close it (a quote ends only before a space or the line's end).`,
          );
        out.push({ kind: 'value', text: raw.slice(i + 1, j), line: lineNo, quoted: true });
        i = j + 1;
        continue;
      }
      let j = i;
      while (j < raw.length && !/\s/.test(raw[j]!)) j++;
      const word = raw.slice(i, j);
      const lower = word.toLowerCase();
      if (word.startsWith('_')) out.push({ kind: 'tag', text: lower.replace(/\./g, '_'), line: lineNo, quoted: false });
      else if (lower === 'loop_') out.push({ kind: 'loop', text: word, line: lineNo, quoted: false });
      else if (lower.startsWith('data_')) out.push({ kind: 'data', text: word.slice(5), line: lineNo, quoted: false });
      else if (lower.startsWith('save_') || lower === 'global_') out.push({ kind: 'save', text: word, line: lineNo, quoted: false });
      else out.push({ kind: 'value', text: word, line: lineNo, quoted: false });
      i = j;
    }
  }
  return out;
}

/** Every data block of a CIF text, in file order. */
export function parseCifBlocks(text: string): CifBlock[] {
  const tokens = tokenize(text);
  const blocks: CifBlock[] = [];
  let block: CifBlock | undefined;
  let i = 0;
  const need = (t: Token) =>
    block ?? fail(t.line, `"${t.text}" comes before any data block; a CIF starts its data with a line "data_NAME".`);
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.kind === 'data') {
      block = { name: t.text, line: t.line, items: new Map(), loops: [] };
      blocks.push(block);
      i++;
    } else if (t.kind === 'save') {
      i++;
    } else if (t.kind === 'tag') {
      const b = need(t);
      const v = tokens[i + 1];
      if (!v || v.kind !== 'value') fail(t.line, `${t.text} has no value; give one after it (? when unknown).`);
      b.items.set(t.text, v);
      i += 2;
    } else if (t.kind === 'loop') {
      const b = need(t);
      const tags: string[] = [];
      i++;
      while (i < tokens.length && tokens[i]!.kind === 'tag') tags.push(tokens[i++]!.text);
      if (tags.length === 0) fail(t.line, 'loop_ is not followed by any tag; list the column tags after loop_.');
      const values: Token[] = [];
      while (i < tokens.length && tokens[i]!.kind === 'value') values.push(tokens[i++]!);
      if (values.length % tags.length !== 0) {
        const at = values[values.length - 1]?.line ?? t.line;
        fail(
          at,
          `the loop that starts on line ${t.line} has ${tags.length} columns (${tags.join(', ')}) but ${values.length} values, not a multiple of ${tags.length}; a row is short or a value with spaces lacks quotes.`,
        );
      }
      const rows: CifValue[][] = [];
      for (let r = 0; r < values.length; r += tags.length) rows.push(values.slice(r, r + tags.length));
      b.loops.push({ tags, rows, line: t.line });
    } else {
      fail(t.line, `the value "${t.text}" belongs to no tag; put a tag before it, or quote a value that contains spaces.`);
    }
  }
  return blocks;
}

/** The column of a tag in a block (a loop's column, or a single item as one row); undefined when absent. */
export function columnOf(block: CifBlock, ...tags: string[]): CifValue[] | undefined {
  for (const tag of tags) {
    for (const loop of block.loops) {
      const k = loop.tags.indexOf(tag);
      if (k >= 0) return loop.rows.map((r) => r[k]!);
    }
    const item = block.items.get(tag);
    if (item) return [item];
  }
  return undefined;
}

/** A CIF number: "5.431(2)" is 5.431; undefined for "?" and "." (unknown, inapplicable) and non-numbers. */
export function cifNumber(v: CifValue): number | undefined {
  if (!v.quoted && (v.text === '?' || v.text === '.')) return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?:\(\d+\))?$/.exec(v.text.trim());
  return m ? Number(m[1]) : undefined;
}
