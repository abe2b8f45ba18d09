/**
 * The elemental ground states a formation energy is taken against: the standard-state phase of
 * each element at 0 K as DFT tabulations use it (the Materials Project's elemental references,
 * the JANAF standard states): the crystal by space group, the diatomic gases as molecules in a
 * box, and the spin of the magnetic ones (bcc Fe, hcp Co and fcc Ni ferromagnetic; O2 a triplet
 * with 2 μB). A reference is checked from the structure and the spin of the run it came from.
 */
import { covalentRadiusAngstrom } from './structure/covalentRadii';
import { analyseSymmetry } from './structure/symmetry';
import type { Structure } from './types';

export interface GroundState {
  /** In words: "hcp", "bcc, ferromagnetic", "O2 molecule, triplet". */
  phase: string;
  /** Space groups (ITA numbers) of the crystal; absent for a molecule. */
  spaceGroups?: number[];
  /** Phases near enough that some studies use them: a warning, not a refusal. */
  alsoUsed?: { spaceGroups: number[]; phase: string };
  molecule?: { atoms: number; momentBohrMagneton: number };
  /** The order of a magnetic ground state (needs nspin = 2). */
  magnetic?: 'ferromagnetic' | 'antiferromagnetic';
}

const FCC = [225];
const BCC = [229];
const HCP = [194];
const DIAMOND = [227];
const crystal = (phase: string, spaceGroups: number[], extra: Partial<GroundState> = {}): GroundState => ({ phase, spaceGroups, ...extra });
const diatomic = (moment = 0): GroundState => ({
  phase: moment ? `diatomic molecule, ${moment === 2 ? 'triplet' : `${moment} μB`}` : 'diatomic molecule',
  molecule: { atoms: 2, momentBohrMagneton: moment },
});

export const GROUND_STATES: Readonly<Record<string, GroundState>> = {
  H: diatomic(),
  N: diatomic(),
  O: diatomic(2),
  F: diatomic(),
  Cl: diatomic(),
  Br: diatomic(),
  I: diatomic(),
  Li: crystal('bcc', BCC, { alsoUsed: { spaceGroups: [...FCC, ...HCP, 166], phase: 'close-packed (the 0 K phase is disputed)' } }),
  Na: crystal('bcc', BCC, { alsoUsed: { spaceGroups: [...FCC, ...HCP, 166], phase: 'close-packed (the 0 K phase is disputed)' } }),
  K: crystal('bcc', BCC),
  Rb: crystal('bcc', BCC),
  Cs: crystal('bcc', BCC),
  Ba: crystal('bcc', BCC),
  V: crystal('bcc', BCC),
  Nb: crystal('bcc', BCC),
  Ta: crystal('bcc', BCC),
  Mo: crystal('bcc', BCC),
  W: crystal('bcc', BCC),
  Eu: crystal('bcc', BCC),
  Fe: crystal('bcc, ferromagnetic', BCC, { magnetic: 'ferromagnetic' }),
  Cr: crystal('bcc, antiferromagnetic', BCC, { magnetic: 'antiferromagnetic' }),
  Be: crystal('hcp', HCP),
  Mg: crystal('hcp', HCP),
  Sc: crystal('hcp', HCP),
  Ti: crystal('hcp', HCP),
  Zr: crystal('hcp', HCP),
  Hf: crystal('hcp', HCP),
  Y: crystal('hcp', HCP),
  Zn: crystal('hcp', HCP),
  Cd: crystal('hcp', HCP),
  Ru: crystal('hcp', HCP),
  Os: crystal('hcp', HCP),
  Re: crystal('hcp', HCP),
  Tc: crystal('hcp', HCP),
  Co: crystal('hcp, ferromagnetic', HCP, { magnetic: 'ferromagnetic' }),
  Al: crystal('fcc', FCC),
  Cu: crystal('fcc', FCC),
  Ag: crystal('fcc', FCC),
  Au: crystal('fcc', FCC),
  Pd: crystal('fcc', FCC),
  Pt: crystal('fcc', FCC),
  Rh: crystal('fcc', FCC),
  Ir: crystal('fcc', FCC),
  Pb: crystal('fcc', FCC),
  Ca: crystal('fcc', FCC),
  Sr: crystal('fcc', FCC),
  Ni: crystal('fcc, ferromagnetic', FCC, { magnetic: 'ferromagnetic' }),
  Si: crystal('diamond', DIAMOND),
  Ge: crystal('diamond', DIAMOND),
  Sn: crystal('α-Sn (diamond)', DIAMOND, { alsoUsed: { spaceGroups: [141], phase: 'β-Sn' } }),
  C: crystal('graphite', [194], {
    alsoUsed: { spaceGroups: DIAMOND, phase: 'diamond (nearly degenerate with graphite in DFT without dispersion)' },
  }),
  Ga: crystal('α-Ga', [64]),
  In: crystal('tetragonal In', [139]),
  As: crystal('grey As (A7)', [166]),
  Sb: crystal('A7', [166]),
  Bi: crystal('A7', [166]),
  Se: crystal('trigonal Se', [152, 154]),
  Te: crystal('trigonal Te', [152, 154]),
  S: crystal('α-S', [70]),
  P: crystal('black P', [64]),
  B: crystal('α-B', [166]),
};

