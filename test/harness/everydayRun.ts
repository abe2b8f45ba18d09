// A run holding a relaxation and a magnetization artifact, each in a plan step of its own, made
// from recorded pw.x outputs (the relax of displaced Si, the spin-polarised bcc Fe SCF) and projected
// as the canvas does: what the notebook tests (unit and e2e) hand the renderer.
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { magnetizationOf } from '../../src/core/dft/magnetism';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { summariseRelaxation } from '../../src/core/dft/relaxation';
import { CanvasProjection } from '../../src/core/report/canvasProjection';

const RUNS = path.resolve(__dirname, '../fixtures/qe/runs');
const pw = (file: string) => parsePwOutput(fs.readFileSync(path.join(RUNS, file), 'utf8'));

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;
export const call = (id: string, tool: string, step: string) =>
  ev('provenance.call', {
    id,
    tool,
    step,
    args: {},
    reasons: {},
    context: '',
    verdicts: [],
    agent: { role: 'dft' },
    startedAt: '',
    status: 'ok',
    outputs: [],
  });
export const artifact = (id: string, creator: string, name: string, value: unknown) =>
  ev('provenance.artifact', {
    id,
    kind: 'table',
    name,
    creator,
    inputs: [],
    concerns: [],
    status: 'final',
    contentHash: id,
    createdAt: '',
    value,
  });

/** A relax of displaced Si and a spin-polarised bcc Fe SCF, from the recorded pw.x outputs, each in a step of its own. */
/** The recorded relax of displaced Si, summarised as the relaxation artifact holds it. */
export const recordedRelax = () => summariseRelaxation(pw('si-relax.out'));

export function everydayRunProjection(): CanvasProjection {
  const relax = recordedRelax();
  const magnetization = magnetizationOf(pw('fe-bcc-magnetic.out'), { symbols: ['Fe'] }, { nspin: 2 });
  const p = new CanvasProjection();
  p.apply(ev('run.start', { runId: 'r-1', objective: 'Relax Si; magnetization of bcc Fe' }));
  p.apply(
    ev(
      'key.write',
      {
        value: {
          objective: 'Relax Si; magnetization of bcc Fe',
          version: 1,
          steps: [
            { id: 'relax', title: 'Relax the displaced atom', worker: 'dft', tool: 'relaxation_result', status: 'done' },
            { id: 'magnetism', title: 'Magnetization of bcc Fe', worker: 'dft', tool: 'magnetization', status: 'done' },
          ],
        },
        reason: '',
        version: 1,
      },
      'plan',
    ),
  );
  p.apply(call('c-1', 'relaxation_result', 'relax'));
  p.apply(
    artifact('a-relax', 'c-1', 'relaxation', {
      calculation: relax.calculation,
      converged: relax.converged,
      steps: relax.steps,
      thresholds: { forceEvPerAngstrom: relax.thresholds.forceEvPerAngstrom },
      finalEnergyEv: relax.finalEnergyEv,
      formula: 'Si2',
    }),
  );
  p.apply(call('c-2', 'magnetization', 'magnetism'));
  p.apply(artifact('a-mag', 'c-2', 'magnetization', { ...magnetization, formula: 'Fe' }));
  return p;
}
