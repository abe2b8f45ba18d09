/**
 * Card rules: known cards and options for this QE version, required cards present
 * once, card contents readable, and the counts and labels that must agree with the
 * namelists (nat, ntyp, species labels, the cell given one way only).
 */
import {
  readAtomicPositions,
  readAtomicSpecies,
  readCellParameters,
  readConstraints,
  readHubbard,
  readKPoints,
  readOccupations,
  type Read,
} from '../input/cards';
import { serializePwInput, setVariableEdit } from '../input/edit';
import type { Range } from '../input/model';
import { cardOf, namelistOf, numberIn, stringIn, valueOf } from '../input/query';
import { occupationsOf, type ValidationContext } from './context';
import { closestName } from './suggest';

const lineStart = (line: number): Range => ({ start: { line, character: 0 }, end: { line, character: 0 } });

function reportRead<T>(c: ValidationContext, read: Read<T> | undefined): T | undefined {
  if (!read) return undefined;
  for (const p of read.problems) c.report({ code: p.code, severity: 'error', range: p.range, message: p.message });
  return read.value;
}

function checkCardHeaders(c: ValidationContext): void {
  const seen = new Set<string>();
  for (const card of c.input.cards) {
    const def = c.defs.card(card.name);
    if (!def) {
      const other = c.otherDefs.find((d) => d.card(card.name));
      const hint =
        card.name === 'HUBBARD' && c.version === '6.7'
          ? ' In QE 6.x set DFT+U in &SYSTEM: lda_plus_u = .true. and Hubbard_U(i) (eV) per species.'
          : other
            ? ` It is a pw.x ${other.defs.qeVersion} card.`
            : '';
      const guess = other
        ? undefined
        : closestName(
            card.name,
            c.defs.defs.cards.map((x) => x.name),
          );
      c.report({
        code: 'unknown-card',
        severity: 'error',
        range: card.nameRange,
        message:
          `pw.x ${c.version} does not read a ${card.name} card; it prints "card ${card.name} ignored" and runs without it.${hint}` +
          (guess ? ` Did you mean ${guess}?` : ''),
        ...(guess ? { fixes: [{ title: `Rename to ${guess}`, edits: [{ range: card.nameRange, newText: guess }] }] } : {}),
      });
      continue;
    }
    if (seen.has(card.name)) {
      c.report({
        code: 'duplicate-card',
        severity: 'error',
        range: card.nameRange,
        message: `${card.name} appears twice; keep one (pw.x would read the second as data of the first or stop).`,
      });
    }
    seen.add(card.name);
    const options = def.options.flatMap((o) => o.values);
    if (card.option === undefined) {
      if (!def.optionOptional) {
        c.report({
          code: 'card-option-missing',
          severity: 'error',
          range: card.nameRange,
          message: `${card.name} needs an option: one of ${options.join(', ')}, e.g. "${card.name} {${options[0]}}".`,
        });
      } else if (card.name === 'ATOMIC_POSITIONS' || card.name === 'CELL_PARAMETERS') {
        const assumed =
          card.name === 'ATOMIC_POSITIONS'
            ? 'alat'
            : valueOf(c.input, 'system', 'celldm(1)') !== undefined || valueOf(c.input, 'system', 'a') !== undefined
              ? 'alat'
              : 'bohr';
        c.report({
          code: 'card-units-implicit',
          severity: 'warning',
          range: card.nameRange,
          message: `${card.name} gives no units; pw.x assumes ${assumed} (deprecated). State them: ${card.name} {${assumed}}.`,
          fixes: [{ title: `Write ${card.name} {${assumed}}`, edits: [{ range: card.nameRange, newText: `${card.name} {${assumed}}` }] }],
        });
      }
    } else if (options.length && !options.includes(card.option)) {
      const guess = closestName(card.option, options);
      c.report({
        code: 'card-option-invalid',
        severity: 'error',
        range: card.optionRange!,
        message:
          `${card.name} has no option "${card.option}"; use one of ${options.join(', ')}.` + (guess ? ` Did you mean ${guess}?` : ''),
        ...(guess ? { fixes: [{ title: `Change to ${guess}`, edits: [{ range: card.optionRange!, newText: guess }] }] } : {}),
      });
    }
  }
  const anchor = c.input.cards[0]?.nameRange ?? c.input.namelists[c.input.namelists.length - 1]?.endRange ?? lineStart(0);
  for (const def of c.defs.defs.cards) {
    if (!def.required || seen.has(def.name)) continue;
    if (def.name === 'K_POINTS') {
      // Checked with pw.x 6.7: it runs, at the Gamma point only.
      c.report({
        code: 'missing-card',
        severity: 'warning',
        range: anchor,
        message:
          'the K_POINTS card is missing; pw.x then computes at the Γ point only (one k-point), as for a molecule in a box. For a crystal or a slab add "K_POINTS {automatic}" with a converged mesh.',
      });
    } else {
      c.report({
        code: 'missing-card',
        severity: 'error',
        range: anchor,
        message: `the ${def.name} card is missing; pw.x needs it. ${def.description}`.trim(),
      });
    }
  }
}

