/**
 * A line-at-a-time reader of pw.x output (QE 6.x and 7.x). The batch parser and the
 * live progress of running jobs both feed it lines, so they agree on what a line means.
 *
 * Each line is dispatched on its first non-blank character before any pattern is
 * tried: most lines of a long run (bands, timings, k-points) cost one character test.
 */
import type { Cell, Vec3 } from '../../types';
import { parseQeDuration } from './qeTime';
import { continueBlock, type Block } from './blocks';
import { FAILURE_MARKERS, errorOfBlock, numberAfter, numbers, pwBannerVersion, type Mark } from './lineText';
import type { HubbardOccupation, IonicStep, PseudopotentialUsed, Relaxation, RunSettingsPrinted, ScfCycle, ScfIteration } from './types';

export { errorOfBlock, FAILURE_MARKERS, pwBannerVersion, type Mark } from './lineText';

/** A geometry as printed, before conversion to Å (needs the cell of its step). */
export interface RawGeometry {
  symbols: string[];
  positions: Vec3[];
  /** alat | bohr | angstrom | crystal */
  positionUnit: string;
  /** Cell rows in Å when known. */
  cellAngstrom?: Cell;
  /** The lattice parameter alat positions in alat units refer to. */
  alatBohr?: number;
}

export interface RawStep extends Omit<IonicStep, 'symbols' | 'positionsAngstrom' | 'cellAngstrom'> {
  geometry?: RawGeometry;
}

export class PwOutputReader {
  codeVersion?: string;
  settings: RunSettingsPrinted = {};
  scfCycles: ScfCycle[] = [];
  steps: RawStep[] = [];
  relaxation?: Relaxation;
  pseudopotentials: PseudopotentialUsed[] = [];
  warnings: string[] = [];
  warningCounts: Record<string, number> = {};
  error?: { routine: string; code?: number; message: string };
  jobDone = false;
  wallTimeSeconds?: number;
  cpuTimeSeconds?: number;
  beefEnsemble?: number[];
  /** What the run printed it was doing: scf, relax, vc-relax, md, bands, nscf, ensemble. */
  sawBfgs = false;
  sawVariableCell = false;
  sawMd = false;
  /** Damped (quick-min) dynamics: a relaxation, though it prints MD's lines. */
  sawDamped = false;
  sawBands = false;
  sawBeef = false;
  lines = 0;
  /** Lines that show how the run ended: the time limit, nstep, BFGS giving up, an error. */
  marks: { timeLimit?: Mark; stepsExhausted?: Mark; bfgsFailed?: Mark; failureLine?: Mark; error?: Mark; finalScf?: Mark } = {};
  /** The last non-blank line and its number (the evidence of an output that stops mid-run). */
  lastText?: string;
  lastLineNo = 0;
  /** The cell volume the run started from (a vc-relax prints the final one again). */
  initialCellVolumeBohr3?: number;
  /** Where each SCF that did not converge said so. */
  notConverged = new Map<ScfCycle, Mark>();
  /** The latest BFGS report: its step number and the energy (or enthalpy) it accepted; `seq` counts reports. */
  bfgs?: { step?: number; scfCycles?: number; energyRy?: number; enthalpyRy?: number; seq: number };
  /** The geometry the next SCF runs at. */
  /** @internal (blocks.ts) */
  pendingGeometry?: RawGeometry;
  /** @internal (blocks.ts) */
  cellAngstrom?: Cell;
  /** @internal (blocks.ts) */
  block: Block = { kind: 'none' };
  /** @internal (blocks.ts) */
  scf?: ScfCycle;
  /** @internal (blocks.ts) */
  iteration?: ScfIteration;
  /** @internal (blocks.ts) */
  step?: RawStep;
  /** "Final scf calculation at the relaxed structure" was printed: the next SCF is the final one. */
  private finalNext = false;
  /** The DFT+U occupations being printed (between write_ns's markers), if any. */
  private hubbard?: HubbardOccupation[];
  private hubbardEnd?: 'exit' | 'rule';

