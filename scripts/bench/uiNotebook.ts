/**
 * Notebook open time for bench:ui: a canvas over a run with N artifacts (written through
 * the real event log), opened from Quick Open in real VS Code (code-server). Measures the
 * first open, where every cell is projected from the log, and a reopen, where the cells
 * come from the saved canvas file and the projection finds nothing to change; each `repeat`
 * times on a fresh canvas (medians reported, every repetition kept).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRun } from '../../src/core/run/directory';
import { PROJECT_ROOT, startVsCodeHost } from '../../test/harness/vscodeHost';
import { notebookOutputFrame, quickOpen, visibleNotebook } from '../../test/harness/workbench';
import { syntheticRunEvents } from '../../test/harness/syntheticRun';

/** Text of the first step's cell (the structure step), on screen once the canvas is projected. */
const FIRST_CELL = 'Build the structure';

/** One first open and reopen of a fresh canvas over the run. */
export interface NotebookOpenRep {
  /** Cells of the saved canvas (the projection decides how artifacts are grouped). */
  cells: number;
  /** Quick Open → the first projected cell on screen, first open (projection from the log). */
  firstOpenFirstCellMs: number;
  /** Quick Open → the first artifact card drawn by the renderer, first open. */
  firstOpenFirstOutputMs: number;
  /** Quick Open → every cell projected and the canvas file saved, first open. */
  firstOpenAllCellsMs: number;
  /** Quick Open → first cell on screen when reopening the saved canvas. */
  reopenFirstCellMs: number;
  /** Quick Open → the first artifact card drawn, reopening. */
  reopenFirstOutputMs: number;
  /** Whether the reopen wrote the canvas file again (nothing had changed in the run). */
  reopenRewroteCanvas: boolean;
  /** Quick Open → the cell of a one-cell canvas on screen, right after: VS Code's own floor at that moment. */
  oneCellCanvasOpenMs?: number;
  /** Size of the saved canvas file. */
  canvasBytes: number;
  /**
   * CPU seconds VS Code's processes used for the first open (to every cell saved) and the reopen
   * (to the first card drawn), by part (server, extension host, the browser's renderer processes
   * — workbench and webviews —, other browser processes): less sensitive than wall time to the
   * other work on a shared machine. Linux only (from /proc).
   */
  firstOpenCpuSeconds?: Record<string, number>;
  reopenCpuSeconds?: Record<string, number>;
}

/** Medians over the repetitions, and each repetition. */
export interface NotebookOpenFigures extends Omit<NotebookOpenRep, 'firstOpenCpuSeconds' | 'reopenCpuSeconds'> {
  artifacts: number;
  events: number;
  repetitions: number;
  firstOpenCpuSeconds?: Record<string, number>;
  reopenCpuSeconds?: Record<string, number>;
  runs: NotebookOpenRep[];
}

/** Which part of VS Code a process is, from its command line. */
function roleOf(cmdline: string): string {
  if (/--type=extensionHost|extensionHostProcess|bootstrap-fork.*extensionHost/.test(cmdline)) return 'extensionHost';
  if (/--type=renderer/.test(cmdline)) return 'browserRenderers';
  if (/chrom/i.test(cmdline)) return 'browserOther';
  return 'server';
}

/**
 * CPU seconds (user + system) of the host in `runDir`, by part: the processes started with it
 * (found by its environment) and all their descendants (Chromium's zygote clears the environment).
 */