function checkCounts(c: ValidationContext): void {
  const species = reportRead(c, readAtomicSpecies(c.input));
  const positions = reportRead(c, readAtomicPositions(c.input));
  const system = namelistOf(c.input, 'system');
  const nat = numberIn(c.input, 'system', 'nat');
  const ntyp = numberIn(c.input, 'system', 'ntyp');
  const posCard = cardOf(c.input, 'ATOMIC_POSITIONS');
  const specCard = cardOf(c.input, 'ATOMIC_SPECIES');
  const calculation = stringIn(c.input, 'control', 'calculation') ?? 'scf';
  if (
    positions &&
    posCard &&
    nat !== undefined &&
    system &&
    calculation !== 'bands' &&
    calculation !== 'nscf' &&
    positions.unit !== 'crystal_sg' &&
    nat >= 0 &&
    positions.atoms.length !== nat
  ) {
    const fewer = positions.atoms.length < nat;
    c.report({
      code: 'nat-mismatch',
      severity: 'error',
      range: rangeOfNamelistKey(c, 'nat') ?? posCard.nameRange,
      message:
        `nat = ${nat} but ATOMIC_POSITIONS lists ${positions.atoms.length} atom${positions.atoms.length === 1 ? '' : 's'}; ` +
        (fewer ? 'pw.x would read the next card as positions and stop.' : `pw.x reads the first ${nat} and ignores the rest.`) +
        ` Set nat = ${positions.atoms.length} or fix the list.`,
      fixes: [{ title: `Set nat = ${positions.atoms.length}`, edits: [setVariableEdit(c.input, 'system', 'nat', positions.atoms.length)] }],
    });
  }
  if (species && specCard && ntyp !== undefined && species.length !== ntyp) {
    c.report({
      code: 'ntyp-mismatch',
      severity: 'error',
      range: rangeOfNamelistKey(c, 'ntyp') ?? specCard.nameRange,
      message: `ntyp = ${ntyp} but ATOMIC_SPECIES lists ${species.length} species; set ntyp = ${species.length} or fix the list.`,
      fixes: [{ title: `Set ntyp = ${species.length}`, edits: [setVariableEdit(c.input, 'system', 'ntyp', species.length)] }],
    });
  }
  if (species && positions) {
    const labels = new Set(species.map((s) => s.label));
    const used = new Set<string>();
    for (const a of positions.atoms) {
      used.add(a.label);
      if (!labels.has(a.label)) {
        const guess = closestName(a.label, labels);
        c.report({
          code: 'species-undeclared',
          severity: 'error',
          range: a.range,
          message:
            `species ${a.label} in ATOMIC_POSITIONS is not in ATOMIC_SPECIES (${[...labels].join(', ')}); pw.x stops with "species ${a.label} ... is nonexistent".` +
            (guess ? ` Did you mean ${guess}?` : ' Add it to ATOMIC_SPECIES.'),
        });
      }
    }
    for (const s of species) {
      if (!used.has(s.label) && positions.unit !== 'crystal_sg') {
        c.report({
          code: 'species-unused',
          severity: 'warning',
          range: s.range,
          message: `species ${s.label} has no atom in ATOMIC_POSITIONS; pw.x still reads its pseudopotential and counts it in ntyp. Remove it unless you mean to.`,
        });
      }
    }
    const seen = new Set<string>();
    for (const s of species) {
      if (seen.has(s.label)) {
        c.report({
          code: 'species-duplicate',
          severity: 'error',
          range: s.range,
          message: `species ${s.label} is declared twice in ATOMIC_SPECIES; give each species a distinct label (e.g. Fe1, Fe2).`,
        });
      }
      seen.add(s.label);
    }
  }
  if (positions?.unit === 'crystal_sg' && valueOf(c.input, 'system', 'space_group') === undefined && posCard) {
    c.report({
      code: 'crystal-sg-needs-space-group',
      severity: 'error',
      range: posCard.optionRange ?? posCard.nameRange,
      message:
        'ATOMIC_POSITIONS {crystal_sg} lists only inequivalent atoms and needs space_group in &SYSTEM; set space_group or use {crystal}.',
    });
  }
  const calc = calculation;
  if (positions && !['relax', 'md', 'vc-relax', 'vc-md'].includes(calc) && positions.atoms.some((a) => a.ifPos?.some((f) => f === 0))) {
    c.report({
      code: 'if-pos-unused',
      severity: 'info',
      range: posCard!.nameRange,
      message: `if_pos flags fix atoms only in relaxations and MD; calculation='${calc}' ignores them.`,
    });
  }
}

function rangeOfNamelistKey(c: ValidationContext, key: string): Range | undefined {
  const nl = namelistOf(c.input, 'system');
  const a = nl?.assignments.filter((x) => x.key === key).pop();
  return a?.range;
}

