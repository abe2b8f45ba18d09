/**
 * Reads pw.x input text into the model (./model.ts). Never throws: whatever pw.x would
 * choke on becomes a SyntaxProblem with its range, and reading goes on.
 *
 * What pw.x accepts and this mirrors: namelists (&name ... /, or &end) of Fortran
 * assignments, several per line or one value list per name, "!" comments; then cards,
 * whose header is the card name (any case) with an optional option written as
 * "(alat)", "{alat}" or "alat", and whose lines may be comments when they start with
 * "!" or "#".
 */
import names from '../defs/names.json';
import { parseFortranLiteral } from './fortran';
import type { Assignment, Card, CardLine, Comment, Namelist, PwInput, Range, SyntaxProblem, Token, TokenKind, ValueItem } from './model';

const CARD_NAMES = new Set(names.cards);
/** Cards pw.x reads that the definition files do not describe. */
const OTHER_CARDS = new Set(['REF_CELL_PARAMETERS', 'SOLVENTS', 'TOTAL_CHARGE', 'AUTOPILOT', 'PLOT_WANNIER', 'WANNIER_AC']);
/** An unlisted all-caps word with an underscore at a line start is read as a card, so that pw.x's "card ignored" can be reported. */
const CARD_LIKE = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;

export function isCardName(word: string): boolean {
  const up = word.toUpperCase();
  return CARD_NAMES.has(up) || OTHER_CARDS.has(up) || (word.length >= 6 && CARD_LIKE.test(word));
}

