/**
 * Magnetization of a collinear spin-polarised pw.x run (nspin = 2), in Bohr magnetons (μB):
 * the total and absolute magnetization per cell and per atom, the moment of each site, and the
 * magnetic order the site moments show. Site moments are pw.x's own ("Magnetic moment per
 * site": charge and moment integrated in a sphere around each atom), or Löwdin moments from
 * projwfc.x when a caller has them; the source is always stated, since the two differ by the
 * part of the moment outside the spheres (bcc Fe, PBE: 2.38 μB in pw.x's sphere, 2.30 μB per cell).
 */
import type { PwOutput } from './qe/output/types';
import { toFractional } from './structure/cell';
import type { Structure } from './types';

/** Below this |moment| (μB) a site counts as non-magnetic. */
export const NON_MAGNETIC_BELOW_BOHR_MAGNETON = 0.1;

export type MagneticOrder = 'non-magnetic' | 'ferromagnetic' | 'antiferromagnetic' | 'ferrimagnetic';

export interface SiteMomentRow {
  /** 1-based atom index, as pw.x numbers atoms. */
  atom: number;
  symbol: string;
  /** The species label where it differs from the element (Fe1, Fe2). */
  label?: string;
  momentBohrMagneton: number;
  /** Valence charge in the same sphere (pw.x), electrons. */
  charge?: number;
}

export interface MagnetizationSummary {
  nspin: number;
  totalBohrMagnetonPerCell: number;
  absoluteBohrMagnetonPerCell: number;
  natoms: number;
  totalBohrMagnetonPerAtom: number;
  sites: SiteMomentRow[];
  /** 'pw.x' (spheres around each atom) or 'löwdin' (projwfc.x); absent when no site moments were printed. */
  siteSource?: 'pw.x' | 'löwdin';
  order: MagneticOrder;
}

/** The order site moments show: all small, all one sign, opposite signs cancelling, or not. */
export function magneticOrder(moments: readonly number[], totalBohrMagneton?: number): MagneticOrder {
  const magnetic = moments.filter((m) => Math.abs(m) >= NON_MAGNETIC_BELOW_BOHR_MAGNETON);
  if (!magnetic.length) return 'non-magnetic';
  const up = magnetic.filter((m) => m > 0);
  const down = magnetic.filter((m) => m < 0);
  if (!up.length || !down.length) return 'ferromagnetic';
  const net = totalBohrMagneton ?? magnetic.reduce((s, m) => s + m, 0);
  const scale = magnetic.reduce((s, m) => s + Math.abs(m), 0);
  return Math.abs(net) < NON_MAGNETIC_BELOW_BOHR_MAGNETON * Math.max(1, scale / magnetic.length) ? 'antiferromagnetic' : 'ferrimagnetic';
}

/**
 * The magnetization of a finished nspin = 2 run. Throws (with what to do) for a run that is not
 * spin-polarised, or that printed no magnetization. `lowdin` (moments per atom, μB, in atom
 * order) replaces pw.x's sphere moments when given.
 */
