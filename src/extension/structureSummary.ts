/**
 * What the "Show structure" editor shows of a file, without VS Code: the structure read by the
 * core readers (any supported format), its space group and conventional lattice parameters when
 * it is a 3-D crystal, the relaxation steps of a pw.x output, and the objective a canvas started
 * from it begins with. Lengths in Å, energies in eV.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readStructureFile } from '../core/dft/io/structureFile';
import { readPwxTrajectory } from '../core/dft/io/trajectory';
import { cellVolume } from '../core/dft/structure/cell';
import { analyseSymmetry } from '../core/dft/structure/symmetry';
import type { Structure } from '../core/dft/types';
import type { StructureData } from '../shared/canvasOutputs';
import type { StructureFileSummary } from '../shared/structureEditor';

/** Reduced formula in order of first appearance: Na4Cl4 → NaCl. */
export function formulaOf(symbols: string[]): string {
  const counts = new Map<string, number>();
  for (const e of symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const z = [...counts.values()].reduce(gcd, 0) || 1;
  return [...counts].map(([e, n]) => `${e}${n / z > 1 ? n / z : ''}`).join('');
}

/** A slab or molecule: not periodic in three directions, or with a vacuum gap along c wider than 5 Å. */
export function looksLikeSlab(s: Structure): boolean {
  if (!s.pbc.every(Boolean)) return true;
  const c = s.cell[2];
  const cLength = Math.hypot(...c);
  if (cLength < 1e-9) return true;
  const heights = s.positions.map((p) => (p[0] * c[0] + p[1] * c[1] + p[2] * c[2]) / cLength).sort((a, b) => a - b);
  const thickness = heights[heights.length - 1]! - heights[0]!;
  return cLength - thickness > 5;
}

export interface StructureFileView {
  summary: StructureFileSummary;
  structure: StructureData;
  slab: boolean;
}

/** Read a structure file for the editor. Throws the reader's StructureFileError (file, line, what to do). */
export function viewOfStructureFile(file: string, displayPath: string = file): StructureFileView {
  const s = readStructureFile(file);
  const notes: string[] = [];
  const summary: StructureFileSummary = {
    name: path.basename(file),
    path: displayPath,
    format: s.source?.format ?? 'unknown',
    sha256: s.source?.sha256 ?? '',
    formula: formulaOf(s.symbols),
    natoms: s.symbols.length,
    volumeAngstrom3: cellVolume(s.cell),
    notes,
  };
  const slab = looksLikeSlab(s);
  if (s.pbc.every(Boolean)) {
    try {
      const sym = analyseSymmetry(s, s.labels ? { byLabel: true } : {});
      summary.spaceGroup = { number: sym.spaceGroup.number, symbol: sym.spaceGroup.symbol, crystalSystem: sym.spaceGroup.crystalSystem };
      if (!slab) {
        const l = sym.lattice;
        summary.lattice = {
          a: l.aAngstrom,
          b: l.bAngstrom,
          c: l.cAngstrom,
          alpha: l.alphaDegrees,
          beta: l.betaDegrees,
          gamma: l.gammaDegrees,
          cOverA: l.cOverA,
          volume: l.volumeAngstrom3,
        };
      }
    } catch (e) {
      notes.push(`No space group: ${(e as Error).message}`);
    }
  }
  const structure: StructureData = { symbols: s.symbols, positions: s.positions, cell: s.cell, pbc: s.pbc, title: summary.formula };
  if (s.fixed?.some(Boolean)) structure.fixed = s.fixed;
  if (s.labels) structure.labels = s.labels;
  if (summary.spaceGroup) structure.spaceGroup = `${summary.spaceGroup.symbol} (${summary.spaceGroup.number})`;
  if (s.source?.format === 'pwx-out') {
    const t = readPwxTrajectory(fs.readFileSync(file, 'utf8'));
    if (t.frames.length > 1) structure.frames = t.frames;
    if (t.calculation)
      notes.push(
        `pw.x ${t.calculation}: ${t.frames.length} geometr${t.frames.length === 1 ? 'y' : 'ies'}` +
          (t.converged === undefined ? '' : t.converged ? ', converged' : ', not converged') +
          '; the last one is shown.',
      );
  }
  return { summary, structure, slab };
}

/**
 * The objective of a canvas started from a structure file in the same folder: the lattice
 * constant of a bulk crystal, or an adsorption search on a slab. The user edits it before running.
 */
export function objectiveFromStructure(fileName: string, view: StructureFileView): string {
  const name = JSON.stringify(fileName);
  const sg = view.summary.spaceGroup ? ` (${view.summary.spaceGroup.symbol})` : '';
  if (view.slab) {
    return [
      `# Where does CO bind on the slab in ${fileName}? Edit the adsorbate and calculator, then run this cell.`,
      'workflow: adsorption-search',
      `objective: Most stable configuration of CO on ${view.summary.formula} from ${fileName}`,
      'inputs:',
      `  slab: { file: ${name} }`,
      '  adsorbate: CO',
      '  calculator: { kind: emt }',
      '  # or { kind: pw.x, functional: PBE } for DFT, or your own over i-PI: { kind: ipi, command: [...] } (a command listed in ~/.config/dreams/calculators.json)',
      '  planner: offline',
      '  maxRelaxations: 6',
      '',
    ].join('\n');
  }
  return [
    `# The equilibrium lattice of ${view.summary.formula}${sg} from ${fileName}: cutoff and k sweeps, an equation of state and`,
    '# the lattice parameters of the standardised cell. Edit the functional or the settings, then run this cell.',
    'workflow: lattice-constant',
    `objective: ${view.summary.spaceGroup && view.summary.spaceGroup.crystalSystem !== 'Cubic' ? 'Lattice parameters' : 'Lattice constant'} of ${view.summary.formula}${sg} from ${fileName}`,
    'inputs:',
    `  structure: { file: ${name} }`,
    '  functional: PBE',
    '',
  ].join('\n');
}

/** What dropping `file` into a cell holding `cellText` inserts, for a canvas in `canvasDir`. */
export function dropText(file: string, cellText: string, canvasDir: string): string {
  const rel = path.relative(canvasDir, file).split(path.sep).join('/');
  if (cellText.trim() === '') return objectiveFromStructure(rel, viewOfStructureFile(file, rel));
  return `{ file: ${JSON.stringify(rel)} }`;
}
