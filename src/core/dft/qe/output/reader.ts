/**
 * A line-at-a-time reader of pw.x output (QE 6.x and 7.x). The batch parser and the
 * live progress of running jobs both feed it lines, so they agree on what a line means.
 *
 * Each line is dispatched on its first non-blank character before any pattern is
 * tried: most lines of a long run (bands, timings, k-points) cost one character test.
 */
import type { Cell, Vec3 } from '../../types';
import { parseQeDuration } from './qeTime';
import type { IonicStep, PseudopotentialUsed, Relaxation, RunSettingsPrinted, ScfCycle, ScfIteration } from './types';

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

type Block =
  | { kind: 'none' }
  | { kind: 'axes'; rows: Vec3[] }
  | { kind: 'sites'; symbols: string[]; positions: Vec3[]; unit: string }
  | { kind: 'positions'; symbols: string[]; positions: Vec3[]; unit: string }
  | { kind: 'cell'; rows: Vec3[]; unit: string; alatBohr?: number }
  | { kind: 'forces'; forces: Vec3[]; seenAtom: boolean }
  | { kind: 'stress'; rows: Vec3[] }
  | { kind: 'error'; lines: string[] }
  | { kind: 'banner' }
  | { kind: 'message'; lines: string[] }
  | { kind: 'beef'; values: number[] }
  | { kind: 'pseudo'; entry: PseudopotentialUsed };

const BOHR_IN_ANGSTROM = 0.529177210903;
const NUM = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?/g;

function numbers(s: string): number[] {
  const m = s.match(NUM);
  // "+ 0" turns pw.x's printed "-0.00" into 0.
  return m ? m.map((x) => Number(x.replace(/[dD]/, 'e')) + 0) : [];
}

