/**
 * The pw.x input language service the editor adapts: completions, hover and quick fixes,
 * all read from the generated definitions of the QE version in use (the caller's setting,
 * else a "! qe-version: X" comment, else 7.2). Pure: text and positions in, data out.
 */
import { DEFAULT_QE_VERSION, qeDefinitions, type QeVersion } from '../definitions';
import { qeVersionFromComment } from '../detect';
import type { TextEdit } from '../input/edit';
import type { Position, PwInput, Range, Token } from '../input/model';
import { parsePwInput } from '../input/parse';
import { validatePwInput, type Diagnostic, type ValidateOptions } from '../validate';
import { contextAt, namelistAt } from './context';
import { describeCard, describeNamelist, describeOption, describeVariable, oneParagraph, variableSignature } from './describe';

export interface LanguageOptions {
  /** The version setting of the editor; overrides a version comment in the file. */
  qeVersion?: QeVersion;
}

export type CompletionKind = 'namelist' | 'variable' | 'value' | 'card' | 'card-option';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** One line: type, namelist, default. */
  detail: string;
  /** Markdown. */
  documentation: string;
  insertText: string;
  /** The text the item replaces (what has been typed of it). */
  range: Range;
  /** Orders required items first, then the definition's order. */
  sortText: string;
}

export interface Hover {
  range: Range;
  markdown: string;
}

export interface QuickFixAction {
  title: string;
  edits: TextEdit[];
  diagnostic: Diagnostic;
}

export function versionFor(text: string, opts: LanguageOptions = {}): QeVersion {
  return opts.qeVersion ?? qeVersionFromComment(text)?.version ?? DEFAULT_QE_VERSION;
}

const lines = (text: string) => text.split(/\r\n|\n|\r/);
const pad = (n: number) => String(n).padStart(4, '0');

function prefixRange(p: Position, prefix: string): Range {
  return { start: { line: p.line, character: p.character - prefix.length }, end: p };
}

export function completionsAt(text: string, position: Position, opts: LanguageOptions = {}): CompletionItem[] {
  const version = versionFor(text, opts);
  const q = qeDefinitions(version);
  const input = parsePwInput(text);
  const lineText = lines(text)[position.line] ?? '';
  const ctx = contextAt(input, lineText, position);
  switch (ctx.kind) {
    case 'namelist-header': {
      const present = new Set(input.namelists.map((n) => n.name));
      return q.defs.namelists
        .filter((n) => !present.has(n.name))
        .map((n, i) => ({
          label: `&${n.name}`,
          kind: 'namelist',
          detail: `namelist (${n.required ? 'always read' : 'optional'})`,
          documentation: describeNamelist(n, version),
          insertText: n.name,
          range: prefixRange(position, ctx.prefix),
          sortText: pad(i),
        }));
    }
    case 'variable-name': {
      const def = q.namelist(ctx.namelist.name);
      if (!def) return [];
      const set = new Set(ctx.namelist.assignments.filter((a) => a.indices.length === 0).map((a) => a.name.toLowerCase()));
      // Offer what INPUT_PW documents and pw.x reads; undocumented namelist names stay out of the list.
      return def.variables
        .filter((v) => v.documented !== false && v.inNamelist !== false && !v.obsolete)
        .filter((v) => v.dimensions.length > 0 || !set.has(v.name.toLowerCase()))
        .map((v, i) => ({
          label: v.dimensions.length ? `${v.name}(${v.dimensions.map((d) => d.index).join(',')})` : v.name,
          kind: 'variable',
          detail: `${variableSignature(v)}${v.default !== undefined ? ` = ${oneParagraph(v.default)}` : ''}${v.required ? ' (required)' : ''}`,
          documentation: describeVariable(v, def.name, version),
          insertText: v.dimensions.length ? `${v.name}(${v.dimensions.map((d) => d.start.replace(/\D.*$/, '') || '1').join(',')})` : v.name,
          range: prefixRange(position, ctx.prefix),
          sortText: `${v.required ? 0 : 1}${pad(i)}`,
        }));
    }
    case 'variable-value': {
      const v = q.variable(ctx.namelist.name, ctx.variable);
      if (!v) return [];
      const range = prefixRange(position, ctx.prefix);
      if (v.type === 'LOGICAL') {
        return ['.true.', '.false.'].map((x, i) => ({
          label: x,
          kind: 'value',
          detail: `${v.name}: LOGICAL`,
          documentation: describeVariable(v, ctx.namelist.name, version),
          insertText: x,
          range,
          sortText: pad(i),
        }));
      }
      return v.options.flatMap((o, i) =>
        o.values.map((x, k) => ({
          label: v.type === 'CHARACTER' ? `'${x}'` : x,
          kind: 'value' as const,
          detail: `${v.name} = ${x}${k > 0 ? ` (same as '${o.values[0]}')` : ''}`,
          documentation: describeOption(v, o),
          insertText: v.type === 'CHARACTER' && !ctx.quoted ? `'${x}'` : x,
          range,
          sortText: `${pad(i)}${k}`,
        })),
      );
    }
    case 'card-header': {
      const present = new Set(input.cards.map((c) => c.name));
      return q.defs.cards
        .filter((c) => !present.has(c.name))
        .map((c, i) => ({
          label: c.name,
          kind: 'card',
          detail: `card (${c.required ? 'required' : 'optional'})`,
          documentation: describeCard(c, version),
          insertText: c.name,
          range: prefixRange(position, ctx.prefix),
          sortText: `${c.required ? 0 : 1}${pad(i)}`,
        }));
    }
    case 'card-option': {
      const card = q.card(ctx.card);
      if (!card) return [];
      return card.options.map((o, i) => ({
        label: o.values[0]!,
        kind: 'card-option',
        detail: `${card.name} option`,
        documentation: o.description || card.optionsDescription,
        insertText: o.values[0]!,
        range: prefixRange(position, ctx.prefix),
        sortText: pad(i),
      }));
    }
    default:
      return [];
  }
}

