import assert from 'node:assert/strict';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME, type PlotData } from '../../../../src/shared/canvasOutputs';
import { artifact, call, everydayRunProjection as project } from '../../../harness/everydayRun';

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