export function hostCpuSeconds(runDir: string): Record<string, number> | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  const role = new Map<number, string>();
  const roots = new Set<number>();
  for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const pid = Number(d);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(pid, Number(f[1]));
      cpu.set(pid, (Number(f[11]) + Number(f[12])) / 100);
      role.set(pid, roleOf(fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')));
      if (fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(runDir)) roots.add(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  const total: Record<string, number> = { all: 0 };
  for (const [pid, seconds] of cpu) {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) {
      if (roots.has(p)) {
        const r = role.get(pid)!;
        total[r] = (total[r] ?? 0) + seconds;
        total.all! += seconds;
        break;
      }
    }
  }
  return total;
}

/** CPU seconds used between two readings, by part, rounded. */
export function cpuBetween(
  a: Record<string, number> | undefined,
  b: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (!a || !b) return undefined;
  const out: Record<string, number> = {};
  for (const k of Object.keys(b)) out[k] = Math.round(((b[k] ?? 0) - (a[k] ?? 0)) * 100) / 100;
  return out;
}

export async function benchNotebookOpen(artifacts: number, repeat = 1): Promise<NotebookOpenFigures> {
  const ws = path.join(PROJECT_ROOT, 'test-results/bench-ui-notebook');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const run = await createRun(path.join(ws, 'big.run'), { objective: 'synthetic run for bench:ui', slug: 'big' });
  // a planned run: a cell per step (the lab-notebook layout)
  const events = syntheticRunEvents({ nodes: Math.ceil(artifacts * 1.37), runId: run.runId, steps: true }).filter(
    (e) => e.kind !== 'run.start',
  );
  for (let i = 0; i < events.length; i += 500) {
    await Promise.all(events.slice(i, i + 500).map((e) => run.log.append(e)));
  }
  const count = run.registry.artifacts().length;
  const logPath = path.join(run.dir, 'events.jsonl');
  await run.close();
  // one canvas per repetition, each opened for the first time once (projected from the log), then reopened
  const canvasOf = (r: number) => path.join(ws, `big${r}.dreams`);
  for (let r = 1; r <= repeat; r++) {
    fs.writeFileSync(
      path.join(ws, `one${r}.dreams`),
      JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text: `one-cell canvas ${r}` }] }) + '\n',
    );
    fs.writeFileSync(
      canvasOf(r),
      JSON.stringify({
        dreams: 1,
        run: { id: run.runId, log: path.relative(ws, logPath) },
        cells: [{ kind: 'objective', id: 'objective-1', text: 'synthetic run for bench:ui' }],
      }) + '\n',
    );
  }

  fs.writeFileSync(
    path.join(ws, 'warm.dreams'),
    JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text: 'warm-up' }] }) + '\n',
  );
  const host = await startVsCodeHost({ workspace: ws, extension: 'installed', label: 'bench-ui-notebook' });
  const reps: NotebookOpenRep[] = [];
  try {
    const { page } = host;
    const nb = visibleNotebook(page);
    // warm the extension host (activation is measured by bench:activation, not here)
    await quickOpen(page, 'warm.dreams');
    await nb.getByText('warm-up').waitFor({ timeout: 60_000 });
    const closeAll = async () => {
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+W'); // close all editors
      await page.waitForTimeout(1500);
    };
    /** Quick Open → the first step's cell on screen, → its first artifact card drawn by the renderer. */
    const open = async (name: string) => {
      const t0 = Date.now();
      await quickOpen(page, name);
      await nb.getByText(FIRST_CELL).first().waitFor({ timeout: 300_000 });
      const cell = Date.now() - t0;
      await notebookOutputFrame(page).locator('section.dreams-card.artifact').first().waitFor({ timeout: 300_000 });
      return { t0, cell, output: Date.now() - t0 };
    };
    for (let r = 1; r <= repeat; r++) {
      await closeAll();
      const canvas = canvasOf(r);
      let c0 = hostCpuSeconds(host.runDir);
      const first = await open(path.basename(canvas));
      let cells = 0;
      for (;;) {
        // every artifact's card is in the saved canvas, however cells group them (read again if caught mid-save)
        let saved: { cells: { outputs?: { mime: string; data: { cards?: unknown[] } }[] }[] } | undefined;
        try {
          saved = JSON.parse(fs.readFileSync(canvas, 'utf8'));
        } catch {
          saved = undefined;
        }
        const cards =
          saved?.cells.reduce(
            (n, c) =>
              n +
              (c.outputs ?? []).reduce(
                (m, o) =>
                  m +
                  (o.mime === 'application/vnd.dreams.artifact+json'
                    ? 1
                    : o.mime === 'application/vnd.dreams.artifacts+json'
                      ? (o.data.cards?.length ?? 0)
                      : 0),
                0,
              ),
            0,
          ) ?? 0;
        if (saved && cards >= count) {
          cells = saved.cells.length;
          break;
        }
        if (Date.now() - first.t0 > 600_000) throw new Error('the canvas never held every artifact cell');
        await new Promise((res) => setTimeout(res, 100));
      }
      const allCells = Date.now() - first.t0;
      const openCpu = cpuBetween(c0, hostCpuSeconds(host.runDir));
      await closeAll();
      const savedAt = fs.statSync(canvas).mtimeMs;
      c0 = hostCpuSeconds(host.runDir);
      const again = await open(path.basename(canvas));
      const reopenCpu = cpuBetween(c0, hostCpuSeconds(host.runDir));
      await page.waitForTimeout(1500); // a save after the reopen would have happened by now
      const reopenRewroteCanvas = fs.statSync(canvas).mtimeMs !== savedAt;
      // VS Code's own floor at this moment: Quick Open → the cell of a one-cell canvas on screen
      await closeAll();
      let oneCellCanvasOpenMs: number | undefined;
      try {
        const tw = Date.now();
        await quickOpen(page, `one${r}.dreams`);
        await nb.getByText(`one-cell canvas ${r}`).waitFor({ timeout: 30_000 });
        oneCellCanvasOpenMs = Date.now() - tw;
      } catch {
        console.log(`  (repetition ${r}: the one-cell canvas did not show in 30 s; no floor figure)`);
      }
      const rep: NotebookOpenRep = {
        cells,
        firstOpenFirstCellMs: first.cell,
        firstOpenFirstOutputMs: first.output,
        firstOpenAllCellsMs: allCells,
        reopenFirstCellMs: again.cell,
        reopenFirstOutputMs: again.output,
        reopenRewroteCanvas,
        ...(oneCellCanvasOpenMs !== undefined ? { oneCellCanvasOpenMs } : {}),
        canvasBytes: fs.statSync(canvas).size,
        ...(openCpu ? { firstOpenCpuSeconds: openCpu } : {}),
        ...(reopenCpu ? { reopenCpuSeconds: reopenCpu } : {}),
      };
      reps.push(rep);
      console.log(`  notebook repetition ${r}: ${JSON.stringify(rep)}`);
    }
  } finally {
    await host.stop();
  }
  const med = (f: (r: NotebookOpenRep) => number) => median(reps.map(f));
  return {
    artifacts: count,
    events: events.length + 1,
    cells: reps[0]!.cells,
    repetitions: reps.length,
    firstOpenFirstCellMs: med((r) => r.firstOpenFirstCellMs),
    firstOpenFirstOutputMs: med((r) => r.firstOpenFirstOutputMs),
    firstOpenAllCellsMs: med((r) => r.firstOpenAllCellsMs),
    reopenFirstCellMs: med((r) => r.reopenFirstCellMs),
    reopenFirstOutputMs: med((r) => r.reopenFirstOutputMs),
    reopenRewroteCanvas: reps.some((r) => r.reopenRewroteCanvas),
    ...(reps.some((r) => r.oneCellCanvasOpenMs !== undefined)
      ? { oneCellCanvasOpenMs: median(reps.flatMap((r) => (r.oneCellCanvasOpenMs !== undefined ? [r.oneCellCanvasOpenMs] : []))) }
      : {}),
    canvasBytes: reps[0]!.canvasBytes,
    ...(reps[0]!.firstOpenCpuSeconds ? { firstOpenCpuSeconds: medianRecord(reps.map((r) => r.firstOpenCpuSeconds!)) } : {}),
    ...(reps[0]!.reopenCpuSeconds ? { reopenCpuSeconds: medianRecord(reps.map((r) => r.reopenCpuSeconds!)) } : {}),
    runs: reps,
  };
}

