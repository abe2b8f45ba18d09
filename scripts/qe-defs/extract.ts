/**
 * From a parsed helpdoc tree to the pw.x input description the product reads
 * (src/core/dft/qe/definitionTypes.ts).
 */
import type {
  FortranType,
  QeCard,
  QeCardSyntax,
  QeDefinitions,
  QeDimension,
  QeNamelist,
  QeOption,
  QeVariable,
  QeVersion,
} from '../../src/core/dft/qe/definitionTypes';
import { helpdocPlainText, type HelpdocNode } from './helpdoc';

const TYPES: readonly FortranType[] = ['CHARACTER', 'REAL', 'INTEGER', 'LOGICAL'];

function fortranType(raw: string | undefined, where: string): FortranType {
  const t = (raw ?? '').toUpperCase() as FortranType;
  if (!TYPES.includes(t)) {
    throw new Error(`${where}: type "${raw}" is not one of ${TYPES.join(', ')}; extend the generator if QE added a type.`);
  }
  return t;
}

const childrenOf = (n: HelpdocNode, keyword: string) => n.children.filter((c) => c.keyword === keyword);
const textOf = (n: HelpdocNode, keyword: string) =>
  childrenOf(n, keyword)
    .map((c) => helpdocPlainText(c.text ?? ''))
    .filter(Boolean)
    .join('\n\n');

/** Splits `'gaussian', 'gauss'` (a clist) into values, quotes removed. */
function optionValues(clist: string): string[] {
  return clist
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => {
      const assigned = /^\w+\s*=\s*(.+)$/.exec(v); // "dftd3_version = 3"
      const s = assigned ? assigned[1]!.trim() : v;
      return /^'.*'$|^".*"$/.test(s) ? s.slice(1, -1) : s;
    });
}

function options(n: HelpdocNode): { options: QeOption[]; intro: string } {
  const opts = childrenOf(n, 'options')[0];
  if (!opts) return { options: [], intro: '' };
  return {
    intro: textOf(opts, 'info'),
    options: childrenOf(opts, 'opt').map((o) => ({
      values: optionValues(o.attrs.val ?? ''),
      description: helpdocPlainText(o.text ?? ''),
    })),
  };
}

const LITERAL: Record<FortranType, RegExp> = {
  CHARACTER: /^[\w.+\-/ ]+$/,
  INTEGER: /^[+-]?\d+$/,
  REAL: /^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$/,
  LOGICAL: /^\.(true|false)\.$/i,
};

