/**
 * Rules from the definitions: namelists (known, in order, once, present when pw.x reads
 * them), variables (known in this namelist and version, right type, allowed value,
 * index in range, required ones present, assigned once).
 */
import type { QeNamelist, QeVariable } from '../definitions';
import { removeVariableEdits, setVariableEdit, type TextEdit } from '../input/edit';
import type { Assignment, Namelist, Range, ValueItem } from '../input/model';
import { assignedOf, assignedValues, logicalIn, namelistOf, numberIn, valueOf } from '../input/query';
import { calculationOf, type ValidationContext } from './context';
import { closestName } from './suggest';

/** Variables whose value pw.x compares case-sensitively (calculation='SCF' is refused by pw.x 6.7). */
const CASE_SENSITIVE = new Set(['calculation']);

/** Namelists pw.x reads only for some calculations, and refuses to run without for them. */
const NEEDED_FOR: Record<string, string[]> = {
  IONS: ['relax', 'md', 'vc-relax', 'vc-md', 'ensemble'],
  CELL: ['vc-relax', 'vc-md'],
};

const lineRange = (line: number): Range => ({ start: { line, character: 0 }, end: { line, character: 0 } });

function namelistInsertion(c: ValidationContext, name: string): TextEdit {
  const order = c.defs.namelistOrder(name);
  const next = c.input.namelists.find((n) => c.defs.namelistOrder(n.name) > order);
  const anchor = next?.headerRange.start.line ?? c.input.cards[0]?.nameRange.start.line ?? c.input.lineCount;
  return { range: lineRange(anchor), newText: `&${name}${c.input.eol}/${c.input.eol}` };
}

export function checkNamelists(c: ValidationContext): void {
  const seen = new Set<string>();
  let lastOrder = -1;
  let lastName = '';
  const firstCard = c.input.cards[0];
  for (const nl of c.input.namelists) {
    const def = c.defs.namelist(nl.name);
    if (!def) {
      const guess = closestName(
        nl.name,
        c.defs.defs.namelists.map((n) => n.name),
      );
      c.report({
        code: 'unknown-namelist',
        severity: 'error',
        range: nl.headerRange,
        message:
          `pw.x ${c.version} has no namelist &${nl.name}` +
          (guess ? `: did you mean &${guess}?` : `; its namelists are ${c.defs.defs.namelists.map((n) => `&${n.name}`).join(', ')}.`),
        ...(guess ? { fixes: [{ title: `Rename to &${guess}`, edits: [{ range: nl.headerRange, newText: `&${guess}` }] }] } : {}),
      });
      continue;
    }
    if (seen.has(nl.name)) {
      // Checked with pw.x 6.7: it reads the first and skips the second ("card &X ignored").
      const lost = nl.assignments.length;
      c.report({
        code: 'duplicate-namelist',
        severity: lost ? 'error' : 'warning',
        range: nl.headerRange,
        message:
          `&${nl.name} appears twice; pw.x reads the first and ignores this one` +
          (lost ? `, so its ${lost} assignment${lost === 1 ? ' is' : 's are'} lost. Merge the two into one namelist.` : '. Delete it.'),
      });
      continue;
    }
    seen.add(nl.name);
    const order = c.defs.namelistOrder(nl.name);
    if (order < lastOrder) {
      c.report({
        code: 'namelist-order',
        severity: 'error',
        range: nl.headerRange,
        message:
          `&${nl.name} comes after &${lastName}, but pw.x reads namelists in the order ` +
          `${c.defs.defs.namelists.map((n) => n.name).join(', ')}; move &${nl.name} before &${lastName}.`,
      });
    } else {
      lastOrder = order;
      lastName = nl.name;
    }
    if (firstCard && nl.headerRange.start.line > firstCard.nameRange.start.line) {
      c.report({
        code: 'namelist-after-cards',
        severity: 'error',
        range: nl.headerRange,
        message: `&${nl.name} follows the ${firstCard.name} card; pw.x reads all namelists before the cards, so the cards before it would be lost. Move &${nl.name} above the cards.`,
      });
    }
  }
  const missingAt = c.input.namelists[0]?.headerRange ?? lineRange(0);
  for (const def of c.defs.defs.namelists) {
    if (!def.required || seen.has(def.name)) continue;
    c.report({
      code: 'missing-namelist',
      severity: 'error',
      range: missingAt,
      message: `&${def.name} is missing; pw.x always reads it (it may be empty: "&${def.name}" then "/").`,
      fixes: [{ title: `Add an empty &${def.name}`, edits: [namelistInsertion(c, def.name)] }],
    });
  }
  const calculation = calculationOf(c);
  for (const [name, calcs] of Object.entries(NEEDED_FOR)) {
    if (calcs.includes(calculation) && !seen.has(name) && c.defs.namelist(name)) {
      const calcAt = assignedOf(c.input, 'control', 'calculation')?.assignment.range;
      c.report({
        code: 'missing-namelist',
        severity: 'error',
        range: calcAt ?? namelistOf(c.input, 'control')?.headerRange ?? missingAt,
        message: `calculation='${calculation}' reads &${name}; without it pw.x stops with "bad line in namelist &${name.toLowerCase()}". Add &${name} (it may be empty).`,
        fixes: [{ title: `Add an empty &${name}`, edits: [namelistInsertion(c, name)] }],
      });
    }
  }
  for (const nl of c.input.namelists) {
    const def = c.defs.namelist(nl.name);
    if (def) checkAssignments(c, nl, def);
  }
}