/** One cold open: the first canvas opened in a fresh code-server window (new server, browser, profile). */
export interface ColdOpenRep {
  /** 'saved': a canvas saved earlier (cells from the file); 'log': a canvas holding only its objective (cells projected from the run log). */
  kind: 'saved' | 'log';
  /** Ctrl+P → the file listed in Quick Open (VS Code's file search, cold in a fresh window; not counted below). */
  quickOpenListMs: number;
  /** Enter in Quick Open → the extension's activate() returned (wall clock of the extension host). */
  activatedMs?: number;
  /** Enter → the notebook editor on screen. */
  editorMs: number;
  /** Enter → the first step's cell on screen. */
  firstCellMs: number;
  /** Enter → the output webview ready (VS Code's notebook webview, one per window). */
  webviewMs: number;
  /** Enter → the first artifact card drawn by our renderer. */
  firstOutputMs: number;
  cpuSeconds?: Record<string, number>;
}

export interface ColdOpenFigures {
  repetitions: number;
  /** Medians per kind, with min and max (the spread), and every repetition. */
  saved: Record<string, { median: number; min: number; max: number }>;
  log: Record<string, { median: number; min: number; max: number }>;
  runs: ColdOpenRep[];
}

/**
 * The first canvas opened in a fresh window, `repeat` times for each kind (alternating): a new
 * code-server, browser and user profile each time, nothing opened before, so the figure holds the
 * extension's activation, the notebook webview's creation and the renderers' first load.
 * Runs after benchNotebookOpen, whose saved canvas (big1.dreams) it copies.
 */
