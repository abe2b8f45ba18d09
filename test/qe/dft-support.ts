// Running pw.x and ev.x for the DFT science proofs: serial runs (the machine is shared),
// inputs written through the project's own input builder, energies in eV and volumes in Å^3.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Matrix, solve } from 'ml-matrix';
import { meshFromSpacing } from '../../src/core/dft/kpoints';
import { parsePwOutput, physicalSettingsOf, pwInputFromStructure } from '../../src/core/dft/qe';
import { readUpfHeaderFile } from '../../src/core/dft/qe/upfFiles';
import { cellVolume } from '../../src/core/dft/structure/cell';
import type { Cell, PhysicalSettings, Structure } from '../../src/core/dft/types';
import { angstromToBohr, ryToEv } from '../../src/core/units';

export const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

export interface Material {
  element: string;
  massAmu: number;
  pseudopotential: string;
  functional: string;
  /** SYSTEM variables besides the cutoffs (occupations, smearing). */
  system: Record<string, string | number>;
  /** ecutrho / ecutwfc (default 4, norm-conserving; ultrasoft files want 8 or more). */
  dual?: number;
}

export interface PwPoint {
  structure: Structure;
  ecutwfcRy: number;
  kSpacingPerAngstrom: number;
  energyEv: number;
  natoms: number;
  pressureKbar: number;
  volumeA3: number;
  settings: PhysicalSettings;
  seconds: number;
  /** Total and absolute magnetization per cell, μB (spin-polarised runs). */
  magnetization?: { total: number; absolute: number };
  /** Lowest unoccupied − highest occupied level, eV (runs with fixed occupations or empty bands). */
  gapEv?: number;
}

export class PwRunner {
  runs = 0;
  seconds = 0;
  constructor(
    private readonly workDir: string,
    private readonly material: Material,
  ) {}

  /**
   * `meshCell`: the cell the k-mesh is made for. An EOS series keeps the mesh of its central
   * cell at every volume; a mesh recomputed per volume jumps by a point somewhere in the
   * series and puts a step into E(V).
   */
  run(structure: Structure, ecutwfcRy: number, kSpacingPerAngstrom: number, meshCell: Cell = structure.cell): PwPoint {
    const mesh = meshFromSpacing(meshCell, kSpacingPerAngstrom);
    const name = `${this.material.element}-${this.runs++}`;
    const input = pwInputFromStructure(structure, {
      namelists: {
        CONTROL: { calculation: 'scf', prefix: name, outdir: './tmp', pseudo_dir: PSEUDO_DIR, tstress: true },
        SYSTEM: { ecutwfc: ecutwfcRy, ecutrho: (this.material.dual ?? 4) * ecutwfcRy, ...this.material.system },
        ELECTRONS: { conv_thr: 1e-10 },
      },
      species: { [this.material.element]: { massAmu: this.material.massAmu, pseudopotential: this.material.pseudopotential } },
      kPoints: { kind: 'automatic', mesh },
    });
    const file = path.join(this.workDir, `${name}.in`);
    fs.writeFileSync(file, input);
    const t0 = Date.now();
    const out = execFileSync('pw.x', ['-in', file], { cwd: this.workDir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
    const seconds = (Date.now() - t0) / 1000;
    this.seconds += seconds;
    fs.rmSync(path.join(this.workDir, 'tmp'), { recursive: true, force: true });
    const parsed = parsePwOutput(out);
    if (!parsed.scfConverged || !parsed.jobDone || parsed.totalEnergyRy === undefined || parsed.pressureKbar === undefined) {
      throw new Error(`pw.x gave no converged energy and pressure for ${file}:\n${out.slice(-2000)}`);
    }
    const upf = readUpfHeaderFile(path.join(PSEUDO_DIR, this.material.pseudopotential));
    return {
      structure,
      ecutwfcRy,
      kSpacingPerAngstrom,
      energyEv: ryToEv(parsed.totalEnergyRy),
      natoms: structure.symbols.length,
      pressureKbar: parsed.pressureKbar,
      volumeA3: cellVolume(structure.cell),
      seconds,
      ...(typeof parsed.totalMagnetization === 'number' && parsed.absoluteMagnetization !== undefined
        ? { magnetization: { total: parsed.totalMagnetization, absolute: parsed.absoluteMagnetization } }
        : {}),
      ...(parsed.highestOccupiedEv !== undefined && parsed.lowestUnoccupiedEv !== undefined
        ? { gapEv: parsed.lowestUnoccupiedEv - parsed.highestOccupiedEv }
        : {}),
      settings: physicalSettingsOf(input, {
        codeVersion: parsed.codeVersion,
        kSpacingPerAngstrom,
        upfHeaders: { [this.material.pseudopotential]: upf },
      }),
    };
  }
}

/**
 * The lattice constant at which pw.x's own pressure vanishes: a quadratic least-squares
 * fit of P(a) over the points, solved for P = 0 inside the sampled range.
 */
export function zeroPressureLatticeConstant(points: { aAngstrom: number; pressureKbar: number }[]): number {
  const mean = points.reduce((s, p) => s + p.aAngstrom, 0) / points.length;
  const x = points.map((p) => p.aAngstrom - mean);
  const c = solve(new Matrix(x.map((t) => [1, t, t * t])), Matrix.columnVector(points.map((p) => p.pressureKbar))).to1DArray();
  const [lo, hi] = [Math.min(...x), Math.max(...x)];
  const disc = c[1] ** 2 - 4 * c[2] * c[0];
  const roots = Math.abs(c[2]) < 1e-14 ? [-c[0] / c[1]] : [(-c[1] + Math.sqrt(disc)) / (2 * c[2]), (-c[1] - Math.sqrt(disc)) / (2 * c[2])];
  const inside = roots.filter((r) => r >= lo && r <= hi);
  if (inside.length !== 1)
    throw new Error(`pressure does not cross zero once inside the sampled lattice constants: ${JSON.stringify(points)}`);
  return mean + inside[0];
}

/** QE's ev.x with EOS type 1 (Birch 1st order = 3rd-order Birch–Murnaghan) on (a, E) of a cubic lattice. */
export function evxLatticeConstant(
  workDir: string,
  bravais: 'fcc' | 'bcc' | 'sc',
  points: { aAngstrom: number; energyEv: number }[],
): number {
  const data = points.map((p) => `${angstromToBohr(p.aAngstrom).toFixed(8)}  ${(p.energyEv / ryToEv(1)).toFixed(10)}`).join('\n');
  fs.writeFileSync(path.join(workDir, 'ev.dat'), data + '\n');
  execFileSync('ev.x', [], { cwd: workDir, input: `au\n${bravais}\n1\nev.dat\nev.out\n`, encoding: 'utf8' });
  const text = fs.readFileSync(path.join(workDir, 'ev.out'), 'utf8');
  const m = /a0 =\s*(\d+\.\d+) Ang/.exec(text);
  if (!m) throw new Error(`no "a0 = ... Ang" line in ev.x output:\n${text}`);
  return Number(m[1]);
}
