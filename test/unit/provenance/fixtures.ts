import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRun, type Run } from '../../../src/core/canvas/run';
import type { NewCall } from '../../../src/core/provenance/registry';
import type { ArgumentRecord } from '../../../src/core/provenance/types';

/** Fresh runs in temp directories, closed and removed after the suite. */
export function useRuns(): () => Promise<Run> {
  const runs: Run[] = [];
  const dirs: string[] = [];
  after(async () => {
    for (const r of runs) await r.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-prov-'));
    dirs.push(root);
    const run = await createRun(root, { objective: 'lattice constant of fcc Al', slug: 'al', software: { 'pw.x': '6.7' } });
    runs.push(run);
    return run;
  };
}

export function call(tool: string, args: Record<string, ArgumentRecord> = {}, extra: Partial<NewCall> = {}): NewCall {
  const reasons = Object.fromEntries(Object.keys(args).map((k) => [k, `reason for ${k}`]));
  return { tool, args, reasons, context: `step ${tool}`, verdicts: [], agent: { role: 'dft', model: 'claude-test' }, ...extra };
}
