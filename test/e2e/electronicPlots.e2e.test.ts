// The notebook renderer bundle (dist/renderer/canvas-renderer.js, built as for VS Code) in
// headless Chromium, handed band-structure and DOS plot outputs as the projection makes them
// from run_bands_x / run_dos_x / run_projwfc artifacts: the bands are drawn as lines with the
// labelled points of the path and the band edges, the DOS with its projections and E_F; a second
// band plot in the same document clips with its own rectangle; an insulator's DOS (QE 6.7's Si
// outputs in test/fixtures/dft/qe-postprocessing/si/dos-tetrahedra) is drawn against its
// valence-band maximum, as its bands are; a DOS is drawn in the bands' energy window around its
// zero (bcc Fe's dos.x output runs to 25 eV above E_F). Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../harness/vscodeHost';
import type { PlotData } from '../../src/shared/canvasOutputs';
import { dosZero, ZERO_SOURCE } from '../../src/core/dft/electronic/energyZero';
import { parsePwOutput } from '../../src/core/dft/qe/output/parse';
import { parseDosFile } from '../../src/core/dft/qe/postprocessing/dosx';
import { parseBandFile } from '../../src/core/dft/qe/postprocessing/bandsx';
import { openRendererPage, type RendererPage } from './support/rendererPage';

const bands: PlotData = {
  kind: 'band-structure',
  title: 'Band structure (a-9)',
  artifact: 'a-9',
  data: {
    x: [0, 0.5, 1, 1, 1.5],
    bandsEv: [
      [-5, -3, -1, -2, -4],
      [6, 5, 4, 4.5, 5.5],
      [7, 7.5, 8, 7.8, 7.2],
    ],
    ticks: [
      { x: 0, label: 'Γ' },
      { x: 1, label: 'K|U' },
      { x: 1.5, label: 'X' },
    ],
    reference: { energyEv: 6, kind: 'vbm' },
    gap: { gapEv: 0.6, direct: false, vbm: { x: 0, energyEv: 6 }, cbm: { x: 1.5, energyEv: 6.6 } },
  },
};
const dos: PlotData = {
  kind: 'dos',
  title: 'Projected DOS (a-12)',
  artifact: 'a-12',
  data: {
    energiesEv: [0, 2, 4, 6, 8],
    total: [0, 0.2, 0.4, 0.3, 0.1],
    fermiEnergyEv: 5,
    projections: [
      { label: 'Al s', species: 'Al', l: 's', dos: [0, 0.1, 0.1, 0.05, 0] },
      { label: 'Al p', species: 'Al', l: 'p', dos: [0, 0.05, 0.2, 0.2, 0.1] },
    ],
  },
};

// a second band structure, in a window of its own: drawn in the same document as the first
const bands2: PlotData = {
  ...bands,
  title: 'Band structure (a-19)',
  artifact: 'a-19',
  data: { ...bands.data, reference: { energyEv: 5, kind: 'vbm' } },
};

// Si's DOS as dos.x wrote it, with the zero the run_dos_x tool gives an insulator (the SCF's highest occupied level)
const SI_DOS = path.join(PROJECT_ROOT, 'test/fixtures/dft/qe-postprocessing/si/dos-tetrahedra');
const siDosFile = parseDosFile(fs.readFileSync(path.join(SI_DOS, 'dreams.dos'), 'utf8'));
const siScf = parsePwOutput(fs.readFileSync(path.join(SI_DOS, 'scf.out'), 'utf8'));
const siZero = dosZero(
  { scfOccupations: 'fixed', scfHighestOccupiedEv: siScf.highestOccupiedEv! },
  { energyEv: siDosFile.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi },
)!;
const siDos: PlotData = {
  kind: 'dos',
  title: 'Density of states (a-8)',
  artifact: 'a-8',
  data: { energiesEv: siDosFile.energiesEv, total: siDosFile.dos, fermiEnergyEv: siDosFile.fermiEnergyEv!, reference: siZero },
};

