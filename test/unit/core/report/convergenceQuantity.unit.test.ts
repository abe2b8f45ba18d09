// The run report's convergence section for sweeps judged by the magnetization or the gap: the
// tolerances in the sentence and the columns of the quantity in the table, beside the energy.
import assert from 'node:assert/strict';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';
import { renderRunReport } from '../../../../src/core/report/runReport';
import { feMomentSelection, SI_GAP_SELECTION } from '../../../harness/convergenceSelections';

const selection = (id: string, value: ConvergenceSelectionValue): ArtifactRecord => ({
  id,
  kind: 'table',
  name: 'converged_settings',
  value,
  contentHash: id,
  creator: 'c-1',
  inputs: [],
  concerns: [],
  status: 'final',
  createdAt: '',
});
const render = (artifacts: ArtifactRecord[]) =>
  renderRunReport({ runId: 'r', events: [], calls: () => [], readFile: () => undefined, artifacts: () => artifacts }).markdown;

describe('run report: sweeps judged by the magnetization or the gap', () => {
  it('states the moment tolerance beside the energy and shows m, |m| and Δm per row (bcc Fe, bench:moments)', () => {
    const md = render([
      selection(
        'a-21',
        feMomentSelection({
          chosenValue: 60,
          chosen: { ecutwfcRy: 60, ecutrhoRy: 480 },
          toleranceMevPerAtom: 5,
          criterion: { kind: 'energy', toleranceMevPerAtom: 5, toleranceMomentMuBPerAtom: 0.02 },
        }),
      ),
    ]);
    assert.match(
      md,
      /ecutwfc: chose \*\*60 Ry\*\* \(a-21, final\) within 5 meV\/atom and 0\.02 μB\/atom in the magnetization of the finest run\./,
    );
    assert.match(
      md,
      /\| ecutwfc \(Ry\) \| E \(eV\/atom\) \| ΔE vs finest \(meV\/atom\) \| m \(μB\/atom\) \| \|m\| \(μB\/atom\) \| Δm vs finest \(μB\/atom\) \|/,
    );
    assert.match(md, /\| 30 \| -833\.054839 \| 121\.181 \| 2\.240 \| 2\.360 \| 0\.010 \|/);
  });

  it('a sweep judged by the gap alone names no energy tolerance and shows the gap per row (Si, LDA)', () => {
    const md = render([selection('a-9', SI_GAP_SELECTION)]);
    assert.match(md, /ecutwfc: chose \*\*18 Ry\*\* \(a-9, final\) within 0\.01 eV in the gap of the finest run\./);
    assert.match(md, /\| gap \(eV\) \| Δgap vs finest \(eV\) \|/);
    assert.match(md, /\| 18 \| -107\.688100 \| 52\.650 \| 0\.6363 \| 0\.0020 \|/);
  });
});
