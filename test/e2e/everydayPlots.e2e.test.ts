// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in
// headless Chromium under the notebook's strict CSP, handed the plot outputs the canvas projection
// makes from a relaxation artifact (the recorded pw.x relax of displaced Si) and a magnetization
// artifact (the recorded spin-polarised bcc Fe SCF): the trajectory as two SVG panels (E − E_final
// and the largest force per geometry, with the force threshold), the magnetization as a table.
// Screenshot: test-results/screenshots/e2e-everyday-plots.png. Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../harness/vscodeHost';
import { CANVAS_MIME, type PlotData } from '../../src/shared/canvasOutputs';
import { everydayRunProjection, recordedRelax } from '../harness/everydayRun';
import { openRendererPage, type RendererPage } from './support/rendererPage';

const relax = recordedRelax();

/** The plot outputs of the run's cells, as the projection makes them from its events. */
function plotOutputs(): PlotData[] {
  return everydayRunProjection()
    .cells()
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.mime === CANVAS_MIME.plot)
    .map((o) => o.data as PlotData);
}

describe('relaxation trajectory and magnetization table drawn by the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let page: Page;
  let view: RendererPage;

  before(async () => {
    const plots = plotOutputs();
    assert.deepEqual(
      plots.map((p) => p.kind),
      ['relaxation', 'magnetization'],
    );
    // a light theme's variables, as VS Code sets them around a notebook output
    view = await openRendererPage(plots, {
      height: 1000,
      themeCss:
        'body { --vscode-foreground: #333; --vscode-descriptionForeground: #717171; --vscode-panel-border: #ccc; --vscode-font-family: sans-serif; }',
    });
    page = view.page;
  });
  after(async () => {
    await view?.close();
  });

  it('draws the energy and the largest force of every geometry, the force threshold as a line, the last force under it', async () => {
    const card = page.locator('#out-0 [data-plot="relaxation"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg circle.relax-energy-point').count(), relax.steps.length, 'one energy point per geometry');
    assert.equal(await card.locator('svg circle.relax-force-point').count(), relax.steps.length, 'one force point per geometry');
    assert.equal(await card.locator('svg path.relax-energy').count(), 1);
    assert.equal(await card.locator('svg path.relax-force').count(), 1);
    const yOf = (sel: string) => card.locator(sel).evaluateAll((es) => es.map((e) => Number(e.getAttribute('cy') ?? e.getAttribute('y1'))));
    const [threshold] = await yOf('svg line.force-threshold');
    const forces = await yOf('svg circle.relax-force-point');
    // SVG y grows downwards: the first force (1.48 eV/Å) above the threshold line, the last (0.00095 eV/Å) below it
    assert.ok(forces[0]! < threshold! && forces.at(-1)! > threshold!, `forces ${forces} against the threshold at ${threshold}`);
    const energies = await yOf('svg circle.relax-energy-point');
    assert.ok(energies[0]! < energies.at(-1)!, 'the first geometry lies above the final energy');
    // the tooltip of the first geometry carries the report's number: (E_1 − E_final) in meV
    const first = await card.locator('svg circle.relax-energy-point title').first().textContent();
    const meV = (relax.steps[0]!.energyEv! - relax.finalEnergyEv!) * 1000;
    assert.ok(first?.includes(`${Number(meV.toPrecision(6))} meV`), `${first} carries ${meV} meV`);
    const text = await card.innerText();
    for (const t of ['converged', '7 geometries', 'forc_conv_thr 0.0257 eV/Å']) assert.ok(text.includes(t), `${t} in ${text}`);
  });

  it('lists each site with its species and moment, then the total and absolute magnetization per cell', async () => {
    const table = page.locator('#out-1 [data-plot="magnetization"] table.magnetization');
    await table.waitFor({ timeout: 10_000 });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual(rows, [['1', 'Fe', '2.30', '6.49']], 'moments to three significant digits, trailing zeros kept');
    assert.equal(await table.locator('tr.total td').textContent(), '2.25 μB/cell');
    assert.equal(await table.locator('tr.absolute td').textContent(), '2.37 μB/cell');
    assert.match(await page.locator('#out-1').innerText(), /order: ferromagnetic/);
    assert.deepEqual(view.errors, [], 'no page or CSP errors');
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/screenshots/e2e-everyday-plots.png'), fullPage: true });
  });
});
