// The comparison table of a convergence selection as the report judge's request shows it: each
// row against the criterion the selection recorded, and a long sweep capped around its choice.
import assert from 'node:assert/strict';
import { citedSelectionTables, SELECTION_TABLE_LIMITS, selectionTable } from '../../../../src/core/guard/judges/selectionTables';
import type { ProvenanceView } from '../../../../src/core/provenance/view';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import { feMomentSelection, SI_GAP_SELECTION } from '../../../harness/convergenceSelections';

const row = (value: number, deltaMev: number, pressureKbar: number, deltaP: number, shift: number) => ({
  value,
  energyEvPerAtom: -57.2 + deltaMev / 1000,
  deltaMevPerAtom: deltaMev,
  pressureKbar,
  deltaPressureKbar: deltaP,
  latticeShiftPercent: shift,
});

describe('convergence selection tables in the report judge request', () => {
  it('marks each row within or not by the pressure criterion the selection recorded, with B and where it came from', () => {
    const sel: ConvergenceSelectionValue = {
      parameter: 'ecutwfc',
      tested: [row(30, 0.5, -12, -11, 0.06), row(40, 2, -3, -2, 0.011), row(50, 0.2, -1.5, -0.5, 0.003), row(60, 0, -1, 0, 0)],
      chosenValue: 40,
      chosen: { ecutwfcRy: 40, ecutrhoRy: 160 },
      criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 79.6 },
      bulkModulus: { valueGPa: 79.6, note: '', from: ['a-3', 'a-4'] },
      converged: true,
    };
    const t = selectionTable('a-12', 'converged_settings', sel);
    assert.match(
      t,
      /^- a-12 \(converged_settings\): ecutwfc \(Ry\), judged by pressure: \|Δa\| < 0\.05 % \(from ΔP at B ≈ 79\.6 GPa from the probe\); chosen 40, finest 60, converged$/m,
    );
    assert.match(t, /^ {2}ecutwfc \| E \(eV\/atom\) \| ΔE \(meV\/atom\) \| P \(kbar\) \| ΔP \(kbar\) \| Δa \(%\) \| within$/m);
    // 0.5 meV/atom off but 0.06 % of a: not within, whatever the energy says
    assert.match(t, /^ {2}30 \| -57\.1995 \| 0\.5 \| -12 \| -11 \| 0\.06 \| no$/m);
    assert.match(t, /^ {2}40 \| -57\.198 \| 2 \| -3 \| -2 \| 0\.011 \| yes \(chosen\)$/m);
    assert.match(t, /^ {2}60 \| -57\.2 \| 0 \| -1 \| 0 \| 0 \| finest$/m);
  });

  it('leaves out the force columns when every run of a sweep not judged by forces felt none (a symmetric cell), and shows them when one did', () => {
    const withForces = (forces: number[]) =>
      ({
        parameter: 'ecutwfc',
        tested: [30, 40, 50, 60].map((v, i) => ({
          ...row(v, [2, 0.5, 0.1, 0][i]!, -3, [-2, -0.5, -0.1, 0][i]!, 0.01),
          maxForceEvPerAngstrom: forces[i]!,
          deltaForceEvPerAngstrom: Math.abs(forces[i]! - forces[3]!),
        })),
        chosenValue: 40,
        chosen: { ecutwfcRy: 40, ecutrhoRy: 160 },
        criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 79.6 },
        converged: true,
      }) as ConvergenceSelectionValue;
    const cubic = selectionTable('a-12', 'converged_settings', withForces([0, 0, 0, 0]));
    assert.doesNotMatch(cubic, /F max|ΔF/);
    assert.match(cubic, /^ {2}40 \| -57\.1995 \| 0\.5 \| -3 \| -0\.5 \| 0\.01 \| yes \(chosen\)$/m);
    const displaced = selectionTable('a-12', 'converged_settings', withForces([0.3, 0.25, 0.24, 0.24]));
    assert.match(displaced, /\| F max \(eV\/Å\) \| ΔF \(eV\/Å\) \| within$/m);
    assert.match(displaced, /^ {2}40 \| .* \| 0\.25 \| 0\.01 \| yes \(chosen\)$/m);
  });

  it('shows the magnetization of each run and judges the rows by the moment tolerance beside the energy', () => {
    // bcc Fe's cutoff sweep (bench:moments): by energy at 10 meV/atom and the moment at 0.02 μB/atom
    const sel = feMomentSelection({
      chosenValue: 50,
      chosen: { ecutwfcRy: 50, ecutrhoRy: 400 },
      toleranceMevPerAtom: 10,
      criterion: { kind: 'energy', toleranceMevPerAtom: 10, toleranceMomentMuBPerAtom: 0.02 },
    });
    const t = selectionTable('a-21', 'converged_settings', sel);
    assert.match(t, /judged by energy: \|ΔE\| < 10 meV\/atom and \|Δm\| < 0\.02 μB\/atom \(the larger of total and absolute\); chosen 50/);
    assert.match(
      t,
      /^ {2}ecutwfc \| E \(eV\/atom\) \| ΔE \(meV\/atom\) \| m \(μB\/atom\) \| \|m\| \(μB\/atom\) \| Δm \(μB\/atom\) \| within$/m,
    );
    assert.match(t, /^ {2}50 \| -833\.167586 \| 8\.434 \| 2\.24 \| 2\.37 \| 0 \| yes \(chosen\)$/m);
    assert.match(t, /^ {2}40 \| .* \| 0\.01 \| no$/m);
    // the moment alone: every row within, whatever the energy
    const byMoment = selectionTable('a-21', 'converged_settings', {
      ...sel,
      criterion: { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 },
    });
    assert.match(byMoment, /judged by moment: \|Δm\| < 0\.02 μB\/atom/);
    assert.match(byMoment, /^ {2}30 \| .* \| 0\.01 \| yes$/m);
  });

  it('shows the gap of each run when the selection judged the gap', () => {
    const t = selectionTable('a-5', 'converged_settings', SI_GAP_SELECTION);
    assert.match(t, /judged by gap: \|Δgap\| < 0\.01 eV \(at each run's k-mesh\)/);
    assert.match(t, /\| gap \(eV\) \| Δgap \(eV\) \| within$/m);
    assert.match(t, /^ {2}14 \| .* \| 0\.6697 \| 0\.0354 \| no$/m);
    assert.match(t, /^ {2}18 \| .* \| 0\.6363 \| 0\.002 \| yes \(chosen\)$/m);
  });

  it('caps a long sweep: two rows before the chosen value, on to the finest, and says how many were left out', () => {
    const n = SELECTION_TABLE_LIMITS.rows + 6;
    const values = Array.from({ length: n }, (_, i) => 20 + 5 * i);
    const sel: ConvergenceSelectionValue = {
      parameter: 'ecutwfc',
      tested: values.map((v, i) => ({ value: v, energyEvPerAtom: -57, deltaMevPerAtom: n - 1 - i })),
      chosenValue: values[8]!,
      chosen: { ecutwfcRy: values[8]! },
      toleranceMevPerAtom: 10,
      converged: true,
    };
    const t = selectionTable('a-9', 'converged_settings', sel);
    const rows = t.split('\n').filter((l) => /^ {2}\d/.test(l));
    assert.equal(rows.length, SELECTION_TABLE_LIMITS.rows);
    assert.match(rows[0]!, new RegExp(`^  ${values[6]} `));
    assert.match(t, new RegExp(`^  ${values[8]} .* yes \\(chosen\\)$`, 'm'));
    assert.match(rows.at(-1)!, new RegExp(`^  ${values[n - 1]} .* finest$`));
    assert.match(t, new RegExp(`^  \\(${n - SELECTION_TABLE_LIMITS.rows} coarser row\\(s\\) left out\\)$`, 'm'));
    // a selection made before criteria had names: judged by energy, at its recorded tolerance
    assert.match(t, /judged by energy: \|ΔE\| < 10 meV\/atom; chosen 60, finest 105, converged/);
  });

  it('never leaves out a row between the chosen value and the finest that was not within the criterion, and says the rows it thinned were within', () => {
    // 20 cutoffs, 30 Ry chosen, 95 Ry 3 meV/atom off the finest at a 1 meV/atom tolerance: a choice the table must expose
    const values = Array.from({ length: 20 }, (_, i) => 20 + 5 * i);
    const sel: ConvergenceSelectionValue = {
      parameter: 'ecutwfc',
      tested: values.map((v) => ({ value: v, energyEvPerAtom: -57, deltaMevPerAtom: v === 20 ? 5 : v === 95 ? 3 : v === 115 ? 0 : 0.2 })),
      chosenValue: 30,
      chosen: { ecutwfcRy: 30 },
      criterion: { kind: 'energy', toleranceMevPerAtom: 1 },
      converged: true,
    };
    const t = selectionTable('a-30', 'converged_settings', sel);
    const rows = t.split('\n').filter((l) => /^ {2}\d/.test(l));
    assert.equal(rows.length, SELECTION_TABLE_LIMITS.rows);
    assert.match(rows[0]!, /^ {2}20 \| .* no$/);
    assert.match(t, /^ {2}30 \| .* yes \(chosen\)$/m);
    assert.match(t, /^ {2}95 \| -57 \| 3 \| no$/m);
    assert.match(rows.at(-1)!, /^ {2}115 \| .* finest$/);
    assert.match(t, /^ {2}\(8 row\(s\) between the chosen and the finest left out, each within the criterion\)$/m);
    assert.doesNotMatch(t, /coarser/);
    // every row left out was within: the shown rows and the left-out ones add up to the sweep
    const shown = rows.map((r) => Number(r.trim().split(' ')[0]));
    for (const v of values.filter((v) => !shown.includes(v))) assert.ok(v !== 20 && v !== 95, `${v} left out`);
  });

  it('says a B given as a number in a selection recorded before its reference was kept was handed on from the cited selection that read the same B from its probe', () => {
    const sel = (from: string[]): ConvergenceSelectionValue => ({
      parameter: from.length ? 'ecutwfc' : 'kspacing',
      tested: [row(1, 0.5, -3, -2, 0.01), row(2, 0, -1, 0, 0)],
      chosenValue: 1,
      chosen: {},
      criterion: { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 79.6 },
      bulkModulus: { valueGPa: 79.6, note: '', from },
      converged: true,
    });
    const artifacts: Record<string, { name: string; value: unknown }> = {
      'a-12': { name: 'converged_settings', value: sel(['a-3', 'a-4']) },
      'a-20': { name: 'converged_settings', value: sel([]) },
    };
    const view = { artifact: (id: string) => artifacts[id] } as unknown as ProvenanceView;
    const [cut, k] = citedSelectionTables(view, ['a-12', 'a-20']);
    assert.match(cut!, /B ≈ 79\.6 GPa from the probe\)/);
    assert.match(k!, /B ≈ 79\.6 GPa handed on from a-12, which read it from the probe\)/);
    // alone, a B given as a number is said to be given
    assert.match(citedSelectionTables(view, ['a-20'])[0]!, /B ≈ 79\.6 GPa as given\)/);
  });
});
