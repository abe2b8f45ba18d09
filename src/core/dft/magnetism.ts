/**
 * Magnetization of a collinear spin-polarised pw.x run (nspin = 2), in Bohr magnetons (μB):
 * the total and absolute magnetization per cell and per atom, the moment of each site, and the
 * magnetic order the site moments show. Site moments are pw.x's own ("Magnetic moment per
 * site": charge and moment integrated in a sphere around each atom), or Löwdin moments from
 * projwfc.x when a caller has them; the source is always stated, since the two differ by the
 * part of the moment outside the spheres (bcc Fe, PBE: 2.38 μB in pw.x's sphere, 2.30 μB per cell).
 */
import type { PwOutput } from './qe/output/types';
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
export function magnetizationOf(out: PwOutput, structure: Pick<Structure, 'symbols' | 'labels'>, opts: { nspin: number; lowdin?: readonly number[] }): MagnetizationSummary {
  if (opts.nspin !== 2) {
    throw new Error(`the run has nspin = ${opts.nspin}: magnetization needs a collinear spin-polarised run (nspin = 2 with a starting magnetization); run it again spin-polarised.`);
  }
  const total = out.totalMagnetization;
  const absolute = out.absoluteMagnetization;
  if (typeof total !== 'number' || absolute === undefined) {
    throw new Error('the output prints no total and absolute magnetization for its last SCF; it did not finish, or it is not a collinear spin-polarised run.');
  }
  const natoms = structure.symbols.length;
  if (opts.lowdin && opts.lowdin.length !== natoms) {
    throw new Error(`${opts.lowdin.length} Löwdin moments for ${natoms} atoms: they must be the projwfc.x output of this run.`);
  }
  const rows = (moment: (i: number) => number | undefined, charge?: (i: number) => number | undefined): SiteMomentRow[] =>
    structure.symbols.map((symbol, i) => {
      const label = structure.labels?.[i];
      const c = charge?.(i);
      return { atom: i + 1, symbol, ...(label && label !== symbol ? { label } : {}), momentBohrMagneton: moment(i) ?? 0, ...(c !== undefined ? { charge: c } : {}) };
    });
  let sites: SiteMomentRow[] = [];
  let siteSource: MagnetizationSummary['siteSource'];
  if (opts.lowdin) {
    sites = rows((i) => opts.lowdin![i]);
    siteSource = 'löwdin';
  } else if (out.siteMoments?.length === natoms) {
    const byAtom = new Map(out.siteMoments.map((s) => [s.atom, s]));
    sites = rows((i) => byAtom.get(i + 1)?.magnetization, (i) => byAtom.get(i + 1)?.charge);
    siteSource = 'pw.x';
  }
  const order = sites.length
    ? magneticOrder(sites.map((s) => s.momentBohrMagneton), total)
    : Math.abs(total) >= NON_MAGNETIC_BELOW_BOHR_MAGNETON ? 'ferromagnetic' : absolute >= NON_MAGNETIC_BELOW_BOHR_MAGNETON ? 'antiferromagnetic' : 'non-magnetic';
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
