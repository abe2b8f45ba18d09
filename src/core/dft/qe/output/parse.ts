/** pw.x output text -> PwOutput. Never throws: a truncated or garbled output gives what could be read. */
import { RY_IN_EV } from '../../../units';
import type { Cell, Vec3 } from '../../types';
import { classifyFailure, type FailureOptions } from './failure';
import { PwOutputReader, type RawGeometry, type RawStep } from './reader';
import type { IonicStep, PwOutput } from './types';

const BOHR_IN_ANGSTROM = 0.529177210903;

function toCartesianAngstrom(g: RawGeometry): { positions: Vec3[]; cell: Cell } | undefined {
  const cell = g.cellAngstrom;
  const alat = (g.alatBohr ?? 0) * BOHR_IN_ANGSTROM;
  let positions: Vec3[];
  switch (g.positionUnit) {
    case 'alat':
      positions = g.positions.map((p) => [p[0] * alat, p[1] * alat, p[2] * alat]);
      break;
    case 'bohr':
      positions = g.positions.map((p) => [p[0] * BOHR_IN_ANGSTROM, p[1] * BOHR_IN_ANGSTROM, p[2] * BOHR_IN_ANGSTROM]);
      break;
    case 'angstrom':
      positions = g.positions.map((p) => [...p] as Vec3);
      break;
    case 'crystal':
      if (!cell) return undefined;
      positions = g.positions.map((f) => [0, 1, 2].map((j) => f[0] * cell[0][j] + f[1] * cell[1][j] + f[2] * cell[2][j]) as Vec3);
      break;
    default:
      return undefined;
  }
  return cell ? { positions, cell } : undefined;
}

function ionicStep(raw: RawStep): IonicStep | undefined {
  if (!raw.geometry) return undefined;
  const xyz = toCartesianAngstrom(raw.geometry);
  if (!xyz) return undefined;
  const { geometry: _g, ...rest } = raw;
  return { symbols: raw.geometry.symbols, positionsAngstrom: xyz.positions, cellAngstrom: xyz.cell, ...rest };
}

function calculationOf(r: PwOutputReader): string | undefined {
  if (r.sawBeef) return 'ensemble';
  if (r.sawBfgs || r.sawDamped) return r.sawVariableCell ? 'vc-relax' : 'relax';
  if (r.sawMd) return r.sawVariableCell ? 'vc-md' : 'md';
  // The summary prints nstep and the convergence thresholds only for relaxations and MD: a
  // relaxation whose first SCF failed has no BFGS header yet (an MD run that fails there reads as one too).
  if (r.settings.nstep !== undefined) {
    return r.settings.pressConvThrKbar !== undefined ? 'vc-relax' : 'relax';
  }
  if (r.sawBands) {
    const last = r.scfCycles[r.scfCycles.length - 1];
    return last?.fermiEnergyEv !== undefined || last?.highestOccupiedEv !== undefined ? 'nscf' : 'bands';
  }
  return r.scfCycles.length ? 'scf' : undefined;
}

export type ParseOptions = FailureOptions;

