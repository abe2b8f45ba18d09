/**
 * Wavefunction files a pw.x run leaves in its job directory: <outdir>/<prefix>.save/wfc*.dat (or
 * .hdf5) and <outdir>/<prefix>.wfc*, one per k-point (266 MB for one 115-Ry run of Nb at a fine mesh,
 * 2.2 GB for its lattice-constant study). A convergence test's are never read again: DREAMS reads the
 * output and each run starts from scratch. A job created with `discardWavefunctions` has them removed
 * once pw.x succeeds — by the local runner, or by the batch script on a cluster — and only inside
 * its job directory; the output, the charge density and the XML stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { scratchPlace } from '../dft/qe/jobFacts';
import { shellQuote } from './shellQuote';
import type { WavefunctionPlace } from './types';

/** Where a pw.x input's wavefunctions go, or undefined when that is not inside its job directory. */
export function wavefunctionPlace(inputText: string): WavefunctionPlace | undefined {
  const { outdir: given, prefix } = scratchPlace(inputText);
  const outdir = path.posix.normalize(given ?? './');
  if (path.posix.isAbsolute(outdir) || outdir === '..' || outdir.startsWith('../') || prefix.includes('/') || prefix === '')
    return undefined;
  return { outdir: outdir.replace(/\/+$/, '') || '.', prefix, outdirDefaulted: given === undefined };
}

const WFC_IN_SAVE = /^wfc.*\.(dat|hdf5)$/;

/** Remove the wavefunction files at `place` under a local job directory; what went, counted. */
export function removeWavefunctions(jobDir: string, place: WavefunctionPlace): { files: number; bytes: number } {
  const out = { files: 0, bytes: 0 };
  const outdir = path.resolve(jobDir, place.outdir);
  const rel = path.relative(jobDir, outdir);
  if (rel.startsWith('..') || path.isAbsolute(rel) || !fs.existsSync(outdir)) return out;
  const remove = (file: string) => {
    out.bytes += fs.statSync(file).size;
    fs.rmSync(file, { force: true });
    out.files++;
  };
  const save = path.join(outdir, `${place.prefix}.save`);
  if (fs.existsSync(save)) for (const f of fs.readdirSync(save)) if (WFC_IN_SAVE.test(f)) remove(path.join(save, f));
  for (const f of fs.readdirSync(outdir)) if (f.startsWith(`${place.prefix}.wfc`)) remove(path.join(outdir, f));
  return out;
}

/**
 * The same removal as shell, run in the job directory after pw.x succeeded. Every path part is
 * quoted and only the wfc glob is left to the shell. With outdir left to pw.x, nothing is removed
 * when ESPRESSO_TMPDIR is set: the files are then in a directory other jobs share.
 */
export function removeWavefunctionsCommand(place: WavefunctionPlace): string {
  const dir = shellQuote(place.outdir);
  const prefix = shellQuote(place.prefix);
  const rm = `rm -f -- ${dir}/${prefix}.save/wfc*.dat ${dir}/${prefix}.save/wfc*.hdf5 ${dir}/${prefix}.wfc*`;
  return place.outdirDefaulted ? `if [ -z "\${ESPRESSO_TMPDIR:-}" ]; then ${rm}; fi` : rm;
}
