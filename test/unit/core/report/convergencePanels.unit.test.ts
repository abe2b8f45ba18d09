// The convergence plot of a sweep draws the quantities the sweep was judged by, each in its unit with its
// tolerance, and the chosen value: the forces of a relax sweep, the moment of bcc Fe's, the gap of Si's, and the
// energy of a selection recorded before criteria had names (sweeps measured with pw.x 6.7).
import assert from 'node:assert/strict';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { convergencePanels } from '../../../../src/core/report/convergencePanels';
import { convergenceSvg } from '../../../../src/core/report/plots';
import { CANVAS_MIME, type PlotData } from '../../../../src/shared/canvasOutputs';
import { canvasEvents } from '../../../harness/canvasEvents';
import { feMomentSelection, SI_GAP_SELECTION, selectionValueOf, siForceSelection } from '../../../harness/convergenceSelections';
import { selectConvergedValue, type ConvergenceRun } from '../../../../src/core/dft/convergence';
import type { PhysicalSettings } from '../../../../src/core/dft/types';

const IR_SETTINGS: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 135,
  ecutrhoRy: 1080,
  pseudopotentials: { Ir: { file: 'Ir.pbe-spn-rrkjus_psl.1.0.0.UPF' } },
  kSpacingPerAngstrom: 0.11,
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
};
// Ir's k sweep at 135 Ry as the Sol27LC bench measured it (docs/notes/science-workflows.md): k spacing, energy per atom
// against 49³ (meV/atom), pw.x's pressure (kbar); B0 of its tight EOS 348 GPa
const IR: [number, number, number][] = [
  [0.3, -7.6, 128.66],
  [0.25, -18.1, 120.38],
  [0.2, -9.7, 125.41],
  [0.15, 4.6, 129.96],
  [0.11, -0.8, 126.96],
];
const irRuns = (): ConvergenceRun[] =>
  IR.map(([k, meV, p]) => ({
    energyEv: -1000 + meV / 1000,
    natoms: 1,
    pressureKbar: p,
    settings: { ...IR_SETTINGS, kSpacingPerAngstrom: k },
  }));

const summary = (sel: ConvergenceSelectionValue) =>
  convergencePanels(sel).map((p) => ({ quantity: p.quantity, unit: p.unit, tolerance: p.tolerance }));