// bcc Fe, spin-polarised (QE 6.7): bands.x once per spin channel (spin-bands/fe) and dos.x's dosup and dosdw columns (fe/fe.dos)
const FE_BANDS = path.join(PROJECT_ROOT, 'test/fixtures/dft/qe-postprocessing/spin-bands/fe');
const feBand = (name: string) => {
  const e = parseBandFile(fs.readFileSync(path.join(FE_BANDS, name), 'utf8')).energiesEv;
  return e[0]!.map((_, b) => e.map((row) => row[b]!));
};
const feUp = feBand('bands.up.dat');
const feX = feUp[0]!.map((_, k) => k / (feUp[0]!.length - 1));
const feBands: PlotData = {
  kind: 'band-structure',
  title: 'Band structure (a-30)',
  artifact: 'a-30',
  data: {
    x: feX,
    bandsEv: feUp,
    bandsDownEv: feBand('bands.down.dat'),
    ticks: [
      { x: 0, label: 'Γ' },
      { x: 1, label: 'N' },
    ],
    reference: { energyEv: 12.7831, kind: 'fermi', source: ZERO_SOURCE.scfFermi },
  },
};
const feDosFile = parseDosFile(fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/dft/qe-postprocessing/fe/fe.dos'), 'utf8'));
const feDos: PlotData = {
  kind: 'dos',
  title: 'Density of states (a-31)',
  artifact: 'a-31',
  data: { energiesEv: feDosFile.energiesEv, total: feDosFile.dos, spin: feDosFile.spin!, fermiEnergyEv: feDosFile.fermiEnergyEv! },
};

describe('band-structure and DOS plots drawn by the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let page: Page;
  let view: RendererPage;

  before(async () => {
    view = await openRendererPage([bands, dos, bands2, siDos, feBands, feDos], { height: 2100 });
    page = view.page;
  });
  after(async () => {
    await view?.close();
  });

  it('draws every band as a line over the path, the labelled points (a break as "K|U") and the band edges', async () => {
    const card = page.locator('#out-0 [data-plot="band-structure"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.band').count(), 3, 'one line per band');
    // each band in two strokes, Γ to K and U to X: the jump across the break is not drawn
    for (const d of await card.locator('svg path.band').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? '')))
      assert.equal(d.match(/M/g)?.length, 2, d);
    const labels = await card.locator('svg text').allTextContents();
    for (const l of ['Γ', 'K|U', 'X']) assert.ok(labels.includes(l), `${l} in ${labels.join(',')}`);
    assert.equal(await card.locator('svg circle').count(), 2, 'VBM and CBM');
    assert.match(await card.innerText(), /indirect gap 0\.600 eV/);
  });

  it('draws the total DOS and one curve per projection, with their legend and E_F', async () => {
    const card = page.locator('#out-1 [data-plot="dos"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.dos-curve').count(), 3, 'total, Al s, Al p');
    const text = await card.innerText();
    for (const t of ['total', 'PDOS Al s', 'PDOS Al p', 'zero at the Fermi level, E_F = 5.000 eV'])
      assert.ok(text.includes(t), `${t} in ${text}`);
    fs.mkdirSync(path.join(PROJECT_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/electronic-plots.png') });
  });

  it('gives each band plot of the document a clip rectangle of its own, which its bands use', async () => {
    const clips = await page.locator('[data-plot="band-structure"] svg').evaluateAll((svgs) =>
      svgs.map((svg) => ({
        own: [...svg.querySelectorAll('clipPath')].map((c) => c.id),
        used: [...svg.querySelectorAll('[clip-path]')].map((e) => e.getAttribute('clip-path')),
      })),
    );
    assert.equal(clips.length, 3);
    const ids = clips.flatMap((c) => c.own);
    assert.equal(new Set(ids).size, ids.length, `clip ids ${ids.join(', ')} unique in the document`);
    for (const c of clips) assert.deepEqual(c.used, [`url(#${c.own[0]})`], "the bands clip with their own plot's rectangle");
  });

  it("draws an insulator's DOS against its valence-band maximum, as its bands are, and says so; E_F is named beside it", async () => {
    const card = page.locator('#out-3 [data-plot="dos"]');
    await card.waitFor({ timeout: 10_000 });
    const text = await card.innerText();
    for (const t of [
      'E − E_VBM (eV)',
      'zero at the valence-band maximum, E_VBM = 6.270 eV (highest occupied level of the SCF, pw.x)',
      'E_F = 6.738 eV',
    ])
      assert.ok(text.includes(t), `${t} in ${text}`);
    // the dashed zero line where E − E_VBM = 0 lies on the energy axis, which runs from −12 to 8 eV as the bands' (the plot is 520 − 72 − 20 px wide)
    const x1 = Number(await card.locator('line.energy-zero').getAttribute('x1'));
    const expected = (12 / 20) * (520 - 72 - 20);
    assert.ok(Math.abs(x1 - expected) < 0.5, `zero line at ${x1} px, the VBM at ${expected} px`);
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/electronic-plots-insulator.png'), fullPage: true });
  });

  it('draws the majority and minority bands of a spin-polarised crystal in two colours, with a legend saying which is which', async () => {
    const card = page.locator('#out-4 [data-plot="band-structure"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.band.spin-up').count(), 12);
    assert.equal(await card.locator('svg path.band.spin-down').count(), 12);
    const colours = await card
      .locator('svg path.band')
      .evaluateAll((ps) => [...new Set(ps.map((p) => `${getComputedStyle(p).stroke} ${p.getAttribute('stroke-dasharray') ?? ''}`))]);
    assert.equal(colours.length, 2, `two strokes: ${colours.join(' / ')}`);
    const text = await card.innerText();
    for (const t of ['spin up (majority)', 'spin down (minority), dashed', 'zero at the Fermi level, E_F = 12.783 eV'])
      assert.ok(text.includes(t), `${t} in ${text}`);
  });

  it('draws a spin-polarised DOS with spin up above the axis and spin down below it', async () => {
    const card = page.locator('#out-5 [data-plot="dos"]');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.locator('svg path.dos-curve.spin-up').count(), 1);
    assert.equal(await card.locator('svg path.dos-curve.spin-down').count(), 1);
    // the axis line at DOS = 0: the up curve rises above it, the down curve falls below it (SVG y grows downwards); optimised
    // tetrahedra leave dos.x's curves slightly negative in places (−0.13 and −0.125 states/eV here), a small excursion across
    const axisY = Number(await card.locator('line.dos-axis').getAttribute('y1'));
    const ys = (cls: string) =>
      card
        .locator(`svg path.dos-curve.${cls}`)
        .evaluate((p) => [...(p.getAttribute('d') ?? '').matchAll(/[ML]?[-\d.e]+,([-\d.e]+)/g)].map((m) => Number(m[1])));
    const up = await ys('spin-up');
    const down = await ys('spin-down');
    assert.equal(up.length, feDosFile.energiesEv.length);
    assert.equal(down.length, feDosFile.energiesEv.length);
    const [upAbove, upBelow] = [axisY - Math.min(...up), Math.max(...up) - axisY];
    const [downBelow, downAbove] = [Math.max(...down) - axisY, axisY - Math.min(...down)];
    assert.ok(upAbove > 8 * upBelow, `spin up above the axis at ${axisY} px: ${upAbove} px above, ${upBelow} px below`);
    assert.ok(downBelow > 8 * downAbove, `spin down below the axis: ${downBelow} px below, ${downAbove} px above`);
    // the peaks in proportion to dos.x's: majority 3.239, minority 1.741 states/eV
    assert.ok(Math.abs(upAbove / downBelow - 3.239 / 1.741) < 0.02, `${upAbove} / ${downBelow}`);
    assert.match(await card.innerText(), /total \(spin up above the axis, spin down below\)/);
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/electronic-plots-spin.png'), fullPage: true });
  });

  it("draws bcc Fe's DOS over the energies of its bands, −12 to 8 eV around E_F, fitted to the states there, and says what the window leaves out", async () => {
    const dosCard = page.locator('#out-5 [data-plot="dos"]');
    const bandCard = page.locator('#out-4 [data-plot="band-structure"]');
    await dosCard.waitFor({ timeout: 10_000 });
    // the DOS's energy axis (bottom) carries the ticks of the band structure's (left): dos.x wrote −9.5 to 24.6 eV around E_F
    const dosTicks = await dosCard.locator('svg g.axis').first().locator('.tick text').allTextContents();
    const bandTicks = await bandCard.locator('svg g.axis').first().locator('.tick text').allTextContents();
    assert.ok(dosTicks.length >= 4, dosTicks.join(','));
    assert.deepEqual(dosTicks, bandTicks);
    const x1 = Number(await dosCard.locator('line.energy-zero').getAttribute('x1'));
    assert.ok(Math.abs(x1 - (12 / 20) * (520 - 72 - 20)) < 0.5, `E_F at ${x1} px`);
    // the curves are clipped to the plot; the majority's peak inside the window (3.239 states/eV, 1.6 eV below E_F) nearly reaches the top
    const clip = await dosCard.locator('svg [clip-path]').count();
    assert.equal(clip, 1, 'the curves drawn in one clipped group');
    const axisY = Number(await dosCard.locator('line.dos-axis').getAttribute('y1'));
    const up = await dosCard
      .locator('svg path.dos-curve.spin-up')
      .evaluate((p) => [...(p.getAttribute('d') ?? '').matchAll(/[ML]?[-\d.e]+,([-\d.e]+)/g)].map((m) => Number(m[1])));
    assert.ok(Math.min(...up) < 0.2 * axisY, `the majority's peak at ${Math.min(...up)} px, the axis at ${axisY} px`);
    assert.match(await dosCard.innerText(), /drawn −12 to 8 eV of −9\.5 to 24\.6 eV \(the artifact keeps all\)/);
    await page.screenshot({ path: path.join(PROJECT_ROOT, 'test-results/electronic-plots-window.png'), fullPage: true });
  });
});