  get currentScf(): ScfCycle | undefined {
    return this.scf;
  }
  get currentIteration(): ScfIteration | undefined {
    return this.iteration;
  }
  get currentStep(): RawStep | undefined {
    return this.step;
  }

  /** @internal (blocks.ts) */
  warn(message: string): void {
    const m = message.trim();
    if (!m) return;
    if (!(m in this.warningCounts)) {
      this.warnings.push(m);
      this.warningCounts[m] = 0;
    }
    this.warningCounts[m]!++;
  }

  private startScf(): void {
    this.scf = { iterations: [], converged: false };
    this.scfCycles.push(this.scf);
    this.iteration = undefined;
    this.step = { scfCycle: this.scfCycles.length - 1 };
    if (this.finalNext) {
      this.scf.final = true;
      (this.relaxation ??= { converged: false }).finalScfCycle = this.scfCycles.length - 1;
      this.finalNext = false;
    }
    if (this.pendingGeometry) {
      const cell = this.pendingGeometry.cellAngstrom ?? this.cellAngstrom;
      this.step.geometry = cell ? { ...this.pendingGeometry, cellAngstrom: cell } : { ...this.pendingGeometry };
    }
    this.steps.push(this.step);
  }

  /** @internal (blocks.ts) */
  ensureScf(): ScfCycle {
    if (!this.scf) this.startScf();
    return this.scf!;
  }

  /** @internal (blocks.ts) */
  ensureStep(): RawStep {
    if (!this.step) this.startScf();
    return this.step!;
  }

