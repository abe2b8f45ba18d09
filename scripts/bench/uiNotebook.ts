/**
 * Notebook open time for bench:ui: a canvas over a run with N artifacts (written through
 * the real event log), opened from Quick Open in real VS Code (code-server). Measures the
 * first open, where every cell is projected from the log, and a reopen, where the cells
 * come from the saved canvas file and the projection finds nothing to change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRun } from '../../src/core/run/directory';
import { PROJECT_ROOT, startVsCodeHost } from '../../test/harness/vscodeHost';
import { quickOpen, visibleNotebook } from '../../test/harness/workbench';
import { syntheticRunEvents } from '../../test/harness/syntheticRun';

/** Text of the first step's cell (the structure step), on screen once the canvas is projected. */
const FIRST_CELL = 'Build the structure';

export interface NotebookOpenFigures {
  artifacts: number;
  events: number;
  /** Cells of the saved canvas (the projection decides how artifacts are grouped). */
  cells: number;
  /** Quick Open → the first projected cell on screen, first open (projection from the log). */
  firstOpenFirstCellMs: number;
  /** Quick Open → every cell projected and the canvas file saved, first open. */
  firstOpenAllCellsMs: number;
  /** Quick Open → first cell on screen when reopening the saved canvas. */
  reopenFirstCellMs: number;
  /**
   * CPU seconds VS Code's processes (server, extension host, browser) used for the first open
   * and the reopen, to the same points: less sensitive than wall time to the other work on a
   * shared machine. Linux only (from /proc).
   */
  firstOpenCpuSeconds?: number;
  reopenCpuSeconds?: number;
}

/**
 * CPU seconds (user + system) of the host in `runDir`: the processes started with it (found by
 * its environment) and all their descendants (Chromium's zygote clears the environment).
 */
function hostCpuSeconds(runDir: string): number | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  const roots = new Set<number>();
  for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const pid = Number(d);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(pid, Number(f[1]));
      cpu.set(pid, (Number(f[11]) + Number(f[12])) / 100);
      if (fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(runDir)) roots.add(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) {
      if (roots.has(p)) {
        total += seconds;
        break;
      }
    }
  }
  return Math.round(total * 100) / 100;
}

export async function benchNotebookOpen(artifacts: number): Promise<NotebookOpenFigures> {
  const ws = path.join(PROJECT_ROOT, 'test-results/bench-ui-notebook');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const run = await createRun(path.join(ws, 'big.run'), { objective: 'synthetic run for bench:ui', slug: 'big' });
  // a planned run: a cell per step (the lab-notebook layout)
  const events = syntheticRunEvents({ nodes: Math.ceil(artifacts * 1.37), runId: run.runId, steps: true }).filter((e) => e.kind !== 'run.start');
  let count = 0;
  for (let i = 0; i < events.length; i += 500) {
    await Promise.all(events.slice(i, i + 500).map((e) => run.log.append(e)));
  }
  count = run.registry.artifacts().length;
  const logPath = path.join(run.dir, 'events.jsonl');
  await run.close();
  const canvas = path.join(ws, 'big.dreams');
  fs.writeFileSync(canvas, JSON.stringify({ dreams: 1, run: { id: run.runId, log: path.relative(ws, logPath) }, cells: [{ kind: 'objective', id: 'objective-1', text: 'synthetic run for bench:ui' }] }) + '\n');

  fs.writeFileSync(path.join(ws, 'warm.dreams'), JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text: 'warm-up' }] }) + '\n');
  const host = await startVsCodeHost({ workspace: ws, extension: 'installed', label: 'bench-ui-notebook' });
  try {
    const { page } = host;
    const nb = visibleNotebook(page);
    // warm the extension host (activation is measured by bench:activation, not here)
    await quickOpen(page, 'warm.dreams');
    await nb.getByText('warm-up').waitFor({ timeout: 60_000 });

    let c0 = hostCpuSeconds(host.runDir);
    let t0 = Date.now();
    await quickOpen(page, 'big.dreams');
    await nb.getByText(FIRST_CELL).first().waitFor({ timeout: 300_000 });
    const firstOpenFirstCellMs = Date.now() - t0;
    let cells = 0;
    for (;;) {
      // every artifact's card is in the saved canvas, however cells group them (read again if caught mid-save)
      let saved: { cells: { outputs?: { mime: string; data: { cards?: unknown[] } }[] }[] } | undefined;
      try {
        saved = JSON.parse(fs.readFileSync(canvas, 'utf8'));
      } catch {
        saved = undefined;
      }
      const cards = saved?.cells.reduce((n, c) => n + (c.outputs ?? []).reduce((m, o) => m + (o.mime === 'application/vnd.dreams.artifact+json' ? 1 : o.mime === 'application/vnd.dreams.artifacts+json' ? o.data.cards?.length ?? 0 : 0), 0), 0) ?? 0;
      if (saved && cards >= count) {
        cells = saved.cells.length;
        break;
      }
      if (Date.now() - t0 > 600_000) throw new Error('the canvas never held every artifact cell');
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstOpenAllCellsMs = Date.now() - t0;
    const c1 = hostCpuSeconds(host.runDir);
    const firstOpenCpuSeconds = c0 !== undefined && c1 !== undefined ? Math.round((c1 - c0) * 100) / 100 : undefined;
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+W'); // close all editors
    await page.waitForTimeout(1000);
    c0 = hostCpuSeconds(host.runDir);
    t0 = Date.now();
    await quickOpen(page, 'big.dreams');
    await nb.getByText(FIRST_CELL).first().waitFor({ timeout: 300_000 });
    const reopenFirstCellMs = Date.now() - t0;
    const c2 = hostCpuSeconds(host.runDir);
    const reopenCpuSeconds = c0 !== undefined && c2 !== undefined ? Math.round((c2 - c0) * 100) / 100 : undefined;
    return { artifacts: count, events: events.length + 1, cells, firstOpenFirstCellMs, firstOpenAllCellsMs, reopenFirstCellMs,
      ...(firstOpenCpuSeconds !== undefined ? { firstOpenCpuSeconds } : {}), ...(reopenCpuSeconds !== undefined ? { reopenCpuSeconds } : {}) };
  } finally {
    await host.stop();
  }
}
