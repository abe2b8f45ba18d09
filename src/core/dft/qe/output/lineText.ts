/**
 * The small readers of pw.x output lines shared by the line reader and its blocks: numbers
 * in a line, the error of a %%%% block, the banner's version, the lines that mark a failure.
 */
import type { EnergyTermsRy } from './types';

export const BOHR_IN_ANGSTROM = 0.529177210903;
const NUM = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?/g;

export function numbers(s: string): number[] {
  const m = s.match(NUM);
  // "+ 0" turns pw.x's printed "-0.00" into 0.
  return m ? m.map((x) => Number(x.replace(/[dD]/, 'e')) + 0) : [];
}

/** The number after "=" (or after a given marker) in a line. */
export function numberAfter(line: string, marker = '='): number | undefined {
  const k = line.indexOf(marker);
  if (k < 0) return undefined;
  const m = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?/.exec(line.slice(k + marker.length));
  return m ? Number(m[0].replace(/[dD]/, 'e')) : undefined;
}

/** A line of the output that shows something, for a failure's evidence. */
export interface Mark {
  /** 1-based. */
  line: number;
  text: string;
}

/** Lines pw.x (or a library it calls) prints when it fails outside its %%%% error block. */
export const FAILURE_MARKERS: readonly RegExp[] = [
  /probably because G_par is NOT a reciprocal lattice vector/,
  /\[Q, R\] = qr\(X, 0\) failed/,
];

/** Labels of "The total energy is the sum of the following terms" -> EnergyTermsRy keys. */
export const ENERGY_TERMS: Record<string, keyof EnergyTermsRy> = {
  'one-electron contribution': 'oneElectron',
  'hartree contribution': 'hartree',
  'xc contribution': 'xc',
  'ewald contribution': 'ewald',
  'Hubbard energy': 'hubbard',
  'one-center paw contrib.': 'oneCenterPaw',
  'Dispersion Correction': 'dispersion',
  'Dispersion T-S Correction': 'dispersion',
  'Dispersion XDM Correction': 'dispersionXdm',
  'DFT-D3 Dispersion': 'dispersionD3',
  'electric field correction': 'electricField',
  'gate field correction': 'gateField',
  'scf correction': 'scfCorrection',
};

/**
 * pw.x's error from the lines of a %%%% block: "Error in routine X (n):" then the message
 * (output, and CRASH from 7.x), or "task # n", "from X : error # n" then the message (CRASH in 6.x).
 */
export function errorOfBlock(lines: string[]): { routine: string; code?: number; message: string } | undefined {
  const body = lines.map((l) => l.trim()).filter((l) => l && !/^task #/.test(l));
  if (!body.length) return undefined;
  const head = body[0]!;
  const m = /Error in routine\s+(\S+)\s*\(\s*(-?\d+)\s*\)/.exec(head) ?? /^from\s+(\S+)\s*:\s*error #\s*(-?\d+)/.exec(head);
  return m
    ? { routine: m[1]!, code: Number(m[2]), message: body.slice(1).join('\n').trim() }
    : { routine: '', message: body.join('\n').trim() };
}

/**
 * The version in pw.x's banner line ("Program PWSCF v.6.7MaX starts on ..." gives "6.7MaX",
 * "v.6.4.1" gives "6.4.1", "v.6.1 (svn rev. 13369)" gives "6.1"): the one reading of it, for parsed outputs and for the version probe.
 */
export function pwBannerVersion(text: string): string | undefined {
  // QE 6.1 and earlier add the revision: "Program PWSCF v.6.1 (svn rev. 13369) starts on ...".
  return /Program PWSCF\s+v\.?\s*(\S+)(?:\s+\([^)]*\))?\s+starts/.exec(text)?.[1];
}