/** The number after "=" (or after a given marker) in a line. */
function numberAfter(line: string, marker = '='): number | undefined {
  const k = line.indexOf(marker);
  if (k < 0) return undefined;
  const m = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?/.exec(line.slice(k + marker.length));
  return m ? Number(m[0].replace(/[dD]/, 'e')) : undefined;
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
  sawBands = false;
  sawBeef = false;
  lines = 0;
  /** The latest BFGS report: its step number and the energy (or enthalpy) it accepted; `seq` counts reports. */
  bfgs?: { step?: number; scfCycles?: number; energyRy?: number; enthalpyRy?: number; seq: number };
  /** The geometry the next SCF runs at. */
  private pendingGeometry?: RawGeometry;
  private cellAngstrom?: Cell;
  private block: Block = { kind: 'none' };
  private scf?: ScfCycle;
  private iteration?: ScfIteration;
  private step?: RawStep;

  get currentScf(): ScfCycle | undefined {
    return this.scf;
  }
  get currentIteration(): ScfIteration | undefined {
    return this.iteration;
  }
  get currentStep(): RawStep | undefined {
    return this.step;
  }

  private warn(message: string): void {
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
    if (this.pendingGeometry) {
      const cell = this.pendingGeometry.cellAngstrom ?? this.cellAngstrom;
      this.step.geometry = cell ? { ...this.pendingGeometry, cellAngstrom: cell } : { ...this.pendingGeometry };
    }
    this.steps.push(this.step);
  }

  private ensureScf(): ScfCycle {
    if (!this.scf) this.startScf();
    return this.scf!;
  }

  private ensureStep(): RawStep {
    if (!this.step) this.startScf();
    return this.step!;
  }

  /** Ends a multi-line block; returns true when the line was consumed by it. */
  private continueBlock(t: string): boolean {
    const b = this.block;
    switch (b.kind) {
      case 'none':
        return false;
      case 'axes': {
        if (/^[ab]\(\d\)\s*=/.test(t)) {
          const v = numbers(t.slice(t.indexOf('=') + 1));
          if (t[0] === 'a') b.rows.push([v[0]!, v[1]!, v[2]!]);
          if (b.rows.length === 3) {
            const alat = (this.settings.alatBohr ?? 0) * BOHR_IN_ANGSTROM;
            this.cellAngstrom = b.rows.map((r) => r.map((x) => x * alat)) as Cell;
            if (this.pendingGeometry) this.pendingGeometry.cellAngstrom = this.cellAngstrom;
            this.block = { kind: 'none' };
          }
          return true;
        }
        this.block = { kind: 'none' };
        return false;
      }
      case 'sites': {
        const m = /^\d+\s+(\S+)\s+tau\(\s*\d+\)\s*=\s*\((.*)\)/.exec(t);
        if (m) {
          const v = numbers(m[2]!);
          b.symbols.push(m[1]!);
          b.positions.push([v[0]!, v[1]!, v[2]!]);
          return true;
        }
        this.setPendingGeometry(b.symbols, b.positions, b.unit);
        return false;
      }
      case 'positions': {
        if (t !== '' && !t.startsWith('End') && /^[A-Za-z]/.test(t)) {
          const parts = t.split(/\s+/);
          const v = parts.slice(1, 4).map((x) => Number(x.replace(/[dD]/, 'e')));
          if (v.length === 3 && v.every((x) => Number.isFinite(x))) {
            b.symbols.push(parts[0]!);
            b.positions.push(v as Vec3);
            return true;
          }
        }
        this.setPendingGeometry(b.symbols, b.positions, b.unit);
        return t === '';
      }
      case 'cell': {
        const v = numbers(t);
        if (v.length === 3 && b.rows.length < 3) {
          b.rows.push(v as Vec3);
          if (b.rows.length === 3) {
            const f = b.unit === 'angstrom' ? 1 : b.unit === 'bohr' ? BOHR_IN_ANGSTROM
              : (b.alatBohr ?? this.settings.alatBohr ?? 0) * BOHR_IN_ANGSTROM;
            this.cellAngstrom = b.rows.map((r) => r.map((x) => x * f)) as Cell;
            this.block = { kind: 'none' };
          }
          return true;
        }
        this.block = { kind: 'none' };
        return false;
      }
      case 'forces': {
        if (t.startsWith('atom')) {
          const k = t.indexOf('force =');
          if (k < 0) return false;
          const v = numbers(t.slice(k + 7));
          b.forces.push([v[0]!, v[1]!, v[2]!]);
          b.seenAtom = true;
          return true;
        }
        if (t === '' && !b.seenAtom) return true;
        this.ensureStep().forcesRyPerBohr = b.forces;
        this.block = { kind: 'none' };
        return false;
      }
      case 'stress': {
        const v = numbers(t);
        if (v.length === 6) {
          b.rows.push([v[3]!, v[4]!, v[5]!]);
          if (b.rows.length === 3) {
            this.ensureStep().stressKbar = b.rows as [Vec3, Vec3, Vec3];
            this.block = { kind: 'none' };
          }
          return true;
        }
        this.block = { kind: 'none' };
        return false;
      }
      case 'banner':
        if (t.startsWith('%%%%')) this.block = { kind: 'none' };
        return true;
      case 'error': {
        // A framed notice (the vdW-DF citation request) looks like the error frame but every line starts with "%".
        if (b.lines.length === 0 && t.startsWith('%') && !t.startsWith('%%%%')) {
          this.block = { kind: 'banner' };
          return true;
        }
        if (t.startsWith('%%%%')) {
          const [head = '', ...rest] = b.lines;
          const m = /Error in routine\s+(\S+)\s*\(\s*(-?\d+)\s*\)/.exec(head);
          this.error = m
            ? { routine: m[1]!, code: Number(m[2]), message: rest.join('\n').trim() }
            : { routine: '', message: b.lines.join('\n').trim() };
          this.block = { kind: 'none' };
        } else {
          b.lines.push(t);
        }
        return true;
      }
      case 'message': {
        if (t === '' || t.startsWith('%%%%')) {
          this.warn(b.lines.join(' '));
          this.block = { kind: 'none' };
          return t === '';
        }
        b.lines.push(t);
        return true;
      }
      case 'beef': {
        if (t === '') {
          if (b.values.length) {
            this.beefEnsemble = b.values;
            this.block = { kind: 'none' };
          }
          return true;
        }
        const v = Number(t.replace(/[dD]/, 'e'));
        if (Number.isFinite(v) && /^[-+.\d]/.test(t)) {
          b.values.push(v);
          return true;
        }
        this.beefEnsemble = b.values;
        this.block = { kind: 'none' };
        return false;
      }
      case 'pseudo': {
        const e = b.entry;
        if (!e.path && t !== '') {
          e.path = t;
          return true;
        }
        if (t.startsWith('MD5 check sum:')) {
          e.md5 = t.slice(14).trim();
          return true;
        }
        const pseudo = /^Pseudo is ([^,]+),\s*Zval\s*=\s*([\d.]+)/.exec(t);
        if (pseudo) {
          e.kind = pseudo[1]!.trim();
          e.zValence = Number(pseudo[2]);
          this.block = { kind: 'none' };
          return true;
        }
        if (t === '' || t.startsWith('Generated') || t.startsWith('Using') || t.startsWith('l(') || t.startsWith('Q(r)')) return false;
        return false;
      }
    }
  }

  line(line: string): void {
    this.lines++;
    let i = 0;
    const n = line.length;
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    const t = i === 0 && n > 0 && line.charCodeAt(n - 1) > 32 ? line : line.trim();
    if (this.block.kind !== 'none' && this.continueBlock(t)) return;
    if (t === '') return;
    switch (t.charCodeAt(0)) {
      case 33: // !
        if (t.includes('total energy')) {
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
        if (t.startsWith('CELL_PARAMETERS')) {
          const alat = /alat\s*=\s*([\d.]+)/.exec(t);
          const unit = alat ? 'alat' : (/[({]\s*(\w+)/.exec(t)?.[1]?.toLowerCase() ?? 'alat');
          this.block = alat ? { kind: 'cell', rows: [], unit, alatBohr: Number(alat[1]) } : { kind: 'cell', rows: [], unit };
        }
        return;
      case 69: // E
        if (t.startsWith('Exchange-correlation')) {
          this.settings.exchangeCorrelation = t.slice(t.indexOf('=') + 1).replace(/\(.*$/, '').trim();
        } else if (t.startsWith('End of BFGS')) {
          this.relaxation ??= { converged: false };
        } else if (t.startsWith('End of self-consistent') || t.startsWith('End of band structure')) {
          // nothing: the converged/not-converged line follows
        }
        return;
      case 70: // F
        if (t.startsWith('Forces acting on atoms')) this.block = { kind: 'forces', forces: [], seenAtom: false };
        else if (t.startsWith('Final energy')) {
          (this.relaxation ??= { converged: false }).finalEnergyRy = numberAfter(t);
        } else if (t.startsWith('Final enthalpy')) {
          (this.relaxation ??= { converged: false }).finalEnthalpyRy = numberAfter(t);
          this.sawVariableCell = true;
        }
        return;
      case 77: // M
        if (t.startsWith('Message from routine')) this.block = { kind: 'message', lines: [t.replace(/:$/, ':')] };
        else if (t.startsWith('MPI processes distributed')) return;
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
        } else if (t.startsWith('atomic species') || t.startsWith('atom ')) return;
        return;
      case 98: // b
        if (t.startsWith('bfgs converged')) {
          const m = /in\s+(\d+)\s+scf cycles and\s+(\d+)\s+bfgs steps/.exec(t);
          const r = (this.relaxation ??= { converged: true });
          r.converged = true;
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
        } else if (t.startsWith('enthalpy new')) {
          const v = numberAfter(t);
          if (v !== undefined) {
            this.sawVariableCell = true;
            const s = this.steps[this.steps.length - 1];
            if (s) s.enthalpyRy = v;
            if (this.bfgs) this.bfgs.enthalpyRy = v;
          }
        } else if (t.startsWith('energy   new') || t.startsWith('energy new')) {
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
        return;
      case 115: // s
        if (t.startsWith('site n.')) {
          // "(alat units)", or "(cryst. coord.)" in the crystal-axes copy verbose runs print
          const word = /positions \((\w+)/.exec(t)?.[1] ?? 'alat';
          const unit = word === 'cryst' ? 'crystal' : word;
          this.block = { kind: 'sites', symbols: [], positions: [], unit };
        } else if (t.startsWith('scf convergence threshold')) this.settings.convThrRy = numberAfter(t);
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
        if (t.startsWith('Total force')) {
          const v = numberAfter(t);
          if (v !== undefined) this.ensureStep().totalForceRyPerBohr = v;
        }
        return;
      case 117: // u
        if (t.startsWith('unit-cell volume')) this.settings.cellVolumeBohr3 = numberAfter(t);
        return;
      case 74: // J
        if (t.startsWith('JOB DONE')) this.jobDone = true;
        return;
      case 61: // =
        if (t.includes('JOB DONE')) this.jobDone = true;
        return;
      default:
        if (/warning/i.test(t) && t.length < 200) this.warn(t);
    }
  }

  private setPendingGeometry(symbols: string[], positions: Vec3[], unit: string): void {
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
    if (this.block.kind !== 'none') this.continueBlock('');
    if (this.block.kind === 'error') {
      const [head = '', ...rest] = this.block.lines;
      const m = /Error in routine\s+(\S+)\s*\(\s*(-?\d+)\s*\)/.exec(head);
      this.error = m ? { routine: m[1]!, code: Number(m[2]), message: rest.join('\n').trim() } : { routine: '', message: this.block.lines.join('\n').trim() };
      this.block = { kind: 'none' };
    }
  }
}

/**
 * The version in pw.x's banner line ("Program PWSCF v.6.7MaX starts on ..." gives "6.7MaX",
 * "v.6.4.1" gives "6.4.1"): the one reading of it, for parsed outputs and for the version probe.
 */
export function pwBannerVersion(text: string): string | undefined {
  return /Program PWSCF\s+v\.?\s*(\S+)\s+starts/.exec(text)?.[1];
}