/** Builds the result from a reader that has seen every line. */
export function outputFromReader(r: PwOutputReader, opts: ParseOptions = {}): PwOutput {
  r.finish();
  const lastScf = r.scfCycles[r.scfCycles.length - 1];
  const lastWithEnergy = [...r.scfCycles].reverse().find((c) => c.totalEnergyRy !== undefined);
  const steps = r.steps.map(ionicStep).filter((s): s is IonicStep => s !== undefined);
  const out: PwOutput = {
    scfConverged: lastScf?.converged ?? false,
    warnings: r.warnings,
    warningCounts: r.warningCounts,
    jobDone: r.jobDone,
    settings: r.settings,
    scfCycles: r.scfCycles,
    ionicSteps: steps,
    // A vc-relax prints the pseudopotentials again for its final SCF.
    pseudopotentialsUsed: r.pseudopotentials.filter(
      (p, i, all) => all.findIndex((q) => q.element === p.element && q.path === p.path) === i,
    ),
    lineCount: r.lines,
  };
  if (r.codeVersion) out.codeVersion = r.codeVersion;
  const calculation = calculationOf(r);
  if (calculation) out.calculation = calculation;
  if (lastWithEnergy?.totalEnergyRy !== undefined) {
    out.totalEnergyRy = lastWithEnergy.totalEnergyRy;
    out.totalEnergyEv = lastWithEnergy.totalEnergyRy * RY_IN_EV;
  }
  const withMakovPayne = [...r.scfCycles].reverse().find((c) => c.makovPayneEnergyRy !== undefined);
  if (withMakovPayne) out.totalEnergyMakovPayneRy = withMakovPayne.makovPayneEnergyRy!;
  const withTerms = [...r.scfCycles].reverse().find((c) => c.energyTermsRy);
  if (withTerms) out.energyTermsRy = withTerms.energyTermsRy!;
  const withHubbard = [...r.scfCycles].reverse().find((c) => c.hubbardOccupations);
  if (withHubbard) out.hubbardOccupations = withHubbard.hubbardOccupations!;
  const withMoments = [...r.scfCycles].reverse().find((c) => c.siteMoments?.length);
  if (withMoments) out.siteMoments = withMoments.siteMoments!;
  if (lastScf) {
    const n = lastScf.iterationCount ?? (lastScf.iterations.length || undefined);
    if (n !== undefined) out.scfIterations = n;
    if (lastScf.internalEnergyRy !== undefined) out.internalEnergyRy = lastScf.internalEnergyRy;
  }
  const fermi = [...r.scfCycles].reverse().find((c) => c.fermiEnergyEv !== undefined)?.fermiEnergyEv;
  if (fermi !== undefined) out.fermiEnergyEv = fermi;
  const twoFermi = [...r.scfCycles].reverse().find((c) => c.fermiEnergiesUpDownEv)?.fermiEnergiesUpDownEv;
  if (twoFermi) out.fermiEnergiesUpDownEv = twoFermi;
  const edges = [...r.scfCycles].reverse().find((c) => c.highestOccupiedEv !== undefined);
  if (edges?.highestOccupiedEv !== undefined) out.highestOccupiedEv = edges.highestOccupiedEv;
  if (edges?.lowestUnoccupiedEv !== undefined) out.lowestUnoccupiedEv = edges.lowestUnoccupiedEv;
  const magnetic = [...r.scfCycles].reverse().find((c) => c.totalMagnetization !== undefined || c.absoluteMagnetization !== undefined);
  if (magnetic) {
    if (typeof magnetic.totalMagnetization === 'number') out.totalMagnetization = magnetic.totalMagnetization;
    if (magnetic.absoluteMagnetization !== undefined) out.absoluteMagnetization = magnetic.absoluteMagnetization;
  }
  const withForces = [...r.steps].reverse().find((s) => s.forcesRyPerBohr);
  if (withForces?.forcesRyPerBohr) out.forcesRyPerBohr = withForces.forcesRyPerBohr;
  if (withForces?.totalForceRyPerBohr !== undefined) out.totalForceRyPerBohr = withForces.totalForceRyPerBohr;
  const withStress = [...r.steps].reverse().find((s) => s.stressKbar);
  if (withStress?.stressKbar) out.stressKbar = withStress.stressKbar;
  if (withStress?.pressureKbar !== undefined) out.pressureKbar = withStress.pressureKbar;
  if (r.wallTimeSeconds !== undefined) out.wallTimeSeconds = r.wallTimeSeconds;
  if (r.cpuTimeSeconds !== undefined) out.cpuTimeSeconds = r.cpuTimeSeconds;
  if (r.error) out.error = r.error;
  if (r.relaxation) out.relaxation = r.relaxation;
  // pw.x prints the BEEFens deviations in Ry: libbeef forms each as a dot product of random
  // coefficients with the 32 xc contributions pw.x computed (in Ry), and converts nothing. Read as
  // eV they are 13.6× too narrow (docs/notes/workflows.md, the production ensemble).
  if (r.beefEnsemble) out.beefEnsembleEv = r.beefEnsemble.map((e) => e * RY_IN_EV);
  if (r.pseudopotentials.length) {
    out.pseudopotentials = Object.fromEntries(r.pseudopotentials.map((p) => [p.element, p.path.split('/').pop() ?? p.path]));
  }
  const failure = classifyFailure(r, out, opts, r.lastText !== undefined ? { line: r.lastLineNo, text: r.lastText } : undefined);
  if (failure) out.failure = failure;
  return out;
}

/**
 * Parses a whole pw.x output. Give the text of the CRASH file pw.x left in its working
 * directory (readPwOutputFile does) to read an error the output lacks, and the input's press
 * to judge the final SCF of a vc-relax against its target pressure.
 */
export function parsePwOutput(text: string, opts: ParseOptions = {}): PwOutput {
  const r = new PwOutputReader();
  let start = 0;
  const n = text.length;
  while (start < n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    r.line(text.slice(start, stop));
    start = end + 1;
  }
  return outputFromReader(r, opts);
}
