/**
 * bands.x's files: the input it reads (&BANDS: prefix, outdir, filband, lsym) and the band
 * file it writes (filband: "&plot nbnd=…, nks=… /", then per k-point its Cartesian
 * coordinates in units of 2π/alat and its nbnd energies in eV, ten to a line).
 * Energies in eV; k as pw.x wrote it (2π/alat), converted by the caller who knows alat.
 */
import { DftScienceError } from '../../scienceError';
import type { Vec3 } from '../../types';
import { fortranString } from './namelist';

export interface BandsxInput {
  prefix: string;
  /** Relative to the job directory (no "..", not absolute). */
  outdir: string;
  filband: string;
  /** Sort bands by symmetry (true) or by energy (false, the default here: crossings read as gaps otherwise). */
  lsym?: boolean;
  /** 1 or 2 for a spin-polarised run. */
  spinComponent?: 1 | 2;
}

export function renderBandsxInput(i: BandsxInput): string {
  return [
    '&BANDS',
    `  prefix = ${fortranString(i.prefix)}`,
    `  outdir = ${fortranString(i.outdir)}`,
    `  filband = ${fortranString(i.filband)}`,
    `  lsym = ${i.lsym ? '.true.' : '.false.'}`,
    ...(i.spinComponent ? [`  spin_component = ${i.spinComponent}`] : []),
    '/',
    '',
  ].join('\n');
}

export interface BandFile {
  nbnd: number;
  /** Cartesian k in units of 2π/alat, one per k-point. */
  kCartesianTwoPiOverAlat: Vec3[];
  /** energiesEv[k][band], eV. */
  energiesEv: number[][];
}

/** Reads filband. Throws, saying where, when the file is cut short or its header is not bands.x's. */
export function parseBandFile(text: string): BandFile {
  const head = /&plot\s+nbnd\s*=\s*(\d+)\s*,\s*nks\s*=\s*(\d+)\s*\//i.exec(text);
  if (!head) {
    throw new DftScienceError(
      'this is not a bands.x band file: its first line should be "&plot nbnd=…, nks=… /". Point the reader at the filband bands.x wrote.',
      {},
    );
  }
  const nbnd = Number(head[1]);
  const nks = Number(head[2]);
  // Fortran fixed-width numbers may touch ("-10.123-11.456"): split on the sign as well as on blanks
  const numbers = (text.slice(head.index + head[0].length).match(/-?\d+\.\d*(?:[eEdD][-+]?\d+)?|-?\.\d+/g) ?? []).map((s) =>
    Number(s.replace(/[dD]/, 'e')),
  );
  const per = 3 + nbnd;
  if (numbers.length < per * nks) {
    const complete = Math.floor(numbers.length / per);
    throw new DftScienceError(
      `the band file is cut short: it announces ${nks} k-points of ${nbnd} bands but holds ${complete} complete ones; bands.x may not have finished (see its output).`,
      { nks, nbnd, complete },
    );
  }
  const kCartesianTwoPiOverAlat: Vec3[] = [];
  const energiesEv: number[][] = [];
  for (let k = 0; k < nks; k++) {
    const row = numbers.slice(k * per, (k + 1) * per);
    kCartesianTwoPiOverAlat.push([row[0]!, row[1]!, row[2]!]);
    energiesEv.push(row.slice(3));
  }
  return { nbnd, kCartesianTwoPiOverAlat, energiesEv };
}
