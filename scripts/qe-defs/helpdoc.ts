/**
 * Reader for Quantum ESPRESSO's helpdoc definition files (INPUT_PW.def and friends).
 *
 * The files are Tcl command lists (the format is described in source/helpdoc.schema):
 * `keyword ?ident? ?-attribute value ...? ?{body}?`, commands separated by newlines or
 * semicolons, words grouped with balanced braces or double quotes, `#` starting a comment
 * where a command may start. Elements whose content is prose (info, default, opt, ...)
 * keep their body as text; every other body is read as a nested command list.
 */

export interface HelpdocNode {
  keyword: string;
  ident?: string;
  attrs: Record<string, string>;
  /** Raw text of a prose element's body (info, default, opt, ...). */
  text?: string;
  children: HelpdocNode[];
  /** 1-based line of the keyword in the .def file, for error messages. */
  line: number;
}

const PROSE_ELEMENTS = new Set([
  'intro',
  'toc',
  'info',
  'default',
  'status',
  'label',
  'message',
  'see',
  'opt',
  'enum',
  'paragraph',
  'text',
  'format',
]);

interface Word {
  text: string;
  braced: boolean;
  line: number;
}

export class HelpdocSyntaxError extends Error {
  override readonly name = 'HelpdocSyntaxError';
}

/** Splits a Tcl script into commands, each a list of words. */
function commands(script: string, firstLine: number, file: string): Word[][] {
  const out: Word[][] = [];
  let i = 0;
  let line = firstLine;
  const n = script.length;
  let current: Word[] = [];
  const endCommand = () => {
    if (current.length) out.push(current);
    current = [];
  };
  while (i < n) {
    const c = script[i]!;
    if (c === '\n') {
      line++;
      i++;
      endCommand();
      continue;
    }
    if (c === ';') {
      i++;
      endCommand();
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && script[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === '#' && current.length === 0) {
      while (i < n && script[i] !== '\n') i++;
      continue;
    }
    const startLine = line;
    if (c === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < n && depth > 0) {
        const d = script[j]!;
        if (d === '\\') {
          if (script[j + 1] === '\n') line++;
          j += 2;
          continue;
        }
        if (d === '\n') line++;
        else if (d === '{') depth++;
        else if (d === '}') depth--;
        j++;
      }
      if (depth > 0) {
        throw new HelpdocSyntaxError(
          `${file}:${startLine}: unbalanced "{": no matching "}" before the end of the file. ` +
            'Check the braces of the element that starts here.',
        );
      }
      current.push({ text: script.slice(i + 1, j - 1), braced: true, line: startLine });
      i = j;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && script[j] !== '"') {
        if (script[j] === '\\') j++;
        else if (script[j] === '\n') line++;
        j++;
      }
      if (j >= n) {
        throw new HelpdocSyntaxError(`${file}:${startLine}: unterminated double-quoted word. Close the quote.`);
      }
      current.push({ text: script.slice(i + 1, j), braced: false, line: startLine });
      i = j + 1;
      continue;
    }
    let j = i;
    let text = '';
    while (j < n) {
      const d = script[j]!;
      if (d === ' ' || d === '\t' || d === '\r' || d === '\n' || d === ';') break;
      if (d === '\\' && j + 1 < n) {
        text += script[j + 1];
        j += 2;
        continue;
      }
      text += d;
      j++;
    }
    current.push({ text, braced: false, line: startLine });
    i = j;
  }
  endCommand();
  return out;
}

/** Tcl variables (`set name {value}`), substituted where a bare word reads `$name`. */
type Variables = Map<string, string>;

function substitute(words: Word[], vars: Variables, file: string): Word[] {
  return words.map((w) => {
    if (w.braced || !w.text.startsWith('$')) return w;
    const value = vars.get(w.text.slice(1));
    if (value === undefined) {
      throw new HelpdocSyntaxError(`${file}:${w.line}: "${w.text}" is used before a "set ${w.text.slice(1)} {...}" defines it.`);
    }
    return { text: value, braced: true, line: w.line };
  });
}

function toNode(raw: Word[], file: string, vars: Variables): HelpdocNode {
  const words = substitute(raw, vars, file);
  const [head, ...rest] = words;
  if (head!.text === 'set' && rest.length === 2) {
    vars.set(rest[0]!.text, rest[1]!.text);
    return { keyword: 'set', ident: rest[0]!.text, attrs: {}, text: rest[1]!.text, children: [], line: head!.line };
  }
  const node: HelpdocNode = { keyword: head!.text, attrs: {}, children: [], line: head!.line };
  let body: Word | undefined;
  for (let k = 0; k < rest.length; k++) {
    const w = rest[k]!;
    if (!w.braced && w.text.startsWith('-') && w.text.length > 1 && k + 1 < rest.length) {
      node.attrs[w.text.slice(1)] = rest[++k]!.text;
    } else if (w.braced && k === rest.length - 1) {
      body = w;
    } else if (node.ident === undefined) {
      node.ident = w.text;
    } else {
      throw new HelpdocSyntaxError(
        `${file}:${w.line}: unexpected word "${w.text}" in "${head!.text}"; ` +
          'an element takes one name, -attribute value pairs and one braced body.',
      );
    }
  }
  if (body) {
    if (PROSE_ELEMENTS.has(node.keyword)) node.text = body.text;
    else node.children = commands(body.text, body.line, file).map((c) => toNode(c, file, vars));
  }
  return node;
}

/** Parses a whole .def file; its single root is `input_description`. */
export function parseHelpdoc(source: string, file = '<def>'): HelpdocNode {
  const vars: Variables = new Map();
  const top = commands(source, 1, file).map((c) => toNode(c, file, vars));
  const root = top.find((t) => t.keyword === 'input_description');
  if (!root) {
    throw new HelpdocSyntaxError(`${file}: no "input_description" element; is this a helpdoc .def file?`);
  }
  return root;
}

/** Tab stops every 8 columns, as the .def files were written with. */
function expandTabs(line: string): string {
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out;
}

/**
 * Plain text from helpdoc prose: markup (@ref, @b, @i, @tt, ...) removed, common
 * indentation stripped, surrounding blank lines dropped.
 */
export function helpdocPlainText(raw: string): string {
  let s = raw.replace(/@(?:b|i|tt|u|sub|sup|code|pre)\s*\{([^{}]*)\}/g, '$1');
  s = s.replace(/@(?:ref|link|b|i|tt|u|sub|sup|code|pre)\s+/g, '');
  s = s.replace(/@br\b/g, '\n').replace(/@(?:hr|p)\b/g, '');
  const lines = s.split('\n').map((l) => expandTabs(l).replace(/\s+$/, ''));
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  // The first line often follows the opening brace directly and has no indentation of its own.
  const indents = lines
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => /^ */.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l, k) => (k === 0 ? l.trim() : l.slice(Math.min(common, /^ */.exec(l)![0].length)))).join('\n');
}
