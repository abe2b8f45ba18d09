// The folds more than one host needs (run progress, jobs, approvals, report verdicts) live once
// in core; the extension and the CLI read them and keep no copy that could drift.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const sources = (dir: string): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'));

/**
 * Kinds only a core fold reads: jobs (hpc/jobStore.ts), usage (run/progress.ts), how approvals
 * end (guard/approvals.ts), report verdicts (guard/reportVerdicts.ts). A request and its answer
 * are also announced as they happen (the CLI's scrollback), so those two kinds are not listed.
 */
const FOLDED_IN_CORE = ['job.progress', 'llm.usage', 'approval.proceeded', 'approval.closed', 'report.judged'];
/** The provenance graph projects events into nodes, one per event: not a fold of these kinds (the notebook's cells are core's, report/canvasProjection.ts). */
const PROJECTIONS = new Set(['src/extension/provenance/graphModel.ts']);

describe('folds shared by the hosts', () => {
  it("the extension and the CLI read job progress, usage, approvals' ends and report verdicts only through the core's folds", () => {
    for (const f of PROJECTIONS) assert.ok(fs.existsSync(path.join(root, f)), `${f} exists`);
    const offenders = [...sources('src/extension'), ...sources('src/cli')]
      .filter((f) => !PROJECTIONS.has(f))
      .flatMap((f) =>
        FOLDED_IN_CORE.filter((k) => fs.readFileSync(path.join(root, f), 'utf8').includes(`'${k}'`)).map(
          (k) => `${f} reads '${k}' events itself`,
        ),
      );
    assert.deepEqual(offenders, []);
  });
});
