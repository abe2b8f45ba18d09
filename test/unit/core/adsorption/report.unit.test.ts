import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { ScreenAndRelaxExecutor } from '../../../../src/core/adsorption/executor';
import { degenerateWithBest } from '../../../../src/core/adsorption/loop';
import { OfflinePlanner } from '../../../../src/core/adsorption/offlinePlanner';
import { reportSearch } from '../../../../src/core/adsorption/report';
import { searchAdsorption, prepareSurface } from '../../../../src/core/adsorption/search';
import { EmtCalculator } from '../../../../src/core/calculators/emt';
import { readExtxyz } from '../../../../src/core/dft/io/extxyz';
import { aa20 } from './fixtures';

describe('search report', function () {
  this.timeout(30_000);

  it('tabulates every iteration, draws the best configuration and the energy curve, and lists artifact drafts', async () => {
    const emt = new EmtCalculator();
    const prepared = prepareSurface(aa20('03_Pd3Cu_111.xyz'));
    const h = adsorbate('H');
    const exec = new ScreenAndRelaxExecutor(emt);
    const search = await searchAdsorption({
      slab: prepared,
      adsorbate: h,
      planner: new OfflinePlanner({ screen: exec.siteScreen(prepared.slab, h) }),
      executor: exec,
    });
    const report = reportSearch(search, {
      calculator: emt.settings,
      planner: 'offline-heuristic',
      options: {},
      slabSource: '03_Pd3Cu_111.xyz',
    });
    const { result } = search;
    assert.ok(result.iterations.length >= 2);

    const rows = report.markdown.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, result.iterations.length);
    result.iterations.forEach((r, k) => {
      const cells = rows[k]!.split('|').map((c) => c.trim());
      assert.equal(cells[4], r.analysis.slip);
      assert.equal(Number(cells[6]), Number(r.adsorptionEnergyEv.toFixed(3)));
    });
    assert.match(report.markdown, /A screening model: its energies rank configurations/);
    assert.match(report.markdown, /Standardisation: fixed the bottom third/);
    assert.match(report.markdown, new RegExp(`stopped \\(${result.stopReason}\\)`));

    const file = (name: string) => report.files.find((f) => f.name === name)!.content;
    const best = result.best!;
    const side = file('best-side.svg');
    assert.equal((side.match(/<circle /g) ?? []).length, best.relaxedStructure.symbols.length);
    const top = file('best-top.svg');
    assert.ok((top.match(/<circle /g) ?? []).length < best.relaxedStructure.symbols.length, 'the top view leaves out deep layers');
    assert.match(top, /<title>H<\/title><\/circle>/);
    const curve = file('energy.svg');
    assert.equal((curve.match(/<circle /g) ?? []).length, result.iterations.length);
    assert.equal((curve.match(/r="7\.00"|r="7"/g) ?? []).length, 1, 'exactly one ringed best point');
    const back = readExtxyz(file('best.extxyz'));
    assert.deepEqual(back.symbols, best.relaxedStructure.symbols);

    const names = report.artifacts.map((a) => a.name);
    assert.equal(names.filter((n) => n === 'adsorption_energy').length, result.iterations.length);
    assert.equal(names.filter((n) => n === 'relaxed_configuration').length, result.iterations.length);
    assert.ok(names.includes('clean_slab_energy') && names.includes('gas_phase_energy') && names.includes('adsorption_search_report'));
    const energy = report.artifacts.find((a) => a.name === 'adsorption_energy')!;
    assert.equal(energy.unit, 'eV');
    assert.deepEqual((energy.meta as { calculator: unknown }).calculator, emt.settings);
  });
});

describe('degenerate configurations', function () {
  this.timeout(30_000);

  it("names configurations within the search's energy resolution of the best as degenerate with it, not the TERMINATE tolerance, and ranks them under a tighter resolution", async () => {
    // H on Pd3Cu(111): three hcp hollows of different environments within 10 meV of each other.
    const emt = new EmtCalculator();
    const prepared = prepareSurface(aa20('03_Pd3Cu_111.xyz'));
    const h = adsorbate('H');
    const exec = new ScreenAndRelaxExecutor(emt);
    const search = await searchAdsorption({
      slab: prepared,
      adsorbate: h,
      planner: new OfflinePlanner({ screen: exec.siteScreen(prepared.slab, h) }),
      executor: exec,
    });
    const { result } = search;
    const best = result.best!;
    const others = result.iterations.filter((r) => r.valid && r.analysis.fingerprint !== best.analysis.fingerprint);
    const gaps = others.map((r) => r.adsorptionEnergyEv - best.adsorptionEnergyEv);
    assert.ok(others.length >= 2 && Math.max(...gaps) < 0.01, `precondition: gaps ${gaps.join(', ')} eV`);
    const ties = degenerateWithBest(result.iterations, best, 0.01);
    assert.deepEqual(
      ties.map((r) => r.iteration),
      [...others].sort((a, b) => a.adsorptionEnergyEv - b.adsorptionEnergyEv).map((r) => r.iteration),
    );
    // The default resolution (0.01 eV), whatever the TERMINATE tolerance.
    const loose = reportSearch(search, { calculator: emt.settings, planner: 'offline-heuristic', options: { terminateToleranceEv: 0.05 } });
    assert.match(
      loose.markdown,
      new RegExp(
        `Degenerate with it within the search's energy resolution \\(0\\.01 eV\\), not ranked against it: iteration ${ties[0]!.iteration}, hollow \\(hcp\\)`,
      ),
    );

    const tight = Math.min(...gaps) / 2;
    assert.deepEqual(degenerateWithBest(result.iterations, best, tight), []);
    assert.doesNotMatch(
      reportSearch(search, {
        calculator: emt.settings,
        planner: 'offline-heuristic',
        options: { terminateToleranceEv: 0.05, degenerateToleranceEv: tight },
      }).markdown,
      /Degenerate/,
    );
  });
});
