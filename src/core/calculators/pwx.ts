/**
 * pw.x as a calculator: each structure becomes an input through the QE input builder
 * (ibrav 0, Å), runs through an injected runner (local pw.x by default; the job service
 * can run it on a cluster), and the output parser's energy (Ry), forces (Ry/bohr) and
 * stress (kbar) come back in eV, eV/Å and eV/Å^3. relax() runs pw.x's own BFGS
 * (calculation='relax') so a relaxation is one job, not one job per step.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwOutput, physicalSettingsOf, pwInputFromStructure, type KPointsSpec, type NamelistValue } from '../dft/qe';
import type { PwOutput } from '../dft/qe/output/types';
import type { PhysicalSettings, Structure, Vec3 } from '../dft/types';
import { BOHR_IN_ANGSTROM, EV_PER_ANGSTROM3_IN_GPA, KBAR_IN_GPA, RY_IN_EV } from '../units';
import type { RelaxResult } from './types';
import { maxFreeForce } from './optimizers/fire';
import { CalculatorError, type CalculateOptions, type Calculator, type CalculatorResult, type CalculatorSettings } from './types';

const RY_PER_BOHR_IN_EV_PER_ANGSTROM = RY_IN_EV / BOHR_IN_ANGSTROM;
const KBAR_IN_EV_PER_ANGSTROM3 = KBAR_IN_GPA / EV_PER_ANGSTROM3_IN_GPA;

/** Runs one pw.x input and returns its output text. Replace it to run through the job service. */
export type PwRunner = (input: string, job: { label: string; signal?: AbortSignal }) => Promise<string>;

export interface PwCalculatorOptions {
  /** &SYSTEM, &ELECTRONS, ... (calculation, tprnfor, tstress, nat, ntyp, ibrav are set here). */
  namelists: Record<string, Record<string, NamelistValue>>;
  species: Record<string, { massAmu: number; pseudopotential: string }>;
  /** A fixed mesh, or one chosen per structure (slab vs gas-phase box). */
  kPoints: KPointsSpec | ((s: Structure) => KPointsSpec);
  /** Written as pseudo_dir; leave it out when the runner stages the files beside the input (the job service does). */
  pseudoDir?: string;
  runner?: PwRunner;
}

/** Local pw.x (argv, no shell) in a fresh temporary directory. */
export function localPwRunner(argv: string[] = ['pw.x']): PwRunner {
  return (input, job) =>
    new Promise((resolve, reject) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pw-'));
      fs.writeFileSync(path.join(dir, 'pw.in'), input);
      const child = spawn(argv[0]!, [...argv.slice(1), '-in', 'pw.in'], {
        cwd: dir,
        env: { OMP_NUM_THREADS: '1', ...process.env },
        signal: job.signal,
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', (e) => {
        fs.rmSync(dir, { recursive: true, force: true });
        reject(
          new CalculatorError(
            'pw.x',
            `could not run ${argv.join(' ')} for ${job.label}: ${e.message}. Install Quantum ESPRESSO or set the pw.x command.`,
          ),
        );
      });
      child.on('close', (code) => {
        fs.rmSync(dir, { recursive: true, force: true });
        if (code === 0) resolve(out);
        else
          reject(
            new CalculatorError(
              'pw.x',
              `${job.label}: pw.x exited with code ${code}.${err ? ` stderr: ${err.trim().slice(-500)}` : ''}\n${out.slice(-1500)}`,
            ),
          );
      });
    });
}

export class PwCalculator implements Calculator {
  readonly name = 'pw.x';
  readonly settings: CalculatorSettings;
  /** What makes two energies from this calculator comparable (checked by the guard). */
  readonly physicalSettings: PhysicalSettings;
  private readonly runner: PwRunner;
  runs = 0;

  constructor(private readonly opts: PwCalculatorOptions) {
    this.runner = opts.runner ?? localPwRunner();
    const probe: Structure = {
      symbols: Object.keys(opts.species),
      positions: Object.keys(opts.species).map((_, i) => [i, 0, 0] as Vec3),
      cell: [
        [10, 0, 0],
        [0, 10, 0],
        [0, 0, 10],
      ],
      pbc: [true, true, true],
    };
    this.physicalSettings = physicalSettingsOf(this.input(probe, 'scf', false));
    const p = this.physicalSettings;
    this.settings = {
      method: 'pw.x',
      production: true,
      details: {
        functional: p.functional,
        ecutwfcRy: p.ecutwfcRy,
        ecutrhoRy: p.ecutrhoRy,
        occupations: p.occupations,
        ...(p.smearing ? { smearing: p.smearing } : {}),
        ...(p.degaussRy !== undefined ? { degaussRy: p.degaussRy } : {}),
        pseudopotentials: Object.entries(p.pseudopotentials)
          .map(([el, x]) => `${el}:${x.file}`)
          .join(' '),
      },
    };
  }

