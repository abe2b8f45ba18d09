/**
 * The zero of the energy axis of a band-structure, DOS or PDOS plot, from numbers the runs printed,
 * so that the plots of one material share it. A crystal with a gap (fixed occupations, or a
 * spin-polarised smeared run whose Fermi level lies in a gap of both channels) is drawn against
 * its valence-band maximum, a metal against the Fermi energy (the bands the SCF's, the only one their
 * runs print; a DOS its own run's, naming the SCF's where they differ). The bands take the top of the
 * occupied bands along their path. A DOS takes the best VBM the runs give: the higher of the SCF's
 * highest occupied level (on the SCF's own k mesh, which may miss the VBM's k-point) and the top of
 * the occupied eigenvalues the NSCF printed on its denser mesh, checked against the energy where
 * dos.x's integrated DOS reaches the electron count; a disagreement beyond one DOS step is written
 * in the zero's note. Energies in eV.
 */
import type { EnergyZero } from '../../../shared/electronicStructure';

/** What the NSCF run's record says about the SCF whose charge density it read (NscfMeta), and about its own eigenvalues. */
export interface ScfLevels {
  scfOccupations: string;
  scfHighestOccupiedEv?: number;
  scfFermiEnergyEv?: number;
  /** A smeared SCF with a fixed total magnetization: each spin channel's Fermi energy (up, down). */
  scfFermiEnergiesUpDownEv?: [number, number];
  /** The SCF's total magnetization, μB/cell (fixed occupations with nspin 2 fill n↑ = (N+M)/2 states up). */
  scfMagnetization?: number;
  nspin?: number;
  /** The top of the occupied eigenvalues the NSCF printed (valenceEdges), when they show a gap. */
  nscfHighestOccupiedEv?: number;
  /** The NSCF's printed eigenvalues show a gap in every spin channel at the SCF's level(s). */
  nscfGapped?: boolean;
}

/** What printed each zero, as a plot's legend names it after the number ("E_F = 6.738 eV (dos.x)"). */
export const ZERO_SOURCE = {
  pathTop: 'top of the occupied bands along the path, bands.x',
  scfHighestOccupied: 'highest occupied level of the SCF, pw.x',
  nscfHighestOccupied: 'highest occupied eigenvalue of the NSCF, pw.x',
  dosxIntegrated: 'where the integrated DOS of dos.x reaches the electron count',
  scfFermi: 'SCF, pw.x',
  nscfFermi: 'NSCF run, pw.x',
  dosxFermi: 'dos.x',
} as const;

/** An insulator as the gap and the plots treat one: its SCF used fixed occupations. */
export const isInsulatorRun = (scf: ScfLevels): boolean => scf.scfOccupations === 'fixed';

/** Each spin channel's level to read its bands against (nspin 2 with a Fermi energy), else undefined. */
export function channelLevels(scf: ScfLevels): { up: number; down: number } | undefined {
  if (scf.scfFermiEnergiesUpDownEv) return { up: scf.scfFermiEnergiesUpDownEv[0], down: scf.scfFermiEnergiesUpDownEv[1] };
  if (scf.nspin === 2 && scf.scfFermiEnergyEv !== undefined) return { up: scf.scfFermiEnergyEv, down: scf.scfFermiEnergyEv };
  return undefined;
}

interface Edges {
  vbmEv: number;
  cbmEv?: number;
}

/** bands[k][band] against a level: undefined when a band has states on both sides of it (no gap there). */
function edgesByLevel(bands: number[][], level: number): Edges | undefined {
  const nbnd = Math.min(...bands.map((b) => b.length));
  let vbmEv = -Infinity;
  let cbmEv = Infinity;
  for (let n = 0; n < nbnd; n++) {
    const values = bands.map((e) => e[n]!);
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    if (lo < level && hi > level) return undefined;
    if (hi <= level) vbmEv = Math.max(vbmEv, hi);
    else cbmEv = Math.min(cbmEv, lo);
  }
  if (vbmEv === -Infinity) return undefined;
  return { vbmEv, ...(cbmEv < Infinity ? { cbmEv } : {}) };
}

