// The everyday plots in the canvas notebook of completed runs, in the workbench (code-server,
// Chromium): the band structure and the DOS/PDOS of diamond Si from real offline runs (pw.x,
// bands.x, dos.x and projwfc.x at toy settings through the built `dreams` command, ~15 s), and
// the relaxation trajectory and magnetization table of the run test/harness/everydayRun.ts writes
// from the recorded Si relax and bcc Fe SCF. Each canvas is opened from Quick Open, scrolled to
// the step cell that made the result, and its output checked in the notebook's output webview
// against the run's own artifacts; no page error and no CSP refusal may occur in any frame.
// Screenshots: test-results/screenshots/e2e-notebook-*.png. Cost: ~15 s of QE, one code-server
// start, three canvases opened; about 1–2 min in all.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import type { BandGapValue } from '../../src/core/artifacts/electronic';
import type { BandStructurePlotData, DosPlotData } from '../../src/shared/electronicStructure';
import type { MagnetizationTableData, RelaxationTrajectoryPlotData } from '../../src/shared/relaxationAndMagnetism';
import { writeEverydayRun } from '../harness/everydayRun';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, runCommand, scrollNotebookTo, visibleNotebook } from '../harness/workbench';

const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

/** What a run's log says: its artifacts by name, and the plan step that made each. */
interface RunFacts {
  artifact(name: string): ArtifactRecord;
  stepTitleOf(a: ArtifactRecord): string;
}

function runFacts(logPath: string): RunFacts {
  const events = fs
    .readFileSync(logPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; key?: string; payload: unknown });
  const artifacts = events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const calls = new Map(
    events.filter((e) => e.kind === 'provenance.call').map((e) => [(e.payload as ToolCallRecord).id, e.payload as ToolCallRecord]),
  );
  const plan = events.filter((e) => e.kind === 'key.write' && e.key === 'plan').at(-1)?.payload as
    | { value: { steps: { id: string; title: string }[] } }
    | undefined;
  return {
    artifact(name) {
      const a = artifacts.filter((x) => x.name === name).at(-1);
      assert.ok(a, `the run has a ${name} artifact`);
      return a;
    },
    stepTitleOf(a) {
      const step = calls.get(a.creator)?.step;
      const title = plan?.value.steps.find((s) => s.id === step)?.title;
      assert.ok(title, `the plan has the step of ${a.id} (${step})`);
      return title;
    },
  };
}