export interface ReferenceCheck {
  level: 'pass' | 'warn' | 'fail';
  reason: string;
}

/** An isolated molecule of `atoms` atoms of one element: bonded to each other, far from their periodic images. */
export function isolatedMolecule(s: Structure, element: string, atoms: number): { ok: boolean; reason: string } {
  if (s.symbols.length !== atoms || s.symbols.some((x) => x !== element))
    return { ok: false, reason: `${s.symbols.length} atoms, not one ${element}${atoms} molecule` };
  const r = covalentRadiusAngstrom(element);
  const [a, b] = [s.positions[0]!, s.positions[1] ?? s.positions[0]!];
  const bond = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  if (atoms === 2 && (bond > 1.3 * 2 * r || bond < 0.5 * 2 * r))
    return { ok: false, reason: `the two atoms are ${bond.toFixed(3)} Å apart, not bonded (covalent ${(2 * r).toFixed(2)} Å)` };
  const shortest = Math.min(...s.cell.map((v, i) => (s.pbc[i] ? Math.hypot(...v) : Infinity)));
  if (shortest < bond + 5)
    return {
      ok: false,
      reason: `its periodic images are ${shortest.toFixed(2)} Å apart, too close for an isolated molecule (need ≥ ${(bond + 5).toFixed(1)} Å)`,
    };
  return { ok: true, reason: `an isolated ${element}${atoms} molecule (bond ${bond.toFixed(3)} Å, images ${shortest.toFixed(1)} Å apart)` };
}

/**
 * Whether an energy's structure and spin are the element's ground state. `nspin` and the
 * run's total magnetization (μB per cell) and order, where recorded, decide the spin.
 */
export function checkGroundState(
  element: string,
  s: Structure,
  spin: { nspin: number; totalBohrMagneton?: number; order?: string },
): ReferenceCheck {
  const g = GROUND_STATES[element];
  if (!g)
    return {
      level: 'warn',
      reason: `no ground state of ${element} is on record here; check by hand that the reference is its standard-state phase`,
    };
  if (s.symbols.some((x) => x !== element))
    return { level: 'fail', reason: `the reference holds ${[...new Set(s.symbols)].join(', ')}, not ${element} alone` };
  if (g.molecule) {
    const m = isolatedMolecule(s, element, g.molecule.atoms);
    if (!m.ok)
      return { level: 'fail', reason: `${element}'s ground state is the ${element}${g.molecule.atoms} ${g.phase}, but ${m.reason}` };
    if (g.molecule.momentBohrMagneton > 0) {
      if (spin.nspin !== 2)
        return {
          level: 'fail',
          reason: `${element}${g.molecule.atoms} is a ${g.phase} (${g.molecule.momentBohrMagneton} μB): compute it spin-polarised (nspin = 2), not with nspin = ${spin.nspin}`,
        };
      if (spin.totalBohrMagneton !== undefined && Math.abs(spin.totalBohrMagneton - g.molecule.momentBohrMagneton) > 0.2) {
        return {
          level: 'fail',
          reason: `${element}${g.molecule.atoms} should hold ${g.molecule.momentBohrMagneton} μB (${g.phase}) but the run converged to ${spin.totalBohrMagneton} μB: start it with a larger starting magnetization`,
        };
      }
    }
    return { level: 'pass', reason: `${m.reason}${g.molecule.momentBohrMagneton ? `, spin-polarised` : ''}` };
  }
  let number: number;
  try {
    number = analyseSymmetry(s).spaceGroup.number;
  } catch (e) {
    return {
      level: 'warn',
      reason: `the symmetry of the ${element} reference could not be found (${(e as Error).message}); check it is ${g.phase}`,
    };
  }
  if (!g.spaceGroups!.includes(number)) {
    if (g.alsoUsed?.spaceGroups.includes(number))
      return {
        level: 'warn',
        reason: `${element} is in space group ${number} (${g.alsoUsed.phase}), not its ground state ${g.phase}: say so where the number is used`,
      };
    return {
      level: 'fail',
      reason: `${element}'s ground state is ${g.phase} (space group ${g.spaceGroups!.join(' or ')}), but the reference is in space group ${number}`,
    };
  }
  if (g.magnetic) {
    if (spin.nspin !== 2)
      return {
        level: 'fail',
        reason: `${element}'s ground state is ${g.phase}: compute the reference spin-polarised (nspin = 2 with a starting magnetization), not with nspin = ${spin.nspin}`,
      };
    if (spin.order && spin.order !== g.magnetic)
      return {
        level: 'fail',
        reason: `${element}'s ground state is ${g.magnetic}, but the reference run converged to a ${spin.order} state`,
      };
  }
  return { level: 'pass', reason: `${element}: ${g.phase} (space group ${number})${g.magnetic ? ', spin-polarised' : ''}` };
}
