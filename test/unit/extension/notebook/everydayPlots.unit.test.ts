import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { magnetizationOf } from '../../../../src/core/dft/magnetism';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import { summariseRelaxation } from '../../../../src/core/dft/relaxation';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME, type PlotData } from '../../../../src/shared/canvasOutputs';

const RUNS = path.resolve(__dirname, '../../../fixtures/qe/runs');
const pw = (file: string) => parsePwOutput(fs.readFileSync(path.join(RUNS, file), 'utf8'));

let seq = 0;
const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;
const call = (id: string, tool: string, step: string) =>
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
const artifact = (id: string, creator: string, name: string, value: unknown) =>
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
function project(): CanvasProjection {
  const relax = summariseRelaxation(pw('si-relax.out'));
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

const plotsOf = (p: CanvasProjection, cell: string) =>
  (p.cells().find((c) => c.id === cell)?.outputs ?? []).filter((o) => o.mime === CANVAS_MIME.plot).map((o) => o.data as PlotData);

describe('relaxation trajectory and magnetization table in the notebook', () => {
  it("hands the renderer a relaxation artifact's steps, force threshold and final energy as a plot in its step's cell", () => {
    const p = project();
    const [plot, ...rest] = plotsOf(p, 'steps/relax');
    assert.equal(rest.length, 0);
    assert.ok(plot && plot.kind === 'relaxation', `a relaxation plot in steps/relax, got ${JSON.stringify(plot)}`);
    assert.equal(plot.artifact, 'a-relax');
    // the recorded relax: seven geometries, forc_conv_thr 1e-3 Ry/bohr, the final energy that of the last geometry
    assert.equal(plot.data.steps.length, 7);
    assert.equal(plot.data.thresholds.forceEvPerAngstrom?.toFixed(4), '0.0257');
    assert.equal(plot.finalEnergyEv, plot.data.steps.at(-1)!.energyEv);
    assert.ok(plot.data.steps[0]!.maxForceEvPerAngstrom! > 1 && plot.data.steps.at(-1)!.maxForceEvPerAngstrom! < 0.0257);
    assert.deepEqual(
      plotsOf(p, 'steps/magnetism').map((x) => x.kind),
      ['magnetization'],
    );
  });

  it('hands the renderer a magnetization artifact as a table of site moments with the total and absolute magnetization per cell', () => {
    const [table] = plotsOf(project(), 'steps/magnetism');
    assert.ok(table && table.kind === 'magnetization', `a magnetization table in steps/magnetism, got ${JSON.stringify(table)}`);
    assert.equal(table.artifact, 'a-mag');
    assert.equal(table.data.totalBohrMagnetonPerCell, 2.25);
    assert.equal(table.data.absoluteBohrMagnetonPerCell, 2.37);
    assert.deepEqual(
      table.data.sites.map((s) => [s.atom, s.symbol, s.momentBohrMagneton]),
      [[1, 'Fe', 2.3027]],
    );
  });

  it('draws no trajectory for a relaxation without steps, nor a table for a magnetization without sites', () => {
    const p = new CanvasProjection();
    p.apply(call('c-1', 'relaxation_result', 'relax'));
    p.apply(artifact('a-1', 'c-1', 'relaxation', { calculation: 'relax', converged: false }));
    p.apply(artifact('a-2', 'c-1', 'magnetization', { totalBohrMagnetonPerCell: 0 }));
    const plots = p
      .cells()
      .flatMap((c) => c.outputs ?? [])
      .filter((o) => o.mime === CANVAS_MIME.plot);
    assert.equal(plots.length, 0);
  });
});
