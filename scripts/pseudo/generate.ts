/**
 * Generates the ultrasoft pseudopotentials whose ld1.x inputs sit beside this file (pslibrary 1.0.0
 * parameters, PBE, scalar-relativistic; see README.md here) with Quantum ESPRESSO's ld1.x, and runs
 * each file's transferability tests (pslibrary's test configurations, frozen core). Used by the
 * benches that need an element no installed library has (bench:gaps for GaAs, bench:moments for Co).
 *
 *   node --import tsx scripts/pseudo/generate.ts OUT_DIR [Ga,As,Co]   (writes OUT_DIR/<file>.UPF, prints the tests)
 *
 * ld1.x is in Debian's quantum-espresso package; $LD1X names another binary. A file already in
 * OUT_DIR is kept (generation is deterministic: the same input gives the same numbers).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = __dirname;

export interface GeneratedPseudo {
  element: string;
  file: string;
  /** The largest |ΔE_AE − ΔE_PS| over the test configurations, mRy (undefined when the tests did not run). */
  maxTestErrorMRy?: number;
  testConfigurations?: number;
}

/** The ld1.x inputs kept here, by element: El.<functional>-<tags>-rrkjus_psl.<version>.ld1.in. */
export function availableInputs(): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(here)
      .filter((f) => /\.ld1\.in$/.test(f) && !/\.test\.ld1\.in$/.test(f))
      .map((f) => [f.split('.')[0]!, f.replace(/\.ld1\.in$/, '.UPF')]),
  );
}

function ld1(input: string, cwd: string): string {
  const r = spawnSync(process.env.LD1X ?? 'ld1.x', [], { cwd, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error)
    throw new Error(
      `ld1.x could not be started (${r.error.message}); install Debian's quantum-espresso package or set LD1X to the binary.`,
    );
  if (r.status !== 0) {
    throw new Error(`ld1.x failed (exit ${r.status}) on ${cwd}: ${r.stdout.split('\n').slice(-8).join(' ')} ${r.stderr}`);
  }
  return r.stdout;
}

/** Writes the UPF file of each element into outDir (kept if present) and runs its ld1.x tests. */
export function generatePseudopotentials(outDir: string, elements: string[]): GeneratedPseudo[] {
  const inputs = availableInputs();
  const unknown = elements.filter((el) => !inputs[el]);
  if (unknown.length)
    throw new Error(`no ld1.x input for ${unknown.join(', ')} in ${here} (inputs for: ${Object.keys(inputs).sort().join(', ')})`);
  fs.mkdirSync(outDir, { recursive: true });
  return elements.map((element) => {
    const file = inputs[element]!;
    const stem = file.replace(/\.UPF$/, '');
    if (!fs.existsSync(path.join(outDir, file))) {
      const work = fs.mkdtempSync(path.join(outDir, `.ld1-${element}-`));
      try {
        ld1(fs.readFileSync(path.join(here, `${stem}.ld1.in`), 'utf8'), work);
        if (!fs.existsSync(path.join(work, file)))
          throw new Error(`ld1.x wrote no ${file} (its inputs: ${path.join(here, `${stem}.ld1.in`)})`);
        fs.renameSync(path.join(work, file), path.join(outDir, file));
      } finally {
        // a failed generation leaves no scratch beside the library: the error carries ld1.x's last lines
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
    const test = path.join(here, `${stem}.test.ld1.in`);
    if (!fs.existsSync(test)) return { element, file };
    // the tests read the file by name and write their wavefunctions and potentials beside it: a scratch folder
    const work = fs.mkdtempSync(path.join(outDir, `.ld1-test-${element}-`));
    let out: string;
    try {
      fs.copyFileSync(path.join(outDir, file), path.join(work, file));
      out = ld1(fs.readFileSync(test, 'utf8'), work);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const errors = [...out.matchAll(/Delta E=\s*(-?[\d.]+(?:E[-+]?\d+)?)\s*Ry/gi)].map((m) => Math.abs(Number(m[1])) * 1000);
    return { element, file, ...(errors.length ? { maxTestErrorMRy: Math.max(...errors), testConfigurations: errors.length } : {}) };
  });
}

if (require.main === module) {
  const [outDir, list] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: node --import tsx scripts/pseudo/generate.ts OUT_DIR [Ga,As,Co]');
    process.exit(2);
  }
  const elements = list ? list.split(',') : Object.keys(availableInputs()).sort();
  for (const g of generatePseudopotentials(path.resolve(outDir), elements)) {
    console.log(
      `${g.file}: ${g.maxTestErrorMRy === undefined ? 'no tests' : `max |ΔE_AE − ΔE_PS| = ${g.maxTestErrorMRy.toFixed(2)} mRy over ${g.testConfigurations} test configurations`}`,
    );
  }
}
