// The report cell's output as the notebook renderer bundle (dist/renderer/canvas-renderer.js, built as
// for VS Code) draws it in headless Chromium under the notebook's strict CSP: the completed lattice run's
// report in full (test/harness/completedLatticeRun.ts, projected as the canvas projects it), its E(V)
// plot drawn inline from the SVG the output carries, its claimed numbers and artifact ids linked.
// Screenshot: test-results/screenshots/e2e-report-cell.png. Cost: one build and one Chromium page, a few seconds.
// Then the same run's canvas in the workbench (code-server), its log torn in its last line: the
// summary says so first, and the report cell draws the plot in VS Code's own notebook webview
// (e2e-report-cell-damaged-summary.png, e2e-report-cell-workbench.png; about a minute).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CanvasProjection } from '../../src/core/report/canvasProjection';
import { CANVAS_MIME, type ReportData } from '../../src/shared/canvasOutputs';
import { completedLatticeRun } from '../harness/completedLatticeRun';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, visibleNotebook } from '../harness/workbench';
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

describe("a completed run's canvas with a damaged log in the workbench (e2e)", function () {
  this.timeout(300_000);
  let host: VsCodeHost | undefined;
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-report-cell');
  after(async () => host?.stop());

  it('shows the damaged log at the top of the summary and the report with its E(V) plot drawn in the notebook', async () => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.mkdirSync(workspace, { recursive: true });
    const { run } = await completedLatticeRun(path.join(workspace, 'al.run'));
    await run.close();
    const logPath = path.join(run.dir, 'events.jsonl');
    fs.appendFileSync(logPath, '{"v":1,"seq":99,"ts":"2026-12-05T03:00:00.000Z","kind":"run.st'); // a writer stopped mid-line
    const before = fs.readFileSync(logPath);
    fs.writeFileSync(
      path.join(workspace, 'al-report.dreams'),
      JSON.stringify({
        dreams: 1,
        run: { id: run.runId, log: path.relative(workspace, logPath) },
        cells: [{ kind: 'objective', id: 'objective-1', text: 'Lattice constant of fcc Al with LDA' }],
      }) + '\n',
    );
    host = await startVsCodeHost({ workspace, extension: 'installed', label: 'e2e-report-cell' });
    const { page } = host;
    await quickOpen(page, 'al-report.dreams');
    await visibleNotebook(page).locator('.cell-list-container').waitFor({ timeout: 60_000 });
    const out = notebookOutputFrame(page);
    // the Markdown summary (drawn in the notebook's webview) opens with the warning; the report cell
    // repeats it further down, where the webview may keep it hidden until scrolled to: the visible one
    await out
      .getByText(/ends in a torn line: line \d+/)
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 60_000 });
    await out
      .getByText(/--cut-damaged|dreams resume/)
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 10_000 });
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /al-report\.dreams shows a damaged run log/ });
    await toast.waitFor({ timeout: 30_000 });
    await host.screenshot('e2e-report-cell-damaged-summary');
    // the report cell, last: its plot decoded and drawn in VS Code's notebook webview
    const img = out.locator('section.report img.report-plot[data-plot="plots/eos.svg"]');
    // (the wheel over the notebook's scrollbar, which no output covers, until the plot is on screen)
    const nb = await visibleNotebook(page).boundingBox();
    for (let i = 0; i < 80; i++) {
      const box = (await img.count()) ? await img.boundingBox({ timeout: 1_000 }).catch(() => null) : null;
      if (box && nb && box.y >= nb.y && box.y + box.height <= nb.y + nb.height) break;
      if (nb) await page.mouse.move(nb.x + nb.width - 6, nb.y + nb.height / 2);
      await page.mouse.wheel(0, box && nb && box.y < nb.y ? -800 : 800);
      await page.waitForTimeout(150);
    }
    const width = await img.evaluate((e: HTMLImageElement) => e.decode().then(() => e.naturalWidth));
    assert.ok(width > 300, `the E(V) plot is drawn (${width} px wide)`);
    await host.screenshot('e2e-report-cell-workbench');
    assert.ok(fs.readFileSync(logPath).equals(before), 'the damaged log was left as it was');
  });
});
