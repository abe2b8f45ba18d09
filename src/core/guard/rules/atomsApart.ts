/**
 * atoms-apart: a structure handed to a calculator, or built, must be physically possible: no two
 * atoms (periodic images included) closer than half the sum of their covalent radii. A lattice
 * constant mistyped or misread (a k-spacing of 0.2 Å⁻¹ taken for a = 0.2 Å), a file in bohr
 * read as Å, a POSCAR with a wrong scale factor or a made-up cell puts nuclei a fraction of an
 * ångström apart; pw.x then runs on it, or fails late, and the cluster hours are lost.
 *
 * Why half: the shortest bonds known relative to their covalent sum are triple bonds
 * (N≡N 1.10 Å of 1.42, C≡O 1.13 of 1.42, HC≡CH 1.20 of 1.52: 0.77–0.79); an EOS point at
 * −10 % volume shortens every distance by 3.5 %, to ≥ 0.74. Hydrogen in metals and adsorbates on
 * hollow sites sit well above 0.8. Below 0.5 no real crystal, molecule, slab or strained cell
 * goes; a unit or scale error lands far below (bohr read as Å: ×0.53; a = 0.2 Å for fcc Al: 0.06).
 *
 * Which structure: the one a structure argument references (make_pw_input, the calculator
 * tools), the one a builder will make from its arguments (build_bulk, build_slab,
 * place_adsorbate: built here with the same functions the tool runs, so the call is refused
 * before anything is recorded), the file build_bulk reads, import_structure's inline
 * structure, and the smallest cell of an EOS series (generate_series kind eos).
 */
import { readStructureFile } from '../../dft/io/structureFile';
import { bulk, type BulkKind } from '../../dft/structure/bulk';
import { closeContacts } from '../../dft/structure/closeContacts';
import { placeAdsorbate } from '../../dft/structure/placement';
import { slab, type Facet } from '../../dft/structure/surface';
import type { Structure } from '../../dft/types';
import { isRef } from '../../provenance/view';
import { artifactArguments } from '../schemaAnnotations';
import type { Verdict } from '../types';
import { fmt, resolvedArgument, verdict, type RuleInput, type TierOneRule } from './ruleInput';

export const RULE = 'atoms-apart';

/** A pair closer than this fraction of the sum of its covalent radii fails (see above for why 0.5). */
export const MIN_FRACTION_OF_COVALENT_SUM = 0.5;

/** A structure to check, what it is in words, the argument to blame, and what to check when it fails. */
interface Candidate {
  structure: Structure;
  what: string;
  parameter: string;
  check: string;
}

const isStructure = (v: unknown): v is Structure => {
  const s = v as Structure | undefined;
  return !!s && Array.isArray(s.symbols) && Array.isArray(s.positions) && Array.isArray(s.cell) && Array.isArray(s.pbc);
};

const scaled = (s: Structure, f: number): Structure => ({
  ...s,
  cell: s.cell.map((r) => r.map((x) => x * f)) as Structure['cell'],
  positions: s.positions.map((r) => r.map((x) => x * f)) as Structure['positions'],
});

const LATTICE_CHECK =
  'Check the lattice constant: it is in Å (a value in bohr is 1.89× too large, a k-spacing in 1/Å or a fraction is no lattice constant), and the lattice and cell it goes with.';

/** Where a structure read from a file went wrong, most likely. */
function fileCheck(s: Structure): string {
  const source = s.source ? `${s.source.file} (${s.source.format})` : 'the structure';
  return (
    `Check the units of ${source}: positions or cell in units of the lattice constant (alat) or fractional coordinates read as Å, a POSCAR scale factor ` +
    '(the second line: a lattice constant or, negative, the cell volume) that does not fit the cell, or a cell that does not belong to the atoms.'
  );
}

