/**
 * The files a finished (or stopped) run leaves next to its event log: report.md with
 * plots/*.svg, the canvas.dreams notebook that opens the run in VS Code, and a
 * reproducibility bundle. Rewritable at any time from the log (`dreams report`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Run } from './directory';
import { CANVAS_FILE_FORMAT, parseCanvasFile, serializeCanvasFile, type CanvasFile } from '../canvas/canvasFile';
import { EVENT_LOG_FILE } from './directory';
import { writeBundle, type BundleManifest } from '../provenance/bundle';
import { CanvasProjection, PROJECTED_KINDS } from '../report/canvasProjection';
import { renderRunReport } from '../report/runReport';

export interface RunOutputs {
  report: string;
  plots: string[];
  notebook: string;
  bundle?: string;
  bundleProblems: string[];
}

/**
 * The notebook links the run's log; VS Code projects the log's events into cells when it
 * opens the file (and keeps them live while the run goes on). `writeRunOutputs` writes the
 * same projection's cells into it, so the file reads as the notebook before it is opened.
 */
export function notebookFor(run: Pick<Run, 'runId'>, objective: string): CanvasFile {
  return {
    dreams: CANVAS_FILE_FORMAT,
    run: { id: run.runId, log: EVENT_LOG_FILE },
    cells: [{ kind: 'objective', id: 'objective-1', text: objective }],
  };
}

/**
 * `notice`: a sentence report.md opens with (the log it was written from is damaged), so a
 * reader of the file later sees it too.
 */
export async function writeRunOutputs(
  run: Run,
  opts: { bundle?: boolean; pseudoDirs?: string[]; notice?: string } = {},
): Promise<RunOutputs> {
  const events = run.log.events();
  const rendered = renderRunReport({
    runId: run.runId,
    events,
    artifacts: () => run.registry.artifacts(),
    calls: () => run.registry.calls(),
    readFile: (location) => {
      const file = path.resolve(run.dir, location);
      return file.startsWith(path.resolve(run.dir) + path.sep) && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    },
  });
  const plotsDir = path.join(run.dir, 'plots');
  fs.mkdirSync(plotsDir, { recursive: true });
  const plots = Object.entries(rendered.plots).map(([name, svg]) => {
    const file = path.join(plotsDir, name);
    fs.writeFileSync(file, svg);
    return file;
  });
  const report = path.join(run.dir, 'report.md');
  fs.writeFileSync(report, (opts.notice ? `> **${opts.notice}**\n\n` : '') + rendered.markdown + '\n');
  const notebook = path.join(run.dir, 'canvas.dreams');
  const objective = events.find((e) => e.kind === 'run.start')?.payload.objective ?? '';
  const projected = projectedNotebook(run, objective, events, notebook, opts.notice);
  if (projected) fs.writeFileSync(notebook, serializeCanvasFile(projected));
  const out: RunOutputs = { report, plots, notebook, bundleProblems: [] };
  if (opts.bundle !== false) {
    const dir = path.join(run.dir, 'bundle');
    fs.rmSync(dir, { recursive: true, force: true });
    const manifest: BundleManifest = await writeBundle(run, dir, { ...(opts.pseudoDirs ? { pseudoDirs: opts.pseudoDirs } : {}) });
    out.bundle = dir;
    out.bundleProblems = manifest.problems;
  }
  return out;
}

/**
 * canvas.dreams with the projection's cells (the lab-notebook layout VS Code shows): the cells a
 * user wrote in an earlier copy (objective, Markdown) are kept, first and in their order, the
 * projected ones replaced; a copy that is not a canvas is left alone (undefined).
 */
function projectedNotebook(
  run: Run,
  objective: string,
  events: ReturnType<Run['log']['events']>,
  file: string,
  notice?: string,
): CanvasFile | undefined {
  let base = notebookFor(run, objective);
  if (fs.existsSync(file)) {
    try {
      base = { ...parseCanvasFile(fs.readFileSync(file, 'utf8')), run: base.run! };
    } catch {
      return undefined; // someone's broken or foreign file: not written over
    }
  }
  const projection = new CanvasProjection({
    readFile: (location) => {
      const f = path.resolve(run.dir, location);
      return f.startsWith(path.resolve(run.dir) + path.sep) && fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined;
    },
  });
  projection.applyAll(events);
  // the notice report.md opens with (a damaged log) heads the summary and the report cell, as in VS Code
  if (notice) projection.setLogWarning(notice);
  const own = base.cells.filter((c) => !PROJECTED_KINDS.has(c.kind));
  return { ...base, lastSeq: projection.lastSeq, cells: [...own, ...projection.cells()] };
}