/** The edges of the lowest `occupied` bands of bands[k][band]. */
function edgesByCount(bands: number[][], occupied: number): Edges | undefined {
  if (!Number.isInteger(occupied) || occupied < 1) return undefined;
  const nbnd = Math.min(...bands.map((b) => b.length));
  if (nbnd < occupied) return undefined;
  const vbmEv = Math.max(...bands.map((e) => e[occupied - 1]!));
  const cbmEv = nbnd > occupied ? Math.min(...bands.map((e) => e[occupied]!)) : undefined;
  if (cbmEv !== undefined && cbmEv <= vbmEv) return undefined;
  return { vbmEv, ...(cbmEv !== undefined ? { cbmEv } : {}) };
}

/**
 * The valence-band maximum of eigenvalues (up[k][band], and down for nspin 2) when they show a gap:
 * unpolarised fixed occupations fill N/2 bands; spin channels are read against their Fermi
 * energies (smeared runs) or filled with (N ± M)/2 states (fixed occupations with magnetization M).
 * Undefined for a metal, or when nothing says how the states are filled.
 */
export function valenceEdges(scf: ScfLevels, electrons: number, up: number[][], down?: number[][]): Edges | undefined {
  if (!up.length) return undefined;
  if (!down) return isInsulatorRun(scf) ? edgesByCount(up, electrons / 2) : undefined;
  const levels = channelLevels(scf);
  let a: Edges | undefined;
  let b: Edges | undefined;
  if (levels) {
    a = edgesByLevel(up, levels.up);
    b = edgesByLevel(down, levels.down);
  } else if (isInsulatorRun(scf) && scf.scfMagnetization !== undefined) {
    const m = Math.round(scf.scfMagnetization);
    a = edgesByCount(up, (electrons + m) / 2);
    b = edgesByCount(down, (electrons - m) / 2);
  }
  if (!a || !b) return undefined;
  const cbms = [a.cbmEv, b.cbmEv].filter((c): c is number => c !== undefined);
  const vbmEv = Math.max(a.vbmEv, b.vbmEv);
  const cbmEv = cbms.length ? Math.min(...cbms) : undefined;
  if (cbmEv !== undefined && cbmEv <= vbmEv) return undefined;
  return { vbmEv, ...(cbmEv !== undefined ? { cbmEv } : {}) };
}

/**
 * The zero of a band structure: `pathVbmEv` (the occupied bands' top along the path, valenceEdges)
 * where the bands show a gap; else for fixed occupations the SCF's highest occupied level (a VBM,
 * not a Fermi energy), else the SCF's Fermi energy.
 */
export function bandStructureZero(scf: ScfLevels, pathVbmEv: number | undefined): EnergyZero {
  if (pathVbmEv !== undefined) return { energyEv: pathVbmEv, kind: 'vbm', source: ZERO_SOURCE.pathTop };
  if (isInsulatorRun(scf) && scf.scfHighestOccupiedEv !== undefined)
    return { energyEv: scf.scfHighestOccupiedEv, kind: 'vbm', source: ZERO_SOURCE.scfHighestOccupied };
  if (scf.scfFermiEnergyEv !== undefined) return { energyEv: scf.scfFermiEnergyEv, kind: 'fermi', source: ZERO_SOURCE.scfFermi };
  if (scf.scfFermiEnergiesUpDownEv)
    return {
      energyEv: scf.scfFermiEnergiesUpDownEv[0],
      kind: 'fermi',
      source: `${ZERO_SOURCE.scfFermi}, spin up (spin down: ${scf.scfFermiEnergiesUpDownEv[1].toFixed(3)} eV)`,
    };
  if (scf.scfHighestOccupiedEv !== undefined)
    return { energyEv: scf.scfHighestOccupiedEv, kind: 'fermi', source: ZERO_SOURCE.scfHighestOccupied };
  return { energyEv: 0, kind: 'fermi', source: 'none printed: absolute energies' };
}

/** A DOS on its grid with the integral dos.x wrote, and the electrons per cell. */
export interface IntegratedDos {
  energiesEv: number[];
  integrated: number[];
  electrons: number;
}

/** Half of the last digit dos.x prints of an integral near N (four significant digits, "0.8000E+01"), in electrons. */
const reached = (n: number): number => 0.5 * 10 ** (Math.floor(Math.log10(Math.max(n, 1))) + 1 - 4);

/**
 * Where dos.x's integrated DOS reaches the electron count (the first grid energy within half of
 * the last digit dos.x prints of it), and whether it then stays there for at least 0.1 eV (a gap); undefined when it never does.
 */