function typeProblem(v: QeVariable, item: ValueItem): string | undefined {
  const t = item.value.type;
  switch (v.type) {
    case 'INTEGER':
      return t === 'integer' ? undefined : `${v.name} is an INTEGER; "${item.raw}" is not a whole number written without a decimal point.`;
    case 'REAL':
      return t === 'integer' || t === 'real' ? undefined : `${v.name} is a REAL number; "${item.raw}" is not a number.`;
    case 'LOGICAL':
      if (t === 'logical' || (t === 'word' && /^\.?[tf]/i.test(item.value.value as string))) return undefined;
      return `${v.name} is LOGICAL; write .true. or .false., not "${item.raw}".`;
    case 'CHARACTER':
      return t === 'string' ? undefined : `${v.name} is a string; write it in quotes: ${v.name} = '${item.raw}'.`;
  }
}

function resolveBound(c: ValidationContext, bound: string): number | undefined {
  if (/^\d+$/.test(bound)) return Number(bound);
  if (/^[a-z_]\w*$/i.test(bound)) {
    const v = numberIn(c.input, 'system', bound);
    return v !== undefined && Number.isInteger(v) ? v : undefined;
  }
  return undefined;
}

function checkIndices(c: ValidationContext, a: Assignment, v: QeVariable): void {
  if (a.indices.length === 0) return;
  if (v.dimensions.length === 0) {
    c.report({
      code: 'index-on-scalar',
      severity: 'error',
      range: a.nameRange,
      message: `${v.name} is a single value, not an array: write ${v.name} = ..., without "(${a.indices.join(',')})".`,
      fixes: [{ title: `Remove the index`, edits: [{ range: a.nameRange, newText: a.name }] }],
    });
    return;
  }
  if (a.indices.length !== v.dimensions.length) {
    c.report({
      code: 'index-count',
      severity: 'error',
      range: a.nameRange,
      message: `${v.name} takes ${v.dimensions.length} ${v.dimensions.length === 1 ? 'index' : 'indices'} (${v.dimensions.map((d) => d.index).join(',')}); "${a.key}" has ${a.indices.length}.`,
    });
    return;
  }
  a.indices.forEach((i, k) => {
    const d = v.dimensions[k]!;
    const lo = resolveBound(c, d.start) ?? 1;
    const hi = resolveBound(c, d.end);
    if (i < lo || (hi !== undefined && i > hi)) {
      c.report({
        code: 'index-out-of-range',
        severity: 'error',
        range: a.nameRange,
        message:
          `index ${i} of ${v.name} is outside ${d.start}..${d.end}${hi !== undefined && !/^\d+$/.test(d.end) ? ` (${d.end} = ${hi})` : ''}; ` +
          (d.end === 'ntyp' ? 'the index counts species in ATOMIC_SPECIES order.' : 'use an index in that range.'),
      });
    }
  });
}

