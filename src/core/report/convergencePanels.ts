/**
 * What a convergence sweep's plot draws, read from its selection (converged_settings): one panel per
 * quantity the sweep was judged by, each the change against the finest run per tested value, in the
 * quantity's own unit, with its tolerance. The run report's SVG (plots.ts) and the notebook's plot
 * (canvasProjection.ts → webview-ui/renderer/plots.ts) both draw these panels, so the figure shows what
 * decided the choice: the forces of a relax sweep, the moment of a magnet's, the gap of an insulator's.
 * A selection recorded before criteria had names is judged by the energy and draws as it always did.
 */
import type { ConvergenceSelectionValue } from '../artifacts/shapes';
import type { ConvergencePanelData, ConvergenceQuantity } from '../../shared/canvasOutputs';

type Row = ConvergenceSelectionValue['tested'][number];

const QUANTITY: Record<ConvergenceQuantity, { label: string; unit: string; of: (t: Row) => number | undefined }> = {
  energy: { label: '|E − E(finest)| per atom', unit: 'meV/atom', of: (t) => Math.abs(t.deltaMevPerAtom) },
  lattice: { label: '|P − P(finest)|/3B, shift of a', unit: '% of a', of: (t) => t.latticeShiftPercent },
  shape: { label: '|Δs|/C, shift of c/a', unit: '%', of: (t) => t.shapeShiftPercent },
  moment: { label: 'max(|Δm|, |Δ|m||) per atom', unit: 'μB/atom', of: (t) => t.deltaMomentMuBPerAtom },
  gap: { label: '|gap − gap(finest)|', unit: 'eV', of: (t) => t.deltaGapEv },
  force: { label: 'largest |ΔF| of one component', unit: 'eV/Å', of: (t) => t.deltaForceEvPerAngstrom },
};

/** The quantities a selection's criterion judged, its own kind's first, then those judged alongside it, each with its tolerance. */
function judged(sel: ConvergenceSelectionValue): { quantity: ConvergenceQuantity; tolerance?: number }[] {
  const c = sel.criterion;
  const energyTolerance = sel.toleranceMevPerAtom ?? c?.toleranceMevPerAtom;
  if (!c) return [{ quantity: 'energy', ...(energyTolerance !== undefined ? { tolerance: energyTolerance } : {}) }];
  const out: { quantity: ConvergenceQuantity; tolerance?: number }[] = [];
  const add = (quantity: ConvergenceQuantity, tolerance: number | undefined) => {
    if (!out.some((q) => q.quantity === quantity)) out.push({ quantity, ...(tolerance !== undefined ? { tolerance } : {}) });
  };
  if (c.kind === 'energy' || c.kind === 'both') add('energy', energyTolerance);
  if (c.kind === 'pressure' || c.kind === 'both') add('lattice', c.toleranceLatticePercent);
  if (c.kind === 'moment') add('moment', c.toleranceMomentMuBPerAtom);
  if (c.kind === 'gap') add('gap', c.toleranceGapEv);
  if (c.kind === 'force') add('force', c.toleranceForceEvPerAngstrom);
  if (c.toleranceShapePercent !== undefined) add('shape', c.toleranceShapePercent);
  if (c.toleranceMomentMuBPerAtom !== undefined) add('moment', c.toleranceMomentMuBPerAtom);
  if (c.toleranceGapEv !== undefined) add('gap', c.toleranceGapEv);
  if (c.toleranceForceEvPerAngstrom !== undefined) add('force', c.toleranceForceEvPerAngstrom);
  return out;
}

/**
 * One panel per judged quantity whose change every tested row recorded, ordered by the tested value. A quantity some
 * rows lack (a selection recorded before the rows carried it) is left out; when none is left, the energy, which every
 * row has, is drawn with its tolerance if the sweep had one.
 */
export function convergencePanels(sel: ConvergenceSelectionValue): ConvergencePanelData[] {
  const rows = [...sel.tested].sort((a, b) => a.value - b.value);
  const panel = (quantity: ConvergenceQuantity, tolerance: number | undefined): ConvergencePanelData | undefined => {
    const q = QUANTITY[quantity];
    const ys = rows.map(q.of);
    if (ys.some((y) => y === undefined || !Number.isFinite(y))) return undefined;
    return {
      quantity,
      label: q.label,
      unit: q.unit,
      points: rows.map((t, i) => ({ x: t.value, y: Math.abs(ys[i]!) })),
      ...(tolerance !== undefined ? { tolerance } : {}),
    };
  };
  const panels = judged(sel)
    .map((j) => panel(j.quantity, j.tolerance))
    .filter((p): p is ConvergencePanelData => p !== undefined);
  if (panels.length) return panels;
  return [panel('energy', sel.toleranceMevPerAtom ?? sel.criterion?.toleranceMevPerAtom)!];
}
