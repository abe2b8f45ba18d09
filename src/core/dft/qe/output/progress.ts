/**
 * Live progress of a running pw.x from its streamed output: SCF iterations with their
 * energy and estimated accuracy, SCF convergence, BFGS steps, errors and the end of
 * the job. Feed chunks as they arrive (line breaks may fall anywhere); the same line
 * reader as the batch parser interprets them, so live and final views agree.
 */
import { outputFromReader } from './parse';
import { PwOutputReader } from './reader';
import type { PwOutput } from './types';

export type PwProgressEvent =
  | { type: 'scf-iteration'; scfCycle: number; iteration: number; totalEnergyRy?: number; estimatedAccuracyRy?: number }
  | { type: 'scf-end'; scfCycle: number; converged: boolean; iterations?: number; totalEnergyRy?: number }
  | { type: 'bfgs-step'; step: number; scfCycles?: number; energyRy?: number; enthalpyRy?: number }
  | { type: 'error'; routine: string; code?: number; message: string }
  | { type: 'job-done' };

export interface PwProgress {
  /** SCF runs started so far (1 for an scf, one per geometry for relax/md). */
  scfCycle: number;
  /** The iteration the current SCF has reached. */
  scfIteration?: number;
  estimatedAccuracyRy?: number;
  /** Latest total energy printed (iteration or converged). */
  totalEnergyRy?: number;
  /** Latest completed BFGS step. */
  bfgsStep?: number;
  cpuTimeSeconds?: number;
  error?: { routine: string; code?: number; message: string };
  jobDone: boolean;
}

export class PwProgressParser {
  private readonly reader = new PwOutputReader();
  private partial = '';
  private emittedIteration = new WeakSet<object>();
  private emittedScfEnd = new WeakSet<object>();
  private emittedBfgs = 0;
  private emittedError = false;
  private emittedDone = false;

  /** Reads a chunk of output; returns what happened in it. */
  push(chunk: string): PwProgressEvent[] {
    const events: PwProgressEvent[] = [];
    const text = this.partial + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.reader.line(text.slice(start, end));
      this.collect(events);
      start = nl + 1;
    }
    this.partial = text.slice(start);
    return events;
  }

  private collect(events: PwProgressEvent[]): void {
    const r = this.reader;
    const scf = r.currentScf;
    const it = r.currentIteration;
    const cycle = r.scfCycles.length;
    if (scf && it && it.estimatedAccuracyRy !== undefined && !this.emittedIteration.has(it)) {
      this.emittedIteration.add(it);
      const e: PwProgressEvent = {
        type: 'scf-iteration',
        scfCycle: cycle,
        iteration: it.iteration,
        estimatedAccuracyRy: it.estimatedAccuracyRy,
      };
      if (it.totalEnergyRy !== undefined) e.totalEnergyRy = it.totalEnergyRy;
      events.push(e);
    }
    if (scf && scf.iterationCount !== undefined && !this.emittedScfEnd.has(scf)) {
      this.emittedScfEnd.add(scf);
      const e: PwProgressEvent = { type: 'scf-end', scfCycle: cycle, converged: scf.converged, iterations: scf.iterationCount };
      if (scf.totalEnergyRy !== undefined) e.totalEnergyRy = scf.totalEnergyRy;
      events.push(e);
    }
    const b = r.bfgs;
    if (b && b.seq > this.emittedBfgs && (b.energyRy !== undefined || b.enthalpyRy !== undefined)) {
      this.emittedBfgs = b.seq;
      const e: PwProgressEvent = { type: 'bfgs-step', step: b.step ?? b.seq - 1 };
      if (b.scfCycles !== undefined) e.scfCycles = b.scfCycles;
      if (b.energyRy !== undefined) e.energyRy = b.energyRy;
      if (b.enthalpyRy !== undefined) e.enthalpyRy = b.enthalpyRy;
      events.push(e);
    }
    if (r.error && !this.emittedError) {
      this.emittedError = true;
      events.push({ type: 'error', ...r.error });
    }
    if (r.jobDone && !this.emittedDone) {
      this.emittedDone = true;
      events.push({ type: 'job-done' });
    }
  }

  get progress(): PwProgress {
    const r = this.reader;
    const scf = r.currentScf;
    const it = r.currentIteration;
    const p: PwProgress = { scfCycle: r.scfCycles.length, jobDone: r.jobDone };
    if (it) p.scfIteration = it.iteration;
    const acc = scf?.estimatedAccuracyRy ?? it?.estimatedAccuracyRy;
    if (acc !== undefined) p.estimatedAccuracyRy = acc;
    const energy = scf?.totalEnergyRy ?? [...(scf?.iterations ?? [])].reverse().find((x) => x.totalEnergyRy !== undefined)?.totalEnergyRy;
    if (energy !== undefined) p.totalEnergyRy = energy;
    if (r.bfgs?.step !== undefined) p.bfgsStep = r.bfgs.step;
    const cpu = it?.cpuTimeSeconds ?? r.cpuTimeSeconds;
    if (cpu !== undefined) p.cpuTimeSeconds = cpu;
    if (r.error) p.error = r.error;
    return p;
  }

  /** Reads any last unterminated line and returns the full parse of everything pushed. */
  end(): PwOutput {
    if (this.partial) {
      this.reader.line(this.partial);
      this.partial = '';
    }
    return outputFromReader(this.reader);
  }
}