function tokenAt(input: PwInput, text: string, p: Position): { token: Token; range: Range } | undefined {
  let offset = 0;
  const ls = text.split(/(\r\n|\n|\r)/);
  for (let i = 0, line = 0; i < ls.length && line < p.line; i += 2, line++) offset += ls[i]!.length + (ls[i + 1]?.length ?? 0);
  offset += p.character;
  // The token under the cursor, or the one ending right at it (cursor just after a word).
  const t =
    input.tokens.find((x) => x.offset <= offset && offset < x.offset + x.text.length && x.kind !== 'space' && x.kind !== 'eol') ??
    input.tokens.find((x) => x.offset + x.text.length === offset && x.kind !== 'space' && x.kind !== 'eol');
  if (!t) return undefined;
  const start = { line: p.line, character: p.character - (offset - t.offset) };
  return { token: t, range: { start, end: { line: p.line, character: start.character + t.text.length } } };
}

export function hoverAt(text: string, position: Position, opts: LanguageOptions = {}): Hover | undefined {
  const version = versionFor(text, opts);
  const q = qeDefinitions(version);
  const input = parsePwInput(text);
  const hit = tokenAt(input, text, position);
  if (!hit) return undefined;
  const { token, range } = hit;
  switch (token.kind) {
    case 'namelist-start': {
      const n = q.namelist(token.text.slice(1));
      return n ? { range, markdown: describeNamelist(n, version) } : undefined;
    }
    case 'name': {
      const nl = namelistAt(input, position);
      const v = nl ? q.variable(nl.name, token.text) : undefined;
      if (!nl || !v) return undefined;
      return { range, markdown: describeVariable(v, nl.name, version) };
    }
    case 'value': {
      const nl = namelistAt(input, position);
      const a = nl?.assignments.find((x) =>
        x.values.some((item) => item.range.start.line === position.line && item.range.start.character === range.start.character),
      );
      const v = nl && a ? q.variable(nl.name, a.name) : undefined;
      if (!v || !a) return undefined;
      const item = a.values.find((x) => x.range.start.character === range.start.character)!;
      const o = v.options.find((opt) => opt.values.includes(String(item.value.value)));
      return { range, markdown: o ? describeOption(v, o) : describeVariable(v, nl!.name, version) };
    }
    case 'card-name': {
      const c = q.card(token.text);
      return c ? { range, markdown: describeCard(c, version) } : undefined;
    }
    case 'card-option': {
      const card = input.cards.find((c) => c.optionRange && c.optionRange.start.line === position.line);
      const def = card ? q.card(card.name) : undefined;
      const o = def?.options.find((x) => x.values.includes(token.text.toLowerCase()));
      return def && o ? { range, markdown: `\`${o.values[0]}\` — ${def.name}\n\n${o.description}` } : undefined;
    }
    default:
      return undefined;
  }
}

const overlaps = (a: Range, b: Range) =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

/** The fixes of the diagnostics that touch a range (the editor's code actions). */
export function quickFixesAt(
  text: string,
  range: Range,
  opts: LanguageOptions & Pick<ValidateOptions, 'upfHeaders'> = {},
): QuickFixAction[] {
  const v: ValidateOptions = { qeVersion: versionFor(text, opts) };
  if (opts.upfHeaders) v.upfHeaders = opts.upfHeaders;
  const result = validatePwInput(text, v);
  return result.diagnostics
    .filter((d) => d.fixes?.length && overlaps(d.range, range))
    .flatMap((d) => d.fixes!.map((f) => ({ title: f.title, edits: f.edits, diagnostic: d })));
}
