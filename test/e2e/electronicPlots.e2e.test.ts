// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in
// headless Chromium, handed band-structure and DOS plot outputs as the projection makes them
// from run_bands_x / run_dos_x / run_projwfc artifacts: the bands are drawn as lines with the
// labelled points of the path and the band edges, the DOS with its projections and E_F.
// Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../harness/vscodeHost';
import type { PlotData } from '../../src/shared/canvasOutputs';
import { openRendererPage, type RendererPage } from './support/rendererPage';

const bands: PlotData = {
  kind: 'band-structure',
  title: 'Band structure (a-9)',
  artifact: 'a-9',
  data: {
    x: [0, 0.5, 1, 1, 1.5],
    bandsEv: [
      [-5, -3, -1, -2, -4],
      [6, 5, 4, 4.5, 5.5],
      [7, 7.5, 8, 7.8, 7.2],
    ],
    ticks: [
      { x: 0, label: 'Γ' },
      { x: 1, label: 'K|U' },
      { x: 1.5, label: 'X' },
    ],
    reference: { energyEv: 6, kind: 'vbm' },
    gap: { gapEv: 0.6, direct: false, vbm: { x: 0, energyEv: 6 }, cbm: { x: 1.5, energyEv: 6.6 } },
  },
};
const dos: PlotData = {
  kind: 'dos',
  title: 'Projected DOS (a-12)',
  artifact: 'a-12',
  data: {
    energiesEv: [0, 2, 4, 6, 8],
    total: [0, 0.2, 0.4, 0.3, 0.1],
    fermiEnergyEv: 5,
    projections: [
      { label: 'Al s', species: 'Al', l: 's', dos: [0, 0.1, 0.1, 0.05, 0] },
      { label: 'Al p', species: 'Al', l: 'p', dos: [0, 0.05, 0.2, 0.2, 0.1] },
    ],
  },
};

describe('band-structure and DOS plots drawn by the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let page: Page;
  let view: RendererPage;

  before(async () => {
    view = await openRendererPage([bands, dos]);
    page = view.page;
  });
  after(async () => {
    await view?.close();
  });

  it('draws every band as a line over the path, the labelled points (a break as "K|U") and the band edges', async () => {
    const card = page.locator('#out-0 [data-plot="band-structure"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.band').count(), 3, 'one line per band');
    // each band in two strokes, Γ to K and U to X: the jump across the break is not drawn
    for (const d of await card.locator('svg path.band').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? '')))
      assert.equal(d.match(/M/g)?.length, 2, d);
    const labels = await card.locator('svg text').allTextContents();
    for (const l of ['Γ', 'K|U', 'X']) assert.ok(labels.includes(l), `${l} in ${labels.join(',')}`);
    assert.equal(await card.locator('svg circle').count(), 2, 'VBM and CBM');
    assert.match(await card.innerText(), /indirect gap 0\.6 eV/);
  });

  it('draws the total DOS and one curve per projection, with their legend and E_F', async () => {
    const card = page.locator('#out-1 [data-plot="dos"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.dos-curve').count(), 3, 'total, Al s, Al p');
    const text = await card.innerText();
    for (const t of ['total', 'PDOS Al s', 'PDOS Al p', 'E_F = 5 eV']) assert.ok(text.includes(t), `${t} in ${text}`);
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/electronic-plots.png') });
  });
});