export function magnetizationOf(
  out: PwOutput,
  structure: Pick<Structure, 'symbols' | 'labels'>,
  opts: { nspin: number; lowdin?: readonly number[] },
): MagnetizationSummary {
  if (opts.nspin !== 2) {
    throw new Error(
      `the run has nspin = ${opts.nspin}: magnetization needs a collinear spin-polarised run (nspin = 2 with a starting magnetization); run it again spin-polarised.`,
    );
  }
  const total = out.totalMagnetization;
  const absolute = out.absoluteMagnetization;
  if (typeof total !== 'number' || absolute === undefined) {
    throw new Error(
      'the output prints no total and absolute magnetization for its last SCF; it did not finish, or it is not a collinear spin-polarised run.',
    );
  }
  const natoms = structure.symbols.length;
  if (opts.lowdin && opts.lowdin.length !== natoms) {
    throw new Error(`${opts.lowdin.length} Löwdin moments for ${natoms} atoms: they must be the projwfc.x output of this run.`);
  }
  const rows = (moment: (i: number) => number | undefined, charge?: (i: number) => number | undefined): SiteMomentRow[] =>
    structure.symbols.map((symbol, i) => {
      const label = structure.labels?.[i];
      const c = charge?.(i);
      return {
        atom: i + 1,
        symbol,
        ...(label && label !== symbol ? { label } : {}),
        momentBohrMagneton: moment(i) ?? 0,
        ...(c !== undefined ? { charge: c } : {}),
      };
    });
  let sites: SiteMomentRow[] = [];
  let siteSource: MagnetizationSummary['siteSource'];
  if (opts.lowdin) {
    sites = rows((i) => opts.lowdin![i]);
    siteSource = 'löwdin';
  } else if (out.siteMoments?.length === natoms) {
    const byAtom = new Map(out.siteMoments.map((s) => [s.atom, s]));
    sites = rows(
      (i) => byAtom.get(i + 1)?.magnetization,
      (i) => byAtom.get(i + 1)?.charge,
    );
    siteSource = 'pw.x';
  }
  const order = sites.length
    ? magneticOrder(
        sites.map((s) => s.momentBohrMagneton),
        total,
      )
    : Math.abs(total) >= NON_MAGNETIC_BELOW_BOHR_MAGNETON
      ? 'ferromagnetic'
      : absolute >= NON_MAGNETIC_BELOW_BOHR_MAGNETON
        ? 'antiferromagnetic'
        : 'non-magnetic';
  return {
    nspin: 2,
    totalBohrMagnetonPerCell: total,
    absoluteBohrMagnetonPerCell: absolute,
    natoms,
    totalBohrMagnetonPerAtom: total / natoms,
    sites,
    ...(siteSource ? { siteSource } : {}),
    order,
  };
}

/**
 * Labels for a collinear order: per element, one label per distinct starting moment in order
 * of first appearance (Fe with +0.5 → Fe1, Fe with −0.5 → Fe2). An element whose atoms all start
 * alike keeps its symbol. Returns the labels and the starting magnetization of each label.
 */
export function magneticLabels(
  symbols: readonly string[],
  moments: readonly number[],
): { labels: string[]; startingMagnetization: Record<string, number> } {
  const byElement = new Map<string, number[]>();
  symbols.forEach((el, i) => {
    const seen = byElement.get(el) ?? [];
    if (!seen.includes(moments[i]!)) seen.push(moments[i]!);
    byElement.set(el, seen);
  });
  const startingMagnetization: Record<string, number> = {};
  const labels = symbols.map((el, i) => {
    const values = byElement.get(el)!;
    const label = values.length === 1 ? el : `${el}${values.indexOf(moments[i]!) + 1}`;
    startingMagnetization[label] = moments[i]!;
    return label;
  });
  return { labels, startingMagnetization };
}

/**
 * A two-sublattice antiferromagnetic start: the magnetic atoms (those `start` gives a moment)
 * split into layers along c (then b, then a) by their fractional coordinate, below ½ up and from
 * ½ down, with as many up as down of every magnetic element (bcc in its cubic cell: corner up,
 * body centre down; fcc cubic: the L1₀ layering). Undefined when no axis splits them evenly
 * (one magnetic atom per cell: a supercell is needed).
 */
export function layeredAntiferromagneticMoments(
  s: Pick<Structure, 'symbols' | 'positions' | 'cell'>,
  start: Readonly<Record<string, number>>,
): number[] | undefined {
  const frac = s.positions.map((r) => toFractional(s.cell, r));
  for (const axis of [2, 1, 0]) {
    const moments = s.symbols.map((el, i) => {
      const m = Math.abs(start[el] ?? 0);
      if (!m) return 0;
      const x = ((frac[i]![axis]! % 1) + 1) % 1;
      return x < 0.5 - 1e-6 ? m : -m;
    });
    const balanced = [...new Set(s.symbols)].every((el) => {
      const of = moments.filter((_, i) => s.symbols[i] === el && moments[i] !== 0);
      return of.filter((m) => m > 0).length === of.filter((m) => m < 0).length;
    });
    if (balanced && moments.some((m) => m > 0)) return moments;
  }
  return undefined;
}
