/**
 * The tight reference for one element, or for any crystal (a compound, a non-cubic cell: `input`):
 * the same pseudopotential, smearing, spin and EOS points as the workflow's EOS, but at a cutoff
 * and a k-point density far beyond the ones the convergence tests chose. Its lattice constant
 * tells how much the chosen settings cost in accuracy. pw.x runs directly here: the reference is
 * a yardstick, not part of the workflow.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderPwInput, type PseudoChoice, type PwInputOptions } from '../../../src/core/dft/qe/pwInput';
import { latticeAtVolume, type CrystalLatticeAtVolume } from '../../../src/core/dft/latticeFromCell';
import type { Structure } from '../../../src/core/dft/types';
import { MAGNETIC_ELEMENTS, eosScaleFactors } from '../../../src/core/workflows/latticeConstantInputs';
import { bulk } from '../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../src/core/dft/structure/cell';
import { fitEos } from '../../../src/core/dft/eos';
import { latticeConstantFromVolume } from '../../../src/core/dft/lattice';
import { parsePwOutput } from '../../../src/core/dft/qe/output';
import { ryToEv } from '../../../src/core/units';
import { pwCpuSeconds } from './measure';

export interface ReferenceSpec {
  element: string;
  structure: 'fcc' | 'bcc' | 'diamond';
  aStartAngstrom: number;
  pseudoDir: string;
  pseudopotential: string;
  ecutwfcRy: number;
  ecutrhoRy: number;
  kSpacingPerAngstrom: number;
  degaussRy: number;
  eosPoints: number;
  eosRangePercent: number;
  /** pw.x processes at a time. */
  jobs: number;
  /**
   * Where the EOS points run, one directory each. A point whose pw.in there is this input and
   * whose pw.out is a finished, converged run is read, not run again: a reference stopped part-way
   * (Ctrl-C, the end of a sitting) goes on from the points it had. Without it, a temporary
   * directory, removed when the reference is done or stopped.
   */
  workDir?: string;
  /** Progress lines (default: the console). */
  log?: (line: string) => void;
  /**
   * Any crystal instead of the element's named lattice: the cell the workflow's EOS scaled, its
   * pw.x options (occupations, smearing, spin, starting moments) and pseudopotentials per species,
   * as the workflow's EOS input has them. The cutoffs and k-spacing above replace the input's;
   * `element`, `structure` and `aStartAngstrom` then only name it. The lattice comes from the
   * symmetry of the cell (a for a cubic crystal, a, c, c/a … otherwise), as the workflow's does.
   */
  input?: { structure: Structure; options: PwInputOptions; pseudos: Record<string, PseudoChoice> };
}

export interface ReferenceResult {
  aAngstrom: number;
  v0Angstrom3: number;
  b0GPa: number;
  ecutwfcRy: number;
  ecutrhoRy: number;
  kSpacingPerAngstrom: number;
  kMesh: number[];
  pwRuns: number;
  /** Of pwRuns, the points read from an earlier invocation's finished runs in workDir (their CPU is in pwCpuSeconds, their wall time is not in wallSeconds). */
  resumedRuns?: number;
  pwCpuSeconds: number;
  /** This invocation's wall time. */
  wallSeconds: number;
  /** Taken from an earlier measurement with the same settings (its date and command), not computed by this bench run. */
  reusedFrom?: { date?: string; command?: string };
  /** The lattice parameters at V0 (every crystal given as `input`). */
  lattice?: CrystalLatticeAtVolume;
  /** Measured by a bench invocation of its own (--reference-only), after the workflow's: when and by what command. */
  measuredAt?: string;
  command?: string;
}

/** pw.x on pw.in in dir; pw.out is written as pw.x writes it, so a stopped run leaves a partial one behind (no JOB DONE). */
function runPw(dir: string, input: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pw.in'), input);
  const log = fs.createWriteStream(path.join(dir, 'pw.out'));
  return new Promise((resolve, reject) => {
    const child = spawn('pw.x', ['-in', 'pw.in'], {
      cwd: dir,
      env: { ...process.env, OMP_NUM_THREADS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      log.write(d);
    });
    child.on('error', (e) => log.end(() => reject(e)));
    child.on('exit', () => log.end(() => resolve(out)));
  });
}

/** The output of an earlier run of exactly this input in dir that finished with a converged energy, if there is one. */
function finishedEarlier(dir: string, input: string): string | undefined {
  try {
    if (fs.readFileSync(path.join(dir, 'pw.in'), 'utf8') !== input) return undefined;
    const out = fs.readFileSync(path.join(dir, 'pw.out'), 'utf8');
    const parsed = parsePwOutput(out);
    return /JOB DONE/.test(out) && parsed.scfConverged && parsed.totalEnergyRy !== undefined ? out : undefined;
  } catch {
    return undefined;
  }
}

async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, size) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * Temporary reference directories being worked in (no workDir given). A failed reference keeps
 * its directory (its error names the pw.out to read); a bench stopped with Ctrl-C or SIGTERM
 * removes them on the way out. A workDir the caller gave is kept, so the reference can go on.
 */
const liveWorkDirs = new Set<string>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const dir of liveWorkDirs) fs.rmSync(dir, { recursive: true, force: true });
    process.kill(process.pid, signal);
  });
}