export function integratedDosEdge(d: IntegratedDos): { energyEv: number; gapped: boolean; stepEv: number } | undefined {
  const tol = reached(d.electrons);
  const i = d.integrated.findIndex((n) => n >= d.electrons - tol);
  if (i < 0) return undefined;
  const stepEv = d.energiesEv.length > 1 ? d.energiesEv[1]! - d.energiesEv[0]! : 0;
  const until = d.energiesEv[i]! + Math.max(0.1, 2 * stepEv);
  const flat = d.energiesEv.every((e, j) => e < d.energiesEv[i]! || e > until || d.integrated[j]! <= d.electrons + tol);
  const reachesUntil = d.energiesEv.at(-1)! >= until;
  return { energyEv: d.energiesEv[i]!, gapped: flat && reachesUntil, stepEv };
}

/**
 * The zero of a DOS or PDOS. A crystal with a gap (fixed occupations; or nspin 2 where the NSCF's
 * eigenvalues or the integrated DOS show one): the best VBM the runs give, with a note where
 * dos.x's integrated DOS reaches the electron count more than one DOS step away. A metal (spin-
 * polarised or not): the Fermi energy the DOS run printed (`fermi`, with what printed it), on its
 * denser mesh the better one (Al at toy settings: SCF 6×6×6 mv 7.997 eV, dos.x on 12×12×12 with
 * tetrahedra 7.688 eV); where the SCF's, which the band structure is drawn against, differs, the note
 * says it and by how much. Without one: the SCF's. Undefined when neither printed one.
 */
export function dosZero(scf: ScfLevels, fermi?: { energyEv: number; source: string }, dos?: IntegratedDos): EnergyZero | undefined {
  const edge = dos ? integratedDosEdge(dos) : undefined;
  const gapped = isInsulatorRun(scf) || scf.nscfGapped === true || (scf.nspin === 2 && edge?.gapped === true);
  if (gapped) {
    const candidates: { energyEv: number; source: string }[] = [];
    if (isInsulatorRun(scf) && scf.scfHighestOccupiedEv !== undefined)
      candidates.push({ energyEv: scf.scfHighestOccupiedEv, source: ZERO_SOURCE.scfHighestOccupied });
    if (scf.nscfHighestOccupiedEv !== undefined)
      candidates.push({ energyEv: scf.nscfHighestOccupiedEv, source: ZERO_SOURCE.nscfHighestOccupied });
    if (!candidates.length && edge?.gapped) candidates.push({ energyEv: edge.energyEv, source: ZERO_SOURCE.dosxIntegrated });
    if (candidates.length) {
      const best = candidates.reduce((a, b) => (b.energyEv > a.energyEv + 1e-9 ? b : a));
      const zero: EnergyZero = { energyEv: best.energyEv, kind: 'vbm', source: best.source };
      if (edge && dos && best.source !== ZERO_SOURCE.dosxIntegrated && Math.abs(edge.energyEv - best.energyEv) > edge.stepEv + 1e-9)
        zero.note =
          `dos.x's integrated DOS reaches the ${dos.electrons} electrons at ${edge.energyEv.toFixed(3)} eV, ` +
          `${(edge.energyEv - best.energyEv).toFixed(3)} eV from this zero (more than its ${edge.stepEv.toFixed(3)} eV step)`;
      return zero;
    }
  }
  if (fermi) {
    // a metal: the Fermi energy of the DOS run itself (its denser mesh, tetrahedra or smearing), the one its
    // integrated DOS fills N electrons at; the band structure has only the SCF's, so the note gives that one
    const zero: EnergyZero = { energyEv: fermi.energyEv, kind: 'fermi', source: fermi.source };
    if (scf.scfFermiEnergyEv !== undefined && Math.abs(fermi.energyEv - scf.scfFermiEnergyEv) > 1e-3)
      zero.note =
        `the band structure is drawn against the SCF's Fermi energy, ${scf.scfFermiEnergyEv.toFixed(3)} eV ` +
        `(${(scf.scfFermiEnergyEv - fermi.energyEv >= 0 ? '+' : '') + (scf.scfFermiEnergyEv - fermi.energyEv).toFixed(3)} eV from this zero, on the SCF's own k mesh and smearing)`;
    return zero;
  }
  if (scf.scfFermiEnergyEv !== undefined) return { energyEv: scf.scfFermiEnergyEv, kind: 'fermi', source: ZERO_SOURCE.scfFermi };
  return undefined;
}
