// Artifact cards drawn by the notebook renderer bundle in Chromium (test/e2e/support/rendererPage.ts),
// handed the values a real offline Si band-structure and DOS run recorded (QE 6.7, PBE, 12 Ry): every
// field is named with its unit, a record inside a record is listed as fields, booleans read yes/no, and
// one quantity has one precision on every card. Cost: one build and one Chromium page, a few seconds.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CANVAS_MIME, type ArtifactCardData } from '../../src/shared/canvasOutputs';
import { openRendererPage, type RendererPage } from './support/rendererPage';

const card = (id: string, name: string, value: unknown, unit?: string): ArtifactCardData => ({
  id,
  kind: typeof value === 'number' ? 'scalar' : 'table',
  name,
  value,
  ...(unit ? { unit } : {}),
  status: 'final',
  concerns: [],
  creator: 'c-1',
  inputs: [],
});

// as the runs recorded them (band_gap, dos and pdos of the Si runs; the recorded Si relax's thresholds)
const cards = [
  card(
    'a-10',
    'band_gap',
    {
      gapEv: 0.5790000000000006,
      direct: false,
      vbm: { energyEv: 6.27, k: [0, 0, 0], x: 0, location: 'Γ', nearest: 'Γ' },
      cbm: {
        energyEv: 6.849,
        k: [0.4166666666666667, 0, 0.4166666666666667],
        x: 0.9640927556588086,
        location: '0.83 of Γ–X (near X)',
        nearest: 'X',
      },
      directGapEv: 2.567,
      directGapLocation: 'Γ',
      occupiedBands: 4,
    },
    'eV',
  ),
  card(
    'a-11',
    'dos',
    { energiesEv: [-5.655, -5.555], total: [0.0096, 0.0996], occupations: 'tetrahedra_opt', fermiEnergyEv: 6.738, kMesh: [12, 12, 12] },
    'states/eV',
  ),
  card('a-12', 'pdos', { energiesEv: [-5.655, -5.555], total: [0.0096, 0.0996], fermiEnergyEv: 6.7378, spilling: 0.0089 }, 'states/eV'),
  card('a-13', 'relaxation', {
    calculation: 'relax',
    converged: true,
    steps: [{}, {}, {}],
    thresholds: { forceEvPerAngstrom: 0.02571103373816294 },
  }),
  card('a-5', 'total_energy', -213.87317941354425, 'eV'),
  // Al fcc SCF (test/fixtures/qe/runs/al-fcc-scf.out: -4.19212889 Ry), a light cell's total energy
  card('a-6', 'total_energy', -4.19212889 * 13.605693122994, 'eV'),
  // bcc Fe cutoff sweep judged by its moment (bench:moments rows, as select_converged_settings records them)
  card('a-7', 'converged_settings', {
    parameter: 'ecutwfc',
    tested: [
      { value: 30, energyEvPerAtom: -833.05484, deltaMevPerAtom: 119.97, magnetizationMuBPerAtom: 2.24, deltaMomentMuBPerAtom: 0.01 },
    ],
    chosenValue: 30,
    chosen: { ecutwfcRy: 30, ecutrhoRy: 240 },
    criterion: { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 },
  }),
];

describe('artifact cards that read like a lab notebook (renderer bundle in Chromium)', function () {
  this.timeout(300_000);
  let view: RendererPage;
  let page: Page;
  before(async () => {
    view = await openRendererPage(cards, { mime: CANVAS_MIME.artifact });
    page = view.page;
  });
  after(async () => view?.close());

  /** A card's fields as "name: text" lines (a nested list's fields under their record's name). */
  const fields = (i: number) =>
    page.locator(`#out-${i} .dreams-card > dl`).evaluate((dl) =>
      [...dl.querySelectorAll('dt')]
        .filter((dt) => !dt.nextElementSibling!.querySelector(':scope > dl'))
        .map((dt) => {
          let prefix = '';
          for (let dd = dt.parentElement!.parentElement; dd?.tagName === 'DD'; dd = dd.parentElement!.parentElement)
            prefix = `${dd.previousElementSibling!.textContent} › ${prefix}`;
          return `${prefix}${dt.textContent}: ${dt.nextElementSibling!.textContent}`;
        }),
    );

  it("lists a band gap's edges as named fields with units, not JSON, and its booleans as yes/no", async () => {
    const f = await fields(0);
    for (const line of [
      'gap: 0.579 eV',
      'direct: no',
      'VBM › energy: 6.270 eV',
      'VBM › location: Γ',
      'CBM › energy: 6.849 eV',
      'direct gap: 2.567 eV',
    ])
      assert.ok(f.includes(line), `"${line}" in ${JSON.stringify(f)}`);
    const text = await page.locator('#out-0').innerText();
    assert.doesNotMatch(text, /[{}]|\.true\.|\.false\./, text);
  });

  it('gives E_F one precision on the DOS and PDOS cards (dos.x printed 6.738, pw.x 6.7378)', async () => {
    assert.ok((await fields(1)).includes('Fermi energy: 6.738 eV'), JSON.stringify(await fields(1)));
    assert.ok((await fields(2)).includes('Fermi energy: 6.738 eV'), JSON.stringify(await fields(2)));
    assert.ok((await fields(1)).includes('k mesh: [12, 12, 12]'));
  });

  it("names a relaxation's force threshold with its unit and says converged: yes; a total energy to 10 µeV", async () => {
    const f = await fields(3);
    for (const line of ['converged: yes', 'thresholds › force: 0.0257 eV/Å', 'steps: 3 entries'])
      assert.ok(f.includes(line), `"${line}" in ${JSON.stringify(f)}`);
    assert.equal(await page.locator('#out-4 .value').innerText(), '-213.87318');
    assert.deepEqual(view.errors, []);
  });

  it("writes a light cell's total energy to 10 µeV too (Al near −57 eV, not to the meV)", async () => {
    assert.equal(await page.locator('#out-5 .value').innerText(), '-57.03682');
  });

  it('names a moment tolerance spelled MuB in the core with its unit: tolerance moment 0.0200 μB/atom', async () => {
    const f = await fields(6);
    for (const line of ['criterion › tolerance moment: 0.0200 μB/atom', 'chosen › ecutwfc: 30 Ry', 'tested: 1 entry'])
      assert.ok(f.includes(line), `"${line}" in ${JSON.stringify(f)}`);
    assert.ok(!f.some((l) => /mu b/i.test(l)), JSON.stringify(f));
  });
});
