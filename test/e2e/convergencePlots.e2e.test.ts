// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in headless
// Chromium under the notebook's strict CSP, handed the convergence plots the canvas projection makes
// from sweeps measured with pw.x 6.7 (test/harness/convergenceSelections.ts): displaced Si's cutoff
// sweep judged by the forces beside the energy (the relax template's default), bcc Fe's judged by the
// moment alone, and an output written before plots had panels (the energy only). Each judged quantity
// is its own panel in its unit, with its tolerance and the chosen value.
// Screenshots: test-results/screenshots/e2e-convergence-{force,moment}.png. Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { ConvergenceSelectionValue } from '../../src/core/artifacts/shapes';
import { CanvasProjection } from '../../src/core/report/canvasProjection';
import { CANVAS_MIME, type PlotData } from '../../src/shared/canvasOutputs';
import { canvasEvents } from '../harness/canvasEvents';
import { feMomentSelection, siForceSelection } from '../harness/convergenceSelections';
import { PROJECT_ROOT } from '../harness/vscodeHost';
import { openRendererPage, type RendererPage } from './support/rendererPage';

/** The convergence plot output the canvas projection makes from a selection artifact. */
function plotOf(id: string, value: ConvergenceSelectionValue): PlotData {
  const { call, artifact } = canvasEvents();
  const p = new CanvasProjection();
  p.apply(call('c-1', 'select_converged_settings'));
  p.apply(artifact(id, 'c-1', 'converged_settings', { value }));
  const plot = p
    .cells()
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.mime === CANVAS_MIME.plot)
    .map((o) => o.data as PlotData)
    .find((d) => d.kind === 'convergence');
  assert.ok(plot, `a convergence plot of ${id}`);
  return plot;
}

const force = siForceSelection();
const moment = feMomentSelection({
  chosenValue: 30,
  chosen: { ecutwfcRy: 30 },
  criterion: { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 },
});

/** The y (SVG, growing downwards) of each point of a panel, and of its tolerance line. */
async function panelGeometry(panel: Locator) {
  const points = await panel
    .locator('circle.convergence-point')
    .evaluateAll((cs) =>
      cs.map((c) => ({ cx: Number(c.getAttribute('cx')), cy: Number(c.getAttribute('cy')), zero: c.classList.contains('at-zero') })),
    );
  const tolerance = Number(await panel.locator('line.convergence-tolerance').getAttribute('y1'));
  const chosen = Number(await panel.locator('line.convergence-chosen').getAttribute('x1'));
  return { points, tolerance, chosen };
}

describe('convergence plots drawn by the quantities the sweep was judged by (notebook renderer, Chromium)', function () {
  this.timeout(300_000);
  let page: Page;
  let view: RendererPage;

  before(async () => {
    const legacy = plotOf('a-1', force);
    assert.ok(legacy.kind === 'convergence');
    delete legacy.panels; // as an output written before plots had panels
    view = await openRendererPage([plotOf('a-7', force), plotOf('a-3', moment), legacy], {
      height: 1400,
      themeCss:
        'body { --vscode-foreground: #333; --vscode-descriptionForeground: #717171; --vscode-panel-border: #ccc; --vscode-font-family: sans-serif; }',
    });
    page = view.page;
  });
  after(async () => {
    await view?.close();
  });

  it('draws a force-judged relax sweep as two panels, the energy in meV/atom and the forces in eV/Å, each with its tolerance and the choice', async () => {
    const card = page.locator('#out-0 [data-plot="convergence"]');
    await card.waitFor({ timeout: 10_000 });
    const panels = card.locator('g.convergence-panel');
    assert.deepEqual(await panels.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-quantity'))), ['energy', 'force']);
    const text = await card.locator('svg').textContent();
    for (const t of ['tolerance 5 meV/atom', 'tolerance 0.005 eV/Å', 'largest |ΔF| of one component (eV/Å)', 'chosen 22 Ry'])
      assert.ok(text?.includes(t), `"${t}" in ${text}`);
    const f = await panelGeometry(panels.nth(1));
    assert.equal(f.points.length, force.tested.length, 'a point per tested cutoff');
    // by cutoff 10, 14, 18, 22, 30, 40 Ry: 18 Ry (0.0135 eV/Å) above the 0.005 line, 22 Ry (0.0037) under it, 40 Ry the finest (hollow)
    assert.ok(f.points[2]!.cy < f.tolerance, `18 Ry at ${f.points[2]!.cy}, tolerance at ${f.tolerance}`);
    assert.ok(f.points[3]!.cy > f.tolerance, `22 Ry at ${f.points[3]!.cy}, tolerance at ${f.tolerance}`);
    assert.deepEqual(
      f.points.map((p) => p.zero),
      [false, false, false, false, false, true],
    );
    assert.ok(Math.abs(f.chosen - f.points[3]!.cx) < 0.5, 'the choice drawn at 22 Ry');
    const e = await panelGeometry(panels.nth(0));
    assert.ok(Math.abs(e.chosen - f.chosen) < 0.5, 'both panels share the x axis and the choice');
    // 22 Ry is 2.41 meV/atom off: under the 5 meV/atom line; 18 Ry (10.3) above it
    assert.ok(e.points[3]!.cy > e.tolerance && e.points[2]!.cy < e.tolerance);
    assert.match(await card.locator('.legend').innerText(), /judged by energy within 5 meV\/atom and force within 0\.005 eV\/Å/);
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results/screenshots'), { recursive: true });
    await card.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/screenshots/e2e-convergence-force.png') });
  });

  it('draws a moment-judged Fe sweep as one panel in μB/atom with no energy, the unchanged moments hollow on the floor', async () => {
    const card = page.locator('#out-1 [data-plot="convergence"]');
    await card.waitFor({ timeout: 10_000 });
    const panels = card.locator('g.convergence-panel');
    assert.deepEqual(await panels.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-quantity'))), ['moment']);
    const text = (await card.locator('svg').textContent()) ?? '';
    assert.ok(text.includes('tolerance 0.02 μB/atom'), text);
    assert.ok(!text.includes('meV/atom'), `no energy in ${text}`);
    const m = await panelGeometry(panels.nth(0));
    // Δm by cutoff 30…70 Ry: 0.01, 0.01, then 0 as pw.x printed it
    assert.deepEqual(
      m.points.map((p) => p.zero),
      [false, false, true, true, true],
    );
    assert.ok(m.points[0]!.cy > m.tolerance, '0.01 μB/atom under the 0.02 line');
    assert.ok(Math.abs(m.chosen - m.points[0]!.cx) < 0.5, 'the choice drawn at 30 Ry');
    assert.match(await card.locator('.legend').innerText(), /hollow: no change from the finest run/);
    await card.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/screenshots/e2e-convergence-moment.png') });
  });

  it('draws an output written before plots had panels as the energy, as before', async () => {
    const card = page.locator('#out-2 [data-plot="convergence"]');
    await card.waitFor({ timeout: 10_000 });
    assert.deepEqual(await card.locator('g.convergence-panel').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-quantity'))), [
      'energy',
    ]);
    assert.ok((await card.locator('svg').textContent())?.includes('tolerance 5 meV/atom'));
    assert.equal(await card.locator('circle.convergence-point').count(), force.tested.length);
    assert.deepEqual(view.errors, [], 'no page or CSP errors');
  });
});