function checkOptions(c: ValidationContext, v: QeVariable, item: ValueItem): void {
  const value = String(item.value.value);
  const quote = (s: string) => (v.type === 'CHARACTER' ? `'${s}'` : s);
  const refused = v.refused?.[value];
  if (refused !== undefined) {
    c.report({
      code: 'value-refused',
      severity: 'error',
      range: item.range,
      message: `pw.x ${c.version} stops on ${v.name} = ${quote(value)}: "${refused}". Choose another value.`,
    });
    return;
  }
  if (!v.optionsClosed) return;
  const documented = v.options.flatMap((o) => o.values);
  const allowed = [...documented, ...(v.alsoAccepted ?? [])];
  if (allowed.includes(value)) return;
  const caseMatch = allowed.find((x) => x.toLowerCase() === value.toLowerCase());
  if (caseMatch) {
    const strict = CASE_SENSITIVE.has(v.name.toLowerCase());
    c.report({
      code: 'value-case',
      severity: strict ? 'error' : 'warning',
      range: item.range,
      message: strict
        ? `pw.x compares ${v.name} case-sensitively and refuses ${quote(value)}; write ${quote(caseMatch)}.`
        : `${v.name} = ${quote(value)}: QE documents ${quote(caseMatch)}; some pw.x versions compare case-sensitively, so write it as documented.`,
      fixes: [{ title: `Change to ${quote(caseMatch)}`, edits: [{ range: item.range, newText: quote(caseMatch) }] }],
    });
    return;
  }
  const guess = closestName(value, allowed);
  // pw.x's source says what an unknown value does: most stop the run; a few (vdw_corr) print a warning and go on without it.
  const warns = v.unknownValue === 'warns';
  c.report({
    code: 'value-not-allowed',
    severity: warns ? 'warning' : 'error',
    range: item.range,
    message:
      `${v.name} = ${quote(value)} is not a value pw.x ${c.version} ${warns ? 'knows' : 'accepts'}` +
      (warns ? '; pw.x prints a warning and runs as if it were not set' : '') +
      (guess ? `; did you mean ${quote(guess)}?` : '.') +
      ` Allowed: ${[...new Set(documented)].map(quote).join(', ')}.`,
    ...(guess ? { fixes: [{ title: `Change to ${quote(guess)}`, edits: [{ range: item.range, newText: quote(guess) }] }] } : {}),
  });
}

const HOLDS: Record<string, (x: number, y: number) => boolean> = {
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
  '==': (x, y) => x === y,
  '/=': (x, y) => x !== y,
};

/**
 * Whether pw.x reads this namelist for this input (read_namelists.f90): &IONS except for
 * nscf/bands, &CELL for variable-cell runs, &FCP with lfcp, &RISM with trism. A value in a
 * namelist pw.x skips is never checked.
 */
function namelistRead(c: ValidationContext, name: string): boolean {
  const calc = calculationOf(c);
  switch (name) {
    case 'IONS':
      return calc !== 'nscf' && calc !== 'bands';
    case 'CELL':
      return calc === 'vc-relax' || calc === 'vc-md';
    case 'FCP':
      return logicalIn(c.input, 'control', 'lfcp') === true;
    case 'RISM':
      return logicalIn(c.input, 'control', 'trism') === true;
    default:
      return true;
  }
}

/** The checks pw.x makes on a value while reading it (generated from read_namelists.f90's *_checkin). */
function checkValueRange(c: ValidationContext, nl: Namelist, a: Assignment, v: QeVariable): void {
  if (!v.checks || !namelistRead(c, nl.name)) return;
  a.values.forEach((item, k) => {
    if (item.value.type !== 'integer' && item.value.type !== 'real') return;
    const x = item.value.value;
    const index = (a.indices[0] ?? 1) + k;
    for (const check of v.checks!) {
      if (check.index !== undefined && check.index !== index) continue;
      if (!check.stopsWhen.some((w) => HOLDS[w.op]!(x, w.value))) continue;
      const allowed = check.stopsWhen
        .map((w) => `${w.op === '/=' ? '=' : { '<': '≥', '<=': '>', '>': '≤', '>=': '<', '==': '≠' }[w.op]} ${w.value}`)
        .join(' and ');
      c.report({
        code: 'value-out-of-range',
        severity: 'error',
        range: item.range,
        message: `${a.key} = ${item.raw}: pw.x ${c.version} stops with "${check.message}" while reading &${nl.name}; it needs ${v.name} ${allowed}.`,
      });
      return;
    }
  });
}