  line(line: string): void {
    this.lines++;
    let i = 0;
    const n = line.length;
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    const t = i === 0 && n > 0 && line.charCodeAt(n - 1) > 32 ? line : line.trim();
    if (t === '') {
      if (this.block.kind !== 'none') continueBlock(this, t);
      return;
    }
    this.lastText = t;
    this.lastLineNo = this.lines;
    if (this.block.kind !== 'none' && continueBlock(this, t)) return;
    switch (t.charCodeAt(0)) {
      case 33: // !
        if (t.includes('Makov-Payne energy')) {
          const e = numberAfter(t);
          if (e !== undefined) this.ensureScf().makovPayneEnergyRy = e;
        } else if (t.includes('total energy')) {
          const e = numberAfter(t);
          const scf = this.ensureScf();
          if (e !== undefined) {
            scf.totalEnergyRy = e;
            this.ensureStep().energyRy = e;
          }
        }
        return;
      case 37: // %
        if (t.startsWith('%%%%')) this.block = { kind: 'error', lines: [] };
        return;
      case 40: // (
        if (t.startsWith('(criteria:')) {
          const v = numbers(t);
          const r = (this.relaxation ??= { converged: false });
          if (v.length >= 2) r.criteria = { energyRy: v[0]!, forceRyPerBohr: v[1]!, ...(v.length >= 3 ? { cellKbar: v[2]! } : {}) };
        }
        return;
      case 45: // -
        if (/^--- enter write_nsg? ---/.test(t)) this.startHubbard('exit');
        else if (/^--- exit write_nsg? ---/.test(t)) this.endHubbard();
        return;
      case 68: // D
        if (t.startsWith('Damped Dynamics Calculation')) this.sawDamped = true;
        return;
      case 71: // G
        if (t.startsWith('Gradient error')) {
          const v = numberAfter(t);
          const s = this.steps[this.steps.length - 1];
          if (v !== undefined && s) s.gradientErrorRyPerBohr = v;
        }
        return;
      case 78: // N
        if (t.startsWith('Non-local corr. energy')) {
          const v = numberAfter(t);
          if (v !== undefined && this.scf) this.scf.energyTermsRy = { ...this.scf.energyTermsRy, nonLocalCorrelation: v };
        }
        return;
      case 91: // [
        if (FAILURE_MARKERS.some((re) => re.test(t))) this.marks.failureLine ??= { line: this.lines, text: t };
        return;
      case 65: // A
        if (t.startsWith('ATOMIC_POSITIONS')) {
          const unit = (/\(\s*(\w+)/.exec(t) ?? /\{\s*(\w+)/.exec(t))?.[1]?.toLowerCase() ?? 'alat';
          this.block = { kind: 'positions', symbols: [], positions: [], unit };
        }
        return;
      case 66: // B
        if (t.startsWith('BFGS Geometry Optimization')) this.sawBfgs = true;
        else if (t.startsWith('BEEFens')) {
          this.sawBeef = true;
          this.block = { kind: 'beef', values: [] };
        } else if (t.startsWith('Band Structure Calculation')) this.sawBands = true;
        return;
      case 67: // C
        if (t.startsWith('Calculation stopped in scf loop')) {
          const m = /iteration #\s*(\d+)/.exec(t);
          const scf = this.ensureScf();
          scf.stoppedByTimeLimit = true;
          if (m) scf.iterationCount = Number(m[1]);
        } else if (t.startsWith('Cell gradient error')) {
          const v = numberAfter(t);
          const s = this.steps[this.steps.length - 1];
          if (v !== undefined && s) s.cellGradientErrorKbar = v;
        } else if (t.startsWith('CELL_PARAMETERS')) {
          const alat = /alat\s*=\s*([\d.]+)/.exec(t);
          const unit = alat ? 'alat' : (/[({]\s*(\w+)/.exec(t)?.[1]?.toLowerCase() ?? 'alat');
          this.block = alat ? { kind: 'cell', rows: [], unit, alatBohr: Number(alat[1]) } : { kind: 'cell', rows: [], unit };
        }
        return;
      case 69: // E
        if (t.startsWith('Exchange-correlation')) {
          this.settings.exchangeCorrelation = t
            .slice(t.indexOf('=') + 1)
            .replace(/\(.*$/, '')
            .trim();
        } else if (t.startsWith('Entering Dynamics') && !this.sawDamped) {
          this.sawMd = true;
        } else if (t.startsWith('Energy error')) {
          const v = numberAfter(t);
          const s = this.steps[this.steps.length - 1];
          if (v !== undefined && s) s.energyErrorRy = v;
        } else if (t.startsWith('End of BFGS')) {
          this.relaxation ??= { converged: false };
        } else if (t.startsWith('End of self-consistent') || t.startsWith('End of band structure')) {
          // nothing: the converged/not-converged line follows
        }
        return;
      case 70: // F
        if (t.startsWith('Forces acting on atoms')) this.block = { kind: 'forces', forces: [], seenAtom: false };
        else if (t.startsWith('Final scf calculation at the relaxed structure')) {
          this.finalNext = true;
          this.marks.finalScf = { line: this.lines, text: t };
        } else if (t.startsWith('Final energy')) {
          (this.relaxation ??= { converged: false }).finalEnergyRy = numberAfter(t);
        } else if (t.startsWith('Final enthalpy')) {
          (this.relaxation ??= { converged: false }).finalEnthalpyRy = numberAfter(t);
          this.sawVariableCell = true;
        }
        return;
      case 77: // M
        if (t.startsWith('Message from routine')) this.block = { kind: 'message', lines: [t] };
        else if (t.startsWith('Maximum CPU time exceeded')) this.marks.timeLimit ??= { line: this.lines, text: t };
        else if (t.startsWith('Magnetic moment per site')) {
          const scf = this.ensureScf();
          scf.siteMoments = [];
        } else if (t.startsWith('MPI processes distributed')) return;
        else if (t.startsWith('Molecular Dynamics Calculation')) this.sawMd = true;
        return;
      case 80: // P
        if (t.startsWith('Program PWSCF')) {
          const v = pwBannerVersion(t);
          if (v) this.codeVersion = v;
        } else if (t.startsWith('PWSCF') && t.includes('WALL')) {
          const m = /:\s*(.*?)\s*CPU\s*(.*?)\s*WALL/.exec(t);
          if (m) {
            const cpu = parseQeDuration(m[1]!);
            const wall = parseQeDuration(m[2]!);
            if (cpu !== undefined) this.cpuTimeSeconds = cpu;
            if (wall !== undefined) this.wallTimeSeconds = wall;
          }
        } else if (t.startsWith('PseudoPot. #')) {
          const m = /for\s+(\S+)\s+read from file/.exec(t);
          const entry: PseudopotentialUsed = { element: m?.[1] ?? '', path: '' };
          const inline = /read from file:?\s*(\S+)?/.exec(t)?.[1];
          if (inline) entry.path = inline;
          this.pseudopotentials.push(entry);
          this.block = { kind: 'pseudo', entry };
        } else if (t.startsWith('Parallel version')) {
          const m = /running on\s+(\d+)/.exec(t);
          if (m) this.settings.mpiProcesses = Number(m[1]);
        }
        return;
      case 82: // R
        if (t.startsWith('Reading input from')) this.settings.inputFile = t.slice(18).trim();
        return;
      case 83: // S
        if (t.startsWith('Self-consistent Calculation')) this.startScf();
        return;
      case 87: // W
        if (/^WARNING/i.test(t)) this.warn(t);
        return;
      case 97: // a
        if (t.startsWith('absolute magnetization')) {
          const v = numberAfter(t);
          if (v !== undefined) this.magnetization(undefined, v);
        } else if (t.startsWith('atom')) {
          if (this.hubbard && t.includes('Tr[ns(')) this.hubbardLine(t, Number(/^atom\s+(\d+)/.exec(t)?.[1]));
          else this.siteMoment(t);
        }
        return;
      case 98: // b
        if (t.startsWith('bfgs converged') || t.startsWith('bfgs failed')) {
          const m = /(?:in|after)\s+(\d+)\s+scf cycles and\s+(\d+)\s+bfgs steps/.exec(t);
          const r = (this.relaxation ??= { converged: true });
          // 6.x prints "bfgs converged" after giving up on a twice-reset history: that is not convergence.
          r.converged = t.startsWith('bfgs converged') && !r.failed;
          if (t.startsWith('bfgs failed')) {
            r.failed = true;
            this.marks.bfgsFailed = { line: this.lines, text: t };
          }
          if (m) {
            r.scfCycles = Number(m[1]);
            r.bfgsSteps = Number(m[2]);
          }
        } else if (t.startsWith('bravais-lattice index')) {
          this.settings.bravaisLatticeIndex = numberAfter(t);
        }
        return;
      case 99: // c
        if (t.startsWith('convergence has been achieved')) {
          const scf = this.ensureScf();
          scf.converged = true;
          const m = /in\s+(\d+)\s+iterations/.exec(t);
          if (m) scf.iterationCount = Number(m[1]);
        } else if (t.startsWith('convergence NOT achieved')) {
          const scf = this.ensureScf();
          scf.converged = false;
          if (!this.notConverged.has(scf)) this.notConverged.set(scf, { line: this.lines, text: t });
          const m = /after\s+(\d+)\s+iterations/.exec(t);
          if (m) scf.iterationCount = Number(m[1]);
          this.warn(t);
        } else if (t.startsWith('crystal axes')) {
          this.block = { kind: 'axes', rows: [] };
        } else if (t.startsWith('charge density cutoff')) {
          this.settings.ecutrhoRy = numberAfter(t);
        } else if (t.startsWith('c_bands') && t.includes('not converged')) {
          this.warn('c_bands: eigenvalues not converged');
        }
        return;
      case 101: // e
        if (t.startsWith('estimated scf accuracy')) {
          const v = numberAfter(t, '<');
          if (v !== undefined) {
            if (this.iteration && this.scf && this.scf.totalEnergyRy === undefined) this.iteration.estimatedAccuracyRy = v;
            else if (this.scf) this.scf.estimatedAccuracyRy = v;
          }
        } else if (t.startsWith('energy convergence thresh')) this.settings.energyConvThrRy = numberAfter(t);
        else if (/^enthalpy\s+new\s*=/.test(t)) {
          const v = numberAfter(t);
          if (v !== undefined) {
            this.sawVariableCell = true;
            const s = this.steps[this.steps.length - 1];
            if (s) s.enthalpyRy = v;
            if (this.bfgs) this.bfgs.enthalpyRy = v;
          }
        } else if (/^energy\s+new\s*=/.test(t)) {
          const v = numberAfter(t);
          if (v !== undefined && this.bfgs) this.bfgs.energyRy = v;
        }
        return;
      case 104: // h
        if (t.startsWith('highest occupied')) {
          const v = numbers(t.slice(t.indexOf(':') + 1));
          const scf = this.ensureScf();
          if (v[0] !== undefined) scf.highestOccupiedEv = v[0];
          if (v[1] !== undefined) scf.lowestUnoccupiedEv = v[1];
        }
        return;
      case 105: // i
        if (t.startsWith('iteration #')) {
          const scf = this.ensureScf();
          const m = /iteration #\s*(\d+)/.exec(t)!;
          const it: ScfIteration = { iteration: Number(m[1]) };
          const ecut = numberAfter(t, 'ecut=');
          const beta = numberAfter(t, 'beta=');
          if (ecut !== undefined) it.ecutRy = ecut;
          if (beta !== undefined) it.mixingBeta = beta;
          scf.iterations.push(it);
          this.iteration = it;
        } else if (t.startsWith('internal energy')) {
          const v = numberAfter(t);
          if (v !== undefined && this.scf) this.scf.internalEnergyRy = v;
        }
        return;
      case 107: // k
        if (t.startsWith('kinetic-energy cutoff')) this.settings.ecutwfcRy = numberAfter(t);
        return;
      case 108: // l
        if (t.startsWith('lattice parameter (alat)')) this.settings.alatBohr = numberAfter(t);
        return;
      case 109: // m
        if (t.startsWith('mixing beta')) this.settings.mixingBeta = numberAfter(t);
        return;
      case 110: // n
        if (t.startsWith('number of k points')) {
          this.settings.kPoints = numberAfter(t);
          const rest = t.replace(/^number of k points=\s*\d+\s*/, '').trim();
          if (rest) this.settings.smearing = rest;
        } else if (t.startsWith('number of atoms/cell')) this.settings.nat = numberAfter(t);
        else if (t.startsWith('number of atomic types')) this.settings.ntyp = numberAfter(t);
        else if (t.startsWith('number of electrons')) this.settings.electrons = numberAfter(t);
        else if (t.startsWith('number of Kohn-Sham states')) this.settings.kohnShamStates = numberAfter(t);
        else if (t.startsWith('new unit-cell volume')) this.sawVariableCell = true;
        else if (t.startsWith('number of scf cycles')) this.bfgs = { scfCycles: numberAfter(t), seq: (this.bfgs?.seq ?? 0) + 1 };
        else if (t.startsWith('number of bfgs steps') && this.bfgs) this.bfgs.step = numberAfter(t);
        else if (/^nstep\s+=/.test(t)) this.settings.nstep = numberAfter(t);
        return;
      case 115: // s
        if (t.startsWith('site n.')) {
          // "(alat units)", or "(cryst. coord.)" in the crystal-axes copy verbose runs print
          const word = /positions \((\w+)/.exec(t)?.[1] ?? 'alat';
          const unit = word === 'cryst' ? 'crystal' : word;
          this.block = { kind: 'sites', symbols: [], positions: [], unit };
        } else if (t.startsWith('scf convergence threshold')) this.settings.convThrRy = numberAfter(t);
        else if (t.startsWith('small trust_radius: resetting bfgs history')) this.historyReset();
        else if (t.startsWith('smearing contrib.')) {
          const v = numberAfter(t);
          if (v !== undefined && this.scf) this.scf.smearingContributionRy = v;
        }
        return;
      case 116: // t
        if (t.startsWith('total energy')) {
          const v = numberAfter(t);
          if (v !== undefined && this.iteration) this.iteration.totalEnergyRy = v;
        } else if (t.startsWith('total magnetization')) {
          const v = numbers(t.slice(t.indexOf('=') + 1, t.indexOf('Bohr') > 0 ? t.indexOf('Bohr') : undefined));
          if (v.length >= 3) this.magnetization([v[0]!, v[1]!, v[2]!], undefined);
          else if (v.length) this.magnetization(v[0], undefined);
        } else if (t.startsWith('the Fermi energy is')) {
          const v = numberAfter(t, 'is');
          if (v !== undefined) this.ensureScf().fermiEnergyEv = v;
        } else if (t.startsWith('the spin up/dw Fermi energies are')) {
          const v = numbers(t.slice(33));
          if (v.length >= 2) this.ensureScf().fermiEnergiesUpDownEv = [v[0]!, v[1]!];
        } else if (t.startsWith('total cpu time spent up to now is')) {
          const v = numberAfter(t, 'is');
          if (v !== undefined && this.iteration) this.iteration.cpuTimeSeconds = v;
        } else if (t.startsWith('total   stress') || t.startsWith('total stress')) {
          const p = numberAfter(t, 'P=');
          if (p !== undefined) this.ensureStep().pressureKbar = p;
          this.block = { kind: 'stress', rows: [] };
        }
        return;
      case 84: // T
        if (this.hubbard && t.startsWith('Tr[ns(')) this.hubbardLine(t, undefined);
        else if (t.startsWith('The total energy is')) this.block = { kind: 'terms', terms: {} };
        else if (t.startsWith('The maximum number of steps has been reached')) {
          (this.relaxation ??= { converged: false }).stepsExhausted = true;
          this.marks.stepsExhausted ??= { line: this.lines, text: t };
        } else if (t.startsWith('Total force')) {
          const v = numberAfter(t);
          if (v !== undefined) this.ensureStep().totalForceRyPerBohr = v;
        }
        return;
      case 117: // u
        if (t.startsWith('unit-cell volume')) {
          this.settings.cellVolumeBohr3 = numberAfter(t);
          this.initialCellVolumeBohr3 ??= this.settings.cellVolumeBohr3;
        }
        return;
      case 74: // J
        if (t.startsWith('JOB DONE')) this.jobDone = true;
        return;
      case 61: // =
        if (t.includes('JOB DONE')) this.jobDone = true;
        else if (t.includes('HUBBARD OCCUPATIONS')) this.startHubbard('rule');
        else if (this.hubbardEnd === 'rule' && /^=+$/.test(t)) this.endHubbard();
        return;
      case 102: // f
        if (t.startsWith('force convergence thresh')) this.settings.forceConvThrRyPerBohr = numberAfter(t);
        return;
      case 112: // p
        if (t.startsWith('press convergence thresh')) this.settings.pressConvThrKbar = numberAfter(t);
        else if (FAILURE_MARKERS.some((re) => re.test(t))) this.marks.failureLine ??= { line: this.lines, text: t };
        return;
      case 114: // r
        if (t.startsWith('resetting bfgs history')) this.historyReset();
        return;
      default:
        if (/warning/i.test(t) && t.length < 200) this.warn(t);
    }
  }

  /** @internal (blocks.ts) */
  closeError(lines: string[], start: number | undefined): void {
    const e = errorOfBlock(lines);
    if (!e) return;
    this.error = e;
    this.marks.error = { line: start ?? this.lines, text: lines.find((l) => l.trim())?.trim() ?? '' };
  }

  /** A message of infomsg ("Message from routine X:" and its line) becomes one warning. */
  /** @internal (blocks.ts) */
  message(lines: string[]): void {
    const text = lines.join(' ');
    this.warn(text);
    // BFGS gives up after resetting its history twice; 6.x then still prints "bfgs converged".
    if (/history already reset at previous step/.test(text)) {
      const r = (this.relaxation ??= { converged: false });
      r.failed = true;
      r.converged = false;
      // In 6.x the first of these messages may let BFGS try once more: the last one is where it stopped.
      if (!this.marks.bfgsFailed?.text.startsWith('bfgs failed'))
        this.marks.bfgsFailed = { line: this.lines, text: lines[lines.length - 1]! };
    }
  }

  private historyReset(): void {
    const r = (this.relaxation ??= { converged: false });
    r.historyResets = (r.historyResets ?? 0) + 1;
  }

  private startHubbard(end: 'exit' | 'rule'): void {
    this.hubbard = [];
    this.hubbardEnd = end;
  }

  private endHubbard(): void {
    if (this.hubbard?.length) this.ensureScf().hubbardOccupations = this.hubbard;
    this.hubbard = undefined;
    this.hubbardEnd = undefined;
  }

  /** "Tr[ns(  1)] (up, down, total) =  a b c" (7.x), "atom  1  Tr[ns(na)] (up, down, total) = a b c" or "... Tr[ns(na)]= a" (6.x). */
  private hubbardLine(t: string, atom: number | undefined): void {
    const at = atom ?? Number(/Tr\[ns\(\s*(\d+)\s*\)\]/.exec(t)?.[1]);
    const v = numbers(t.slice(t.lastIndexOf('=') + 1));
    if (!Number.isInteger(at) || !v.length) return;
    this.hubbard!.push(v.length >= 3 ? { atom: at, up: v[0]!, down: v[1]!, total: v[2]! } : { atom: at, total: v[0]! });
  }

  /** "atom:    1    charge:   13.6389    magn:    2.2315    constr:    0.0000" (6.x) or "atom   1 (R=0.206)  charge= 13.6401  magn=  0.1780" (7.x). */
  private siteMoment(t: string): void {
    const list = this.scf?.siteMoments;
    if (!list) return;
    const m = /^atom:?\s+(\d+)\b.*?charge[:=]\s*([-+\d.]+)\s+magn[:=]\s*([-+\d.]+)(?:\s+constr[:=]\s*([-+\d.]+))?/.exec(t);
    if (!m) return;
    list.push({
      atom: Number(m[1]),
      charge: Number(m[2]),
      magnetization: Number(m[3]) + 0,
      ...(m[4] !== undefined ? { constraint: Number(m[4]) } : {}),
    });
  }

  /** @internal (blocks.ts) */
  setPendingGeometry(symbols: string[], positions: Vec3[], unit: string): void {
    this.pendingGeometry = { symbols, positions, positionUnit: unit };
    if (this.cellAngstrom) this.pendingGeometry.cellAngstrom = this.cellAngstrom;
    if (this.settings.alatBohr !== undefined) this.pendingGeometry.alatBohr = this.settings.alatBohr;
    this.block = { kind: 'none' };
  }

  private magnetization(total: number | Vec3 | undefined, absolute: number | undefined): void {
    const scf = this.scf;
    // After the "!" line the values describe the converged SCF; before it, the current iteration.
    const target = scf && scf.totalEnergyRy === undefined ? this.iteration : scf;
    if (!target) return;
    if (total !== undefined) target.totalMagnetization = total;
    if (absolute !== undefined) target.absoluteMagnetization = absolute;
  }

  /** Ends any block still open at the end of the text. */
  finish(): void {
    if (this.block.kind !== 'none') continueBlock(this, '');
    if (this.hubbard) this.endHubbard();
    if (this.block.kind === 'error') {
      this.closeError(this.block.lines, this.block.start);
      this.block = { kind: 'none' };
    }
  }
}
