/**
 * bench:ui — the provenance graph's layout and first paint for 500 and 5,000 nodes in
 * Chromium (the production webview bundle behind its real CSP): message → first paint (the
 * provisional layout) and → the refined layout on screen; redraw time while panning; the same
 * graph as SVG for comparison; and the time to open and reopen a canvas notebook over a run
 * with 2,000 artifacts in real VS Code. Writes bench/results/ui.json.
 * Targets: graph first paint < 2 s at 5,000 nodes; notebook open and reopen < 3 s.
 *   npm run bench:ui [-- --sizes 500,5000] [-- --no-graph] [-- --no-notebook] [-- --repeat N] [-- --cold N] [-- --out FILE]
 * (--repeat: notebook first opens and reopens in one warm window, each on a fresh canvas; --cold: the first
 * canvas opened in a fresh window, N times for a saved canvas and N for one projected from the log,
 * default 3; medians reported with their spread)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProvenanceFold } from '../../src/extension/provenance/graphModel';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ProvenanceGraph } from '../../src/shared/provenanceGraph';
import { PROJECT_ROOT } from '../../test/harness/vscodeHost';
import { openWebviewPage } from '../../test/harness/webviewPage';
import { syntheticRunEvents } from '../../test/harness/syntheticRun';
import { benchColdOpen, benchNotebookOpen } from './uiNotebook';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '500,5000').split(',').map(Number);
const D3 = path.join(PROJECT_ROOT, 'node_modules/d3/dist/d3.min.js');

function graphOf(nodes: number): ProvenanceGraph {
  const events = syntheticRunEvents({ nodes }).map((e, i) => ({ ...e, v: 1, seq: i + 1, ts: '', crc: '' }) as CanvasEvent);
  return new ProvenanceFold().applyAll(events).graph();
}

interface GraphFigures {
  nodes: number;
  edges: number;
  /** Message → the graph on screen with its provisional layout (the first paint). */
  messageToFirstPaintMs: number;
  /** Message → the refined (ELK) layout on screen. */
  messageToRefinedPaintMs: number;
  firstPaintLayout: string;
  layoutMs: number;
  layoutWhere: string;
  firstRenderMs: number;
  messageToPaintMs: number;
  panRedrawMedianMs: number;
  panRedrawMaxMs: number;
  wholeRunRedrawMedianMs: number;
  panFrameMedianMs: number;
  svgFirstRenderMs: number;
  svgPanFrameMedianMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function benchGraph(n: number): Promise<GraphFigures> {
  const graph = graphOf(n);
  const wp = await openWebviewPage({ script: 'dist/webview/provenance.js', stylesheet: 'media/provenance.css', extraScripts: [D3] });
  try {
    const { page } = wp;
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
    const wall = await page.evaluate(async (g) => {
      const w = window as unknown as { __posted: { type: string; phase?: string }[] };
      const t0 = performance.now();
      window.postMessage({ type: 'graph', graph: g }, '*');
      // (no named helpers in here: the page has no __name, which the bundler adds to them)
      while (!w.__posted.some((m) => m.type === 'rendered' || m.type === 'error')) await new Promise((r) => setTimeout(r, 2));
      // the frame after the draw is on screen
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const first = performance.now() - t0;
      // (a build without the provisional layout renders once, already refined)
      while (!w.__posted.some((m) => m.type === 'error' || (m.type === 'rendered' && m.phase !== 'quick')))
        await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { first, refined: performance.now() - t0 };
    }, graph);
    const posted = (await wp.posted()) as {
      type: string;
      layoutMs?: number;
      renderMs?: number;
      layout?: string;
      text?: string;
      phase?: string;
    }[];
    const rendered = posted.find((m) => m.type === 'rendered' && m.phase !== 'quick');
    const firstRendered = posted.find((m) => m.type === 'rendered');
    if (!rendered) throw new Error(`the graph of ${n} nodes did not render: ${JSON.stringify(posted.find((m) => m.type === 'error'))}`);
    // Panning: 40 redraws at a readable zoom, as a drag would ask for.
    const pan = await page.evaluate(() => {
      const v = (
        window as unknown as { dreamsGraph: { drawNow(): void; lastDrawMs: number; transform: { x: number; y: number; k: number } } }
      ).dreamsGraph;
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        v.transform = { x: -i * 37, y: -i * 11, k: 0.8 };
        v.drawNow();
        times.push(v.lastDrawMs);
      }
      // Zoomed out to the whole run: every node and edge in view, labels off.
      const all: number[] = [];
      const lay = (v as unknown as { layout: { width: number; height: number } }).layout;
      const k = Math.min(1400 / lay.width, 860 / lay.height);
      for (let i = 0; i < 20; i++) {
        v.transform = { x: -i, y: 0, k };
        v.drawNow();
        all.push(v.lastDrawMs);
      }
      return { times, all };
    });
    // The same frames measured like the SVG ones below: command issue plus the two frames it takes to show.
    const canvasFrames = await page.evaluate(async () => {
      const v = (window as unknown as { dreamsGraph: { drawNow(): void; transform: { x: number; y: number; k: number } } }).dreamsGraph;
      const frames: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        v.transform = { x: -i * 37, y: -i * 11, k: 0.8 };
        v.drawNow();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        frames.push(performance.now() - t);
      }
      return frames;
    });
    const svg = await page.evaluate(async () => {
      // The same positions drawn as SVG (rect + two labels per node, a path per edge).
      const w = window as unknown as {
        d3: typeof import('d3');
        dreamsGraph: {
          graph: ProvenanceGraph;
          layout: { nodes: { x: number; y: number; w: number; h: number }[]; routed: { points: number[] }[] };
        };
      };
      const { graph, layout } = w.dreamsGraph;
      const d3 = w.d3;
      document.getElementById('root')!.style.display = 'none';
      const t0 = performance.now();
      const s = d3.select(document.body).append('svg').attr('width', 1400).attr('height', 900);
      const g = s.append('g');
      g.selectAll('path')
        .data(layout.routed)
        .join('path')
        .attr('fill', 'none')
        .attr('stroke', '#999')
        .attr('d', (r) => 'M' + r.points.join(' '));
      const ng = g
        .selectAll('g.n')
        .data(graph.nodes)
        .join('g')
        .attr('transform', (_, i) => `translate(${layout.nodes[i]!.x},${layout.nodes[i]!.y})`);
      ng.append('rect').attr('width', 168).attr('height', 34).attr('fill', '#eee').attr('stroke', '#388a34');
      ng.append('text')
        .attr('x', 22)
        .attr('y', 14)
        .text((d) => d.label);
      ng.append('text')
        .attr('x', 22)
        .attr('y', 28)
        .text((d) => d.detail);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const first = performance.now() - t0;
      const frames: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        g.attr('transform', `translate(${-i * 37},${-i * 11}) scale(0.8)`);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        frames.push(performance.now() - t);
      }
      return { first, frames };
    });
    return {
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      messageToFirstPaintMs: Math.round(wall.first),
      messageToRefinedPaintMs: Math.round(wall.refined),
      firstPaintLayout: firstRendered?.phase ?? 'refined',
      layoutMs: rendered.layoutMs!,
      layoutWhere: rendered.layout!,
      firstRenderMs: rendered.renderMs!,
      messageToPaintMs: Math.round(wall.refined),
      panRedrawMedianMs: Math.round(median(pan.times) * 100) / 100,
      panRedrawMaxMs: Math.round(Math.max(...pan.times) * 100) / 100,
      wholeRunRedrawMedianMs: Math.round(median(pan.all) * 100) / 100,
      panFrameMedianMs: Math.round(median(canvasFrames) * 10) / 10,
      svgFirstRenderMs: Math.round(svg.first),
      svgPanFrameMedianMs: Math.round(median(svg.frames) * 10) / 10,
    };
  } finally {
    await wp.close();
  }
}

