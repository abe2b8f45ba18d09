/**
 * Reads, from a Quantum ESPRESSO source tree, the names pw.x's NAMELIST statements accept
 * (Modules/input_parameters.f90), their Fortran types and dimensions, and which of them
 * pw.x's own code uses (the `USE input_parameters, ONLY : ...` lists of PW/src). The
 * result is a list of facts per QE version, written to
 * scripts/qe-defs/source/pw-namelists-<version>.json; generate.ts merges it with the
 * INPUT_PW.def descriptions, so a name pw.x reads but does not document is not called
 * unknown.
 *
 *   node --import tsx scripts/qe-defs/namelists.ts --qe-git /path/to/q-e/.git
 *        [--ref 6.7=qe-6.7.0 --ref 7.2=qe-7.2 --ref develop=develop]
 *
 * The repository is read with `git show <ref>:<path>`, so a bare clone works.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FortranType, QeVersion } from '../../src/core/dft/qe/definitionTypes';

export interface NamelistName {
  name: string;
  type: FortranType;
  /** Fortran dimensions as declared (e.g. ["nsx"], ["3", "nsx"]); empty for a scalar. */
  dimensions: string[];
  /** pw.x's own sources (PW/src) import it from input_parameters. */
  usedByPw: boolean;
}

/** What pw.x's source does with the string values of one CHARACTER variable. */
export interface ValuesInSource {
  /** String literals pw.x compares the variable with (SELECT CASE labels, == and /= comparisons). */
  literals: string[];
  /**
   * What a value outside them does, from the CASE DEFAULT of the variable's SELECT CASE:
   * 'stops' (errore), 'warns' (a message, then the run goes on); absent when no CASE DEFAULT
   * handles it (the value is then silently treated as none of the literals).
   */
  unknown?: 'stops' | 'warns';
  /** Values whose own branch stops pw.x unconditionally, with errore's message ('potential' mixing). */
  refused?: Record<string, string>;
}

/** A value check pw.x makes on a namelist variable as soon as it is read (the *_checkin routines). */
export interface RangeCheck {
  namelist: string;
  /** Lower case; `index` set for a check on one element (fnosep(1)). */
  name: string;
  index?: number;
  /** pw.x stops when any of these holds for the value. */
  stopsWhen: { op: '<' | '<=' | '>' | '>=' | '==' | '/='; value: number }[];
  /** errore's message. */
  message: string;
  routine: string;
}

export interface PwNamelists {
  qeVersion: QeVersion;
  source: { ref: string; commit: string; files: string[]; licence: string };
  /** Namelist name (upper case) -> the names its NAMELIST statement lists, in order. */
  namelists: Record<string, NamelistName[]>;
  /** CHARACTER namelist variable (lower case) -> the values pw.x's code compares it with. */
  values: Record<string, ValuesInSource>;
  /**
   * Names the namelist still lists but whose use makes pw.x stop (Modules/read_namelists.f90:
   * "The input parameter X is obsolete", then errore), lower case.
   */
  obsolete: string[];
  /** Checks of single values against constants that stop pw.x while reading the namelists. */
  ranges: RangeCheck[];
}

/** Files outside PW/src whose use of the namelist variables is pw.x's too. */
const PW_SHARED_FILES = ['Modules/read_cards.f90', 'Modules/set_vdw_corr.f90'];

/** Namelists pw.x reads from its input (the others in input_parameters.f90 belong to cp.x). */
const PW_NAMELISTS = ['CONTROL', 'SYSTEM', 'ELECTRONS', 'IONS', 'CELL', 'FCP', 'RISM'];

/** Fortran free form -> statements: comments removed, continuation lines joined, preprocessor lines dropped. */
export function fortranStatements(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*#/.test(raw)) continue;
    let line = stripComment(raw).trim();
    if (pending && line.startsWith('&')) line = line.slice(1);
    if (line.endsWith('&')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const stmt = (pending + line).trim();
    pending = '';
    if (stmt)
      out.push(
        ...splitTopLevel(stmt, ';')
          .map((s) => s.trim())
          .filter(Boolean),
      );
  }
  return out;
}

function stripComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '!') return line.slice(0, i);
  }
  return line;
}

/** Splits at `sep` outside parentheses, brackets and quotes. */
export function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === sep && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

const DECLARATION = /^(INTEGER|REAL|LOGICAL|CHARACTER|COMPLEX)\b(\s*\*\s*\d+|\s*\([^)]*\))?\s*(,[^:]*)?::(.*)$/i;

interface Declared {
  type: FortranType;
  dimensions: string[];
}