/** A name pw.x's namelist accepts or documents, but which is not a plain, documented, read variable. */
function sourceNotes(c: ValidationContext, nl: Namelist, a: Assignment, v: QeVariable): 'stop' | undefined {
  if (v.inNamelist === false) {
    c.report({
      code: 'variable-not-read',
      severity: 'error',
      range: a.nameRange,
      message:
        `${v.name} is described in INPUT_PW for pw.x ${c.version}, but pw.x's namelist &${nl.name} does not list it, so pw.x stops with ` +
        `"bad line in namelist &${nl.name.toLowerCase()}". Remove it.`,
      fixes: [{ title: `Remove ${a.key}`, edits: removeEditsFor(nl, a) }],
    });
    return 'stop';
  }
  if (v.obsolete) {
    if (a.values.some((x) => !isObsoleteDefault(x))) {
      c.report({
        code: 'variable-not-in-version',
        severity: 'error',
        range: a.nameRange,
        message:
          `${a.name} is obsolete in pw.x ${c.version}: pw.x stops with "DFT+Hubbard input syntax has changed since v7.1". ` +
          'From QE 7.0 on, DFT+U is set with the HUBBARD card (e.g. "HUBBARD {ortho-atomic}" then "U Fe-3d 4.0").',
      });
    } else {
      c.report({
        code: 'variable-obsolete',
        severity: 'warning',
        range: a.nameRange,
        message: `${a.name} is obsolete in pw.x ${c.version} (DFT+U is set with the HUBBARD card); at this value pw.x ignores it. Remove it.`,
        fixes: [{ title: `Remove ${a.key}`, edits: removeEditsFor(nl, a) }],
      });
    }
    return 'stop';
  }
  if (v.documented === false) {
    c.report(
      v.usedByPw === false
        ? {
            code: 'variable-ignored',
            severity: 'warning',
            range: a.nameRange,
            message: `${a.name} is accepted by pw.x's namelist &${nl.name} but no code of pw.x ${c.version} uses it (it is a cp.x variable): pw.x ignores it.`,
          }
        : {
            code: 'variable-undocumented',
            severity: 'info',
            range: a.nameRange,
            message: `${a.name} is read by pw.x ${c.version} (its namelist &${nl.name} declares it) but INPUT_PW does not document it; check QE's source for its meaning.`,
          },
    );
  }
  return undefined;
}

/** The values at which an obsolete DFT+U variable leaves pw.x 7.x running (its read_namelists tests "set and not zero"). */
function isObsoleteDefault(item: ValueItem): boolean {
  const x = item.value;
  if (x.type === 'logical') return x.value === false;
  if (x.type === 'string') return String(x.value).trim() === '';
  if (x.type === 'integer' || x.type === 'real') return Number(x.value) <= 0;
  return false;
}

function unknownVariable(c: ValidationContext, nl: Namelist, a: Assignment): void {
  const elsewhere = c.defs.namelistsOf(a.name).filter((n) => n.name !== nl.name);
  if (elsewhere.length) {
    const target = elsewhere[0]!.name;
    const edits = [...removeVariableEdits(c.input, nl.name, a.key)];
    const text = a.values.map((v) => v.raw).join(', ');
    if (namelistOf(c.input, target) && a.values.length) edits.push(setVariableEdit(c.input, target, a.key, { raw: text }));
    c.report({
      code: 'variable-in-wrong-namelist',
      severity: 'error',
      range: a.nameRange,
      message: `${a.name} belongs to &${target}, not &${nl.name}; pw.x stops with "bad line in namelist &${nl.name.toLowerCase()}". Move it to &${target}.`,
      ...(edits.length > 1 ? { fixes: [{ title: `Move ${a.key} to &${target}`, edits }] } : {}),
    });
    return;
  }
  const other = c.otherDefs.find((d) => {
    const x = d.variable(nl.name, a.name);
    return x && x.documented !== false && x.inNamelist !== false;
  });
  if (other) {
    const hubbard = /^(lda_plus_u|lda_plus_u_kind|u_projection_type|hubbard_)/i.test(a.name);
    c.report({
      code: 'variable-not-in-version',
      severity: 'error',
      range: a.nameRange,
      message:
        `${a.name} is read by pw.x ${other.defs.qeVersion} but not by pw.x ${c.version}` +
        (hubbard && c.version !== '6.7'
          ? '; from QE 7.0 on, DFT+U is set with the HUBBARD card (e.g. "HUBBARD {ortho-atomic}" then "U Fe-3d 4.0").'
          : '; remove it or validate for the version you run.'),
    });
    return;
  }
  const guess = closestName(
    a.name,
    (c.defs.namelist(nl.name)?.variables ?? []).map((v) => v.name),
  );
  c.report({
    code: 'unknown-variable',
    severity: 'error',
    range: a.nameRange,
    message:
      `&${nl.name} has no variable "${a.name}" in pw.x ${c.version}` +
      (guess ? `: did you mean ${guess}?` : '; pw.x stops with "bad line in namelist".'),
    ...(guess
      ? {
          fixes: [
            {
              title: `Rename to ${guess}`,
              edits: [
                {
                  range: {
                    start: a.nameRange.start,
                    end: { line: a.nameRange.start.line, character: a.nameRange.start.character + a.name.length },
                  },
                  newText: guess,
                },
              ],
            },
          ],
        }
      : {}),
  });
}