function variable(n: HelpdocNode, shared: HelpdocNode | undefined, group: string | undefined, where: string): QeVariable {
  const type = fortranType(n.attrs.type ?? shared?.attrs.type, `${where} ${n.ident}`);
  let dimensions: QeDimension[] = [];
  if (n.keyword === 'dimension') {
    dimensions = [{ index: 'i', start: n.attrs.start ?? '1', end: n.attrs.end ?? '' }];
  } else if (n.keyword === 'multidimension') {
    const idx = (n.attrs.indexes ?? '').split(',');
    const st = (n.attrs.start ?? '').split(',');
    const en = (n.attrs.end ?? '').split(',');
    dimensions = idx.map((index, k) => ({ index: index.trim(), start: (st[k] ?? '1').trim(), end: (en[k] ?? '').trim() }));
  }
  const own = options(n);
  const inherited = shared ? options(shared) : { options: [], intro: '' };
  const opts = own.options.length ? own : inherited;
  const status = textOf(n, 'status') || (shared ? textOf(shared, 'status') : '');
  const description = [textOf(n, 'info'), shared ? textOf(shared, 'info') : '', opts.intro].filter(Boolean).join('\n\n');
  const def = textOf(n, 'default') || (shared ? textOf(shared, 'default') : '');
  const see = [...childrenOf(n, 'see'), ...(shared ? childrenOf(shared, 'see') : [])]
    .flatMap((s) => (s.text ?? '').split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const v: QeVariable = {
    name: n.ident!,
    type,
    dimensions,
    required: /^REQUIRED$/i.test(status.trim()),
    options: opts.options,
    optionsClosed: opts.options.length > 0 && opts.options.every((o) => o.values.every((x) => LITERAL[type].test(x))),
    description,
    see,
  };
  if (def) v.default = def;
  if (status && !v.required) v.status = status;
  if (group) v.group = group;
  return v;
}

function collectVariables(n: HelpdocNode, out: QeVariable[], group: string | undefined, where: string): void {
  for (const c of n.children) {
    switch (c.keyword) {
      case 'var':
      case 'dimension':
      case 'multidimension':
        out.push(variable(c, undefined, group, where));
        break;
      case 'vargroup':
      case 'dimensiongroup':
      case 'multidimensiongroup':
        for (const m of c.children.filter((x) => ['var', 'dimension', 'multidimension'].includes(x.keyword))) {
          out.push(variable(m, c, group, where));
        }
        break;
      case 'group':
        collectVariables(c, out, textOf(c, 'label').replace(/\s+/g, ' ') || group, where);
        break;
      case 'if':
      case 'choose':
      case 'when':
      case 'elsewhen':
      case 'otherwise':
        collectVariables(c, out, group, where);
        break;
      default:
        break;
    }
  }
}

/** Later definitions of a name (under another condition) add to the first rather than duplicate it. */
function mergeDuplicates(vars: QeVariable[]): QeVariable[] {
  const byName = new Map<string, QeVariable>();
  for (const v of vars) {
    const key = v.name.toLowerCase();
    const first = byName.get(key);
    if (!first) byName.set(key, v);
    else if (!first.description.includes(v.description)) first.description += `\n\n${v.description}`;
  }
  return [...byName.values()];
}

/** Names the intro's "Structure of the input data" lists outside [ ] brackets: pw.x always reads them. */
function requiredInIntro(intro: string): Set<string> {
  const required = new Set<string>();
  for (const line of intro.split('\n')) {
    const m = /^\s*(\[)?\s*@b\s+&?([A-Z_]+)\b/.exec(line);
    if (m && !m[1]) required.add(m[2]!);
  }
  return required;
}

function tableColumns(table: HelpdocNode): { columns: string[]; rows?: string } {
  const columns: string[] = [];
  let rows: string | undefined;
  const walk = (n: HelpdocNode) => {
    for (const c of n.children) {
      if (c.keyword === 'col' || c.keyword === 'row') columns.push(c.ident!);
      else if (c.keyword === 'rows' || c.keyword === 'cols') {
        rows = c.attrs.end;
        walk(c);
      } else walk(c);
    }
  };
  walk(table);
  return rows === undefined ? { columns } : { columns, rows };
}

function syntaxes(n: HelpdocNode, out: QeCardSyntax[]): void {
  for (const c of n.children) {
    if (c.keyword === 'syntax') {
      const forOptions = (c.attrs.flag ?? '')
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean);
      const lines: string[][] = [];
      const names = (x: HelpdocNode): string[] =>
        x.children.flatMap((y) => (['var', 'keyword', 'list'].includes(y.keyword) ? [y.ident!] : names(y)));
      let table: { columns: string[]; rows?: string } = { columns: [] };
      for (const part of c.children) {
        if (part.keyword === 'line') lines.push(names(part));
        else if (part.keyword === 'table') table = tableColumns(part);
      }
      out.push({ forOptions, lines, ...table });
    } else if (['choose', 'when', 'elsewhen', 'otherwise', 'if'].includes(c.keyword)) {
      syntaxes(c, out);
    }
  }
}

function card(n: HelpdocNode, required: Set<string>): QeCard {
  const flag = childrenOf(n, 'flag')[0];
  const enumValues = flag
    ? (childrenOf(flag, 'enum')[0]?.text ?? '')
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  const described = flag ? options(flag) : { options: [], intro: '' };
  const opts: QeOption[] = enumValues.map((value) => ({
    values: [value],
    description: described.options.find((o) => o.values.includes(value))?.description ?? '',
  }));
  const syntax: QeCardSyntax[] = [];
  syntaxes(n, syntax);
  const c: QeCard = {
    name: n.ident!.toUpperCase(),
    required: required.has(n.ident!.toUpperCase()),
    description: [textOf(n, 'label'), textOf(n, 'message')].filter(Boolean).join('\n\n'),
    options: opts,
    optionOptional: !flag || flag.attrs.use === 'optional',
    optionsDescription: [flag ? textOf(flag, 'info') : '', described.intro].filter(Boolean).join('\n\n'),
    syntax,
  };
  const def = flag ? textOf(flag, 'default') : '';
  if (def) c.defaultOption = def;
  return c;
}

export function extractDefinitions(root: HelpdocNode, qeVersion: QeVersion, source: QeDefinitions['source']): QeDefinitions {
  const intro = childrenOf(root, 'intro')[0]?.text ?? '';
  const required = requiredInIntro(intro);
  const namelists: QeNamelist[] = childrenOf(root, 'namelist').map((n) => {
    const vars: QeVariable[] = [];
    collectVariables(n, vars, undefined, `namelist ${n.ident}`);
    return {
      name: n.ident!.toUpperCase(),
      required: required.has(n.ident!.toUpperCase()),
      description: textOf(n, 'label'),
      variables: mergeDuplicates(vars),
    };
  });
  const cards = childrenOf(root, 'card').map((c) => card(c, required));
  return { program: 'pw.x', qeVersion, source, namelists, cards };
}
