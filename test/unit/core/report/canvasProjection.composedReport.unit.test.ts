import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCanvasFile } from '../../../../src/core/canvas/canvasFile';
import { logHealth } from '../../../../src/core/canvas/recoveryReport';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { logWarningOf } from '../../../../src/core/report/logWarning';
import { renderRunReport } from '../../../../src/core/report/runReport';
import { openRun, openRunLog } from '../../../../src/core/run/directory';
import { writeRunOutputs } from '../../../../src/core/run/outputs';
import { CANVAS_MIME, type ReportData } from '../../../../src/shared/canvasOutputs';
import { completedLatticeRun } from '../../../harness/completedLatticeRun';

const reportOf = (cells: { id: string; outputs?: { mime: string; data: unknown }[] }[]) =>
  cells.find((c) => c.id === 'report')?.outputs?.find((o) => o.mime === CANVAS_MIME.report)?.data as ReportData | undefined;

describe("the canvas's report cell: the run's report in full", () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-report-cell-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("holds report.md as the CLI writes it, with its E(V) plot's SVG, in VS Code's projection and in canvas.dreams alike", async () => {
    const { run, lattice } = await completedLatticeRun(root);
    const out = await writeRunOutputs(run, { bundle: false });
    const reportMd = fs.readFileSync(out.report, 'utf8');
    const eosSvg = fs.readFileSync(path.join(run.dir, 'plots', 'eos.svg'), 'utf8');
    assert.match(reportMd, /!\[E\(V\)\]\(plots\/eos\.svg\)/, 'report.md shows the E(V) plot');

    // what the notebook projects from the log (as liveCanvas does: files read below the run directory)
    const p = new CanvasProjection({ readFile: (l) => fs.readFileSync(path.join(run.dir, l), 'utf8') });
    p.applyAll(run.log.events());
    const live = reportOf(p.cells())!;
    assert.equal(live.markdown + '\n', reportMd, 'the report cell is report.md');
    assert.deepEqual(Object.keys(live.images ?? {}), ['plots/eos.svg']);
    assert.equal(live.images!['plots/eos.svg'], eosSvg, 'the plot report.md shows, as its SVG');
    assert.equal(live.composed, true);
    assert.deepEqual(
      live.claims?.map((c) => c.artifact),
      [lattice],
    );
    // the report's own text, the judge's verdict, the claims table and the E(V) table are all in it
    assert.match(live.markdown, /The equilibrium lattice constant is \*\*\d\.\d{4} Å\*\*/);
    assert.match(live.markdown, /## Report a-\d+: accepted by the report judge/);
    assert.match(live.markdown, new RegExp(`\\| lattice_constant \\| \\d\\.\\d+ Å \\| ${lattice} \\|`));
    assert.match(live.markdown, /\| V \(Å³\) \| E \(eV\) \|/);

    // canvas.dreams, written by the CLI from the same projection, carries the same report cell
    const saved = reportOf(parseCanvasFile(fs.readFileSync(out.notebook, 'utf8')).cells)!;
    assert.deepEqual(saved, live);
    await run.close();
  });

  it('shows a report written but not yet judged with its text and claims, marked not yet judged', async () => {
    const { run } = await completedLatticeRun(root);
    const events = run.log.events();
    const beforeJudge = events.slice(
      0,
      events.findIndex((e) => e.kind === 'report.judged'),
    );
    const rendered = renderRunReport({
      runId: run.runId,
      events: beforeJudge,
      artifacts: () => run.registry.artifacts(),
      calls: () => run.registry.calls(),
      readFile: (l) => fs.readFileSync(path.join(run.dir, l), 'utf8'),
    });
    assert.match(rendered.markdown, /## Report a-\d+: not yet judged/);
    assert.match(rendered.markdown, /The equilibrium lattice constant is/);
    assert.match(rendered.markdown, /\| lattice_constant \| \d\.\d+ Å \| a-\d+ \| not yet checked \|/);
    await run.close();
  });

  it('says what is wrong with a damaged log at the top of the summary and of the report, with the line and what to do', async () => {
    const { run } = await completedLatticeRun(root);
    await run.close();
    const logPath = path.join(run.dir, 'events.jsonl');
    // one flipped byte in the last line (the run's end): every event before it is read
    const bytes = fs.readFileSync(logPath);
    const lines = bytes.toString('utf8').split('\n').filter(Boolean);
    const lastLine = lines.length;
    const at = bytes.length - 20;
    bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    fs.writeFileSync(logPath, bytes);
    const before = fs.readFileSync(logPath);
    const { log, recovery } = await openRunLog(logPath, { mode: 'reader' });
    const health = logHealth(recovery, logPath);
    const warning = logWarningOf(health, run.dir);
    assert.ok(warning, 'a damaged log gets a warning');
    assert.match(warning, new RegExp(`events\\.jsonl is damaged at line ${lastLine} \\(byte \\d+, [a-z-]+\\): `));
    assert.match(warning, new RegExp(`shows the run up to line ${lastLine} only`));
    assert.match(warning, /--cut-damaged/);

    const p = new CanvasProjection({ readFile: (l) => fs.readFileSync(path.join(run.dir, l), 'utf8') });
    p.applyAll(log.events());
    assert.deepEqual(p.setLogWarning(warning).sort(), ['report', 'summary']);
    const summary = p.cell('summary')!.text.split('\n');
    assert.equal(summary[0], `### Run ${run.runId}`);
    assert.match(summary[2]!, new RegExp(`^> \\*\\*⚠\\*\\* .*damaged at line ${lastLine}`), 'the warning opens the summary');
    assert.match(reportOf(p.cells())!.markdown, new RegExp(`^> \\*\\*.*damaged at line ${lastLine}`), 'and the report');
    assert.deepEqual(p.setLogWarning(undefined).sort(), ['report', 'summary']);
    assert.doesNotMatch(p.cell('summary')!.text, /damaged/);
    await log.close();
    assert.ok(fs.readFileSync(logPath).equals(before), 'reading the damaged log changed nothing');
  });

  it('names a torn last line no process will finish, and says that resuming cuts it', async () => {
    const { run } = await completedLatticeRun(root);
    await run.close();
    const logPath = path.join(run.dir, 'events.jsonl');
    const lines = fs.readFileSync(logPath, 'utf8').split('\n').filter(Boolean).length;
    fs.appendFileSync(logPath, '{"v":1,"seq":99,"kind":"run.st');
    const reader = await openRun(run.dir, { mode: 'reader' });
    const warning = logWarningOf(logHealth(reader.recovery, logPath), run.dir);
    assert.match(warning ?? '', new RegExp(`ends in a torn line: line ${lines + 1} `));
    assert.match(warning ?? '', /`dreams resume ".*"` copies the log aside, cuts the torn line/);
    await reader.close();
    assert.equal(logWarningOf(logHealth({ eventsRead: 3 }, logPath), run.dir), undefined, 'a whole log gets no warning');
  });
});
