/**
 * CIF read and write. Reading expands the asymmetric unit with the file's symmetry operations
 * (_space_group_symop_operation_xyz or _symmetry_equiv_pos_as_xyz), or, when it lists none,
 * with those of its space group (ITA number or Hermann–Mauguin symbol). Ordered crystals only:
 * a site with an occupancy other than 1 is refused by name. Numbers may carry uncertainties,
 * 5.431(2). The cell is oriented as crystallographic files imply (a along x, b in the xy plane).
 * Writing gives a P1 file (every atom listed) with fractional coordinates to 1e-12.
 */
import type { Structure, Vec3 } from '../types';
import { toCartesian, toFractional } from '../structure/cell';
import { cellFromParameters, parametersOfCell } from '../structure/cellParameters';
import { operationsOfSpaceGroup, type FractionalOperation } from '../structure/symmetry';
import { cifNumber, columnOf, parseCifBlocks, type CifBlock, type CifValue } from './cifSyntax';
import { isChemicalSymbol } from './elements';
import { StructureFileError } from './errors';

export interface CifReadOptions {
  /** The data block to read when the file holds several with atoms. */
  block?: string;
}

/** Fractional tolerance within which two images of a site are one atom (as ASE's crystal()). */
const DUPLICATE_TOLERANCE = 1e-3;
/** Occupancies within this of 1 count as 1 (files round 1 to 0.999 or 1.000(1)). */
const OCCUPANCY_TOLERANCE = 1e-3;

const fail = (line: number | undefined, message: string): never => {
  throw new StructureFileError('cif', line, message);
};

/** One component of an operation such as "-y+x+1/2": a row of R and a translation. */
function parseComponent(expr: string, line: number, whole: string): { row: Vec3; t: number } {
  const row: Vec3 = [0, 0, 0];
  let t = 0;
  const s = expr.replace(/\s+/g, '').toLowerCase();
  if (!s) fail(line, `the operation "${whole}" has an empty component; write three, as in "x, y, z".`);
  const terms = s.match(/[+-]?[^+-]+/g) ?? [];
  if (terms.join('') !== s) fail(line, `cannot read "${expr}" in the operation "${whole}".`);
  for (const term of terms) {
    const m = /^([+-]?)(\d*\.?\d*(?:\/\d+\.?\d*)?)\*?([xyz]?)$/.exec(term);
    if (!m || (m[2] === '' && m[3] === ''))
      fail(line, `cannot read the term "${term}" in the operation "${whole}"; terms are x, y, z and fractions such as 1/2 or 0.25.`);
    const sign = m![1] === '-' ? -1 : 1;
    let coeff = 1;
    if (m![2]) {
      const [num, den] = m![2].split('/');
      coeff = Number(num) / (den !== undefined ? Number(den) : 1);
      if (!Number.isFinite(coeff)) fail(line, `the number "${m![2]}" in the operation "${whole}" is not finite.`);
    }
    if (m![3]) row['xyz'.indexOf(m![3])] += sign * coeff;
    else t += sign * coeff;
  }
  return { row, t };
}

export function parseOperation(text: string, line: number): FractionalOperation {
  const parts = text.split(',');
  if (parts.length !== 3) fail(line, `the symmetry operation "${text}" needs three comma-separated components, as in "-y, x-y, z+1/3".`);
  const comps = parts.map((p) => parseComponent(p, line, text));
  return { rotation: [comps[0]!.row, comps[1]!.row, comps[2]!.row], translation: [comps[0]!.t, comps[1]!.t, comps[2]!.t] };
}

function elementOfSite(type: CifValue | undefined, label: CifValue): string {
  const raw = (type && !(type.text === '?' || type.text === '.') ? type : label).text;
  const letters = /^[A-Za-z]+/.exec(raw)?.[0] ?? '';
  const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1).toLowerCase() : s);
  const two = cap(letters.slice(0, 2));
  const one = cap(letters.slice(0, 1));
  if (letters.length >= 2 && isChemicalSymbol(two)) return two;
  if (isChemicalSymbol(one)) return one;
  return fail(
    (type ?? label).line,
    `site ${label.text}: "${raw}" names no element; give _atom_site_type_symbol as a chemical symbol (e.g. Na, or Na1+).`,
  );
}

