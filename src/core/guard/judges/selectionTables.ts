/**
 * The comparison tables of the convergence selections a report cites, as the report judge's
 * request shows them: each tested setting with its energy, pressure, deviatoric stress, magnetization, gap and forces (those recorded), its
 * difference to the finest run and whether it was within the recorded criterion, so the judge
 * checks "the chosen value follows from the table" against the data rather than the report's words.
 */
import { finestTested, type ConvergenceSelectionValue } from '../../artifacts/shapes';
import { bulkModulusSource, isConvergenceSelection as isSelection, type BulkModulusSource } from '../../artifacts/bulkModulusSource';
import { judgesEnergy, judgesPressure } from '../../dft/convergence';
import type { ProvenanceView } from '../../provenance/view';

/** How many rows of one table, and how many characters of all tables, a request carries at most. */
export const SELECTION_TABLE_LIMITS = { rows: 12, chars: 6000 };

const num = (x: number | undefined, digits: number): string =>
  x === undefined || !Number.isFinite(x) ? '–' : String(Number(x.toFixed(digits)));

/** Where a B came from, said. */
function bulkSaid(bulk: BulkModulusSource | undefined): string {
  if (!bulk) return '';
  if (bulk.from === 'probe') return ' from the probe';
  if (bulk.from === 'selection') return ` handed on from ${bulk.id}, which read it from the probe`;
  return bulk.ref ? ` taken from ${bulk.ref}` : ' as given';
}

/** The criterion as the selection recorded it (a selection made before criteria had names was judged by energy). */
function criterionSaid(s: ConvergenceSelectionValue, bulk?: BulkModulusSource): string {
  const c = s.criterion;
  const kind = c?.kind ?? 'energy';
  const mev = c?.toleranceMevPerAtom ?? s.toleranceMevPerAtom;
  const energy = `|ΔE| < ${mev ?? '(unrecorded)'} meV/atom`;
  const pressure = `|Δa| < ${c?.toleranceLatticePercent ?? '(unrecorded)'} % (from ΔP at B ≈ ${num(c?.bulkModulusGPa, 1)} GPa${bulkSaid(bulk)})`;
  const shape =
    c?.toleranceShapePercent !== undefined
      ? ` and |Δc/a| < ${c.toleranceShapePercent} % (from the deviatoric stress at C ≈ ${num(c.shapeModulusGPa, 1)} GPa)`
      : '';
  const quantities = [
    c?.toleranceMomentMuBPerAtom !== undefined ? `|Δm| < ${c.toleranceMomentMuBPerAtom} μB/atom (the larger of total and absolute)` : '',
    c?.toleranceGapEv !== undefined ? `|Δgap| < ${c.toleranceGapEv} eV (at each run's k-mesh)` : '',
    c?.toleranceForceEvPerAngstrom !== undefined
      ? `|ΔF| < ${c.toleranceForceEvPerAngstrom} eV/Å (the largest difference of one force component on one atom)`
      : '',
  ];
  const parts = [judgesEnergy(kind) ? energy : '', judgesPressure(kind) ? pressure : ''].filter(Boolean).join(' and ') + shape;
  return `${kind}: ${[parts, ...quantities].filter(Boolean).join(' and ')}`;
}

/** Whether a row was within the recorded criterion (as the selection judges it: strictly below each tolerance). */
function within(s: ConvergenceSelectionValue, t: ConvergenceSelectionValue['tested'][number]): boolean {
  const c = s.criterion;
  const kind = c?.kind ?? 'energy';
  const mev = c?.toleranceMevPerAtom ?? s.toleranceMevPerAtom;
  const energyOk = !judgesEnergy(kind) || (mev !== undefined && Math.abs(t.deltaMevPerAtom) < mev);
  const pressureOk =
    !judgesPressure(kind) ||
    (t.latticeShiftPercent !== undefined && c?.toleranceLatticePercent !== undefined && t.latticeShiftPercent < c.toleranceLatticePercent);
  const shapeOk =
    c?.toleranceShapePercent === undefined || (t.shapeShiftPercent !== undefined && t.shapeShiftPercent < c.toleranceShapePercent);
  const momentOk =
    c?.toleranceMomentMuBPerAtom === undefined ||
    (t.deltaMomentMuBPerAtom !== undefined && t.deltaMomentMuBPerAtom < c.toleranceMomentMuBPerAtom - 1e-9);
  const gapOk = c?.toleranceGapEv === undefined || (t.deltaGapEv !== undefined && t.deltaGapEv < c.toleranceGapEv - 1e-9);
  const forceOk =
    c?.toleranceForceEvPerAngstrom === undefined ||
    (t.deltaForceEvPerAngstrom !== undefined && t.deltaForceEvPerAngstrom < c.toleranceForceEvPerAngstrom - 1e-9);
  return energyOk && pressureOk && shapeOk && momentOk && gapOk && forceOk;
}

/**
 * The rows shown: all of a short table; of a long one, two before the chosen value, then on to the
 * finest. When even those are too many, the rows between the chosen value and the finest that were
 * within the criterion are thinned (evenly), never one that was not within: those are the evidence
 * against the choice. What was left out is counted on each side.
 */