/** Names declared in a module, with their type and dimensions. */
export function declarations(statements: string[]): Map<string, Declared> {
  const out = new Map<string, Declared>();
  for (const s of statements) {
    const m = DECLARATION.exec(s);
    if (!m) continue;
    const base = m[1]!.toUpperCase();
    if (base === 'COMPLEX') continue;
    const type = base as FortranType;
    const attrDims = /DIMENSION\s*\(([^)]*)\)/i.exec(m[3] ?? '')?.[1];
    for (const entity of splitTopLevel(m[4]!, ',')) {
      const e = /^\s*([A-Za-z]\w*)\s*(\(([^)]*)\))?/.exec(entity);
      if (!e) continue;
      const dims = e[3] ?? attrDims;
      out.set(e[1]!.toLowerCase(), { type, dimensions: dims ? splitTopLevel(dims, ',').map((d) => d.trim().replace(/\s+/g, '')) : [] });
    }
  }
  return out;
}

/** `NAMELIST / name / a, b, c` statements -> namelist (upper case) -> names. */
export function namelistStatements(statements: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of statements) {
    const m = /^NAMELIST\s*\/\s*(\w+)\s*\/(.*)$/i.exec(s);
    if (!m) continue;
    const names = m[2]!
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    out.set(m[1]!.toUpperCase(), [...(out.get(m[1]!.toUpperCase()) ?? []), ...names]);
  }
  return out;
}

/** Names PW/src takes from input_parameters (`USE input_parameters, ONLY : a, b_ => b`). */
export function namesUsedFromInputParameters(statements: string[]): Set<string> {
  const used = new Set<string>();
  for (const s of statements) {
    const m = /^USE\s+input_parameters\s*,\s*ONLY\s*:(.*)$/i.exec(s);
    if (!m) continue;
    for (const item of m[1]!.split(',')) {
      const rename = /=>\s*(\w+)/.exec(item);
      const name = (rename ? rename[1]! : item).trim().toLowerCase();
      if (/^\w+$/.test(name)) used.add(name);
    }
  }
  return used;
}

const CASE_LABELS = /'([^']*)'|"([^"]*)"/g;

/**
 * The string values pw.x's code compares CHARACTER variables with, and what a SELECT CASE
 * on the variable does with any other value. Only `names` are followed.
 */
export function valuesInSource(statements: string[], names: Set<string>, into: Map<string, ValuesInSource>): void {
  interface Frame {
    name?: string;
    inDefault: boolean;
    labels: string[];
    ifDepth: number;
  }
  const stack: Frame[] = [];
  const entry = (name: string) => {
    let v = into.get(name);
    if (!v) into.set(name, (v = { literals: [] }));
    return v;
  };
  const add = (name: string, lit: string) => {
    const v = entry(name);
    if (!v.literals.includes(lit)) v.literals.push(lit);
  };
  for (const s of statements) {
    const select = /^(?:\w+\s*:\s*)?SELECT\s+CASE\s*\(\s*(?:TRIM\s*\(\s*)?(?:ADJUSTL\s*\(\s*)?(\w+)\s*\)?\s*\)?\s*\)\s*$/i.exec(s);
    const top = stack[stack.length - 1];
    if (select) {
      const name = select[1]!.toLowerCase();
      stack.push({ ...(names.has(name) ? { name } : {}), inDefault: false, labels: [], ifDepth: 0 });
      continue;
    }
    if (/^END\s*SELECT\b/i.test(s)) {
      stack.pop();
      continue;
    }
    if (top && /^CASE\s+DEFAULT\b/i.test(s)) {
      Object.assign(top, { inDefault: true, labels: [], ifDepth: 0 });
      continue;
    }
    const label = /^CASE\s*\((.*)\)\s*$/i.exec(s);
    if (top && label) {
      const labels = [...label[1]!.matchAll(CASE_LABELS)].map((m) => m[1] ?? m[2] ?? '');
      Object.assign(top, { inDefault: false, labels, ifDepth: 0 });
      if (top.name) for (const l of labels) add(top.name, l);
      continue;
    }
    if (top) {
      if (/^IF\s*\(.*\)\s*THEN$/i.test(s)) top.ifDepth++;
      else if (/^END\s*IF\b/i.test(s)) top.ifDepth--;
    }
    const err = /^CALL\s+errore\s*\((.*)\)\s*$/i.exec(s);
    const stops = err ? !(splitTopLevel(err[1]!, ',').pop()?.trim() ?? '1').startsWith('-') : false;
    if (top?.name && top.inDefault) {
      const v = entry(top.name);
      if (err && stops) v.unknown = 'stops';
      else if (err || /CALL\s+infomsg\b/i.test(s)) v.unknown ??= 'warns';
    } else if (top?.name && err && stops && top.ifDepth === 0) {
      // An unconditional stop in the branch of these values: pw.x refuses them.
      const message = [...splitTopLevel(err[1]!, ',')[1]!.matchAll(CASE_LABELS)]
        .map((m) => m[1] ?? m[2])
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
      const v = entry(top.name);
      for (const l of top.labels) (v.refused ??= {})[l] = message;
    }
    for (const m of s.matchAll(/(?:\bTRIM\s*\(\s*)?\b(\w+)\s*\)?\s*(?:==|\/=|\.EQ\.|\.NE\.)\s*(?:'([^']*)'|"([^"]*)")/gi)) {
      const name = m[1]!.toLowerCase();
      if (names.has(name)) add(name, m[2] ?? m[3] ?? '');
    }
  }
}

