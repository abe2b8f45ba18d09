/**
 * What running a pw.x job needs to know from its input and output, read by the QE parsers
 * (input/, output/) so the job layer (hpc/) never reads pw.x's formats itself: the input's
 * size (for a resource suggestion), the files it names (pseudopotentials, outdir and
 * prefix), the output's live progress while it runs and its outcome once it ends. The jobs
 * view and the parsed results therefore never disagree.
 */
import { numberIn, parsePwInput, readAtomicSpecies, readKPoints, stringIn } from './input';
import { parsePwOutput, PwProgressParser } from './output';

/** The CRASH file pw.x leaves in its working directory when it stops with an error. */
export { readCrashBeside } from './outputFiles';

/** The version pw.x prints in its banner ("6.7", "7.2"), as a version probe reads it. */
export { pwBannerVersion } from './output';

/** pw.x's progress as a job record carries it (hpc/types.ts JobRecord.progress). */
export interface PwProgress {
  scfIteration?: number;
  estimatedAccuracyRy?: number;
  totalEnergyRy?: number;
  bfgsStep?: number;
  lastLine?: string;
  updatedAt: string;
}

export interface PwJobSize {
  atoms: number;
  kPoints: number;
  ecutwfcRy: number;
  /** scf, relax, vc-relax, md, ... (geometry runs repeat the SCF). */
  calculation: string;
  nspin: number;
}

export function describePwInputSize(text: string): PwJobSize {
  const input = parsePwInput(text);
  const atoms = numberIn(input, 'system', 'nat');
  const ecut = numberIn(input, 'system', 'ecutwfc');
  if (atoms === undefined || ecut === undefined) {
    throw new Error(
      `cannot size the job: the input does not give ${atoms === undefined ? 'nat' : 'ecutwfc'} in &SYSTEM. Give resources (ntasks, nodes, walltime) explicitly, or fix the input.`,
    );
  }
  const k = readKPoints(input)?.value;
  const kPoints = !k || k.kind === 'gamma' ? 1 : k.kind === 'automatic' ? k.mesh[0] * k.mesh[1] * k.mesh[2] : k.points.length;
  return {
    atoms,
    kPoints: Math.max(1, kPoints),
    ecutwfcRy: ecut,
    calculation: stringIn(input, 'control', 'calculation') ?? 'scf',
    nspin: numberIn(input, 'system', 'nspin') ?? 1,
  };
}

/** The pseudopotential files an input names in ATOMIC_SPECIES, and the pseudo_dir it sets, if any. */
export function pseudopotentialsNamed(text: string): { pseudoDir?: string; files: string[] } {
  const input = parsePwInput(text);
  const pseudoDir = stringIn(input, 'control', 'pseudo_dir');
  return {
    ...(pseudoDir !== undefined ? { pseudoDir } : {}),
    files: (readAtomicSpecies(input)?.value ?? []).map((s) => s.pseudopotential),
  };
}

/** Where pw.x writes its scratch files: outdir as given (undefined when left to pw.x) and prefix (pw.x's default 'pwscf'). */
export function scratchPlace(text: string): { outdir?: string; prefix: string } {
  const input = parsePwInput(text);
  const outdir = stringIn(input, 'control', 'outdir');
  return { ...(outdir !== undefined ? { outdir } : {}), prefix: stringIn(input, 'control', 'prefix') ?? 'pwscf' };
}

/** The namelist holding outdir and prefix in each program's input. */
const SCRATCH_NAMELIST: Record<string, string> = { 'pw.x': 'control', 'bands.x': 'bands', 'dos.x': 'dos', 'projwfc.x': 'projwfc' };

/**
 * Where a QE program's input says the scratch is: outdir as given (undefined when left to the
 * program) and prefix ('pwscf' by default) — for pw.x from &CONTROL, for bands.x, dos.x and
 * projwfc.x from their own namelist.
 */
export function scratchPlaceOf(program: string, text: string): { outdir?: string; prefix: string } {
  const namelist = SCRATCH_NAMELIST[program];
  if (!namelist)
    throw new Error(
      `no scratch place is known for the program ${JSON.stringify(program)}; use one of ${Object.keys(SCRATCH_NAMELIST).join(', ')}.`,
    );
  const input = parsePwInput(text);
  const outdir = stringIn(input, namelist, 'outdir');
  return { ...(outdir !== undefined ? { outdir } : {}), prefix: stringIn(input, namelist, 'prefix') ?? 'pwscf' };
}

/** pw.x's error block as pw.x prints it: routine, code, message. */
export function formatPwError(e: { routine: string; code?: number; message: string }): string {
  const head = e.routine
    ? `Error in routine ${e.routine}${e.code !== undefined && Number.isFinite(e.code) ? ` (${e.code})` : ''}:`
    : 'pw.x error:';
  return `${head}\n${e.message}`;
}

export class PwProgressReader {
  private readonly parser = new PwProgressParser();
  private lastLine: string | undefined;

  /** Feed a chunk of output; returns true when the progress changed. */
  feed(chunk: string): boolean {
    const lines = chunk
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length > 0) this.lastLine = lines.at(-1);
    return this.parser.push(chunk).length > 0;
  }

  progress(now = new Date()): PwProgress {
    const p = this.parser.progress;
    return {
      ...(p.scfIteration !== undefined ? { scfIteration: p.scfIteration } : {}),
      ...(p.estimatedAccuracyRy !== undefined ? { estimatedAccuracyRy: p.estimatedAccuracyRy } : {}),
      ...(p.totalEnergyRy !== undefined ? { totalEnergyRy: p.totalEnergyRy } : {}),
      ...(p.bfgsStep !== undefined ? { bfgsStep: p.bfgsStep } : {}),
      ...(this.lastLine !== undefined ? { lastLine: this.lastLine } : {}),
      updatedAt: now.toISOString(),
    };
  }
}

/** The error block, completion mark and final energy of a whole pw.x output. */
export function readPwOutcome(output: string, crash?: string): { error?: string; jobDone: boolean; totalEnergyRy?: number } {
  // pw.x's CRASH file (from the job's directory) holds its error when the output was cut or lost.
  const parsed = parsePwOutput(output, crash !== undefined ? { crash } : {});
  return {
    jobDone: parsed.jobDone,
    ...(parsed.error ? { error: formatPwError(parsed.error) } : {}),
    ...(parsed.totalEnergyRy !== undefined ? { totalEnergyRy: parsed.totalEnergyRy } : {}),
  };
}