/** An offline study through the built CLI in `workspace`; its canvas renamed `<name>.dreams` (Quick Open finds it by name). */
function runStudy(workspace: string, name: string, yaml: string[]): { canvas: string; logPath: string } {
  fs.writeFileSync(path.join(workspace, `${name}.yaml`), [...yaml, ''].join('\n'));
  const runs = path.join(workspace, `${name}.runs`);
  const r = spawnSync(
    process.execPath,
    [path.join(PROJECT_ROOT, 'dist/cli.js'), 'run', `${name}.yaml`, '--offline', '--runs-dir', runs, '--pseudo-dir', PSEUDO_DIR],
    {
      cwd: workspace,
      encoding: 'utf8',
      env: { ...process.env, ANTHROPIC_API_KEY: '', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' },
    },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /COMPLETED/);
  const runDir = path.join(runs, fs.readdirSync(runs)[0]!);
  const canvas = path.join(runDir, `${name}.dreams`);
  fs.renameSync(path.join(runDir, 'canvas.dreams'), canvas);
  return { canvas, logPath: path.join(runDir, 'events.jsonl') };
}

/** The first line of a step's cell ("Step 8 of 10: <title> — done") as its editor shows it: spaces may be drawn as no-break spaces. */
const titlePattern = (title: string) =>
  new RegExp(`Step\\s\\d+\\sof\\s\\d+:\\s${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}`);

/** The text of the cell of the step titled `title` (the cell's row holds its outputs too, and may be taller than the window). */
const stepText = (page: Page, title: string) =>
  visibleNotebook(page)
    .locator('.monaco-list-row .view-lines')
    .filter({ hasText: titlePattern(title) })
    .first();

/** Open a canvas alone, scroll to the cell of the step titled `title`, then to `card` in its output. */
async function showStepOutput(page: Page, canvas: string, title: string, card: (out: FrameLocator) => Locator): Promise<Locator> {
  await runCommand(page, 'View: Close All Editors');
  await quickOpen(page, path.basename(canvas));
  await visibleNotebook(page).locator('.cell-list-container').waitFor({ timeout: 60_000 });
  await scrollNotebookTo(page, stepText(page, title));
  const target = card(notebookOutputFrame(page));
  await target.waitFor({ timeout: 60_000 });
  await scrollNotebookTo(page, target);
  return target;
}

/** The numbers in a text ("indirect gap 0.579 eV" → [0.579]). */
const numbersIn = (text: string) => [...text.matchAll(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)].map((m) => Number(m[0]));

describe('band structure, DOS, relaxation and magnetization in the canvas notebooks of completed runs (e2e)', function () {
  this.timeout(600_000);
  let host: VsCodeHost;
  let bands: { canvas: string; facts: RunFacts };
  let dos: { canvas: string; facts: RunFacts };
  let everyday: { canvas: string; facts: RunFacts };
  /** Page errors and CSP refusals from any frame: the workbench's, the webviews', the outputs'. */
  const problems: string[] = [];
  /** Resources the workbench or a webview asked for and did not get. */
  const failedLoads: string[] = [];
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-notebook-plots');

  before(async () => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.mkdirSync(workspace, { recursive: true });
    const study = (workflow: string, objective: string, extra: string[]) => [
      `workflow: ${workflow}`,
      `objective: ${objective}`,
      'inputs:',
      '  element: Si',
      '  functional: PBE',
      '  pseudopotentials: { Si: Si.pbe-rrkj.UPF }',
      '  ecutwfcRy: 12',
      '  kSpacingPerAngstrom: 0.4',
      ...extra,
    ];
    const b = runStudy(workspace, 'si-bands', study('band-structure', 'band structure of Si with PBE', ['  pointsPerInverseAngstrom: 10']));
    const d = runStudy(workspace, 'si-dos', study('dos', 'density of states of Si with PBE', ['  dosMeshFactor: 2', '  deltaEEv: 0.1']));
    const e = await writeEverydayRun(workspace, 'relax-and-moments');
    bands = { canvas: b.canvas, facts: runFacts(b.logPath) };
    dos = { canvas: d.canvas, facts: runFacts(d.logPath) };
    everyday = { canvas: e.canvas, facts: runFacts(e.logPath) };
    host = await startVsCodeHost({
      workspace,
      extension: 'installed',
      label: 'e2e-notebook-plots',
      viewport: { width: 1500, height: 1000 },
      // the notebook's output webview under VS Code's own CSP for notebooks (off by default in 1.100),
      // so a renderer that needs more than it allows is refused, and the refusal seen below
      settings: { 'dreams.provider': 'offline', 'notebook.experimental.enableCsp': true },
    });
    host.page.on('response', (r) => {
      if (r.status() >= 400) failedLoads.push(`${r.status()} ${r.url()}`);
    });
    host.page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    host.page.on('console', (m) => {
      if (/Refused to|Content Security Policy|dreams-watch/.test(m.text())) problems.push(`${m.type()}: ${m.text()} (${m.location().url})`);
    });
    // every frame made from now on (the notebook's output webview and its inner frame) reports what its CSP refuses
    await host.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`dreams-watch: CSP refused ${e.blockedURI || 'inline'} (${e.violatedDirective}) in ${location.href}`),
      );
    });
  });
  after(async () => host?.stop());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await host?.screenshot(`e2e-failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  it('draws the band structure in the bands.x step: a line per band, the path labels, and the gap band_gap found, at its edges', async () => {
    const bs = bands.facts.artifact('band_structure');
    const gapArtifact = bands.facts.artifact('band_gap');
    const v = bs.value as BandStructurePlotData;
    const gap = gapArtifact.value as BandGapValue;
    const card = await showStepOutput(host.page, bands.canvas, bands.facts.stepTitleOf(bs), (out) =>
      out.locator(`[data-plot="band-structure"]`).filter({ hasText: `(${bs.id})` }),
    );
    assert.equal(await card.locator('svg path.band').count(), v.bandsEv.length, 'one line per band of the artifact');
    const labels = await card.locator('svg text').allTextContents();
    for (const t of v.ticks) assert.ok(labels.includes(t.label), `${t.label} among ${labels.join(',')}`);
    // the gap annotation: the words and the number band_gap recorded, and the two edges
    const legend = await card.locator('.legend').innerText();
    const said = new RegExp(`${gap.direct ? 'direct' : 'indirect'} gap (\\S+) eV`).exec(legend);
    assert.ok(said, `"${gap.direct ? 'direct' : 'indirect'} gap … eV" in "${legend}"`);
    assert.ok(Math.abs(Number(said[1]) - gap.gapEv) < 5e-4, `the legend's gap ${said[1]} eV is band_gap's ${gap.gapEv} eV`);
    const edges = await card.locator('svg circle').evaluateAll((cs) =>
      cs.map((c) => ({
        title: c.querySelector('title')?.textContent ?? '',
        cx: Number(c.getAttribute('cx')),
        cy: Number(c.getAttribute('cy')),
      })),
    );
    assert.deepEqual(
      edges.map((e) => e.title.split(' ')[0]),
      ['VBM', 'CBM'],
    );
    // each edge where band_gap put it along the path (x from 0 to the path's end over the plot's width)
    const width = Number(await card.locator('svg').getAttribute('width')) - 72 - 20;
    const xEnd = Math.max(...v.x);
    for (const [edge, at] of [
      [edges[0]!, gap.vbm],
      [edges[1]!, gap.cbm],
    ] as const) {
      assert.ok(
        Math.abs(edge.cx - (at.x / xEnd) * width) < 1,
        `${edge.title} at x ${edge.cx}, band_gap says ${at.x} of ${xEnd} (${at.location})`,
      );
      assert.ok(Math.abs(numbersIn(edge.title)[0]! - at.energyEv) < 5e-4, `${edge.title} against ${at.energyEv} eV`);
    }
    assert.ok(edges[1]!.cy < edges[0]!.cy, 'the conduction minimum is drawn above the valence maximum');
    await host.screenshot('e2e-notebook-band-structure');
    // the step's record is DREAMS's own text: none of its characters (the en dashes of "Γ–X–W…") is boxed as an
    // ambiguous character (the editor finds them in a worker, so a while is given for a box to appear)
    const boxed = visibleNotebook(host.page)
      .locator('.monaco-list-row', { has: host.page.locator('.view-lines', { hasText: titlePattern(bands.facts.stepTitleOf(bs)) }) })
      .locator('.unicode-highlight');
    const appeared = await boxed
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    assert.equal(appeared, false, `${await boxed.count()} characters of the bands.x step's record boxed as ambiguous`);
  });

  it("draws the total DOS in the dos.x step and the PDOS in the projwfc.x step: a curve each, the legend, E_F, both from the band structure's zero", async () => {
    const total = dos.facts.artifact('dos');
    const pdos = dos.facts.artifact('pdos');
    const tv = total.value as DosPlotData;
    const pv = pdos.value as DosPlotData;
    // Si is an insulator: its DOS, PDOS and bands are drawn from one zero, the valence-band maximum (not E_F, which a
    // tetrahedra run puts in the gap); the two runs' SCFs have the same settings, so the same VBM to the meV
    const bandZero = (bands.facts.artifact('band_structure').value as BandStructurePlotData).reference;
    for (const v of [tv, pv]) {
      assert.equal(v.reference?.kind, 'vbm');
      assert.ok(
        Math.abs(v.reference.energyEv - bandZero.energyEv) < 1e-3,
        `DOS zero ${v.reference.energyEv} eV, bands' ${bandZero.energyEv} eV`,
      );
    }
    const zeroSaid = (text: string) => Number(/zero at the valence-band maximum, E_VBM = (\S+) eV/.exec(text)?.[1]);
    const totalCard = await showStepOutput(host.page, dos.canvas, dos.facts.stepTitleOf(total), (out) =>
      out.locator('[data-plot="dos"]').filter({ hasText: `(${total.id})` }),
    );
    assert.equal(await totalCard.locator('svg path.dos-curve').count(), 1 + (tv.projections?.length ?? 0));
    const ef = /E_F = (\S+) eV/.exec(await totalCard.locator('.legend').innerText());
    assert.ok(ef && Math.abs(Number(ef[1]) - tv.fermiEnergyEv!) < 5e-4, `E_F ${ef?.[1]} against dos's ${tv.fermiEnergyEv} eV`);
    const totalLegend = await totalCard.locator('.legend').innerText();
    assert.ok(Math.abs(zeroSaid(totalLegend) - tv.reference!.energyEv) < 5e-4, totalLegend);
    assert.ok((await totalCard.locator('svg text').allTextContents()).includes('E − E_VBM (eV)'), 'the energy axis says its zero');
    await host.screenshot('e2e-notebook-dos');

    const out = notebookOutputFrame(host.page);
    await scrollNotebookTo(host.page, stepText(host.page, dos.facts.stepTitleOf(pdos)));
    const pdosCard = out.locator('[data-plot="dos"]').filter({ hasText: `(${pdos.id})` });
    await pdosCard.waitFor({ timeout: 60_000 });
    await scrollNotebookTo(host.page, pdosCard);
    assert.ok(pv.projections?.length, 'the pdos artifact has projections');
    assert.equal(await pdosCard.locator('svg path.dos-curve').count(), 1 + pv.projections.length, 'the total and one curve per projection');
    const legend = await pdosCard.locator('svg text').allTextContents();
    for (const p of pv.projections) assert.ok(legend.includes(`PDOS ${p.label}`), `PDOS ${p.label} in ${legend.join(',')}`);
    const pdosLegend = await pdosCard.locator('.legend').innerText();
    assert.ok(Math.abs(zeroSaid(pdosLegend) - pv.reference!.energyEv) < 5e-4, pdosLegend);
    // each legend entry is written in its curve's colour, so s and p can be told apart
    const colours = await pdosCard.locator('svg').evaluate((svg) => ({
      curves: [...svg.querySelectorAll('path.dos-curve')].map((p) => getComputedStyle(p).stroke),
      legend: [...svg.querySelectorAll('text')]
        .filter((t) => t.textContent === 'total' || t.textContent?.startsWith('PDOS '))
        .map((t) => getComputedStyle(t).fill),
    }));
    assert.deepEqual(colours.legend, colours.curves, 'the legend entries in the colours of their curves');
    await host.screenshot('e2e-notebook-pdos');
  });

  it('draws the relaxation trajectory with a point per geometry, and the magnetization table with a row per site', async () => {
    const relax = everyday.facts.artifact('relaxation');
    const rv = relax.value as RelaxationTrajectoryPlotData;
    const card = await showStepOutput(host.page, everyday.canvas, everyday.facts.stepTitleOf(relax), (out) =>
      out.locator('[data-plot="relaxation"]').filter({ hasText: `(${relax.id})` }),
    );
    assert.equal(await card.locator('svg circle.relax-energy-point').count(), rv.steps.filter((s) => s.energyEv !== undefined).length);
    assert.equal(await card.locator('svg circle.relax-energy-point').count(), rv.steps.length, 'one energy point per geometry');
    assert.equal(await card.locator('svg circle.relax-force-point').count(), rv.steps.length, 'one force point per geometry');
    const text = await card.innerText();
    assert.ok(text.includes(`${rv.steps.length} geometries`), text);
    assert.ok(text.includes(rv.converged ? 'converged' : 'not converged'), text);
    // the threshold's label is clear of the force points (the last ones lie on the threshold, at the right)
    const clash = await card.locator('svg').evaluate((svg) => {
      const label = [...svg.querySelectorAll('text')].find((t) => t.textContent?.startsWith('forc_conv_thr'))!.getBoundingClientRect();
      return [...svg.querySelectorAll('circle.relax-force-point')]
        .map((c, i) => ({ i: i + 1, r: c.getBoundingClientRect() }))
        .filter(({ r }) => r.right > label.left && r.left < label.right && r.bottom > label.top && r.top < label.bottom)
        .map(({ i }) => i);
    });
    assert.deepEqual(clash, [], 'force points under the forc_conv_thr label');
    await host.screenshot('e2e-notebook-relaxation');

    const mag = everyday.facts.artifact('magnetization');
    const mv = mag.value as MagnetizationTableData;
    await scrollNotebookTo(host.page, stepText(host.page, everyday.facts.stepTitleOf(mag)));
    const table = notebookOutputFrame(host.page)
      .locator('[data-plot="magnetization"]')
      .filter({ hasText: `(${mag.id})` })
      .locator('table');
    await table.waitFor({ timeout: 60_000 });
    await scrollNotebookTo(host.page, table);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    assert.equal(rows.length, mv.sites.length, 'a row per site');
    mv.sites.forEach((s, i) => {
      assert.equal(rows[i]![0], String(s.atom));
      assert.equal(rows[i]![1], s.symbol);
      assert.ok(
        Math.abs(Number(rows[i]![2]) - s.momentBohrMagneton) <= Math.abs(s.momentBohrMagneton) * 5e-3,
        `${rows[i]} against ${s.momentBohrMagneton} μB`,
      );
    });
    const totals = numbersIn(await table.locator('tr.total td').innerText());
    assert.ok(
      Math.abs(totals[0]! - mv.totalBohrMagnetonPerCell) <= Math.abs(mv.totalBohrMagnetonPerCell) * 5e-3,
      `${totals} against ${mv.totalBohrMagnetonPerCell}`,
    );
    await host.screenshot('e2e-notebook-magnetization');
  });

  it('met no page error and no CSP refusal in any frame, and the watch on the output frame does see one', async () => {
    assert.deepEqual([...problems], [], 'no page errors or CSP refusals');
    // nothing of the extension (renderer bundle, its styles, media) failed to load
    if (failedLoads.length) console.log(`    (failed loads, none the extension's: ${failedLoads.join(' | ')})`);
    assert.deepEqual(
      failedLoads.filter((l) => /dreams|dist\/renderer|media\//.test(l)),
      [],
    );
    // the watch is live where the plots were drawn: a script from another origin, which the output
    // frame's CSP refuses, is reported
    const out = notebookOutputFrame(host.page);
    await out.locator('body').evaluate(() => {
      const s = document.createElement('script');
      s.src = 'https://dreams.invalid/probe.js';
      document.body.append(s);
    });
    const end = Date.now() + 10_000;
    while (!problems.some((p) => p.includes('dreams.invalid')) && Date.now() < end) await host.page.waitForTimeout(100);
    assert.ok(
      problems.some((p) => p.includes('dreams.invalid')),
      `the probe's refusal was reported: ${problems.join(' | ') || 'nothing'}`,
    );
  });
});