/** Names read_namelists.f90 declares obsolete (it prints "The input parameter X is obsolete" and stops). */
export function obsoleteNames(readNamelistsText: string): string[] {
  return [...new Set([...readNamelistsText.matchAll(/The input parameter (\w+) is obsolete/g)].map((m) => m[1]!.toLowerCase()))];
}

const OPS: Record<string, RangeCheck['stopsWhen'][number]['op']> = {
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '==': '==',
  '/=': '/=',
  '.LT.': '<',
  '.LE.': '<=',
  '.GT.': '>',
  '.GE.': '>=',
  '.EQ.': '==',
  '.NE.': '/=',
};

/**
 * The unconditional one-line checks of the *_checkin routines of read_namelists.f90:
 * `IF( name op number [.OR. name op number] ) CALL errore( sub_name, 'message', n )`, outside
 * any IF block (those depend on the program, cp.x or pw.x, or on other variables).
 */
export function rangeChecks(statements: string[], namelistOf: Map<string, string>): RangeCheck[] {
  const out: RangeCheck[] = [];
  let routine: string | undefined;
  let depth = 0;
  for (const s of statements) {
    const sub = /^SUBROUTINE\s+(\w+_checkin)\b/i.exec(s);
    if (sub) {
      routine = sub[1]!.toLowerCase();
      depth = 0;
      continue;
    }
    if (/^END\s+SUBROUTINE\b/i.test(s)) {
      routine = undefined;
      continue;
    }
    if (!routine) continue;
    if (/^IF\s*\(.*\)\s*THEN$/i.test(s) || /^DO\b/i.test(s)) {
      depth++;
      continue;
    }
    if (/^END\s*(IF|DO)\b/i.test(s)) {
      depth--;
      continue;
    }
    if (depth !== 0) continue;
    const m = /^IF\s*\((.*)\)\s*CALL\s+errore\s*\((.*)\)\s*$/i.exec(s);
    if (!m) continue;
    const args = splitTopLevel(m[2]!, ',');
    if ((args[2] ?? '').trim().startsWith('-')) continue;
    const terms = m[1]!
      .split(/\.OR\./i)
      .map((t) =>
        /^\s*\(?\s*(\w+)\s*(?:\(\s*(\d+)\s*\))?\s*(<=|>=|==|\/=|<|>|\.(?:LT|LE|GT|GE|EQ|NE)\.)\s*([-+]?[\d.]+(?:[eEdD][-+]?\d+)?)(?:_DP|_dp)?\s*\)?\s*$/.exec(
          t,
        ),
      );
    if (!terms.every((t) => t)) continue;
    const names = new Set(terms.map((t) => t![1]!.toLowerCase()));
    if (names.size !== 1) continue;
    const name = [...names][0]!;
    const namelist = namelistOf.get(name);
    if (!namelist) continue;
    const index = terms[0]![2];
    const check: RangeCheck = {
      namelist,
      name,
      stopsWhen: terms.map((t) => ({ op: OPS[t![3]!.toUpperCase()]!, value: Number(t![4]!.replace(/[dD]/, 'e')) })),
      message: [...(args[1] ?? '').matchAll(CASE_LABELS)]
        .map((x) => x[1] ?? x[2])
        .join('')
        .replace(/\s+/g, ' ')
        .trim(),
      routine,
    };
    if (index !== undefined) check.index = Number(index);
    out.push(check);
  }
  return out;
}

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export function pwNamelistsFromGit(gitDir: string, ref: string, qeVersion: QeVersion): PwNamelists {
  const commit = git(gitDir, ['rev-parse', `${ref}^{commit}`]).trim();
  const paramsFile = 'Modules/input_parameters.f90';
  const params = fortranStatements(git(gitDir, ['show', `${commit}:${paramsFile}`]));
  const pwFiles = git(gitDir, ['ls-tree', '-r', '--name-only', commit, 'PW/src'])
    .split('\n')
    .filter((f) => /\.f90$/i.test(f));
  const declared = declarations(params);
  const lists = namelistStatements(params);
  const characterNames = new Set(
    [...PW_NAMELISTS.flatMap((nl) => lists.get(nl) ?? [])].map((n) => n.toLowerCase()).filter((n) => declared.get(n)?.type === 'CHARACTER'),
  );
  const used = new Set<string>();
  const values = new Map<string, ValuesInSource>();
  // pw.x's own code, plus the card reader and the vdW switch it shares with cp.x.
  for (const f of [...pwFiles, ...PW_SHARED_FILES]) {
    const statements = fortranStatements(git(gitDir, ['show', `${commit}:${f}`]));
    for (const n of namesUsedFromInputParameters(statements)) used.add(n);
    if (f !== 'Modules/read_cards.f90') valuesInSource(statements, characterNames, values);
  }
  const namelists: Record<string, NamelistName[]> = {};
  for (const nl of PW_NAMELISTS) {
    const names = lists.get(nl);
    if (!names) continue;
    namelists[nl] = names.map((name) => {
      const d = declared.get(name.toLowerCase());
      if (!d) throw new Error(`${ref}: ${name} in NAMELIST /${nl}/ has no declaration in ${paramsFile}; extend the reader.`);
      return { name, type: d.type, dimensions: d.dimensions, usedByPw: used.has(name.toLowerCase()) };
    });
  }
  const readNamelists = git(gitDir, ['show', `${commit}:Modules/read_namelists.f90`]);
  const namelistOfName = new Map(
    Object.entries(namelists).flatMap(([nl, names]) => names.map((n) => [n.name.toLowerCase(), nl] as [string, string])),
  );
  const sortedValues = Object.fromEntries(
    [...values.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, { ...v, literals: [...v.literals].sort() }]),
  );
  return {
    qeVersion,
    source: {
      ref,
      commit,
      files: [
        paramsFile,
        'Modules/read_namelists.f90 (obsolete names)',
        'PW/src/*.f90 and ' + PW_SHARED_FILES.join(', ') + ' (names used, values compared)',
      ],
      licence: 'names, types and values read from Quantum ESPRESSO source, GPL-2.0-or-later (see scripts/qe-defs/source/NOTICE.md)',
    },
    namelists,
    values: sortedValues,
    obsolete: obsoleteNames(readNamelists),
    ranges: rangeChecks(fortranStatements(readNamelists), namelistOfName),
  };
}

