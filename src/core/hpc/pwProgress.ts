/**
 * pw.x's output as the job model sees it: live progress while it runs and the outcome
 * once it ends, both read by the QE output parser (dft/qe/output) so the jobs view and
 * the parsed results never disagree.
 */
import { parsePwOutput, PwProgressParser } from '../dft/qe/output';
import type { PwProgress } from './types';

/** pw.x's error block as pw.x prints it: routine, code, message. */
export function formatPwError(e: { routine: string; code?: number; message: string }): string {
  const head = e.routine ? `Error in routine ${e.routine}${e.code !== undefined && Number.isFinite(e.code) ? ` (${e.code})` : ''}:` : 'pw.x error:';
  return `${head}\n${e.message}`;
}

export class PwProgressReader {
  private readonly parser = new PwProgressParser();
  private lastLine: string | undefined;

  /** Feed a chunk of output; returns true when the progress changed. */
  feed(chunk: string): boolean {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
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
export function readPwOutcome(output: string): { error?: string; jobDone: boolean; totalEnergyRy?: number } {
  const parsed = parsePwOutput(output);
  return {
    jobDone: parsed.jobDone,
    ...(parsed.error ? { error: formatPwError(parsed.error) } : {}),
    ...(parsed.totalEnergyRy !== undefined ? { totalEnergyRy: parsed.totalEnergyRy } : {}),
  };
}