function shownRows(s: ConvergenceSelectionValue): { rows: ConvergenceSelectionValue['tested']; coarser: number; finer: number } {
  const all = s.tested;
  const limit = SELECTION_TABLE_LIMITS.rows;
  if (all.length <= limit) return { rows: all, coarser: 0, finer: 0 };
  const chosen = Math.max(
    0,
    all.findIndex((t) => t.value === s.chosenValue),
  );
  const from = Math.max(0, chosen - 2);
  const tail = all.slice(from);
  if (tail.length <= limit) return { rows: tail, coarser: from, finer: 0 };
  const last = tail.length - 1;
  const head = chosen - from;
  const keep = new Set<number>([...Array.from({ length: head + 1 }, (_, i) => i), last]);
  for (let i = head + 1; i < last; i++) if (!within(s, tail[i]!)) keep.add(i);
  const optional = Array.from({ length: last - head - 1 }, (_, i) => head + 1 + i).filter((i) => !keep.has(i));
  const room = Math.max(0, limit - keep.size);
  for (let k = 0; k < Math.min(room, optional.length); k++)
    keep.add(optional[Math.floor(((k + 0.5) * optional.length) / Math.min(room, optional.length))]!);
  const rows = tail.filter((_, i) => keep.has(i));
  return { rows, coarser: from, finer: tail.length - rows.length };
}

/** One selection's table, in a few lines; `bulk`: where its B came from (bulkModulusSource), said beside it. */
export function selectionTable(
  id: string,
  name: string,
  s: ConvergenceSelectionValue,
  bulk: BulkModulusSource | undefined = bulkModulusSource(s, () => undefined, []),
): string {
  const unit = s.parameter === 'ecutwfc' ? 'Ry' : '1/Å';
  const finest = finestTested(s);
  const shape = s.tested.some((t) => t.deviatoricErrorKbar !== undefined);
  const { rows, coarser, finer } = shownRows(s);
  const head = `- ${id} (${name}): ${s.parameter} (${unit}), judged by ${criterionSaid(s, bulk)}; chosen ${s.chosenValue}, finest ${finest}, ${s.converged ? 'converged' : 'not converged'}`;
  const pressure = s.tested.some((t) => t.pressureKbar !== undefined);
  const pulay = s.tested.some((t) => t.pulayKbar !== undefined);
  const moment = s.tested.some((t) => t.magnetizationMuBPerAtom !== undefined);
  const gap = s.tested.some((t) => t.gapEv !== undefined);
  // forces: when the sweep was judged by them, or some run felt one (zero in every run of a symmetric cell says nothing)
  const force =
    s.tested.some((t) => t.maxForceEvPerAngstrom !== undefined) &&
    (s.criterion?.toleranceForceEvPerAngstrom !== undefined || s.tested.some((t) => (t.maxForceEvPerAngstrom ?? 0) !== 0));
  const columns =
    `  ${s.parameter} | E (eV/atom) | ΔE (meV/atom)` +
    `${pressure ? ` | P (kbar${pulay ? ', + Pulay' : ''}) | ΔP (kbar) | Δa (%)` : ''}${shape ? ' | Δs dev. (kbar) | Δc/a (%)' : ''}` +
    `${moment ? ' | m (μB/atom) | |m| (μB/atom) | Δm (μB/atom)' : ''}${gap ? ' | gap (eV) | Δgap (eV)' : ''}${force ? ' | F max (eV/Å) | ΔF (eV/Å)' : ''} | within`;
  const lines = rows.map(
    (t) =>
      `  ${t.value} | ${num(t.energyEvPerAtom, 6)} | ${num(t.deltaMevPerAtom, 3)}` +
      `${pressure ? ` | ${num(t.pressureKbar, 2)}${t.pulayKbar !== undefined ? ` + ${num(t.pulayKbar, 2)}` : ''} | ${num(t.deltaPressureKbar, 2)} | ${num(t.latticeShiftPercent, 4)}` : ''}` +
      `${shape ? ` | ${num(t.deviatoricErrorKbar, 2)} | ${num(t.shapeShiftPercent, 4)}` : ''}` +
      `${moment ? ` | ${num(t.magnetizationMuBPerAtom, 3)} | ${num(t.absoluteMagnetizationMuBPerAtom, 3)} | ${num(t.deltaMomentMuBPerAtom, 3)}` : ''}` +
      `${gap ? ` | ${num(t.gapEv, 4)} | ${num(t.deltaGapEv, 4)}` : ''}` +
      `${force ? ` | ${num(t.maxForceEvPerAngstrom, 4)} | ${num(t.deltaForceEvPerAngstrom, 4)}` : ''} | ${t.value === finest ? 'finest' : within(s, t) ? 'yes' : 'no'}${t.value === s.chosenValue ? ' (chosen)' : ''}`,
  );
  return [
    head,
    columns,
    ...lines,
    ...(coarser ? [`  (${coarser} coarser row(s) left out)`] : []),
    ...(finer ? [`  (${finer} row(s) between the chosen and the finest left out, each within the criterion)`] : []),
  ].join('\n');
}

/** The tables of the selection artifacts among the cited ones, capped in length; empty when none is cited. */
export function citedSelectionTables(view: ProvenanceView, cited: string[]): string[] {
  const out: string[] = [];
  let chars = 0;
  const ids = [...new Set(cited)];
  for (const [k, id] of ids.entries()) {
    const a = view.artifact(id);
    if (!a || !isSelection(a.value)) continue;
    // where its B came from, as the selection records it (for one recorded before that was kept: inferred from the cited ones)
    const bulk = bulkModulusSource(a.value, (other) => view.artifact(other)?.value, ids);
    const table = selectionTable(id, a.name, a.value, bulk);
    if (chars + table.length > SELECTION_TABLE_LIMITS.chars) {
      const rest = ids.slice(k).filter((r) => isSelection(view.artifact(r)?.value));
      out.push(`- (${rest.length} more selection table(s) left out for length: ${rest.join(', ')})`);
      break;
    }
    out.push(table);
    chars += table.length;
  }
  return out;
}