export const NAMELIST_FILES: Record<QeVersion, string> = {
  '6.7': 'pw-namelists-6.7.json',
  '7.2': 'pw-namelists-7.2.json',
  develop: 'pw-namelists-develop.json',
};

function main(): void {
  const args = process.argv.slice(2);
  const gitAt = args.indexOf('--qe-git');
  if (gitAt < 0 || !args[gitAt + 1]) {
    console.error('usage: node --import tsx scripts/qe-defs/namelists.ts --qe-git /path/to/q-e/.git [--ref 7.2=qe-7.2 ...]');
    process.exit(2);
  }
  const gitDir = args[gitAt + 1]!;
  const refs: Record<QeVersion, string> = { '6.7': 'qe-6.7.0', '7.2': 'qe-7.2', develop: 'develop' };
  args.forEach((a, i) => {
    if (a !== '--ref') return;
    const m = /^(6\.7|7\.2|develop)=(.+)$/.exec(args[i + 1] ?? '');
    if (!m) {
      console.error(`--ref takes VERSION=REF with VERSION one of 6.7, 7.2, develop; got "${args[i + 1] ?? ''}"`);
      process.exit(2);
    }
    refs[m[1] as QeVersion] = m[2]!;
  });
  const dir = path.join(__dirname, 'source');
  for (const v of Object.keys(refs) as QeVersion[]) {
    const data = pwNamelistsFromGit(gitDir, refs[v], v);
    const file = path.join(dir, NAMELIST_FILES[v]);
    fs.writeFileSync(file, `${JSON.stringify(data, null, 1)}\n`);
    const count = Object.values(data.namelists).reduce((n, l) => n + l.length, 0);
    console.log(
      `wrote ${path.relative(process.cwd(), file)}: ${count} names in ${Object.keys(data.namelists).length} namelists (${refs[v]} = ${data.source.commit.slice(0, 10)})`,
    );
  }
}

if (require.main === module) main();