export async function benchColdOpen(repeat: number): Promise<ColdOpenFigures> {
  const ws = path.join(PROJECT_ROOT, 'test-results/bench-ui-notebook');
  const saved = path.join(ws, 'big1.dreams');
  if (!fs.existsSync(saved)) throw new Error('the cold open needs the saved canvas of the warm bench (big1.dreams)');
  const logCanvas = JSON.parse(fs.readFileSync(saved, 'utf8')) as { run: unknown };
  const runs: ColdOpenRep[] = [];
  for (let r = 1; r <= repeat; r++) {
    for (const kind of ['saved', 'log'] as const) {
      const name = `cold-${kind}-${r}.dreams`;
      if (kind === 'saved') fs.copyFileSync(saved, path.join(ws, name));
      else
        fs.writeFileSync(
          path.join(ws, name),
          JSON.stringify({
            dreams: 1,
            run: logCanvas.run,
            cells: [{ kind: 'objective', id: 'objective-1', text: 'synthetic run for bench:ui' }],
          }) + '\n',
        );
      const report = path.join(ws, `cold-activation-${kind}-${r}.json`);
      fs.rmSync(report, { force: true });
      const host = await startVsCodeHost({
        workspace: ws,
        extension: 'installed',
        label: `uic-${kind[0]}${r}`, // short: Chromium's socket path under it has a length limit
        env: { DREAMS_ACTIVATION_REPORT: report },
      });
      try {
        const { page } = host;
        const nb = visibleNotebook(page);
        await page.waitForTimeout(2000); // the window as a user first sees it: let start-up settle
        const c0 = hostCpuSeconds(host.runDir);
        const q0 = Date.now();
        await page.locator('.monaco-workbench .part.editor').waitFor();
        await page.keyboard.press('Control+P');
        await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
        await page.keyboard.type(name);
        // the file's row, clicked: Enter takes the focused row, which at load can still rank the letters typed so far
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
        await row.waitFor({ timeout: 60_000 });
        const t0 = Date.now();
        await row.click();
        await nb.waitFor({ timeout: 300_000 });
        const editorMs = Date.now() - t0;
        await nb.getByText(FIRST_CELL).first().waitFor({ timeout: 300_000 });
        const firstCellMs = Date.now() - t0;
        await nb.locator('iframe.webview.ready').first().waitFor({ state: 'attached', timeout: 300_000 });
        const webviewMs = Date.now() - t0;
        await notebookOutputFrame(page).locator('section.dreams-card.artifact').first().waitFor({ timeout: 300_000 });
        const firstOutputMs = Date.now() - t0;
        const cpu = cpuBetween(c0, hostCpuSeconds(host.runDir));
        let activatedMs: number | undefined;
        try {
          const a = JSON.parse(fs.readFileSync(report, 'utf8')) as { at: string };
          activatedMs = Date.parse(a.at) - t0;
        } catch {
          activatedMs = undefined; // activated before this sitting's report could be written, or not at all
        }
        const rep: ColdOpenRep = {
          kind,
          quickOpenListMs: t0 - q0,
          ...(activatedMs !== undefined ? { activatedMs } : {}),
          editorMs,
          firstCellMs,
          webviewMs,
          firstOutputMs,
          ...(cpu ? { cpuSeconds: cpu } : {}),
        };
        runs.push(rep);
        console.log(`  cold open ${r} (${kind}): ${JSON.stringify(rep)}`);
      } finally {
        await host.stop();
      }
    }
  }
  const stats = (kind: 'saved' | 'log') => {
    const of = runs.filter((x) => x.kind === kind);
    const out: Record<string, { median: number; min: number; max: number }> = {};
    for (const k of ['quickOpenListMs', 'activatedMs', 'editorMs', 'firstCellMs', 'webviewMs', 'firstOutputMs'] as const) {
      const xs = of.flatMap((x) => (x[k] !== undefined ? [x[k]!] : []));
      if (xs.length) out[k] = { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
    }
    return out;
  };
  return { repetitions: repeat, saved: stats('saved'), log: stats('log'), runs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const medianRecord = (xs: Record<string, number>[]) =>
  Object.fromEntries(Object.keys(xs[0]!).map((k) => [k, median(xs.map((x) => x[k] ?? 0))]));
