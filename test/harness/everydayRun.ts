// A run holding a relaxation and a magnetization artifact, each in a plan step of its own, made
// from recorded pw.x outputs (the relax of displaced Si, the spin-polarised bcc Fe SCF): projected
// as the canvas does (what the notebook unit tests and the renderer-page e2e test hand the
// renderer), or written as a completed run on disk with a canvas beside it (the workbench e2e test).
import fs from 'node:fs';
import path from 'node:path';
import type { AppendInput, CanvasEvent } from '../../src/core/canvas/types';
import { canvasEvents } from './canvasEvents';
import { createRun, setRunState } from '../../src/core/run/directory';
import { magnetizationOf } from '../../src/core/dft/magnetism';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { summariseRelaxation } from '../../src/core/dft/relaxation';
import { CanvasProjection } from '../../src/core/report/canvasProjection';

const RUNS = path.resolve(__dirname, '../fixtures/qe/runs');
const pw = (file: string) => parsePwOutput(fs.readFileSync(path.join(RUNS, file), 'utf8'));

const { ev, call: callOf, artifact: artifactOf } = canvasEvents();
export const call = (id: string, tool: string, step: string) => callOf(id, tool, { step });
export const artifact = (id: string, creator: string, name: string, value: unknown) => artifactOf(id, creator, name, { value });

/** The recorded relax of displaced Si, summarised as the relaxation artifact holds it. */
export const recordedRelax = () => summariseRelaxation(pw('si-relax.out'));

/** The recorded spin-polarised bcc Fe SCF, as the magnetization artifact holds it. */
export const recordedMagnetization = () => ({
  ...magnetizationOf(pw('fe-bcc-magnetic.out'), { symbols: ['Fe'] }, { nspin: 2 }),
  formula: 'Fe',
});

const OBJECTIVE = 'Relax Si; magnetization of bcc Fe';

/** The run's events after run.start: the plan, then a relax of displaced Si and a spin-polarised bcc Fe SCF, each in a step of its own. */
function everydayEvents(): CanvasEvent[] {
  const relax = recordedRelax();
  return [
    ev(
      'key.write',
      {
        value: {
          objective: OBJECTIVE,
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
    call('c-1', 'relaxation_result', 'relax'),
    artifact('a-relax', 'c-1', 'relaxation', {
      calculation: relax.calculation,
      converged: relax.converged,
      steps: relax.steps,
      thresholds: { forceEvPerAngstrom: relax.thresholds.forceEvPerAngstrom },
      finalEnergyEv: relax.finalEnergyEv,
      formula: 'Si2',
    }),
    call('c-2', 'magnetization', 'magnetism'),
    artifact('a-mag', 'c-2', 'magnetization', recordedMagnetization()),
  ];
}

export function everydayRunProjection(): CanvasProjection {
  const p = new CanvasProjection();
  p.apply(ev('run.start', { runId: 'r-1', objective: OBJECTIVE }));
  for (const e of everydayEvents()) p.apply(e);
  return p;
}

/**
 * The same run written through the run directory's event log (checksums, the event catalogue's
 * check) as a completed run in `<workspace>/<name>.run/<run id>/`, and `<workspace>/<name>.dreams`
 * linked to it, as a canvas whose run was started from it: what VS Code opens.
 */
export async function writeEverydayRun(workspace: string, name: string): Promise<{ canvas: string; logPath: string }> {
  const run = await createRun(path.join(workspace, `${name}.run`), { objective: OBJECTIVE, slug: name });
  for (const e of everydayEvents()) {
    const input = { kind: e.kind, payload: e.payload, actor: { kind: 'tool', id: 'recorded' }, ...(e.key ? { key: e.key } : {}) };
    await run.log.append(input as AppendInput);
  }
  await setRunState(run, 'completed');
  const logPath = path.join(run.dir, 'events.jsonl');
  await run.close();
  const canvas = path.join(workspace, `${name}.dreams`);
  fs.writeFileSync(
    canvas,
    JSON.stringify({
      dreams: 1,
      run: { id: run.runId, log: path.relative(workspace, logPath) },
      cells: [{ kind: 'objective', id: 'objective-1', text: OBJECTIVE }],
    }) + '\n',
  );
  return { canvas, logPath };
}
