/**
 * A webview bundle in plain Chromium, outside VS Code: a loopback HTTP server serves the
 * bundle and its stylesheet behind the same strict CSP the panel uses, with a stand-in
 * for acquireVsCodeApi that records what the page posts. For bench:ui, where the
 * workbench's own start-up would swamp the figures being measured.
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { PROJECT_ROOT } from './vscodeHost';

export interface WebviewPage {
  page: Page;
  browser: Browser;
  /** Messages the page posted to the "host", oldest first. */
  posted(): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface WebviewPageOptions {
  /** Bundle and stylesheet, relative to the project root. */
  script: string;
  stylesheet: string;
  /** More scripts (absolute paths) loaded after the bundle, e.g. a library a benchmark compares with. */
  extraScripts?: string[];
  viewport?: { width: number; height: number };
}

export async function openWebviewPage(opts: WebviewPageOptions): Promise<WebviewPage> {
  const files: Record<string, { file: string; type: string }> = {
    '/bundle.js': { file: path.join(PROJECT_ROOT, opts.script), type: 'text/javascript' },
    '/style.css': { file: path.join(PROJECT_ROOT, opts.stylesheet), type: 'text/css' },
  };
  (opts.extraScripts ?? []).forEach((file, i) => (files[`/extra-${i}.js`] = { file, type: 'text/javascript' }));
  const nonce = 'bench' + Math.random().toString(36).slice(2);
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'nonce-${nonce}'; connect-src 'self'; worker-src blob:;">
<link rel="stylesheet" href="/style.css"></head><body><div id="root"></div>
<script nonce="${nonce}">window.__posted=[];window.__state=undefined;window.acquireVsCodeApi=()=>({postMessage:(m)=>window.__posted.push(m),getState:()=>window.__state,setState:(s)=>{window.__state=s;}});</script>
<script nonce="${nonce}" src="/bundle.js"></script>
${(opts.extraScripts ?? []).map((_, i) => `<script nonce="${nonce}" src="/extra-${i}.js"></script>`).join('')}</body></html>`;
  const server = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (f) {
      res.writeHead(200, { 'content-type': f.type });
      fs.createReadStream(f.file).pipe(res);
    } else if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const browser = await launchChromium({
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/`);
  return {
    page,
    browser,
    posted: () => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted),
    async close() {
      await browser.close().catch(() => undefined);
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