describe('convergence plot: the quantities a sweep was judged by', () => {
  it('a relax sweep judged by the forces beside the energy draws both, the forces in eV/Å with 0.005, 22 Ry chosen (displaced Si)', () => {
    const sel = siForceSelection();
    assert.equal(sel.chosenValue, 22);
    assert.deepEqual(summary(sel), [
      { quantity: 'energy', unit: 'meV/atom', tolerance: 5 },
      { quantity: 'force', unit: 'eV/Å', tolerance: 0.005 },
    ]);
    const force = convergencePanels(sel)[1]!;
    assert.deepEqual(
      force.points.map((p) => p.x),
      [10, 14, 18, 22, 30, 40],
    );
    // ΔF as measured: 0.0135 eV/Å at 18 Ry (over the tolerance), 0.0037 at 22 Ry (under it), 0 at the finest
    const at = (x: number) => force.points.find((p) => p.x === x)!.y;
    assert.ok(Math.abs(at(18) - 0.0135) < 5e-5 && at(18) > 0.005, String(at(18)));
    assert.ok(Math.abs(at(22) - 0.0037) < 5e-5 && at(22) < 0.005, String(at(22)));
    assert.equal(at(40), 0);
  });

  it('a sweep judged by the forces alone draws only the forces', () => {
    const sel = siForceSelection({ kind: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.deepEqual(summary(sel), [{ quantity: 'force', unit: 'eV/Å', tolerance: 0.005 }]);
  });

  it('bcc Fe judged by the moment beside the energy draws the energy and the moment per atom in μB with 0.02', () => {
    const sel = feMomentSelection({
      chosenValue: 60,
      chosen: { ecutwfcRy: 60, ecutrhoRy: 480 },
      toleranceMevPerAtom: 5,
      criterion: { kind: 'energy', toleranceMevPerAtom: 5, toleranceMomentMuBPerAtom: 0.02 },
    });
    assert.deepEqual(summary(sel), [
      { quantity: 'energy', unit: 'meV/atom', tolerance: 5 },
      { quantity: 'moment', unit: 'μB/atom', tolerance: 0.02 },
    ]);
    assert.deepEqual(
      convergencePanels(sel)[1]!.points.map((p) => p.y),
      [0.01, 0.01, 0, 0, 0],
    );
    const byMomentAlone = feMomentSelection({
      chosenValue: 30,
      chosen: { ecutwfcRy: 30 },
      criterion: { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 },
    });
    assert.deepEqual(summary(byMomentAlone), [{ quantity: 'moment', unit: 'μB/atom', tolerance: 0.02 }]);
  });

  it('Si judged by the gap alone draws the gap in eV with 0.01', () => {
    assert.deepEqual(summary(SI_GAP_SELECTION), [{ quantity: 'gap', unit: 'eV', tolerance: 0.01 }]);
    assert.deepEqual(
      convergencePanels(SI_GAP_SELECTION)[0]!.points.map((p) => p.y),
      [0.0354, 0.002, 0],
    );
  });

  it('a pressure sweep draws the lattice shift in % of a, and `both` adds the energy with its own tolerance (Ir, Sol27LC k sweep)', () => {
    const runs = irRuns();
    const byPressure = selectionValueOf(
      selectConvergedValue('kspacing', runs, { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 348 }),
    );
    assert.equal(byPressure.chosenValue, 0.2);
    assert.deepEqual(summary(byPressure), [{ quantity: 'lattice', unit: '% of a', tolerance: 0.05 }]);
    // 0.25 1/Å is 6.58 kbar off the finest: 0.063 % of a, drawn above the 0.05 % tolerance
    const shift = convergencePanels(byPressure)[0]!.points.find((p) => p.x === 0.25)!.y;
    assert.ok(Math.abs(shift - (100 * 6.58) / (3 * 3480)) < 1e-9, String(shift));
    const both = selectionValueOf(
      selectConvergedValue('kspacing', runs, { kind: 'both', toleranceMevPerAtom: 10, toleranceLatticePercent: 0.05, bulkModulusGPa: 348 }),
    );
    assert.deepEqual(summary(both), [
      { quantity: 'energy', unit: 'meV/atom', tolerance: 10 },
      { quantity: 'lattice', unit: '% of a', tolerance: 0.05 },
    ]);
  });

  it('a selection recorded before criteria had names draws the energy per atom with its tolerance, as before (Ir)', () => {
    const { criterion: _, ...old } = selectionValueOf(selectConvergedValue('kspacing', irRuns(), 10));
    assert.equal(old.chosenValue, 0.2);
    assert.deepEqual(summary(old), [{ quantity: 'energy', unit: 'meV/atom', tolerance: 10 }]);
    // |ΔE| against 0.11 1/Å, from the smallest spacing up: 0, 5.4, 8.9, 17.3, 6.8 meV/atom
    assert.deepEqual(
      convergencePanels(old)[0]!.points.map((p) => [p.x, Number(p.y.toFixed(6))]),
      [
        [0.11, 0],
        [0.15, 5.4],
        [0.2, 8.9],
        [0.25, 17.3],
        [0.3, 6.8],
      ],
    );
  });

  it('a judged quantity the rows did not record is left out rather than drawn as zeros', () => {
    const sel = siForceSelection();
    const withoutForces = { ...sel, tested: sel.tested.map(({ deltaForceEvPerAngstrom: _, ...t }) => t) };
    assert.deepEqual(summary(withoutForces), [{ quantity: 'energy', unit: 'meV/atom', tolerance: 5 }]);
  });

  it("the report's SVG stacks a panel per quantity, each with its unit, its tolerance band and the chosen value", () => {
    const svg = convergenceSvg(siForceSelection(), 'a-7');
    assert.equal((svg.match(/<svg /g) ?? []).length, 3, 'an outer SVG holding two panels');
    assert.match(svg, /tolerance 5 meV\/atom/);
    assert.match(svg, /tolerance 0\.005 eV\/Å/);
    assert.match(svg, /largest \|ΔF\| of one component \(eV\/Å\)/);
    assert.equal((svg.match(/chosen 22 Ry</g) ?? []).length, 2, 'the choice marked in both panels');
    // on a log axis: the 0.005 eV/Å band is as tall as the decades under it, not 1/16 of a linear axis up to 0.08
    const bands = [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" fill="#2e7d32"/g)].map((b) =>
      Number(b[2]),
    );
    assert.equal(bands.length, 2);
    assert.ok(
      bands.every((hgt) => hgt > 60),
      `tolerance bands ${bands.join(', ')} px tall`,
    );
    // the finest run (no change) hollow on the floor
    assert.match(svg, /fill="white" stroke="#c62828"/);
    const moment = convergenceSvg(
      feMomentSelection({ chosenValue: 30, chosen: { ecutwfcRy: 30 }, criterion: { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 } }),
      'a-3',
    );
    assert.equal((moment.match(/<svg /g) ?? []).length, 1, 'one panel');
    assert.match(moment, /μB\/atom/);
    assert.doesNotMatch(moment, /meV\/atom/);
  });

  it("the notebook's plot output carries the panels, the choice, and the energy points outputs written before read", () => {
    const { call, artifact } = canvasEvents();
    const projection = new CanvasProjection();
    projection.apply(call('c-1', 'select_converged_settings'));
    projection.apply(artifact('a-7', 'c-1', 'converged_settings', { value: siForceSelection() }));
    const plot = projection
      .cells()
      .flatMap((c) => c.outputs ?? [])
      .filter((o) => o.mime === CANVAS_MIME.plot)
      .map((o) => o.data as PlotData)
      .find((p) => p.kind === 'convergence');
    assert.ok(plot && plot.kind === 'convergence', 'a convergence plot output');
    assert.deepEqual(
      plot.panels?.map((p) => [p.quantity, p.unit, p.tolerance]),
      [
        ['energy', 'meV/atom', 5],
        ['force', 'eV/Å', 0.005],
      ],
    );
    assert.equal(plot.chosen, 22);
    assert.equal(plot.points.length, 6);
  });
});
