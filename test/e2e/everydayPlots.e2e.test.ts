// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in
// headless Chromium under the notebook's strict CSP, handed the plot outputs the canvas projection
// makes from a relaxation artifact (the recorded pw.x relax of displaced Si) and a magnetization
// artifact (the recorded spin-polarised bcc Fe SCF): the trajectory as two SVG panels (E − E_final
// and the largest force per geometry, with the force threshold), the magnetization as a table.
// Screenshot: test-results/screenshots/e2e-everyday-plots.png. Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, PROJECT_ROOT } from '../harness/vscodeHost';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { magnetizationOf } from '../../src/core/dft/magnetism';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { summariseRelaxation } from '../../src/core/dft/relaxation';
import { CanvasProjection } from '../../src/core/report/canvasProjection';
import { CANVAS_MIME, type PlotData } from '../../src/shared/canvasOutputs';

const RUNS = path.join(PROJECT_ROOT, 'test/fixtures/qe/runs');
const pw = (file: string) => parsePwOutput(fs.readFileSync(path.join(RUNS, file), 'utf8'));
const relax = summariseRelaxation(pw('si-relax.out'));
const magnetization = magnetizationOf(pw('fe-bcc-magnetic.out'), { symbols: ['Fe'] }, { nspin: 2 });

/** The plot outputs of a run's cells, as the projection makes them from its events. */
function plotOutputs(): PlotData[] {
  let seq = 0;
  const ev = (kind: string, payload: unknown): CanvasEvent =>
    ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload }) as CanvasEvent;
  const call = (id: string, tool: string) =>
    ev('provenance.call', {
      id,
      tool,
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
  const p = new CanvasProjection();
  p.apply(call('c-1', 'relaxation_result'));
  p.apply(
    artifact('a-7', 'c-1', 'relaxation', {
      calculation: relax.calculation,
      converged: relax.converged,
      steps: relax.steps,
      thresholds: { forceEvPerAngstrom: relax.thresholds.forceEvPerAngstrom },
      finalEnergyEv: relax.finalEnergyEv,
      formula: 'Si2',
    }),
  );
  p.apply(call('c-2', 'magnetization'));
  p.apply(artifact('a-8', 'c-2', 'magnetization', { ...magnetization, formula: 'Fe' }));
  return p
    .cells()
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.mime === CANVAS_MIME.plot)
    .map((o) => o.data as PlotData);
}

describe('relaxation trajectory and magnetization table drawn by the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let server: http.Server;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    const plots = plotOutputs();
    assert.deepEqual(
      plots.map((p) => p.kind),
      ['relaxation', 'magnetization'],
    );
    assert.equal(spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/build.mjs')], { cwd: PROJECT_ROOT }).status, 0, 'build');
    const dir = path.join(PROJECT_ROOT, 'dist/renderer');
    const nonce = `t${Math.random().toString(36).slice(2)}`;
    const items = plots.map((p, i) => ({ id: `out-${i}`, data: p }));
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; script-src 'self' 'nonce-${nonce}';">
<style>/* a light theme's variables, as VS Code sets them around a notebook output */
body { --vscode-foreground: #333; --vscode-descriptionForeground: #717171; --vscode-panel-border: #ccc; --vscode-font-family: sans-serif; }</style>
</head><body>${items.map((i) => `<div id="${i.id}"></div>`).join('')}
<script type="module" nonce="${nonce}">
import { activate } from '/canvas-renderer.js';
const renderer = activate({ postMessage: () => {}, onDidReceiveMessage: () => ({ dispose() {} }) });
for (const i of ${JSON.stringify(items)}) renderer.renderOutputItem({ id: i.id, mime: '${CANVAS_MIME.plot}', json: () => i.data, text: () => JSON.stringify(i.data) }, document.getElementById(i.id));
window.__rendered = true;
</script></body></html>`;
    server = http.createServer((req, res) => {
      const url = (req.url ?? '/').split('?')[0]!;
      if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      const file = path.join(dir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(dir) || !fs.existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // a CSP violation is reported on the console ("Refused to ..."); the browser's favicon 404 is not the renderer's
      if (m.type() === 'error' && /Refused|Content Security Policy/.test(m.text())) errors.push(m.text());
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page
      .waitForFunction(() => (window as unknown as { __rendered?: boolean }).__rendered === true, undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`the renderer did not finish: ${errors.join(' | ') || 'no page error'}`);
      });
  });
  after(async () => {
    await browser?.close();
    server?.close();
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
    assert.deepEqual(rows, [['1', 'Fe', '2.3', '6.49']]);
    assert.equal(await table.locator('tr.total td').textContent(), '2.25 μB/cell');
    assert.equal(await table.locator('tr.absolute td').textContent(), '2.37 μB/cell');
    assert.match(await page.locator('#out-1').innerText(), /order: ferromagnetic/);
    assert.deepEqual(errors, [], 'no page or CSP errors');
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/screenshots/e2e-everyday-plots.png'), fullPage: true });
  });
});
