/**
 * Reading the UPF headers an input names, from the pseudopotential directory pw.x
 * would use: the one given, else the input's pseudo_dir (relative to the input's
 * folder), else $ESPRESSO_PSEUDO, else ~/espresso/pseudo (pw.x's own order).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readAtomicSpecies } from './input/cards';
import type { PwInput } from './input/model';
import { stringIn } from './input/query';
import { readUpfHeader, type UpfHeader } from './upf';

/** Enough of a UPF file to hold its header (PP_INFO can carry the full generation input). */
const HEAD_BYTES = 256 * 1024;

export function pseudoDirFor(input: PwInput, opts: { pseudoDir?: string; inputDir?: string } = {}): string {
  if (opts.pseudoDir) return opts.pseudoDir;
  const fromInput = stringIn(input, 'control', 'pseudo_dir');
  if (fromInput) return path.resolve(opts.inputDir ?? process.cwd(), fromInput);
  if (process.env.ESPRESSO_PSEUDO) return process.env.ESPRESSO_PSEUDO;
  return path.join(os.homedir(), 'espresso', 'pseudo');
}

export function readUpfHeaderFile(file: string): UpfHeader {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    const head = buf.subarray(0, n).toString('utf8');
    try {
      const h = readUpfHeader(head, path.basename(file));
      // A UPF v1 file says whether it has spin-orbit data only near its end (PP_ADDINFO).
      if (h.spinOrbit === undefined && n === HEAD_BYTES) return readUpfHeader(fs.readFileSync(file, 'utf8'), path.basename(file));
      return h;
    } catch (e) {
      if (n < HEAD_BYTES) throw e;
      return readUpfHeader(fs.readFileSync(file, 'utf8'), path.basename(file));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Headers (or why not) for every file in ATOMIC_SPECIES, keyed by the name written there. */
export function upfHeadersForInput(
  input: PwInput,
  opts: { pseudoDir?: string; inputDir?: string } = {},
): Record<string, UpfHeader | { error: string }> {
  const dir = pseudoDirFor(input, opts);
  const out: Record<string, UpfHeader | { error: string }> = {};
  for (const s of readAtomicSpecies(input)?.value ?? []) {
    const file = path.join(dir, s.pseudopotential);
    try {
      out[s.pseudopotential] = readUpfHeaderFile(file);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      out[s.pseudopotential] = {
        error:
          err.code === 'ENOENT'
            ? `${s.pseudopotential} is not in ${dir}; pw.x stops with "file ... not found". Put the file there or fix pseudo_dir.`
            : `${file}: ${err.message}`,
      };
    }
  }
  return out;
}
