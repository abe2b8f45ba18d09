/**
 * projwfc.x's input (&PROJWFC) and what it writes: <filpdos>.pdos_tot (total DOS and the sum
 * of the projections), one <filpdos>.pdos_atm#N(El)_wfc#M(l) file per atom and atomic
 * wavefunction (columns: E, the l-resolved local DOS, then each m; spin-polarised runs give
 * up and down columns in turn), and in its standard output the Löwdin charges per atom.
 * Energies in eV; DOS in states/eV (per cell for the total, per atom and channel otherwise).
 */
import { DftScienceError } from '../../scienceError';
import { ryToEv } from '../../../units';
import { fortranReal, fortranString } from './namelist';

export interface ProjwfcxInput {
  prefix: string;
  outdir: string;
  filpdos: string;
  deltaEEv: number;
  /** Gaussian broadening, eV; absent: projwfc.x uses the run's own (tetrahedra or its smearing). */
  degaussEv?: number;
  eminEv?: number;
  emaxEv?: number;
}

export function renderProjwfcxInput(i: ProjwfcxInput): string {
  const eVtoRy = 1 / ryToEv(1);
  return [
    '&PROJWFC',
    `  prefix = ${fortranString(i.prefix)}`,
    `  outdir = ${fortranString(i.outdir)}`,
    `  filpdos = ${fortranString(i.filpdos)}`,
    `  DeltaE = ${fortranReal(i.deltaEEv)}`,
    ...(i.degaussEv !== undefined ? [`  degauss = ${fortranReal(i.degaussEv * eVtoRy)}`] : []),
    ...(i.eminEv !== undefined ? [`  Emin = ${fortranReal(i.eminEv)}`] : []),
    ...(i.emaxEv !== undefined ? [`  Emax = ${fortranReal(i.emaxEv)}`] : []),
    '/',
    '',
  ].join('\n');
}

export type AngularMomentum = 's' | 'p' | 'd' | 'f';

/** One pdos_atm file: an atomic wavefunction of one atom. */
export interface PdosChannel {
  /** 1-based atom number, as projwfc.x numbers them. */
  atom: number;
  species: string;
  /** 1-based index of the wavefunction in the pseudopotential. */
  wavefunction: number;
  l: AngularMomentum;
  /** Spin-orbit runs: the total angular momentum j. */
  j?: number;
  /** l-resolved local DOS (sum over m), states/eV; spin-polarised: up + down. */
  ldos: number[];
  spin?: { up: number[]; down: number[] };
}

export interface PdosFiles {
  energiesEv: number[];
  /** Total DOS from pdos_tot (both spins), states/eV/cell. */
  total: number[];
  /** Sum of all projections (pdos_tot's pdos column): below the total by the spilling. */
  projectedSum: number[];
  spinTotal?: { up: number[]; down: number[] };
  channels: PdosChannel[];
}

const ATM = /\.pdos_atm#(\d+)\(([^)]+)\)_wfc#(\d+)\(([spdf])(?:_j([\d.]+))?\)$/;

function columns(text: string, name: string): { header: string; rows: number[][] } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = lines[0]?.trim() ?? '';
  if (!header.startsWith('#') || !/E \(eV\)/.test(header)) {
    throw new DftScienceError(`${name} is not a projwfc.x PDOS file: its first line should be a header starting "# E (eV)".`, {
      file: name,
    });
  }
  const rows = lines.slice(1).map((l) => l.trim().split(/\s+/).map(Number));
  const bad = rows.findIndex((r) => r.some((x) => !Number.isFinite(x)));
  if (bad >= 0)
    throw new DftScienceError(`${name}: cannot read line ${bad + 2} (${JSON.stringify(lines[bad + 1])}); the file may be cut short.`, {
      file: name,
    });
  return { header, rows };
}