const LOAD_AT_START = os.loadavg().map((x) => Math.round(x * 100) / 100);

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const graphs: GraphFigures[] = [];
  for (const n of process.argv.includes('--no-graph') ? [] : SIZES) {
    const f = await benchGraph(n);
    graphs.push(f);
    console.log(
      `provenance graph ${f.nodes} nodes / ${f.edges} edges: message → first paint ${f.messageToFirstPaintMs} ms (${f.firstPaintLayout} layout), → refined layout on screen ${f.messageToRefinedPaintMs} ms; ` +
        `layout ${f.layoutMs} ms (${f.layoutWhere}), render ${f.firstRenderMs} ms; pan redraw median ${f.panRedrawMedianMs} ms (max ${f.panRedrawMaxMs}), whole run in view ${f.wholeRunRedrawMedianMs} ms; pan frame median ${f.panFrameMedianMs} ms; ` +
        `as SVG: first render ${f.svgFirstRenderMs} ms, pan frame median ${f.svgPanFrameMedianMs} ms`,
    );
  }
  const notebook = process.argv.includes('--no-notebook') ? undefined : await benchNotebookOpen(2000, Number(arg('--repeat') ?? 1));
  if (notebook) {
    console.log(
      `notebook over a run with ${notebook.artifacts} artifacts (${notebook.events} events, ${notebook.cells} cells, ${notebook.canvasBytes} bytes saved), medians of ${notebook.repetitions}: ` +
        `first open → first cell ${notebook.firstOpenFirstCellMs} ms, → first card ${notebook.firstOpenFirstOutputMs} ms, → all cells projected and saved ${notebook.firstOpenAllCellsMs} ms; ` +
        `reopen → first cell ${notebook.reopenFirstCellMs} ms, → first card ${notebook.reopenFirstOutputMs} ms${notebook.reopenRewroteCanvas ? ' (the reopen wrote the canvas again)' : ''}; ` +
        `a one-cell canvas (VS Code's floor) ${notebook.oneCellCanvasOpenMs} ms` +
        (notebook.firstOpenCpuSeconds !== undefined
          ? ` (CPU seconds of VS Code's processes: open ${JSON.stringify(notebook.firstOpenCpuSeconds)}, reopen ${JSON.stringify(notebook.reopenCpuSeconds)})`
          : ''),
    );
  }
  const coldRepeat = Number(arg('--cold') ?? 3);
  const cold = notebook && coldRepeat > 0 ? await benchColdOpen(coldRepeat) : undefined;
  if (cold) {
    const f = (s: Record<string, { median: number; min: number; max: number }>, k: string) =>
      s[k] ? `${s[k]!.median} ms (${s[k]!.min}–${s[k]!.max})` : 'n/a';
    for (const kind of ['saved', 'log'] as const)
      console.log(
        `cold first open in a fresh window (${kind === 'saved' ? 'a saved canvas' : 'projected from the log'}), medians (min–max) of ${cold.repetitions}, from Enter in Quick Open: ` +
          `activated ${f(cold[kind], 'activatedMs')}, editor ${f(cold[kind], 'editorMs')}, first cell ${f(cold[kind], 'firstCellMs')}, ` +
          `output webview ${f(cold[kind], 'webviewMs')}, first card ${f(cold[kind], 'firstOutputMs')}; Quick Open listing the file ${f(cold[kind], 'quickOpenListMs')}`,
      );
  }
  const load = (await import('node:os')).loadavg();
  const result = {
    benchmark: 'ui',
    date: new Date().toISOString(),
    commit: (() => {
      try {
        return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
          cwd: PROJECT_ROOT,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim();
      } catch {
        return 'not a git checkout';
      }
    })(),
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: load.map((x) => Math.round(x * 100) / 100),
    targets: { graphFirstPaintMs: 2000, notebookOpenMs: 3000, notebookReopenMs: 3000 },
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    machine: `${(await import('node:os')).cpus().length} cores`,
    build: 'production',
    ...(graphs.length ? { provenanceGraph: graphs } : {}),
    ...(notebook ? { notebookOpen: notebook } : {}),
    ...(cold ? { notebookColdOpen: cold } : {}),
  };
  fs.mkdirSync(path.join(PROJECT_ROOT, 'bench/results'), { recursive: true });
  const out = arg('--out') ?? path.join(PROJECT_ROOT, 'bench/results/ui.json');
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`written: ${path.relative(process.cwd(), out)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
