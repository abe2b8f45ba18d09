// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in a
// headless Chromium page under the notebook's strict CSP, handed plot outputs as VS Code hands
// them: one output element per plot. Page errors and CSP refusals are collected in `errors`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../harness/chromium';
import { CANVAS_MIME, type PlotData } from '../../../src/shared/canvasOutputs';
import { PROJECT_ROOT } from '../../harness/vscodeHost';

export interface RendererPage {
  page: Page;
  /** Page errors and CSP refusals seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** Builds, serves the renderer and opens a page with `plots` (or other outputs of `opts.mime`) drawn as `#out-<i>`. */
export async function openRendererPage(
  plots: PlotData[] | unknown[],
  opts: { height?: number; themeCss?: string; mime?: string } = {},
): Promise<RendererPage> {
  assert.equal(spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/build.mjs')], { cwd: PROJECT_ROOT }).status, 0, 'build');
  const dir = path.join(PROJECT_ROOT, 'dist/renderer');
  const nonce = `t${Math.random().toString(36).slice(2)}`;
  const items = plots.map((p, i) => ({ id: `out-${i}`, data: p }));
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; script-src 'self' 'nonce-${nonce}';">
${opts.themeCss ? `<style>${opts.themeCss}</style>` : ''}
</head><body>${items.map((i) => `<div id="${i.id}"></div>`).join('')}
<script type="module" nonce="${nonce}">
import { activate } from '/canvas-renderer.js';
const renderer = activate({ postMessage: () => {}, onDidReceiveMessage: () => ({ dispose() {} }) });
for (const i of ${JSON.stringify(items)}) renderer.renderOutputItem({ id: i.id, mime: '${opts.mime ?? CANVAS_MIME.plot}', json: () => i.data, text: () => JSON.stringify(i.data) }, document.getElementById(i.id));
window.__rendered = true;
</script></body></html>`;
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    const file = path.join(dir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const browser = await launchChromium({
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const close = async () => {
    await browser.close();
    server.close();
  };
  const page = await browser.newPage({ viewport: { width: 900, height: opts.height ?? 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // a CSP violation is reported on the console ("Refused to ..."); the browser's favicon 404 is not the renderer's
    if (m.type() === 'error' && /Refused|Content Security Policy/.test(m.text())) errors.push(m.text());
  });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page
    .waitForFunction(() => (window as unknown as { __rendered?: boolean }).__rendered === true, undefined, { timeout: 30_000 })
    .catch(async (e) => {
      await close();
      throw new Error(`the renderer did not finish: ${errors.join(' | ') || (e as Error).message}`);
    });
  return { page, errors, close };
}