/** Reads the pdos_tot and pdos_atm files projwfc.x wrote, given by file name. */
export function parsePdosFiles(files: Record<string, string>): PdosFiles {
  const totName = Object.keys(files).find((n) => n.endsWith('.pdos_tot'));
  if (!totName)
    throw new DftScienceError(
      `no .pdos_tot among the files (${Object.keys(files).join(', ') || 'none'}); projwfc.x writes it beside the per-atom files.`,
      {},
    );
  const tot = columns(files[totName]!, totName);
  const spinResolved = /dosup/i.test(tot.header);
  const energiesEv = tot.rows.map((r) => r[0]!);
  const total = tot.rows.map((r) => (spinResolved ? r[1]! + r[2]! : r[1]!));
  const projectedSum = tot.rows.map((r) => (spinResolved ? r[3]! + r[4]! : r[2]!));
  const channels: PdosChannel[] = [];
  for (const [name, text] of Object.entries(files)) {
    const m = ATM.exec(name);
    if (!m) continue;
    const c = columns(text, name);
    if (c.rows.length !== energiesEv.length) {
      throw new DftScienceError(
        `${name} has ${c.rows.length} energies where pdos_tot has ${energiesEv.length}; the files come from different projwfc.x runs or one is cut short.`,
        { file: name },
      );
    }
    const spin = /ldosup/i.test(c.header);
    channels.push({
      atom: Number(m[1]),
      species: m[2]!.trim(),
      wavefunction: Number(m[3]),
      l: m[4] as AngularMomentum,
      ...(m[5] !== undefined ? { j: Number(m[5]) } : {}),
      ldos: c.rows.map((r) => (spin ? r[1]! + r[2]! : r[1]!)),
      ...(spin ? { spin: { up: c.rows.map((r) => r[1]!), down: c.rows.map((r) => r[2]!) } } : {}),
    });
  }
  channels.sort((a, b) => a.atom - b.atom || a.wavefunction - b.wavefunction);
  return {
    energiesEv,
    total,
    projectedSum,
    channels,
    ...(spinResolved ? { spinTotal: { up: tot.rows.map((r) => r[1]!), down: tot.rows.map((r) => r[2]!) } } : {}),
  };
}

export interface LowdinCharge {
  atom: number;
  /** Total Löwdin charge on the atom, electrons. */
  total: number;
  /** By angular momentum, electrons. */
  byL: Partial<Record<AngularMomentum, number>>;
  /** Spin-polarised runs: the polarisation (up − down), μB. */
  polarization?: number;
}

/** The Löwdin charges projwfc.x printed, and its spilling parameter. */
export function parseLowdinCharges(stdout: string): { atoms: LowdinCharge[]; spilling?: number } {
  const start = stdout.lastIndexOf('Lowdin Charges:');
  if (start < 0) return { atoms: [] };
  const byAtom = new Map<number, LowdinCharge>();
  let current: LowdinCharge | undefined;
  for (const line of stdout.slice(start).split('\n')) {
    if (/Spilling Parameter/.test(line)) break;
    const m = /Atom #\s*(\d+):\s*total charge\s*=\s*(-?[\d.]+)(.*)/.exec(line);
    if (m) {
      const atom = Number(m[1]);
      current = byAtom.get(atom) ?? { atom, total: Number(m[2]), byL: {} };
      byAtom.set(atom, current);
      // "s =  0.93, p =  2.02, pz= …": only the l totals (one letter before " =")
      for (const pair of m[3]!.matchAll(/(?:^|[,\s])([spdf])\s+=\s*(-?[\d.]+)/g)) current.byL[pair[1] as AngularMomentum] = Number(pair[2]);
      continue;
    }
    const pol = /^\s*polarization\s*=\s*(-?[\d.]+)/.exec(line);
    if (pol && current) current.polarization = Number(pol[1]);
  }
  const spill = /Spilling Parameter:\s*(-?[\d.]+)/.exec(stdout.slice(start));
  return { atoms: [...byAtom.values()].sort((a, b) => a.atom - b.atom), ...(spill ? { spilling: Number(spill[1]) } : {}) };
}