function chooseBlock(blocks: CifBlock[], options: CifReadOptions): CifBlock {
  if (blocks.length === 0) fail(undefined, 'no data block found; a CIF holds its structure after a line "data_NAME".');
  if (options.block !== undefined) {
    const b = blocks.find((x) => x.name === options.block);
    if (!b) fail(undefined, `no data block named "${options.block}"; the file has ${blocks.map((x) => `data_${x.name}`).join(', ')}.`);
    return b!;
  }
  const withAtoms = blocks.filter((b) => columnOf(b, '_atom_site_fract_x', '_atom_site_cartn_x'));
  if (withAtoms.length === 0)
    fail(
      blocks[0]!.line,
      `no data block lists atom sites (_atom_site_fract_x ...); blocks: ${blocks.map((x) => `data_${x.name}`).join(', ')}.`,
    );
  if (withAtoms.length > 1) {
    fail(
      withAtoms[1]!.line,
      `the file holds ${withAtoms.length} structures, in data blocks ${withAtoms.map((b) => `"${b.name}"`).join(', ')}; ` +
        'choose one by name (dreams structure FILE --block NAME), or split the file.',
    );
  }
  return withAtoms[0]!;
}

interface CifOperations {
  operations: FractionalOperation[];
  from: string;
  /**
   * A space group named without its origin choice (and no operations listed) that has two (Fd-3m,
   * Pn-3m, Fd-3, ...): the operations of origin choice 2, and the item that named the group.
   * `operations` are origin choice 1's, as ASE and spglib take such a name.
   */
  otherOrigin?: { operations: FractionalOperation[]; symbol: string; number: number; line: number };
}

