/** `dreams structure FILE`: read a structure file, print what it holds and its space group, or convert it. */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { StructureFileError, FORMAT_NAMES } from '../../core/dft/io/errors';
import {
  formatLosses,
  formatStructure,
  readStructureFile,
  type StructureReadOptions,
  type WritableFormat,
} from '../../core/dft/io/structureFile';
import { cellVolume } from '../../core/dft/structure/cell';
import { analyseSymmetry, DEFAULT_SYMPREC_ANGSTROM, type SymmetryInfo } from '../../core/dft/structure/symmetry';
import type { Structure, StructureFormat } from '../../core/dft/types';
import { registerCliCommand } from '../cli';

const USAGE = `Usage: dreams structure FILE [--json] [--to cif|poscar|extxyz|xsf|pwx] [--out PATH] [--symprec X]
                        [--from FORMAT] [--block NAME] [--species A,B,...]

Reads a crystal structure (CIF, POSCAR/CONTCAR, pw.x input, pw.x output: its last geometry,
extxyz, XSF) and prints its formula, atom count, cell (Å), volume, species and space group,
or writes it in another format.

  --json           print { formula, natoms, cell, volumeAngstrom3, species, positions,
                   spaceGroup: { number, symbol }, ... } for the cell as given in the file
  --to FORMAT      write the structure as cif, poscar, extxyz, xsf or pwx (pw.x cards)
  --out PATH       with --to: the file to write (default: standard output)
  --symprec X      symmetry tolerance in Å (default ${DEFAULT_SYMPREC_ANGSTROM})
  --from FORMAT    the input format when neither name nor content tells it
                   (cif, poscar, pwx-in, pwx-out, extxyz, xsf)
  --block NAME     the CIF data block to read when the file holds several
  --species A,B    the species of a VASP 4 POSCAR (no species line), in order

Exit status: 0 the file was read (and written), 2 bad usage or a file it cannot read.`;

const TO: Record<string, WritableFormat> = {
  cif: 'cif',
  poscar: 'poscar',
  vasp: 'poscar',
  extxyz: 'extxyz',
  xyz: 'extxyz',
  xsf: 'xsf',
  pwx: 'pwx-in',
  'pwx-in': 'pwx-in',
};
const FROM = new Set<StructureFormat>(['cif', 'poscar', 'pwx-in', 'pwx-out', 'extxyz', 'xsf']);

/** "NaCl", "Na4Cl4": element counts in order of first appearance, 1 left out. */
export function formulaOf(symbols: string[]): string {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n === 1 ? s : `${s}${n}`)).join('');
}

const round = (x: number, digits = 10) => Number(x.toFixed(digits));

/** "Na a, Cl b"; one orbit site repeated (every atom of a P1 cell) said once with its count: "Si a ×8". */
function wyckoffLine(sites: string[]): string {
  const runs: { site: string; n: number }[] = [];
  for (const site of sites) {
    const last = runs[runs.length - 1];
    if (last?.site === site) last.n++;
    else runs.push({ site, n: 1 });
  }
  return runs.map((r) => (r.n > 1 ? `${r.site} ×${r.n}` : r.site)).join(', ');
}

/** How the summary names the info keys the readers set (pw.x output, XSF animations). */
const INFO_LABELS: Record<string, string> = { geometries: 'geometries', calculation: 'calculation', relaxationConverged: 'converged' };

function summary(file: string, s: Structure, sym: SymmetryInfo | undefined, symError: string | undefined): string {
  const f = (x: number) => x.toFixed(6).padStart(13);
  const species = [...new Set(s.symbols)].map((e) => `${e} ×${s.symbols.filter((x) => x === e).length}`).join(', ');
  const nFixed = s.fixed?.filter(Boolean).length ?? 0;
  const lines = [
    `${file} (${FORMAT_NAMES[s.source!.format]}${s.source!.block ? `, data_${s.source!.block}` : ''})`,
    `  formula          ${formulaOf(s.symbols)}`,
    `  atoms            ${s.symbols.length}${nFixed ? ` (${nFixed} fixed)` : ''}`,
    `  species          ${species}${s.labels ? ` (labels ${[...new Set(s.labels)].join(', ')})` : ''}`,
    '  cell (Å)',
    ...s.cell.map((v, i) => `    a${i + 1} ${v.map(f).join('')}`),
    `  volume           ${cellVolume(s.cell).toFixed(4)} Å³`,
  ];
  if (sym) {
    const l = sym.lattice;
    lines.push(
      `  space group      ${sym.spaceGroup.symbol} (${sym.spaceGroup.number}), ${sym.spaceGroup.crystalSystem.toLowerCase()}, at symprec ${sym.symprecAngstrom} Å`,
      `  Wyckoff          ${wyckoffLine([...new Set(sym.equivalentAtoms)].map((i) => `${s.symbols[i]} ${sym.wyckoffLetters[i]}`))}`,
      `  conventional     a ${l.aAngstrom.toFixed(5)} b ${l.bAngstrom.toFixed(5)} c ${l.cAngstrom.toFixed(5)} Å, ` +
        `α ${l.alphaDegrees.toFixed(3)} β ${l.betaDegrees.toFixed(3)} γ ${l.gammaDegrees.toFixed(3)}°, c/a ${l.cOverA.toFixed(5)}, ` +
        `V ${l.volumeAngstrom3.toFixed(4)} Å³, ${sym.conventional.symbols.length} atoms`,
      `  primitive        ${sym.primitive.symbols.length} atoms`,
    );
  } else if (symError) {
    lines.push(`  space group      not found: ${symError}`);
  }
  for (const [k, v] of Object.entries(s.info ?? {})) {
    if (k === 'comment') continue;
    // Keys of the readers said in words; any other (an extxyz file's own) as written, with a space after it however long.
    const label = INFO_LABELS[k] ?? k;
    const value = typeof v === 'boolean' ? (v ? 'yes' : 'no') : k === 'geometries' ? `${v} (the last one shown)` : v;
    lines.push(`  ${label.padEnd(16)} ${value}`);
  }
  lines.push(`  sha256           ${s.source!.sha256}`);
  return lines.join('\n');
}