  input(s: Structure, calculation: 'scf' | 'relax', stress: boolean, extra: Record<string, Record<string, NamelistValue>> = {}): string {
    const nl: Record<string, Record<string, NamelistValue>> = {};
    for (const [k, v] of Object.entries(this.opts.namelists)) nl[k.toLowerCase()] = { ...v };
    for (const [k, v] of Object.entries(extra)) nl[k.toLowerCase()] = { ...(nl[k.toLowerCase()] ?? {}), ...v };
    nl['control'] = {
      ...(nl['control'] ?? {}),
      calculation,
      ...(this.opts.pseudoDir ? { pseudo_dir: this.opts.pseudoDir } : {}),
      tprnfor: true,
      ...(stress ? { tstress: true } : {}),
    };
    const kPoints = typeof this.opts.kPoints === 'function' ? this.opts.kPoints(s) : this.opts.kPoints;
    return pwInputFromStructure(s, { namelists: nl, species: this.opts.species, kPoints });
  }

  private async run(input: string, label: string, signal?: AbortSignal): Promise<PwOutput> {
    const text = await this.runner(input, { label, signal });
    this.runs++;
    const out = parsePwOutput(text);
    if (out.error) throw new CalculatorError('pw.x', `${label}: pw.x stopped in ${out.error.routine}: ${out.error.message}`);
    if (!out.scfConverged)
      throw new CalculatorError('pw.x', `${label}: the SCF did not converge; raise electron_maxstep or lower mixing_beta and rerun.`);
    if (out.totalEnergyRy === undefined)
      throw new CalculatorError(
        'pw.x',
        `${label}: no final total energy ("!" line) in the output; see the output's end:\n${text.slice(-1000)}`,
      );
    return out;
  }

  async calculate(structure: Structure, opts: CalculateOptions = {}): Promise<CalculatorResult> {
    const out = await this.run(this.input(structure, 'scf', opts.stress ?? false), `SCF of ${structure.symbols.length} atoms`, opts.signal);
    if (!out.forcesRyPerBohr) throw new CalculatorError('pw.x', 'no forces in the output although tprnfor was set.');
    const result: CalculatorResult = {
      energyEv: out.totalEnergyRy! * RY_IN_EV,
      forcesEvPerAngstrom: out.forcesRyPerBohr.map((f) => f.map((x) => x * RY_PER_BOHR_IN_EV_PER_ANGSTROM) as Vec3),
    };
    if (opts.stress) {
      if (!out.stressKbar) throw new CalculatorError('pw.x', 'no stress in the output although tstress was set.');
      // pw.x prints the stress with the opposite sign to the convention here (positive = tensile, as ASE).
      result.stressEvPerAngstrom3 = out.stressKbar.map((row) => row.map((x) => -x * KBAR_IN_EV_PER_ANGSTROM3)) as [Vec3, Vec3, Vec3];
    }
    return result;
  }

  /**
   * pw.x's BFGS relaxation. pw.x's forc_conv_thr bounds every force component, so it is set
   * to fmax/√3 (Ry/bohr) to guarantee the force norm below fmax; fixed atoms get if_pos 0 0 0.
   */
  async relax(structure: Structure, opts: { fmaxEvPerAngstrom: number; maxSteps: number; signal?: AbortSignal }): Promise<RelaxResult> {
    const forcConvThr = opts.fmaxEvPerAngstrom / Math.sqrt(3) / RY_PER_BOHR_IN_EV_PER_ANGSTROM;
    const input = this.input(structure, 'relax', false, {
      control: { forc_conv_thr: forcConvThr, etot_conv_thr: 1e-5, nstep: opts.maxSteps },
      ions: { ion_dynamics: 'bfgs' },
    });
    const out = await this.run(input, `relaxation of ${structure.symbols.length} atoms`, opts.signal);
    const last = out.ionicSteps[out.ionicSteps.length - 1];
    if (!last || !last.forcesRyPerBohr) throw new CalculatorError('pw.x', 'the relaxation output has no final geometry with forces.');
    const forces = last.forcesRyPerBohr.map((f) => f.map((x) => x * RY_PER_BOHR_IN_EV_PER_ANGSTROM) as Vec3);
    const fmax = maxFreeForce(forces, structure.fixed);
    return {
      structure: { ...structure, positions: last.positionsAngstrom.map((p) => [...p] as Vec3), cell: last.cellAngstrom },
      energyEv: out.totalEnergyRy! * RY_IN_EV,
      forcesEvPerAngstrom: forces,
      fmaxEvPerAngstrom: fmax,
      steps: Math.max(0, out.ionicSteps.length - 1),
      converged: (out.relaxation?.converged ?? false) && fmax < opts.fmaxEvPerAngstrom,
      energyTraceEv: out.ionicSteps.flatMap((s) => (s.energyRy !== undefined ? [s.energyRy * RY_IN_EV] : [])),
      optimizer: 'pw.x BFGS',
    };
  }
}
