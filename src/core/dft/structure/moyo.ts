/**
 * Loads moyo (the crystal-symmetry library of the spglib project, as its WebAssembly build
 * @spglib/moyo-wasm) once, synchronously, from a file on disk: next to the bundle (dist/,
 * where scripts/build.mjs copies it for the CLI and the extension host) or from node_modules
 * in a source checkout. No network: the module's own default of fetching a URL is never used.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as moyo from '@spglib/moyo-wasm';

export type Moyo = typeof moyo;

const WASM = 'moyo_wasm_bg.wasm';
let loaded = false;

function wasmCandidates(): string[] {
  const out = [path.join(__dirname, WASM)];
  try {
    out.push(require.resolve(`@spglib/moyo-wasm/${WASM}`));
  } catch {
    // Not installed as a package (a bundle outside a checkout): the file beside the bundle is the only place.
  }
  return out;
}

/** The initialised moyo module; throws with what to do when its WebAssembly file is missing. */
export function loadMoyo(): Moyo {
  if (loaded) return moyo;
  const candidates = wasmCandidates();
  const file = candidates.find((p) => fs.existsSync(p));
  if (!file) {
    throw new Error(
      `the symmetry library's WebAssembly file (${WASM}) is missing: looked in ${candidates.join(' and ')}. ` +
        'Reinstall the extension, or run `npm install` and `npm run build` in a source checkout.',
    );
  }
  moyo.initSync({ module: fs.readFileSync(file) });
  loaded = true;
  return moyo;
}