function checkCell(c: ValidationContext): void {
  const ibrav = numberIn(c.input, 'system', 'ibrav');
  const cellCard = cardOf(c.input, 'CELL_PARAMETERS');
  const cell = reportRead(c, readCellParameters(c.input));
  const celldm = valueOf(c.input, 'system', 'celldm(1)') !== undefined;
  const A = valueOf(c.input, 'system', 'A') !== undefined;
  const where = rangeOfNamelistKey(c, 'ibrav') ?? namelistOf(c.input, 'system')?.headerRange;
  if (celldm && A && where) {
    c.report({
      code: 'celldm-and-abc',
      severity: 'error',
      range: rangeOfNamelistKey(c, 'a') ?? where,
      message: 'both celldm and A (B, C, cosAB, ...) are set; pw.x stops with "do not specify both celldm and a,b,c!". Keep one.',
    });
  }
  if (ibrav === 0 && !cellCard && where && valueOf(c.input, 'system', 'space_group') === undefined) {
    c.report({
      code: 'cell-parameters-missing',
      severity: 'error',
      range: where,
      message:
        'ibrav = 0 takes the lattice vectors from CELL_PARAMETERS, which is missing; add "CELL_PARAMETERS {angstrom}" with three vectors, or set ibrav and celldm.',
    });
  }
  if (ibrav !== undefined && ibrav !== 0 && cellCard) {
    c.report({
      code: 'cell-parameters-redundant',
      severity: 'error',
      range: cellCard.nameRange,
      message: `ibrav = ${ibrav} defines the lattice, so CELL_PARAMETERS is redundant; pw.x stops with "redundant data for cell parameters". Remove the card or set ibrav = 0.`,
    });
  }
  if (ibrav !== undefined && ibrav !== 0 && !celldm && !A && where) {
    c.report({
      code: 'lattice-parameter-missing',
      severity: 'error',
      range: where,
      message: `ibrav = ${ibrav} needs the lattice parameter: celldm(1) (bohr) or A (Å).`,
    });
  }
  if (cell && cell.unit === 'alat' && !celldm && !A && cellCard) {
    c.report({
      code: 'cell-alat-without-alat',
      severity: 'error',
      range: cellCard.optionRange ?? cellCard.nameRange,
      message:
        'CELL_PARAMETERS {alat} scales the vectors by celldm(1) or A, and neither is set; give the vectors in {angstrom} or {bohr}, or set celldm(1).',
    });
  }
}

function checkOtherCards(c: ValidationContext): void {
  const k = reportRead(c, readKPoints(c.input));
  const occ = occupationsOf(c);
  const kCard = cardOf(c.input, 'K_POINTS');
  if (k && kCard && occ.startsWith('tetrahedra') && k.kind !== 'automatic') {
    c.report({
      code: 'tetrahedra-need-mesh',
      severity: 'error',
      range: kCard.optionRange ?? kCard.nameRange,
      message: `occupations='${occ}' integrates over a uniform mesh; use K_POINTS {automatic}.`,
    });
  }
  const occCard = cardOf(c.input, 'OCCUPATIONS');
  reportRead(c, readOccupations(c.input));
  if (occ === 'from_input' && !occCard) {
    c.report({
      code: 'occupations-card-missing',
      severity: 'error',
      range: rangeOfNamelistKey(c, 'occupations') ?? lineStart(0),
      message: "occupations='from_input' reads the OCCUPATIONS card, which is missing; add it or choose another occupations.",
    });
  }
  if (occCard && occ !== 'from_input') {
    c.report({
      code: 'occupations-card-ignored',
      severity: 'warning',
      range: occCard.nameRange,
      message: `the OCCUPATIONS card is read only with occupations='from_input' (here '${occ}'); pw.x ignores it.`,
    });
  }
  reportRead(c, readConstraints(c.input));
  const hubbard = cardOf(c.input, 'HUBBARD');
  if (hubbard && c.defs.card('HUBBARD')) reportRead(c, readHubbard(c.input));
}

/**
 * pw.x reads an ATOMIC_POSITIONS label with get_field (Modules/parser.f90), which splits at blanks
 * and TABs but strips only leading blanks: a TAB before the label becomes part of it, and pw.x
 * stops with "species <TAB>Fe in ATOMIC_POSITIONS is nonexistent". TABs between fields are fine.
 */
function checkTabBeforeLabel(c: ValidationContext): void {
  const card = cardOf(c.input, 'ATOMIC_POSITIONS');
  if (!card?.lines.length) return;
  const text = serializePwInput(c.input).split(/\r?\n/);
  for (const line of card.lines) {
    const first = line.fields[0];
    if (!first) continue;
    const lead = (text[first.range.start.line] ?? '').slice(0, first.range.start.character);
    if (!lead.includes('\t')) continue;
    const range = { start: { line: first.range.start.line, character: 0 }, end: first.range.start };
    c.report({
      code: 'tab-before-label',
      severity: 'error',
      range,
      message: `a TAB precedes the species label ${first.text} in ATOMIC_POSITIONS; pw.x keeps the TAB as part of the label and stops with "species ${first.text} in ATOMIC_POSITIONS is nonexistent". Indent with spaces.`,
      fixes: [{ title: 'Indent with spaces', edits: [{ range, newText: '  ' }] }],
    });
  }
}

export function checkCards(c: ValidationContext): void {
  checkCardHeaders(c);
  checkTabBeforeLabel(c);
  checkCounts(c);
  checkCell(c);
  checkOtherCards(c);
}