export async function tightReference(s: ReferenceSpec): Promise<ReferenceResult> {
  const t0 = Date.now();
  const base = s.input?.structure ?? bulk({ kind: s.structure, symbols: [s.element], aAngstrom: s.aStartAngstrom, cell: 'primitive' });
  const magnetic = MAGNETIC_ELEMENTS.has(s.element);
  const { kMesh: _mesh, ...inputOptions } = s.input?.options ?? ({} as Partial<PwInputOptions>);
  const options: PwInputOptions = s.input
    ? ({
        ...inputOptions,
        purpose: 'production',
        calculation: 'scf',
        ecutwfcRy: s.ecutwfcRy,
        ecutrhoRy: s.ecutrhoRy,
        kSpacingPerAngstrom: s.kSpacingPerAngstrom,
      } as PwInputOptions)
    : {
        purpose: 'production' as const,
        calculation: 'scf' as const,
        ecutwfcRy: s.ecutwfcRy,
        ecutrhoRy: s.ecutrhoRy,
        kSpacingPerAngstrom: s.kSpacingPerAngstrom,
        occupations: 'smearing' as const,
        smearing: 'mv',
        degaussRy: s.degaussRy,
        nspin: (magnetic ? 2 : 1) as 1 | 2,
        ...(magnetic ? { startingMagnetization: { [s.element]: 0.5 } } : {}),
      };
  // one k-mesh for the whole series, the mesh of the central cell (the workflow's EOS keeps the spacing instead, so its
  // mesh changes over ±5 % where the spacing is fine: docs/notes/workflows.md, "Ir, fourth sitting")
  const pseudos: Record<string, PseudoChoice> = s.input?.pseudos ?? { [s.element]: { file: s.pseudopotential, sha256: '' } };
  const { settings } = renderPwInput(base, options, pseudos);
  const mesh = settings.kMesh!;
  const temporary = !s.workDir;
  const work = s.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `sol27-ref-${s.element}-`));
  fs.mkdirSync(work, { recursive: true });
  if (temporary) liveWorkDirs.add(work);
  const scales = eosScaleFactors(s.eosPoints, s.eosRangePercent);
  const runs = await inBatches(scales, s.jobs, async (scale) => {
    const cell = base.cell.map((r) => r.map((x) => x * scale)) as typeof base.cell;
    const structure = { ...base, cell, positions: base.positions.map((r) => r.map((x) => x * scale)) as typeof base.positions };
    const { kSpacingPerAngstrom: _k, ...fixedMesh } = options;
    const { text } = renderPwInput(structure, { ...fixedMesh, kMesh: mesh }, pseudos);
    // pw.x 6.7 then writes nothing to outdir (no wavefunctions: ~0.5 GB a run at this mesh); the energy is read from pw.out
    // absolute: pw.x runs in the point's directory, and a --pseudo-dir spelled relative or absolute is the same input
    const input = text.replace('&CONTROL', `&CONTROL\n  pseudo_dir = '${path.resolve(s.pseudoDir)}'\n  disk_io = 'nowf'`);
    const dir = path.join(work, `scale-${scale}`);
    const earlier = finishedEarlier(dir, input);
    if (earlier) (s.log ?? console.log)(`${s.element}: reference point at scale ${scale} read from the finished run in ${dir}`);
    const out = earlier ?? (await runPw(dir, input));
    const parsed = parsePwOutput(out);
    if (parsed.totalEnergyRy === undefined || !parsed.scfConverged) {
      throw new Error(
        `the reference run of ${s.element} at scale ${scale} gave no converged energy (${parsed.error?.message ?? 'see ' + path.join(work, `scale-${scale}`, 'pw.out')}).`,
      );
    }
    return { volumeA3: cellVolume(cell), energyEv: ryToEv(parsed.totalEnergyRy), cpu: pwCpuSeconds(out) ?? 0, resumed: !!earlier };
  });
  const fit = fitEos(
    runs.map((r) => ({ volumeA3: r.volumeA3, energyEv: r.energyEv })),
    'birch-murnaghan',
  );
  const lattice = s.input ? latticeAtVolume(base, fit.v0A3) : undefined;
  const a = lattice ? { aAngstrom: lattice.aAngstrom } : latticeConstantFromVolume(fit.v0A3, { bravais: s.structure, cell: 'primitive' });
  if (temporary) {
    fs.rmSync(work, { recursive: true, force: true });
    liveWorkDirs.delete(work);
  }
  const resumedRuns = runs.filter((r) => r.resumed).length;
  return {
    aAngstrom: a.aAngstrom,
    v0Angstrom3: fit.v0A3,
    b0GPa: fit.b0Gpa,
    ecutwfcRy: s.ecutwfcRy,
    ecutrhoRy: s.ecutrhoRy,
    kSpacingPerAngstrom: s.kSpacingPerAngstrom,
    kMesh: mesh,
    pwRuns: runs.length,
    ...(resumedRuns ? { resumedRuns } : {}),
    ...(lattice ? { lattice } : {}),
    pwCpuSeconds: runs.reduce((t, r) => t + r.cpu, 0),
    wallSeconds: (Date.now() - t0) / 1000,
  };
}
