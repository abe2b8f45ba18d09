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

export interface NotebookOpenFigures {
  artifacts: number;
  events: number;
  /** Quick Open → the first projected cell on screen, first open (projection from the log). */
  firstOpenFirstCellMs: number;
  /** Quick Open → every cell projected and the canvas file saved, first open. */
  firstOpenAllCellsMs: number;
  /** Quick Open → first cell on screen when reopening the saved canvas. */
  reopenFirstCellMs: number;
}

export async function benchNotebookOpen(artifacts: number): Promise<NotebookOpenFigures> {
  const ws = path.join(PROJECT_ROOT, 'test-results/bench-ui-notebook');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const run = await createRun(path.join(ws, 'big.run'), { objective: 'synthetic run for bench:ui', slug: 'big' });
  const events = syntheticRunEvents({ nodes: Math.ceil(artifacts * 1.37), runId: run.runId }).filter((e) => e.kind !== 'run.start');
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

    let t0 = Date.now();
    await quickOpen(page, 'big.dreams');
    await nb.getByText('structure (structure)').first().waitFor({ timeout: 300_000 });
    const firstOpenFirstCellMs = Date.now() - t0;
    for (;;) {
      const text = fs.readFileSync(canvas, 'utf8');
      if ((text.match(/"kind": "artifact"/g) ?? []).length >= count) break;
      if (Date.now() - t0 > 600_000) throw new Error('the canvas never held every artifact cell');
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstOpenAllCellsMs = Date.now() - t0;
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+W'); // close all editors
    await page.waitForTimeout(1000);
    t0 = Date.now();
    await quickOpen(page, 'big.dreams');
    await nb.getByText('structure (structure)').first().waitFor({ timeout: 300_000 });
    const reopenFirstCellMs = Date.now() - t0;
    return { artifacts: count, events: events.length + 1, firstOpenFirstCellMs, firstOpenAllCellsMs, reopenFirstCellMs };
  } finally {
    await host.stop();
  }
}
