// The report cell's output as the notebook renderer bundle (dist/renderer/canvas-renderer.js, built as
// for VS Code) draws it in headless Chromium under the notebook's strict CSP: the completed lattice run's
// report in full (test/harness/completedLatticeRun.ts, projected as the canvas projects it), its E(V)
// plot drawn inline from the SVG the output carries, its claimed numbers and artifact ids linked.
// Screenshot: test-results/screenshots/e2e-report-cell.png. Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CanvasProjection } from '../../src/core/report/canvasProjection';
import { CANVAS_MIME, type ReportData } from '../../src/shared/canvasOutputs';
import { completedLatticeRun } from '../harness/completedLatticeRun';
import { PROJECT_ROOT } from '../harness/vscodeHost';
import { openRendererPage, type RendererPage } from './support/rendererPage';

describe('the report cell drawn by the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let root: string;
  let view: RendererPage | undefined;
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-report-e2e-'))));
  after(async () => {
    await view?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('shows the report in full with its E(V) plot inline, and links each claimed number and artifact id to its artifact', async () => {
    const { run, lattice, fit } = await completedLatticeRun(root);
    const p = new CanvasProjection({ readFile: (l) => fs.readFileSync(path.join(run.dir, l), 'utf8') });
    p.applyAll(run.log.events());
    await run.close();
    const data = p.cell('report')!.outputs!.find((o) => o.mime === CANVAS_MIME.report)!.data as ReportData;
    view = await openRendererPage([data], {
      mime: CANVAS_MIME.report,
      height: 1400,
      themeCss:
        'body { --vscode-foreground: #333; --vscode-descriptionForeground: #717171; --vscode-panel-border: #ccc; --vscode-font-family: sans-serif; }',
    });
    const { page } = view;
    const card = page.locator('#out-0 section.report');
    await card.waitFor({ timeout: 10_000 });
    // the plot, decoded and drawn (a data: image the CSP allows), where report.md shows it
    const img = card.locator('img.report-plot[data-plot="plots/eos.svg"]');
    await img.waitFor({ timeout: 10_000 });
    const size = await img.evaluate((e: HTMLImageElement) =>
      e.decode ? e.decode().then(() => [e.naturalWidth, e.naturalHeight]) : [0, 0],
    );
    assert.ok(size[0]! > 300 && size[1]! > 200, `the E(V) plot is drawn (${size})`);
    assert.equal(await card.locator('h2', { hasText: 'Equation of state' }).count(), 1);
    assert.equal(await card.locator('.missing-image').count(), 0, 'no image left undrawn');
    // the report's tables, as Markdown tables
    assert.ok((await card.locator('.markdown table').count()) >= 3, 'the claims, E(V) and plan tables');
    // claimed numbers and artifact ids link to their artifacts
    assert.ok((await card.locator(`.markdown a.claim[data-artifact="${lattice}"]`).count()) >= 3, 'the lattice constant linked');
    assert.ok((await card.locator(`.markdown a.claim[data-artifact="${fit}"]`).count()) >= 1, 'the fit cited by its id, linked');
    assert.deepEqual(view.errors, [], 'no page or CSP errors');
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/screenshots/e2e-report-cell.png'), fullPage: true });
  });
});
