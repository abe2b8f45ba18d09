/**
 * Live progress from pw.x's standard output, fed in chunks as they arrive. It reads only
 * the few lines a person watches (SCF iteration, estimated accuracy, energy, BFGS step)
 * and the %%%% error block that explains a failure; the full parse of a finished output
 * belongs to the QE output parser.
 */
import type { PwProgress } from './types';

const ITERATION = /^\s*iteration #\s*(\d+)/;
const ACCURACY = /^\s*estimated scf accuracy\s*<\s*([-+0-9.EeDd]+)\s*Ry/;
const ENERGY = /^[\s!]*total energy\s*=\s*([-+0-9.EeDd]+)\s*Ry/;
const BFGS = /^\s*number of bfgs steps\s*=\s*(\d+)/;
const ERROR_RULE = /^\s*%{20,}\s*$/;

const num = (s: string): number => Number(s.replace(/[dD]/, 'e'));

export class PwProgressReader {
  private partial = '';
  private state: Omit<PwProgress, 'updatedAt'> = {};
  private errorLines: string[] | undefined;
  private errorText: string | undefined;
  private changed = false;

  /** Feed a chunk of output; returns true when the progress changed. */
  feed(chunk: string): boolean {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** Treat any unterminated last line as complete (at process exit). */
  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  progress(now = new Date()): PwProgress {
    return { ...this.state, updatedAt: now.toISOString() };
  }

  /** pw.x's own error text (routine and message of the %%%% block), if it printed one. */
  error(): string | undefined {
    return this.errorText;
  }

  private line(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (ERROR_RULE.test(line)) {
      if (this.errorLines === undefined) this.errorLines = [];
      else {
        if (this.errorText === undefined) this.errorText = this.errorLines.map((l) => l.trim()).filter(Boolean).join('\n');
        this.errorLines = undefined;
      }
      return;
    }
    if (this.errorLines !== undefined) {
      this.errorLines.push(line);
      return;
    }
    let m: RegExpExecArray | null;
    if ((m = ITERATION.exec(line))) this.set({ scfIteration: Number(m[1]) });
    else if ((m = ACCURACY.exec(line))) this.set({ estimatedAccuracyRy: num(m[1]!) });
    else if ((m = ENERGY.exec(line))) this.set({ totalEnergyRy: num(m[1]!) });
    else if ((m = BFGS.exec(line))) this.set({ bfgsStep: Number(m[1]) });
    if (line.trim()) this.state.lastLine = line.trim();
  }

  private set(p: Partial<PwProgress>): void {
    Object.assign(this.state, p);
    this.changed = true;
  }
}

/** The error block and the completion mark of a whole pw.x output. */
export function readPwOutcome(output: string): { error?: string; jobDone: boolean; totalEnergyRy?: number } {
  const reader = new PwProgressReader();
  reader.feed(output);
  reader.end();
  const finals = [...output.matchAll(/^!\s+total energy\s*=\s*([-+0-9.EeDd]+)\s*Ry/gm)];
  const last = finals.at(-1);
  return {
    error: reader.error(),
    jobDone: /^\s*JOB DONE\.\s*$/m.test(output),
    ...(last ? { totalEnergyRy: num(last[1]!) } : {}),
  };
}
