/**
 * dos.x's input (&DOS: prefix, outdir, fildos, DeltaE and an optional broadening) and the
 * file it writes (fildos): a header "#  E (eV)   dos(E)     Int dos(E) EFermi =  7.690 eV"
 * (spin-polarised: dosup(E) dosdw(E)), then one line per energy. States per eV per cell
 * (both spins together unless split), energies in eV.
 */
import { DftScienceError } from '../../scienceError';
import { ryToEv } from '../../../units';
import { fortranReal, fortranString } from './namelist';

export interface DosxInput {
  prefix: string;
  outdir: string;
  fildos: string;
  /** Energy step of the output grid, eV. */
  deltaEEv: number;
  /** Gaussian broadening, eV; absent: dos.x uses the run's own (tetrahedra or its smearing). */
  degaussEv?: number;
  eminEv?: number;
  emaxEv?: number;
}

export function renderDosxInput(i: DosxInput): string {
  const eVtoRy = 1 / ryToEv(1);
  return [
    '&DOS',
    `  prefix = ${fortranString(i.prefix)}`,
    `  outdir = ${fortranString(i.outdir)}`,
    `  fildos = ${fortranString(i.fildos)}`,
    `  DeltaE = ${fortranReal(i.deltaEEv)}`,
    // dos.x reads degauss in Ry, Emin/Emax in eV
    ...(i.degaussEv !== undefined ? [`  degauss = ${fortranReal(i.degaussEv * eVtoRy)}`] : []),
    ...(i.eminEv !== undefined ? [`  Emin = ${fortranReal(i.eminEv)}`] : []),
    ...(i.emaxEv !== undefined ? [`  Emax = ${fortranReal(i.emaxEv)}`] : []),
    '/',
    '',
  ].join('\n');
}

export interface DosFile {
  energiesEv: number[];
  /** Total DOS, states/eV/cell (both spins). */
  dos: number[];
  /** Spin-resolved runs: each channel. */
  spin?: { up: number[]; down: number[] };
  /** Integrated DOS, electrons per cell. */
  integrated: number[];
  /** The Fermi energy dos.x printed in the header, eV. */
  fermiEnergyEv?: number;
}

export function parseDosFile(text: string): DosFile {
  const lines = text.split(/\r?\n/);
  const header = lines.find((l) => l.trim().startsWith('#'));
  if (!header || !/E \(eV\)/.test(header)) {
    throw new DftScienceError(
      'this is not a dos.x file: its first line should be the header "#  E (eV)   dos(E)   Int dos(E) EFermi = … eV". Point the reader at the fildos dos.x wrote.',
      {},
    );
  }
  const spinResolved = /dosup/i.test(header);
  const ef = /EFermi\s*=\s*(-?[\d.]+)/.exec(header);
  const energiesEv: number[] = [];
  const dos: number[] = [];
  const integrated: number[] = [];
  const up: number[] = [];
  const down: number[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const v = t.split(/\s+/).map(Number);
    if (v.some((x) => !Number.isFinite(x)) || v.length < (spinResolved ? 4 : 3)) {
      throw new DftScienceError(`dos.x file: cannot read the line ${JSON.stringify(t)}; the file may be cut short or not dos.x's.`, {
        line: t,
      });
    }
    energiesEv.push(v[0]!);
    if (spinResolved) {
      up.push(v[1]!);
      down.push(v[2]!);
      dos.push(v[1]! + v[2]!);
      integrated.push(v[3]!);
    } else {
      dos.push(v[1]!);
      integrated.push(v[2]!);
    }
  }
  if (energiesEv.length < 2) throw new DftScienceError('the dos.x file holds fewer than two energies; dos.x may not have finished.', {});
  return {
    energiesEv,
    dos,
    integrated,
    ...(spinResolved ? { spin: { up, down } } : {}),
    ...(ef ? { fermiEnergyEv: Number(ef[1]) } : {}),
  };
}
