/**
 * The TextMate grammar for pw.x input (scope source.qe-input), built from the same
 * definitions that drive validation: namelist and card names, each namelist's
 * variables and the string values QE lists for them. Names from every QE version are
 * included, since a grammar cannot know which pw.x will read the file.
 */
import type { QeDefinitions } from '../../src/core/dft/qe/definitionTypes';

type Rule = Record<string, unknown>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** Longest first, so that "ecutrho" never wins over "ecutrho_xyz" in an alternation. */
const alternation = (names: Iterable<string>) =>
  [...new Set(names)]
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .map(escape)
    .join('|');

const NUMBER = '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eEdD][+-]?\\d+)?';

export function qeInputGrammar(all: QeDefinitions[]): Rule {
  const namelists = new Map<string, Set<string>>();
  const cards = new Set<string>();
  const cardOptions = new Set<string>();
  const stringValues = new Set<string>();
  for (const defs of all) {
    for (const nl of defs.namelists) {
      const vars = namelists.get(nl.name) ?? new Set<string>();
      for (const v of nl.variables) {
        vars.add(v.name);
        if (v.type === 'CHARACTER') for (const o of v.options) for (const x of o.values) if (/^[\w.+\-/]+$/.test(x)) stringValues.add(x);
      }
      namelists.set(nl.name, vars);
    }
    for (const c of defs.cards) {
      cards.add(c.name);
      for (const o of c.options) for (const x of o.values) cardOptions.add(x);
    }
  }
  const cardAlt = alternation(cards);
  const namelistAlt = alternation(namelists.keys());
  const repository: Record<string, Rule> = {
    comment: {
      name: 'comment.line.exclamation.qe-input',
      match: '!.*$',
    },
    'card-comment': {
      name: 'comment.line.number-sign.qe-input',
      match: '^\\s*#.*$',
    },
    string: {
      patterns: [
        {
          match: `(')((?i:${alternation(stringValues)}))(')`,
          captures: {
            0: { name: 'string.quoted.single.qe-input' },
            2: { name: 'support.constant.option.qe-input' },
          },
        },
        { name: 'string.quoted.single.qe-input', begin: "'", end: "'|$" },
        { name: 'string.quoted.double.qe-input', begin: '"', end: '"|$' },
      ],
    },
    logical: {
      name: 'constant.language.boolean.qe-input',
      match: '(?i)\\.(?:true|false|t|f)\\.',
    },
    number: {
      name: 'constant.numeric.qe-input',
      match: `(?<![\\w.])${NUMBER}(?![\\w.])`,
    },
    index: {
      match: '(\\()\\s*([\\d,\\s]*)\\s*(\\))',
      captures: {
        1: { name: 'punctuation.section.parens.begin.qe-input' },
        2: { name: 'constant.numeric.index.qe-input' },
        3: { name: 'punctuation.section.parens.end.qe-input' },
      },
    },
    'unknown-variable': {
      name: 'variable.other.qe-input',
      match: '\\b[A-Za-z_]\\w*\\b(?=\\s*(?:\\(|=))',
    },
    'namelist-values': {
      patterns: [
        { include: '#comment' },
        { include: '#string' },
        { include: '#logical' },
        { include: '#number' },
        { include: '#index' },
        { name: 'keyword.operator.assignment.qe-input', match: '=' },
        { name: 'punctuation.separator.comma.qe-input', match: ',' },
      ],
    },
    card: {
      name: 'meta.card.qe-input',
      begin: `^\\s*((?i:${cardAlt}))\\b\\s*(?:([({])\\s*([\\w.-]*)\\s*([)}])|([\\w.-]+))?`,
      beginCaptures: {
        1: { name: 'keyword.other.card.qe-input' },
        2: { name: 'punctuation.section.option.begin.qe-input' },
        3: { name: 'constant.language.card-option.qe-input' },
        4: { name: 'punctuation.section.option.end.qe-input' },
        5: { name: 'constant.language.card-option.qe-input' },
      },
      end: `(?=^\\s*(?:&|(?i:${cardAlt})\\b))`,
      patterns: [
        { include: '#card-comment' },
        { include: '#comment' },
        { name: 'keyword.other.hubbard.qe-input', match: '^\\s*(?:U|J0|J|V|B|E2|E3|ALPHA|BETA)(?=\\s)' },
        { name: 'entity.name.type.species.qe-input', match: '^\\s*[A-Za-z][A-Za-z0-9_-]*(?=\\s|$)' },
        { include: '#number' },
        { name: 'string.unquoted.file.qe-input', match: '\\b[\\w.+-]+\\.(?i:upf|vdb|van|rrkj3|psp|psml)\\b' },
      ],
    },
  };
  const namelistRules: Rule[] = [];
  for (const [name, vars] of namelists) {
    const key = `namelist-${name.toLowerCase()}`;
    repository[key] = {
      name: `meta.namelist.${name.toLowerCase()}.qe-input`,
      begin: `^\\s*(&)((?i:${escape(name)}))\\b`,
      beginCaptures: {
        1: { name: 'punctuation.definition.namelist.qe-input' },
        2: { name: 'keyword.other.namelist.qe-input' },
      },
      end: '(/)|^\\s*(&)((?i:end))\\b',
      endCaptures: {
        1: { name: 'punctuation.definition.namelist.end.qe-input' },
        2: { name: 'punctuation.definition.namelist.qe-input' },
        3: { name: 'keyword.other.namelist.qe-input' },
      },
      patterns: [
        { include: '#comment' },
        {
          name: 'variable.parameter.qe-input',
          match: `(?<![\\w%])(?i:${alternation(vars)})(?![\\w%])(?=\\s*(?:\\(|=))`,
        },
        { include: '#unknown-variable' },
        { include: '#namelist-values' },
      ],
    };
    namelistRules.push({ include: `#${key}` });
  }
  repository['unknown-namelist'] = {
    name: 'meta.namelist.unknown.qe-input',
    begin: `^\\s*(&)(?!(?i:${namelistAlt}|end)\\b)(\\w+)`,
    beginCaptures: {
      1: { name: 'punctuation.definition.namelist.qe-input' },
      2: { name: 'invalid.illegal.namelist.qe-input' },
    },
    end: '(/)',
    endCaptures: { 1: { name: 'punctuation.definition.namelist.end.qe-input' } },
    patterns: [{ include: '#unknown-variable' }, { include: '#namelist-values' }],
  };
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Quantum ESPRESSO input',
    scopeName: 'source.qe-input',
    comment: "Generated by scripts/qe-defs/generate.ts from QE's INPUT_PW.def files; do not edit by hand.",
    fileTypes: ['pwi', 'pw.in'],
    patterns: [{ include: '#comment' }, ...namelistRules, { include: '#unknown-namelist' }, { include: '#card' }],
    repository,
  };
}