function operationsOf(block: CifBlock): CifOperations {
  const xyz = columnOf(block, '_space_group_symop_operation_xyz', '_symmetry_equiv_pos_as_xyz');
  if (xyz) return { operations: xyz.map((v) => parseOperation(v.text, v.line)), from: 'the listed operations' };
  const refs: CifValue[] = [];
  for (const tag of [
    '_space_group_name_h-m_alt',
    '_symmetry_space_group_name_h-m',
    '_space_group_it_number',
    '_symmetry_int_tables_number',
  ]) {
    const v = block.items.get(tag);
    if (v && !(!v.quoted && (v.text === '?' || v.text === '.'))) refs.push(v);
  }
  for (const v of refs) {
    const g = operationsOfSpaceGroup(v.text);
    if (!g) continue;
    // A name with a setting of its own (":1", ":2", ":H") finds nothing more here.
    const two = operationsOfSpaceGroup(`${v.text.trim()}:2`);
    return {
      operations: g.operations,
      from: `space group ${g.symbol} (${g.number}, operations from its ITA number)`,
      ...(two && two.number === g.number && two.hallNumber !== g.hallNumber
        ? { otherOrigin: { operations: two.operations, symbol: g.symbol, number: g.number, line: v.line } }
        : {}),
    };
  }
  if (refs.length)
    fail(
      refs[0]!.line,
      `the space group "${refs[0]!.text}" is not one this reader knows; list its operations in a _space_group_symop_operation_xyz loop, or give its ITA number.`,
    );
  return {
    operations: [
      {
        rotation: [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        translation: [0, 0, 0],
      },
    ],
    from: 'none given: P1 assumed',
  };
}

const wrap = (x: number) => x - Math.floor(x);
const apply = (op: FractionalOperation, f: Vec3): Vec3 =>
  [0, 1, 2].map((i) =>
    wrap(op.rotation[i]![0] * f[0] + op.rotation[i]![1] * f[1] + op.rotation[i]![2] * f[2] + op.translation[i]!),
  ) as Vec3;
const samePlace = (a: Vec3, b: Vec3) =>
  [0, 1, 2].every((k) => {
    const d = Math.abs(a[k]! - b[k]!);
    return d < DUPLICATE_TOLERANCE || Math.abs(d - 1) < DUPLICATE_TOLERANCE;
  });

/** Read the crystal of a CIF text (one data block; see CifReadOptions.block). */
export function readCif(text: string, options: CifReadOptions = {}): Structure {
  const block = chooseBlock(parseCifBlocks(text), options);
  const param = (tag: string): number => {
    const v = block.items.get(tag);
    const x = v ? cifNumber(v) : undefined;
    if (x === undefined)
      fail(
        v?.line ?? block.line,
        `${tag} is ${v ? `"${v.text}", not a number` : 'missing'} in data_${block.name}; the cell needs a, b, c (Å) and α, β, γ (degrees).`,
      );
    return x!;
  };
  const p = {
    a: param('_cell_length_a'),
    b: param('_cell_length_b'),
    c: param('_cell_length_c'),
    alpha: param('_cell_angle_alpha'),
    beta: param('_cell_angle_beta'),
    gamma: param('_cell_angle_gamma'),
  };
  let cell;
  try {
    cell = cellFromParameters(p);
  } catch (e) {
    fail(block.items.get('_cell_length_a')?.line, `${(e as Error).message}; check the _cell_ items.`);
  }
  const fx = columnOf(block, '_atom_site_fract_x');
  const fy = columnOf(block, '_atom_site_fract_y');
  const fz = columnOf(block, '_atom_site_fract_z');
  if (!fx || !fy || !fz) {
    const cart = columnOf(block, '_atom_site_cartn_x');
    fail(
      cart?.[0]?.line ?? block.line,
      cart
        ? 'atoms are given in Cartesian coordinates (_atom_site_Cartn_x); their frame is not defined by the cell parameters alone: write fractional coordinates (_atom_site_fract_x/y/z).'
        : `data_${block.name} has no _atom_site_fract_x/y/z loop; list the atom sites with fractional coordinates.`,
    );
  }
  const labels = columnOf(block, '_atom_site_label') ?? columnOf(block, '_atom_site_type_symbol')!;
  const types = columnOf(block, '_atom_site_type_symbol');
  const occupancies = columnOf(block, '_atom_site_occupancy');
  const calc = columnOf(block, '_atom_site_calc_flag');
  if (!labels || labels.length !== fx!.length)
    fail(fx![0]?.line, 'the atom sites need a _atom_site_label or _atom_site_type_symbol column.');
  const { operations, otherOrigin } = operationsOf(block);
  const sites: { k: number; label: CifValue; f: Vec3; symbol: string }[] = [];
  for (let k = 0; k < fx!.length; k++) {
    if (calc && /^dum/i.test(calc[k]!.text)) continue;
    const label = labels[k]!;
    const f = [fx![k]!, fy![k]!, fz![k]!].map((v) => {
      const x = cifNumber(v);
      if (x === undefined) fail(v.line, `site ${label.text}: the coordinate "${v.text}" is not a number.`);
      return x!;
    }) as Vec3;
    const occ = occupancies?.[k];
    if (occ) {
      const o = cifNumber(occ);
      if (o === undefined && !(occ.text === '?' || occ.text === '.'))
        fail(occ.line, `site ${label.text}: the occupancy "${occ.text}" is not a number.`);
      if (o !== undefined && Math.abs(o - 1) > OCCUPANCY_TOLERANCE) {
        fail(
          occ.line,
          `site ${label.text} has occupancy ${occ.text}: only ordered crystals (every occupancy 1) can be computed. ` +
            'Choose an ordered model (one species per site, a supercell for fractional occupancy) and save it as a new CIF.',
        );
      }
    }
    sites.push({ k, label, f, symbol: elementOfSite(types?.[k], label) });
  }
  if (otherOrigin) {
    // Coordinates written for one origin and expanded with the other's operations give another
    // crystal, with more atoms wherever a site is special in its own origin (Si at 1/8 1/8 1/8 in
    // Fd-3m origin 2 gives 16 atoms in origin 1's). When the two counts differ, the file must say
    // which origin it means rather than have one guessed.
    const count = (ops: FractionalOperation[]) =>
      sites.reduce((n, site) => {
        const images: Vec3[] = [];
        for (const op of ops) {
          const g = apply(op, site.f);
          if (!images.some((h) => samePlace(h, g))) images.push(g);
        }
        return n + images.length;
      }, 0);
    const [one, two] = [count(operations), count(otherOrigin.operations)];
    if (one !== two)
      fail(
        otherOrigin.line,
        `the space group ${otherOrigin.symbol} (${otherOrigin.number}) has two origin choices and the file says neither: its sites expand to ${one} atoms with origin choice 1 and ${two} with origin choice 2, two different crystals. ` +
          `Say which the coordinates use: add ":1" or ":2" to the symbol (e.g. _space_group_name_H-M_alt '${otherOrigin.symbol.replace(/_/g, '')}:2'), or list the operations (_space_group_symop_operation_xyz).`,
      );
  }
  const fracs: Vec3[] = [];
  const symbols: string[] = [];
  const siteOf: number[] = [];
  for (const { k, label, f, symbol } of sites) {
    for (const op of operations) {
      const g = apply(op, f);
      const j = fracs.findIndex((h) => samePlace(h, g));
      if (j < 0) {
        fracs.push(g);
        symbols.push(symbol);
        siteOf.push(k);
      } else if (siteOf[j] !== k) {
        fail(
          label.line,
          `site ${label.text} lands on site ${labels[siteOf[j]!]!.text} (line ${labels[siteOf[j]!]!.line}) under the operation ` +
            `(${g.map((x) => x.toFixed(4)).join(', ')}): two sites share a position, so the file describes a disordered crystal or repeats a site; keep one.`,
        );
      }
    }
  }
  if (fracs.length === 0) fail(block.line, `data_${block.name} lists no atoms.`);
  return {
    symbols,
    positions: fracs.map((f) => toCartesian(cell!, f)),
    cell: cell!,
    pbc: [true, true, true],
  };
}

/** The data block names of a CIF text, in order. */
export function cifBlockNames(text: string): string[] {
  return parseCifBlocks(text).map((b) => b.name);
}

const quoteIfNeeded = (s: string) =>
  /^[A-Za-z0-9+\-.()/]+$/.test(s) && !/^(data_|loop_|save_|global_|_)/i.test(s) ? s : `'${s.replace(/'/g, '')}'`;

/** A P1 CIF of a periodic structure. */
export function formatCif(structure: Structure, options: { dataName?: string; comment?: string } = {}): string {
  const n = structure.symbols.length;
  if (structure.positions.length !== n) throw new Error(`cannot write CIF: ${n} symbols but ${structure.positions.length} positions.`);
  if (!structure.pbc.every(Boolean))
    throw new Error(
      'cannot write CIF: the structure is not periodic in three directions (a CIF describes a crystal); write extxyz or XSF.',
    );
  for (const s of structure.symbols) if (!isChemicalSymbol(s)) throw new Error(`cannot write CIF: "${s}" is not a chemical symbol.`);
  const p = parametersOfCell(structure.cell);
  const name = (options.dataName ?? 'structure').replace(/\s+/g, '_');
  const counts = new Map<string, number>();
  const f12 = (x: number) => x.toFixed(12);
  const rows = structure.symbols.map((s, i) => {
    const k = (counts.get(s) ?? 0) + 1;
    counts.set(s, k);
    const f = toFractional(structure.cell, structure.positions[i]!);
    return `${`${s}${k}`.padEnd(6)} ${s.padEnd(3)} ${f.map(f12).join(' ')} 1`;
  });
  return [
    ...(options.comment ? options.comment.split('\n').map((l) => `# ${l}`) : []),
    `data_${name}`,
    `_cell_length_a ${f12(p.a)}`,
    `_cell_length_b ${f12(p.b)}`,
    `_cell_length_c ${f12(p.c)}`,
    `_cell_angle_alpha ${f12(p.alpha)}`,
    `_cell_angle_beta ${f12(p.beta)}`,
    `_cell_angle_gamma ${f12(p.gamma)}`,
    `_space_group_name_H-M_alt ${quoteIfNeeded('P 1')}`,
    '_space_group_IT_number 1',
    '',
    'loop_',
    '_space_group_symop_operation_xyz',
    "'x, y, z'",
    '',
    'loop_',
    '_atom_site_label',
    '_atom_site_type_symbol',
    '_atom_site_fract_x',
    '_atom_site_fract_y',
    '_atom_site_fract_z',
    '_atom_site_occupancy',
    ...rows,
    '',
  ].join('\n');
}