function json(s: Structure, sym: SymmetryInfo | undefined, symError: string | undefined): unknown {
  return {
    file: s.source!.file,
    sha256: s.source!.sha256,
    format: s.source!.format,
    ...(s.source!.block ? { block: s.source!.block } : {}),
    formula: formulaOf(s.symbols),
    natoms: s.symbols.length,
    cell: s.cell.map((v) => v.map((x) => round(x))),
    volumeAngstrom3: round(cellVolume(s.cell)),
    species: s.symbols,
    ...(s.labels ? { labels: s.labels } : {}),
    positions: s.positions.map((p) => p.map((x) => round(x))),
    fixed: s.fixed ?? s.symbols.map(() => false),
    ...(s.fixedComponents ? { fixedComponents: s.fixedComponents } : {}),
    spaceGroup: sym ? { number: sym.spaceGroup.number, symbol: sym.spaceGroup.symbol, crystalSystem: sym.spaceGroup.crystalSystem } : null,
    ...(sym
      ? {
          symprecAngstrom: sym.symprecAngstrom,
          wyckoffLetters: sym.wyckoffLetters,
          conventional: {
            natoms: sym.conventional.symbols.length,
            ...Object.fromEntries(Object.entries(sym.lattice).map(([k, v]) => [k, round(v)])),
          },
          primitiveNatoms: sym.primitive.symbols.length,
        }
      : { symmetryError: symError }),
    ...(s.info ? { info: s.info } : {}),
  };
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        to: { type: 'string' },
        out: { type: 'string' },
        symprec: { type: 'string' },
        from: { type: 'string' },
        block: { type: 'string' },
        species: { type: 'string' },
      },
    });
  } catch (e) {
    console.error(`dreams structure: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  const usage = (m: string) => {
    console.error(`dreams structure: ${m}\n\n${USAGE}`);
    return 2;
  };
  if (parsed.positionals.length !== 1) return usage(`give exactly one structure file (got ${parsed.positionals.length}).`);
  const to = v.to !== undefined ? TO[v.to.toLowerCase()] : undefined;
  if (v.to !== undefined && !to) return usage(`--to ${v.to} is not a format it writes; use cif, poscar, extxyz, xsf or pwx.`);
  if (v.out !== undefined && !to) return usage('--out needs --to FORMAT (the format to write).');
  if (v.from !== undefined && !FROM.has(v.from as StructureFormat))
    return usage(`--from ${v.from} is not a format it reads; use ${[...FROM].join(', ')}.`);
  const symprec = v.symprec !== undefined ? Number(v.symprec) : DEFAULT_SYMPREC_ANGSTROM;
  if (!(symprec > 0) || !Number.isFinite(symprec)) return usage(`--symprec ${v.symprec} is not a positive distance in Å (e.g. 1e-3).`);
  const file = parsed.positionals[0]!;
  const options: StructureReadOptions = {};
  if (v.from) options.format = v.from as StructureFormat;
  if (v.block) options.block = v.block;
  if (v.species)
    options.species = v.species
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  let s: Structure;
  try {
    s = readStructureFile(file, options);
  } catch (e) {
    if (e instanceof StructureFileError) {
      console.error(`dreams structure: ${e.located()}`);
      return 2;
    }
    console.error(`dreams structure: ${file}: ${(e as Error).message}`);
    return 2;
  }
  if (to) {
    let text: string;
    try {
      text = formatStructure(s, to, { comment: `from ${file} (sha256 ${s.source!.sha256.slice(0, 16)}…)`, name: formulaOf(s.symbols) });
    } catch (e) {
      console.error(`dreams structure: ${(e as Error).message}`);
      return 2;
    }
    for (const loss of formatLosses(s, to)) console.error(`dreams structure: note: ${loss}`);
    if (to === 'pwx-in')
      console.error(
        'dreams structure: note: ATOMIC_SPECIES names <element>.UPF; put your pseudopotential files there, and add the cutoffs and K_POINTS.',
      );
    if (v.out) {
      try {
        fs.writeFileSync(v.out, text);
      } catch (e) {
        console.error(`dreams structure: cannot write ${v.out}: ${(e as Error).message}`);
        return 2;
      }
      console.error(`dreams structure: wrote ${v.out} (${FORMAT_NAMES[to]}, ${s.symbols.length} atoms)`);
    } else {
      process.stdout.write(text);
    }
    return 0;
  }
  let sym: SymmetryInfo | undefined;
  let symError: string | undefined;
  if (s.pbc.every(Boolean)) {
    try {
      sym = analyseSymmetry(s, { symprecAngstrom: symprec });
    } catch (e) {
      symError = (e as Error).message;
    }
  } else {
    symError = 'the structure is not periodic in three directions';
  }
  console.log(v.json ? JSON.stringify(json(s, sym, symError), null, 2) : summary(file, s, sym, symError));
  return 0;
}

registerCliCommand({
  name: 'structure',
  summary: 'read a structure file: formula, cell, space group; convert it (--to)',
  usage: USAGE,
  run,
});