/** Variables the definition marks REQUIRED only under a condition stated in its prose. */
function requiredHere(c: ValidationContext, v: QeVariable): boolean {
  const name = v.name.toLowerCase();
  if (name === 'ibrav') return valueOf(c.input, 'system', 'space_group') === undefined;
  if (name === 'gcscf_mu') return logicalIn(c.input, 'system', 'lgcscf') === true;
  return true;
}

function checkAssignments(c: ValidationContext, nl: Namelist, def: QeNamelist): void {
  const firstByKey = new Map<string, Assignment>();
  for (const a of nl.assignments) {
    const v = c.defs.variable(nl.name, a.name);
    if (!v) {
      unknownVariable(c, nl, a);
      continue;
    }
    const prior = firstByKey.get(a.key);
    if (prior) {
      c.report({
        code: 'duplicate-variable',
        severity: 'warning',
        range: a.nameRange,
        message: `${a.key} is set twice in &${nl.name} (first on line ${prior.nameRange.start.line + 1}); pw.x uses this later value. Remove one.`,
        fixes: [{ title: `Remove the earlier ${a.key}`, edits: removeEditsFor(nl, prior) }],
      });
    }
    firstByKey.set(a.key, a);
    if (sourceNotes(c, nl, a, v) === 'stop') continue;
    checkIndices(c, a, v);
    for (const item of a.values) {
      const problem = typeProblem(v, item);
      if (problem) {
        const quoteFix = v.type === 'CHARACTER' && item.value.type !== 'string';
        c.report({
          code: 'wrong-type',
          severity: 'error',
          range: item.range,
          message: problem,
          ...(quoteFix ? { fixes: [{ title: 'Put the value in quotes', edits: [{ range: item.range, newText: `'${item.raw}'` }] }] } : {}),
        });
        continue;
      }
      checkOptions(c, v, item);
    }
    checkValueRange(c, nl, a, v);
  }
  const assigned = assignedValues(nl);
  for (const v of def.variables) {
    if (!v.required || !requiredHere(c, v)) continue;
    const key = v.name.toLowerCase();
    if (assigned.has(key) || assigned.has(`${key}(1)`)) continue;
    c.report({
      code: 'missing-required',
      severity: 'error',
      range: nl.headerRange,
      message: `&${nl.name} needs ${v.name} (${v.type}); pw.x ${c.version} requires it. ${firstSentence(v.description)}`,
    });
  }
}

function removeEditsFor(nl: Namelist, a: Assignment): TextEdit[] {
  // Remove exactly this assignment (the earlier of two with the same key).
  const others = nl.assignments.filter((x) => x !== a && x.range.start.line === a.range.start.line);
  if (!others.length)
    return [
      { range: { start: { line: a.range.start.line, character: 0 }, end: { line: a.range.start.line + 1, character: 0 } }, newText: '' },
    ];
  return [{ range: a.range, newText: '' }];
}

const firstSentence = (s: string) => (/^[^.]*\./.exec(s.replace(/\s+/g, ' '))?.[0] ?? '').trim();
