/**
 * The pw.x input model: namelists of assignments and cards of lines, each item with its
 * source range. The text is held as tokens that partition it exactly (including spaces,
 * comments and line ends), so writing a parsed input back gives the same bytes and an
 * edit to one value leaves every other byte as it was.
 */
import type { FortranValue } from './fortran';

/** 0-based line and UTF-16 column, as in VS Code and LSP. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type TokenKind =
  | 'space'
  | 'eol'
  | 'comment'
  | 'namelist-start'
  | 'namelist-end'
  | 'name'
  | 'index'
  | 'equals'
  | 'value'
  | 'comma'
  | 'card-name'
  | 'card-option'
  | 'card-field'
  | 'punctuation'
  | 'junk';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the first character in the source text. */
  offset: number;
}

export interface ValueItem {
  raw: string;
  value: FortranValue;
  /** n in a Fortran repeat "n*value". */
  repeat?: number;
  range: Range;
}

export interface Assignment {
  /** The name as written, without index (e.g. "celldm", "Hubbard_U"). */
  name: string;
  /** Indices in parentheses, [] for a scalar: celldm(1) -> [1]. */
  indices: number[];
  /** Canonical key: lower-case name with indices, e.g. "celldm(1)", "hubbard_occ(1,2)". */
  key: string;
  values: ValueItem[];
  nameRange: Range;
  /** From the first to the last value; absent when no value follows the "=". */
  valueRange?: Range;
  /** From the name to the last value. */
  range: Range;
}

export interface Comment {
  text: string;
  range: Range;
}

export interface Namelist {
  /** Upper case: CONTROL, SYSTEM, ... */
  name: string;
  /** "&control" as written. */
  headerRange: Range;
  /** The closing "/" (or &end); absent when the namelist is not closed. */
  endRange?: Range;
  range: Range;
  assignments: Assignment[];
}

export interface CardField {
  text: string;
  range: Range;
}

export interface CardLine {
  /** Whitespace-separated fields, without the trailing comment. */
  fields: CardField[];
  range: Range;
}

export interface Card {
  /** Upper case: ATOMIC_SPECIES, K_POINTS, ... */
  name: string;
  nameRange: Range;
  /** The option in the header, lower case as pw.x compares it ("alat", "automatic"); absent when none is given. */
  option?: string;
  optionRange?: Range;
  headerRange: Range;
  /** Data lines after the header; comment and blank lines are not included. */
  lines: CardLine[];
  range: Range;
}

/** A problem found while reading the text (the validator adds the semantic ones). */
export interface SyntaxProblem {
  code: string;
  message: string;
  range: Range;
}

export interface PwInput {
  tokens: Token[];
  namelists: Namelist[];
  cards: Card[];
  comments: Comment[];
  problems: SyntaxProblem[];
  /** Line end used by the file ("\n" when it has none). */
  eol: string;
  lineCount: number;
}

export const positionLess = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);
export const rangeContains = (r: Range, p: Position) => !positionLess(p, r.start) && !positionLess(r.end, p);