const NAME_START = /[A-Za-z_]/;
const WORD_END = /[\s,=()!/&'"]/;

type Mode = 'top' | 'namelist' | 'card';

class Reader {
  readonly tokens: Token[] = [];
  readonly namelists: Namelist[] = [];
  readonly cards: Card[] = [];
  readonly comments: Comment[] = [];
  readonly problems: SyntaxProblem[] = [];
  private mode: Mode = 'top';
  private namelist: Namelist | undefined;
  private assignment: Assignment | undefined;
  /** The current assignment has seen its "=" and takes values. */
  private takesValues = false;
  private card: Card | undefined;
  private line = 0;
  private lineOffset = 0;
  private lastRangeEnd = { line: 0, character: 0 };

  private range(from: number, to: number): Range {
    return { start: { line: this.line, character: from }, end: { line: this.line, character: to } };
  }

  private push(kind: TokenKind, text: string, col: number): Range {
    this.tokens.push({ kind, text, offset: this.lineOffset + col });
    const r = this.range(col, col + text.length);
    if (kind !== 'space' && kind !== 'eol') this.lastRangeEnd = r.end;
    return r;
  }

  private problem(code: string, message: string, range: Range): void {
    this.problems.push({ code, message, range });
  }

  readLine(text: string, lineNo: number, offset: number): void {
    this.line = lineNo;
    this.lineOffset = offset;
    let col = 0;
    const lead = /^\s*/.exec(text)![0];
    if (lead) col = this.pushSpace(text, 0);
    const rest = text.slice(col);
    if (rest === '') return;
    if (rest[0] === '&') {
      const m = /^&(\w*)/.exec(rest)!;
      if (m[1]!.toLowerCase() === 'end' && this.mode === 'namelist') {
        this.closeNamelist(this.push('namelist-end', m[0], col));
        col += m[0].length;
        this.readTrailing(text, col);
        return;
      }
      this.openNamelist(m[0], col);
      this.readNamelist(text, col + m[0].length);
      return;
    }
    if (this.mode === 'namelist') {
      const word = /^[A-Za-z_]\w*/.exec(rest)?.[0];
      const after = word ? text.slice(col + word.length).trimStart()[0] : undefined;
      if (word && isCardName(word) && after !== '=' && after !== '(') {
        const r = this.range(col, col + word.length);
        this.problem('namelist-not-closed', `&${this.namelist!.name} is not closed: add a line with "/" before ${word.toUpperCase()}.`, r);
        this.finishNamelist();
        this.mode = 'top';
      } else {
        this.readNamelist(text, col);
        return;
      }
    }
    if (rest[0] === '!' || rest[0] === '#') {
      this.pushComment(text, col);
      return;
    }
    const word = /^[A-Za-z_]\w*/.exec(rest)?.[0];
    if (word && isCardName(word)) {
      this.openCard(text, col, word);
      return;
    }
    if (this.mode === 'card' && this.card) {
      this.readCardLine(text, col);
      return;
    }
    const r = this.push('junk', rest.replace(/\s+$/, ''), col);
    this.pushSpace(text, col + rest.replace(/\s+$/, '').length);
    this.problem(
      'stray-text',
      `"${rest.trim().slice(0, 40)}" is outside any namelist or card; pw.x ignores it. ` + 'Delete it, or make it a comment with "!".',
      r,
    );
  }

  private pushSpace(text: string, col: number): number {
    const m = /^\s+/.exec(text.slice(col));
    if (m) this.push('space', m[0], col);
    return col + (m ? m[0].length : 0);
  }

  private pushComment(text: string, col: number): void {
    const r = this.push('comment', text.slice(col), col);
    this.comments.push({ text: text.slice(col), range: r });
  }

  private readTrailing(text: string, col: number): void {
    col = this.pushSpace(text, col);
    if (col >= text.length) return;
    if (text[col] === '!') {
      this.pushComment(text, col);
      return;
    }
    const r = this.push('junk', text.slice(col), col);
    this.problem(
      'text-after-end',
      `"${text.slice(col).trim().slice(0, 40)}" after the namelist's "/" is ignored by pw.x. Move it into the namelist or delete it.`,
      r,
    );
  }

  private openNamelist(header: string, col: number): void {
    if (this.mode === 'namelist') {
      this.problem(
        'namelist-not-closed',
        `&${this.namelist!.name} is not closed: add a line with "/" before ${header}.`,
        this.range(col, col + header.length),
      );
      this.finishNamelist();
    }
    this.finishCard();
    const r = this.push('namelist-start', header, col);
    const name = header.slice(1).toUpperCase();
    if (!name) this.problem('namelist-name-missing', '"&" must be followed by a namelist name, e.g. &SYSTEM.', r);
    this.namelist = { name, headerRange: r, range: { start: r.start, end: r.end }, assignments: [] };
    this.namelists.push(this.namelist);
    this.mode = 'namelist';
  }

  private finishNamelist(): void {
    this.endAssignment();
    if (this.namelist) this.namelist.range.end = this.lastRangeEnd;
    this.namelist = undefined;
  }

  private closeNamelist(r: Range): void {
    this.endAssignment();
    this.namelist!.endRange = r;
    this.namelist!.range.end = r.end;
    this.namelist = undefined;
    this.mode = 'top';
  }

  private endAssignment(): void {
    const a = this.assignment;
    if (a && this.takesValues && a.values.length === 0) {
      this.problem('value-missing', `${a.name} has no value after "=": give one, e.g. ${a.name} = ...`, a.range);
    }
    this.assignment = undefined;
    this.takesValues = false;
  }

  private readNamelist(text: string, col: number): void {
    while (col < text.length) {
      const ch = text[col]!;
      if (/\s/.test(ch)) {
        col = this.pushSpace(text, col);
      } else if (ch === '!') {
        this.pushComment(text, col);
        return;
      } else if (ch === '/') {
        this.closeNamelist(this.push('namelist-end', '/', col));
        this.readTrailing(text, col + 1);
        return;
      } else if (ch === '&') {
        const m = /^&(\w*)/.exec(text.slice(col))!;
        if (m[1]!.toLowerCase() === 'end') {
          this.closeNamelist(this.push('namelist-end', m[0], col));
          this.readTrailing(text, col + m[0].length);
          return;
        }
        this.openNamelist(m[0], col);
        col += m[0].length;
      } else if (ch === ',') {
        this.push('comma', ',', col);
        col++;
      } else if (ch === '=') {
        const r = this.push('equals', '=', col);
        if (this.assignment && !this.takesValues) this.takesValues = true;
        else this.problem('equals-without-name', '"=" without a variable name before it: write name = value.', r);
        col++;
      } else if (ch === "'" || ch === '"') {
        col = this.readString(text, col);
      } else if (ch === '(') {
        col = this.readIndex(text, col);
      } else {
        col = this.readWord(text, col);
      }
    }
  }

  private readString(text: string, col: number): number {
    const q = text[col]!;
    let j = col + 1;
    let closed = false;
    while (j < text.length) {
      if (text[j] !== q) {
        j++;
      } else if (text[j + 1] === q) {
        j += 2; // a doubled quote stands for one
      } else {
        j++;
        closed = true;
        break;
      }
    }
    const raw = text.slice(col, j);
    const r = this.push('value', raw, col);
    if (!closed) {
      this.problem(
        'unterminated-string',
        `the string ${raw.slice(0, 30)} is not closed: add ${q} at its end (strings cannot span lines).`,
        r,
      );
      this.addValue({ raw, value: { type: 'string', value: raw.slice(1) }, range: r });
    } else {
      this.addValue({ raw, value: parseFortranLiteral(raw), range: r });
    }
    return j;
  }

  private readIndex(text: string, col: number): number {
    const close = text.indexOf(')', col);
    const end = close < 0 ? text.length : close + 1;
    const raw = text.slice(col, end);
    const r = this.push('index', raw, col);
    const a = this.assignment;
    if (!a || this.takesValues || a.indices.length) {
      this.problem('unexpected-parenthesis', `"${raw}" is not where an index can be: write name(i) = value.`, r);
      return end;
    }
    const inner = raw.replace(/^\(|\)$/g, '');
    const parts = inner.split(',').map((s) => s.trim());
    if (close < 0 || !parts.every((p) => /^\d+$/.test(p))) {
      this.problem('bad-index', `the index "${raw}" of ${a.name} must be positive integers in parentheses, e.g. ${a.name}(1).`, r);
      return end;
    }
    a.indices = parts.map(Number);
    a.key = `${a.name.toLowerCase()}(${a.indices.join(',')})`;
    a.nameRange = { start: a.nameRange.start, end: r.end };
    a.range.end = r.end;
    return end;
  }

  private readWord(text: string, col: number): number {
    let j = col;
    while (j < text.length && !WORD_END.test(text[j]!)) j++;
    if (j === col) j = col + 1; // a lone character no rule takes, e.g. ")"
    let raw = text.slice(col, j);
    // n*'string': the repeat count runs into a quoted literal.
    if (/^\d+\*$/.test(raw) && (text[j] === "'" || text[j] === '"')) {
      const q = text[j]!;
      const k = text.indexOf(q, j + 1);
      j = k < 0 ? text.length : k + 1;
      raw = text.slice(col, j);
    }
    const next = text.slice(j).trimStart()[0];
    if (NAME_START.test(raw[0]!) && /^[A-Za-z_]\w*$/.test(raw) && (next === '=' || next === '(')) {
      this.endAssignment();
      const r = this.push('name', raw, col);
      this.assignment = { name: raw, indices: [], key: raw.toLowerCase(), values: [], nameRange: r, range: { start: r.start, end: r.end } };
      this.namelist!.assignments.push(this.assignment);
      return j;
    }
    if (this.assignment && this.takesValues) {
      const r = this.push('value', raw, col);
      const rep = /^(\d+)\*(.+)$/.exec(raw);
      const item: ValueItem = rep
        ? { raw, value: parseFortranLiteral(rep[2]!), repeat: Number(rep[1]), range: r }
        : { raw, value: parseFortranLiteral(raw), range: r };
      this.addValue(item);
      return j;
    }
    const r = this.push('junk', raw, col);
    this.problem('expected-assignment', `"${raw}" is not an assignment: write name = value (or close the namelist with "/").`, r);
    return j;
  }

  private addValue(item: ValueItem): void {
    const a = this.assignment;
    if (!a || !this.takesValues) {
      this.problem('value-without-name', `${item.raw} is a value without a variable: write name = ${item.raw}.`, item.range);
      return;
    }
    a.values.push(item);
    a.valueRange = { start: a.values[0]!.range.start, end: item.range.end };
    a.range.end = item.range.end;
  }

  private openCard(text: string, col: number, word: string): void {
    this.finishCard();
    const nameRange = this.push('card-name', word, col);
    const card: Card = { name: word.toUpperCase(), nameRange, headerRange: nameRange, lines: [], range: { ...nameRange } };
    let j = this.pushSpace(text, col + word.length);
    const rest = text.slice(j);
    const bracket = /^([({])\s*([^)}!#\s]*)\s*([)}])?/.exec(rest);
    const bare = /^([^\s!#({]+)/.exec(rest);
    if (bracket) {
      this.push('punctuation', bracket[1]!, j);
      j += bracket[1]!.length;
      j = this.pushSpace(text, j);
      if (bracket[2]) {
        card.optionRange = this.push('card-option', bracket[2], j);
        card.option = bracket[2].toLowerCase();
        j += bracket[2].length;
      }
      j = this.pushSpace(text, j);
      if (bracket[3]) {
        const r = this.push('punctuation', bracket[3], j);
        card.headerRange = { start: nameRange.start, end: r.end };
        j += 1;
      } else {
        this.problem(
          'card-option-unclosed',
          `the option of ${card.name} is not closed: write ${card.name} ${bracket[1]}${bracket[2]}${bracket[1] === '(' ? ')' : '}'}.`,
          this.range(col, j),
        );
      }
    } else if (bare) {
      card.optionRange = this.push('card-option', bare[1]!, j);
      card.option = bare[1]!.toLowerCase();
      card.headerRange = { start: nameRange.start, end: card.optionRange.end };
      j += bare[1]!.length;
    }
    j = this.pushSpace(text, j);
    if (j < text.length) {
      if (text[j] === '!' || text[j] === '#') this.pushComment(text, j);
      else {
        const r = this.push('junk', text.slice(j), j);
        this.problem(
          'card-header-extra',
          `"${text.slice(j).trim().slice(0, 40)}" after the ${card.name} header is ignored by pw.x; put card data on the lines below.`,
          r,
        );
      }
    }
    card.range = { start: nameRange.start, end: this.lastRangeEnd };
    this.cards.push(card);
    this.card = card;
    this.mode = 'card';
  }

  private finishCard(): void {
    this.card = undefined;
  }

  private readCardLine(text: string, col: number): void {
    const line: CardLine = { fields: [], range: this.range(col, col) };
    while (col < text.length) {
      if (/\s/.test(text[col]!)) {
        col = this.pushSpace(text, col);
        continue;
      }
      if (text[col] === '!' || text[col] === '#') {
        this.pushComment(text, col);
        break;
      }
      const m = /^[^\s!#]+/.exec(text.slice(col))!;
      const r = this.push('card-field', m[0], col);
      line.fields.push({ text: m[0], range: r });
      col += m[0].length;
    }
    if (line.fields.length) {
      line.range = { start: line.fields[0]!.range.start, end: line.fields[line.fields.length - 1]!.range.end };
      this.card!.lines.push(line);
      this.card!.range.end = line.range.end;
    }
  }

  pushEol(eol: string, col: number): void {
    if (eol) this.tokens.push({ kind: 'eol', text: eol, offset: this.lineOffset + col });
  }

  finish(): void {
    if (this.mode === 'namelist' && this.namelist) {
      this.problem(
        'namelist-not-closed',
        `&${this.namelist.name} is not closed: add a line with "/" at its end.`,
        this.namelist.headerRange,
      );
      this.finishNamelist();
    }
  }
}

/** Reads pw.x input text. Problems pw.x would report are in `problems`; nothing throws. */
export function parsePwInput(text: string): PwInput {
  const reader = new Reader();
  const eolMatch = /\r\n|\n|\r/.exec(text);
  const lineRe = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  let lineNo = 0;
  let m: RegExpExecArray | null;
  while ((m = lineRe.exec(text)) !== null) {
    const [whole, content, eol] = m;
    if (whole === '' && m.index >= text.length) break;
    reader.readLine(content!, lineNo, m.index);
    reader.pushEol(eol!, content!.length);
    lineNo++;
    if (!eol) break;
  }
  reader.finish();
  return {
    tokens: reader.tokens,
    namelists: reader.namelists,
    cards: reader.cards,
    comments: reader.comments,
    problems: reader.problems,
    eol: eolMatch ? eolMatch[0] : '\n',
    lineCount: lineNo,
  };
}