/** The structures this call builds or hands on, from its tool and arguments. */
function candidates(input: RuleInput): { found: Candidate[]; notes: string[] } {
  const { call } = input;
  const args = call.args;
  const found: Candidate[] = [];
  const notes: string[] = [];
  // A builder that cannot build from these arguments throws: the tool's own error says why.
  const tryBuild = (what: string, parameter: string, check: string, build: () => Structure): void => {
    try {
      found.push({ structure: build(), what, parameter, check });
    } catch (e) {
      notes.push(`${what}: not built here (${(e as Error).message.split('\n')[0]}); the tool reports it`);
    }
  };
  const num = (name: string): number | undefined => (typeof args[name] === 'number' ? (args[name] as number) : undefined);

  if (call.tool === 'build_bulk') {
    if (typeof args.from === 'string') {
      tryBuild(`the structure in ${args.from}`, 'from', '', () => readStructureFile(args.from as string));
      const last = found[found.length - 1];
      if (last) last.check = fileCheck(last.structure);
    } else if (Array.isArray(args.elements) && typeof args.bravais === 'string' && num('latticeConstantAngstrom') !== undefined) {
      const a = num('latticeConstantAngstrom')!;
      const c = num('cOverA');
      tryBuild(`${args.bravais} ${(args.elements as string[]).join('')} at a = ${fmt(a)} Å`, 'latticeConstantAngstrom', LATTICE_CHECK, () =>
        bulk({
          kind: args.bravais as BulkKind,
          symbols: args.elements as string[],
          aAngstrom: a,
          ...(c ? { cAngstrom: c * a } : {}),
          cell: args.cubic && args.bravais !== 'hcp' ? 'conventional' : 'primitive',
        }),
      );
    }
  }
  if (call.tool === 'build_slab' && num('latticeConstantAngstrom') !== undefined) {
    const a = num('latticeConstantAngstrom')!;
    const c = num('cOverA');
    tryBuild(`the ${String(args.element)} ${String(args.facet)} slab at a = ${fmt(a)} Å`, 'latticeConstantAngstrom', LATTICE_CHECK, () =>
      slab({
        facet: args.facet as Facet,
        symbol: args.element as string,
        aAngstrom: a,
        ...(c && args.facet === 'hcp0001' ? { cAngstrom: c * a } : {}),
        size: args.size as [number, number],
        layers: args.layers as number,
        vacuumAngstrom: args.vacuumAngstrom as number,
        fixedLayers: args.fixedLayers as number,
      }),
    );
  }
  if (call.tool === 'place_adsorbate') {
    const base = resolvedArgument(input, 'slab')?.value;
    const h = num('heightAngstrom');
    if (isStructure(base))
      tryBuild(
        `${String(args.adsorbate)} at ${String(args.site)} on ${String(args.slab)}${h !== undefined ? ` at ${fmt(h)} Å` : ''}`,
        h !== undefined ? 'heightAngstrom' : 'slab',
        h !== undefined
          ? 'Check heightAngstrom: the height of the binding atom above the top layer, in Å (about a bond length, 1.8–2.0 Å for C on Pt); leave it out to place the adsorbate from covalent radii.'
          : LATTICE_CHECK,
        () =>
          placeAdsorbate(base, {
            adsorbate: args.adsorbate as string,
            site: args.site as never,
            orientation: { kind: 'upright' },
            ...(h ? { heightAngstrom: h } : {}),
          }).structure,
      );
  }
  if (call.tool === 'import_structure' && isStructure(args.structure))
    found.push({ structure: args.structure, what: 'the imported structure', parameter: 'structure', check: fileCheck(args.structure) });
  if (call.tool === 'generate_series' && args.kind === 'eos' && Array.isArray(args.values)) {
    const template = resolvedArgument(input, 'template')?.value as { structure?: unknown } | undefined;
    const factors = (args.values as unknown[]).filter((v): v is number => typeof v === 'number' && v > 0);
    if (isStructure(template?.structure) && factors.length) {
      const f = Math.min(...factors);
      found.push({
        structure: scaled(template.structure, f),
        what: `the smallest cell of the series (${String(args.template)} scaled by ${fmt(f)})`,
        parameter: 'values',
        check:
          'Check the values: an EOS series takes scale factors of the lattice constant near 1 (0.95–1.05), not lattice constants or volumes.',
      });
    }
  }
  // Every structure an argument references (make_pw_input's, a relaxation's, the slab an adsorbate goes on).
  for (const [parameter, { list }] of artifactArguments(input.schema)) {
    if (list || !isRef(args[parameter])) continue;
    const value = resolvedArgument(input, parameter)?.value;
    if (!isStructure(value)) continue;
    found.push({
      structure: value,
      what: `the structure ${String(args[parameter])}`,
      parameter,
      check: value.source
        ? fileCheck(value)
        : LATTICE_CHECK.replace('Check the lattice constant', 'Check the lattice constant it was built at'),
    });
  }
  return { found, notes };
}

const atom = (s: Structure, i: number): string => `${i + 1} (${s.labels?.[i] ?? s.symbols[i]})`;

function judge(c: Candidate): Verdict {
  const contacts = closeContacts(c.structure, MIN_FRACTION_OF_COVALENT_SUM);
  const n = c.structure.symbols.length;
  if (contacts.degenerateCell)
    return verdict(
      RULE,
      'fail',
      [
        `${c.what}: the cell ${JSON.stringify(c.structure.cell)} has (near) zero volume, its lattice vectors coplanar; no calculator can use it. ${c.check}`,
      ],
      c.parameter,
    );
  const t = contacts.tightest;
  const unknown = contacts.unknown.length ? `; ${contacts.unknown.join(', ')} have no covalent radius and were left out` : '';
  if (!t) return verdict(RULE, 'pass', [`${c.what}: ${n} atom(s), no pair to measure${unknown}`], c.parameter);
  const s = c.structure;
  const through = t.image.some((x) => x !== 0) ? ` (through its periodic image at cell offset [${t.image.join(', ')}])` : '';
  const pair =
    t.i === t.j
      ? `atom ${atom(s, t.i)} and its own periodic image at cell offset [${t.image.join(', ')}]`
      : `atoms ${atom(s, t.i)} and ${atom(s, t.j)}${through}`;
  if (t.ratio < MIN_FRACTION_OF_COVALENT_SUM) {
    const more = contacts.below > 1 ? ` ${contacts.below} pairs in all are this close.` : '';
    return verdict(
      RULE,
      'fail',
      [
        `${c.what}: ${pair} are ${fmt(t.distanceAngstrom, 3)} Å apart, ${Math.round(t.ratio * 100)} % of the sum of their covalent radii ` +
          `(${fmt(t.covalentSumAngstrom, 3)} Å); below ${MIN_FRACTION_OF_COVALENT_SUM * 100} % of it no real crystal, molecule or surface has two atoms ` +
          `(the shortest bonds are ~77 % of it).${more} ${c.check} (Atoms counted from 1 in the structure's order.)`,
      ],
      c.parameter,
    );
  }
  return verdict(
    RULE,
    'pass',
    [
      `${c.what}: closest pair ${pair} ${fmt(t.distanceAngstrom, 3)} Å, ${Math.round(t.ratio * 100)} % of their covalent sum ${fmt(t.covalentSumAngstrom, 3)} Å${unknown}`,
    ],
    c.parameter,
  );
}

export const atomsApart: TierOneRule = (input) => {
  const { found, notes } = candidates(input);
  if (!found.length) return [verdict(RULE, 'pass', [notes.length ? notes.join('; ') : 'no structure in this call'])];
  return found.map(judge);
};
