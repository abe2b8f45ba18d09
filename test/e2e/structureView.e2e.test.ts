// Structures in the workbench: a CIF opened in the 3-D "Show structure" editor (WebGL in the
// webview, under its CSP), a canvas started from it, and the relaxed structure of a real offline
// run (hcp Mg, vc-relax; about 35 s of pw.x before the workbench starts) drawn in 3-D in the
// notebook with its relaxation played from the run's pw.x output. Screenshots in
// test-results/screenshots/e2e-structure-*.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, runCommand, scrollNotebookTo, visibleNotebook } from '../harness/workbench';

/** The structure editor's page: the frame whose document holds the 3-D panel. */
async function structureFrame(page: Page, ms = 60_000): Promise<Frame> {
  const end = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      const ok = await f
        .evaluate(() => !!document.querySelector('.dreams-structure3d .viewport canvas') && !!document.querySelector('header h2'))
        .catch(() => false);
      if (ok) return f;
    }
    if (Date.now() > end) throw new Error('no structure editor with a 3-D view found');
    await page.waitForTimeout(250);
  }
}

/** Pixels of a WebGL canvas that are not background: proof the view drew something. */
function drawnPixels(canvas: HTMLCanvasElement): number {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(canvas, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  let n = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
  return n;
}

/** The box around the pixels a canvas drew, with the canvas's size: a view fitted to its content leaves a margin. */
function drawnBox(canvas: HTMLCanvasElement): { left: number; top: number; right: number; bottom: number; width: number; height: number } {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(canvas, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  let left = copy.width;
  let top = copy.height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < copy.height; y++) {
    for (let x = 0; x < copy.width; x++) {
      if (data[(y * copy.width + x) * 4 + 3]! === 0) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return { left, top, right, bottom, width: copy.width, height: copy.height };
}

/** The frame whose document shows the structure editor's error. */
async function errorFrame(page: Page, ms = 60_000): Promise<Frame> {
  const end = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      const ok = await f.evaluate(() => !!document.querySelector('.error')).catch(() => false);
      if (ok) return f;
    }
    if (Date.now() > end) throw new Error('no structure editor showing an error found');
    await page.waitForTimeout(250);
  }
}

describe('structures in the workbench (e2e)', function () {
  let host: VsCodeHost;
  let runCanvas: string;
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-structures');

  before(async function () {
    this.timeout(600_000);
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
    for (const f of ['NaCl.cif', 'Mg-hcp.cif']) fs.copyFileSync(path.join(PROJECT_ROOT, 'examples', f), path.join(workspace, f));
    // A disordered NaCl (half a sodium on its site): a file the editor cannot draw until it is mended.
    fs.writeFileSync(
      path.join(workspace, 'NaCl-disordered.cif'),
      fs.readFileSync(path.join(PROJECT_ROOT, 'examples/NaCl.cif'), 'utf8').replace('Na1 Na 0 0 0 1.0', 'Na1 Na 0 0 0 0.5'),
    );
    // A finished run with a relaxation: hcp Mg at toy settings, offline, through the built CLI.
    fs.writeFileSync(
      path.join(workspace, 'mg.yaml'),
      [
        'workflow: lattice-constant',
        'inputs:',
        '  structure: { file: Mg-hcp.cif }',
        '  functional: PZ',
        '  cutoffsRy: [15, 20, 25]',
        '  kSpacingsPerAngstrom: [0.5, 0.4, 0.3]',
        '  toleranceMevPerAtom: 5',
        '  smearing: { kind: mv, degaussRy: 0.05 }',
        '',
      ].join('\n'),
    );
    const r = spawnSync(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'dist/cli.js'),
        'run',
        'mg.yaml',
        '--offline',
        '--runs-dir',
        'runs',
        '--pseudo-dir',
        '/usr/share/espresso/pseudo',
      ],
      {
        cwd: workspace,
        encoding: 'utf8',
        env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
      },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const runDir = path.join(workspace, 'runs', fs.readdirSync(path.join(workspace, 'runs'))[0]!);
    runCanvas = path.join(runDir, 'mg-run.dreams');
    fs.renameSync(path.join(runDir, 'canvas.dreams'), runCanvas);
    host = await startVsCodeHost({
      workspace,
      extension: 'installed',
      label: 'e2e-structures',
      viewport: { width: 1500, height: 1000 },
      settings: { 'dreams.provider': 'offline' },
    });
  });
  after(async () => host?.stop());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await host?.screenshot(`e2e-failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  it('opens a CIF in the 3-D structure view: space group, lattice, the crystal drawn with WebGL, keys that change it', async () => {
    const { page } = host;
    await quickOpen(page, 'NaCl.cif');
    await page.locator('.monaco-editor .view-lines', { hasText: 'data_NaCl' }).first().waitFor({ timeout: 60_000 });
    await runCommand(page, 'DREAMS: Show Structure');
    const frame = await structureFrame(page);
    await frame.locator('header h2', { hasText: 'NaCl (Z = 4)' }).waitFor({ timeout: 30_000 });
    await frame.getByText('Fm-3m (225), cubic').waitFor();
    await frame.getByText(/conventional: a = 5\.6400 Å/).waitFor();
    const pixels = await frame.locator('.viewport canvas').evaluate(drawnPixels);
    assert.ok(pixels > 5_000, `the 3-D view drew ${pixels} pixels`);
    // 3Dmol.js draws with one WebGL2 context on an OffscreenCanvas and shows each frame through the
    // view's 'bitmaprenderer' context (or, without OffscreenCanvas, a WebGL context of its own). Asking a
    // canvas for the type of context it already has returns that context; a canvas with none would get
    // a new one, so the 2-D question comes first and must be refused.
    const contexts = await frame.evaluate(() => {
      const c = document.querySelector('.viewport canvas') as HTMLCanvasElement;
      const twoD = !!c.getContext('2d');
      return {
        twoD,
        bitmap: !twoD && !!c.getContext('bitmaprenderer'),
        webgl2: !twoD && !!c.getContext('webgl2'),
        webgl: !twoD && !!c.getContext('webgl'),
        fallback: /no WebGL/i.test(document.body.textContent ?? ''),
      };
    });
    assert.ok(
      !contexts.twoD && !contexts.fallback && (contexts.bitmap || contexts.webgl2 || contexts.webgl),
      `drawn by the WebGL viewer (the view's canvas: ${JSON.stringify(contexts)})`,
    );
    await host.screenshot('e2e-structure-nacl');
    // keyboard: r steps the repeat, u hides the cell
    await frame.locator('.viewport').click();
    await page.keyboard.press('r');
    assert.equal(await frame.locator('.toolbar select').inputValue(), '2x2x1');
    await page.keyboard.press('u');
    assert.equal(await frame.locator('.toolbar input[aria-label="Show the unit cell"]').isChecked(), false);
    await page.keyboard.press('r');
    assert.equal(await frame.locator('.toolbar select').inputValue(), '2x2x2');
    // another repeat keeps the orientation and fits the zoom: the eight cells are drawn whole, clear of the edges
    await page.waitForTimeout(500);
    const box = await frame.locator('.viewport canvas').evaluate(drawnBox);
    assert.ok(
      box.left > 2 && box.top > 2 && box.right < box.width - 3 && box.bottom < box.height - 3,
      `the 2×2×2 crystal fits the view: ${JSON.stringify(box)}`,
    );
    await host.screenshot('e2e-structure-nacl-repeated');
  });

  it('starts a canvas from the structure: a notebook beside the file whose objective reads it', async () => {
    const { page } = host;
    const frame = await structureFrame(page);
    await frame.getByRole('button', { name: 'Start a canvas from this structure' }).click();
    const nb = visibleNotebook(page);
    await nb.getByText('workflow: lattice-constant').first().waitFor({ timeout: 60_000 });
    const file = path.join(workspace, 'NaCl.dreams');
    assert.ok(fs.existsSync(file), 'NaCl.dreams written beside NaCl.cif');
    const canvas = JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: { kind: string; text: string }[] };
    assert.equal(canvas.cells[0]!.kind, 'objective');
    assert.match(canvas.cells[0]!.text, /structure: \{ file: "NaCl\.cif" \}/);
    await host.screenshot('e2e-structure-canvas-started');
  });

  it("shows the relaxed structure of a run in 3-D and plays its relaxation from the run's pw.x output", async () => {
    const { page } = host;
    await runCommand(page, 'View: Close All Editors');
    await quickOpen(page, path.basename(runCanvas));
    const nb = visibleNotebook(page);
    await nb.locator('.cell-list-container').waitFor({ timeout: 60_000 });
    // The keyboard walks the cells (command mode, Down) until the cell of the step that made the
    // relaxed structure is on screen, as a user would reach it in a long run (a lab notebook: the
    // structure is an output of its step's cell); its output renders once it is near the screen.
    // (\s: the cell's editor draws its spaces as no-break spaces)
    const relaxedCell = nb
      .locator('.monaco-list-row')
      .filter({ hasText: /Step\s\d+\sof\s\d+:\sThe\srelaxed\scell/ })
      .filter({ hasText: /relaxed\sgeometry\sof\sa-\d+:\s2\satoms/ })
      .filter({ hasText: /c-\d+\sok:\srelaxed_structure/ })
      .first();
    await nb.locator('.monaco-list-row', { hasText: 'Lattice parameters of Mg' }).first().click();
    await page.keyboard.press('Escape');
    for (let i = 0; i < 80 && !(await relaxedCell.isVisible().catch(() => false)); i++) {
      await page.keyboard.press('ArrowDown');
      await page.waitForTimeout(150);
    }
    await relaxedCell.waitFor({ timeout: 10_000 });
    const out = notebookOutputFrame(page);
    const card = out.locator('.dreams-card.structure', { hasText: 'relaxed_structure' }).first();
    await scrollNotebookTo(page, card.locator('.structure3d-host'), { ms: 120_000 });
    const step = card.locator('.trajectory .step');
    await step.waitFor({ timeout: 60_000 });
    const frames = Number(/step (\d+)\/(\d+)/.exec((await step.textContent()) ?? '')?.[2]);
    assert.ok(frames >= 2, `the relaxation has ${frames} geometries`);
    await host.screenshot('e2e-structure-relaxed-last');
    await card.getByRole('button', { name: 'First step' }).click();
    await card.locator('.trajectory .step', { hasText: `step 1/${frames}` }).waitFor({ timeout: 10_000 });
    assert.match((await step.textContent()) ?? '', /E = -\d+\.\d+ eV/);
    await host.screenshot('e2e-structure-relaxed-first');
  });

  it('shows a file it cannot read with its file, line and what to do, and draws it once the file is mended on disk', async () => {
    const { page } = host;
    await runCommand(page, 'View: Close All Editors');
    await quickOpen(page, 'NaCl-disordered.cif');
    await page.locator('.monaco-editor .view-lines', { hasText: 'data_NaCl' }).first().waitFor({ timeout: 60_000 });
    await runCommand(page, 'DREAMS: Show Structure');
    const frame = await errorFrame(page);
    await frame.getByText('This structure cannot be shown').waitFor({ timeout: 30_000 });
    const text = (await frame.locator('.error').textContent()) ?? '';
    assert.match(text, /NaCl-disordered\.cif:\d+: CIF: site Na1 has occupancy 0\.5: only ordered crystals .*Choose an ordered model/);
    assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
    assert.equal(await frame.locator('.viewport canvas').count(), 0, 'nothing half-read is drawn');
    await host.screenshot('e2e-structure-unreadable');
    // The view follows the file: mended on disk, it draws the crystal.
    fs.copyFileSync(path.join(workspace, 'NaCl.cif'), path.join(workspace, 'NaCl-disordered.cif'));
    const drawn = await structureFrame(page);
    await drawn.locator('header h2', { hasText: 'NaCl (Z = 4)' }).waitFor({ timeout: 30_000 });
    await drawn.getByText('Fm-3m (225), cubic').waitFor();
  });
});
