/**
 * Small adsorbates as templates: the binding (anchor) atom first, at the origin, with the
 * rest of the molecule pointing up (+z), the orientation of an upright adsorbate.
 *
 * Gas-phase equilibrium geometries. Diatomics: r_e from K. P. Huber and G. Herzberg,
 * "Constants of Diatomic Molecules" (Van Nostrand Reinhold, 1979), as tabulated in the
 * NIST Chemistry WebBook. Polyatomics: experimental geometries of the NIST Computational
 * Chemistry Comparison and Benchmark Database (CCCBDB, NIST SRD 101) with the primary
 * source named per entry. They are starting points for relaxation, not results.
 */
import { DftScienceError } from '../scienceError';
import type { Structure, Vec3 } from '../types';

export interface MoleculeTemplate {
  name: string;
  symbols: string[];
  /** Å; atom 0 is the anchor that binds to the surface in the upright orientation. */
  positions: Vec3[];
  source: string;
}

const deg = Math.PI / 180;
const diatomic = (name: string, a: string, b: string, r: number, source: string): MoleculeTemplate => ({
  name,
  symbols: [a, b],
  positions: [
    [0, 0, 0],
    [0, 0, r],
  ],
  source,
});
/** AH2 with bond length r and H–A–H angle, hydrogens up in the xz plane. */
const bent = (name: string, a: string, r: number, angleDeg: number, source: string): MoleculeTemplate => {
  const h = (angleDeg / 2) * deg;
  return {
    name,
    symbols: [a, 'H', 'H'],
    positions: [
      [0, 0, 0],
      [r * Math.sin(h), 0, r * Math.cos(h)],
      [-r * Math.sin(h), 0, r * Math.cos(h)],
    ],
    source,
  };
};
/** AH3 of C3v symmetry with bond length r and H–A–H angle, hydrogens up. */
const pyramidal = (name: string, a: string, r: number, angleDeg: number, source: string): MoleculeTemplate => {
  // angle β between each A–H bond and the C3 axis: sin β = (2/√3) sin(HAH/2)
  const beta = Math.asin((2 / Math.sqrt(3)) * Math.sin((angleDeg / 2) * deg));
  const hs = [0, 120, 240].map(
    (phi): Vec3 => [r * Math.sin(beta) * Math.cos(phi * deg), r * Math.sin(beta) * Math.sin(phi * deg), r * Math.cos(beta)],
  );
  return { name, symbols: [a, 'H', 'H', 'H'], positions: [[0, 0, 0], ...hs], source };
};
const atom = (s: string): MoleculeTemplate => ({ name: s, symbols: [s], positions: [[0, 0, 0]], source: 'single atom' });

const HH = 'Huber & Herzberg (1979), r_e';
const TABLE: MoleculeTemplate[] = [
  atom('H'),
  atom('C'),
  atom('N'),
  atom('O'),
  diatomic('CO', 'C', 'O', 1.1283, HH),
  diatomic('NO', 'N', 'O', 1.1508, HH),
  diatomic('N2', 'N', 'N', 1.0977, HH),
  diatomic('H2', 'H', 'H', 0.7414, HH),
  diatomic('O2', 'O', 'O', 1.2075, HH),
  diatomic('OH', 'O', 'H', 0.9697, HH),
  diatomic('NH', 'N', 'H', 1.0362, HH),
  diatomic('CH', 'C', 'H', 1.1199, HH),
  bent('H2O', 'O', 0.9572, 104.52, 'W. S. Benedict, N. Gailar, E. K. Plyler, J. Chem. Phys. 24, 1139 (1956): r = 0.9572 Å, 104.52°'),
  bent('NH2', 'N', 1.024, 103.3, 'CCCBDB experimental (Herzberg, Electronic Spectra of Polyatomic Molecules, 1966): r = 1.024 Å, 103.3°'),
  bent('CH2', 'C', 1.075, 133.9, 'triplet CH2, P. Jensen and P. R. Bunker, J. Chem. Phys. 89, 1327 (1988): r = 1.075 Å, 133.9°'),
  pyramidal('NH3', 'N', 1.012, 106.7, 'CCCBDB experimental (Herzberg 1966): r = 1.012 Å, 106.7°'),
  // adsorbed methyl is pyramidal: the CH3 fragment of methane, r(CH4) = 1.087 Å, tetrahedral angle
  pyramidal('CH3', 'C', 1.087, 109.4712, 'CH3 fragment of CH4, CCCBDB experimental r = 1.087 Å, tetrahedral'),
  {
    // HN2 has no experimental structure (it lives ~1e-10 s); ab initio values are r(NN) ≈ 1.17 Å,
    // r(NH) ≈ 1.06 Å, angle NNH ≈ 116° (e.g. H. Koizumi, G. C. Schatz, S. P. Walch, J. Chem. Phys. 95, 4130 (1991)).
    name: 'NNH',
    symbols: ['N', 'N', 'H'],
    positions: [
      [0, 0, 0],
      [0, 0, 1.17],
      [1.06 * Math.sin(116 * deg), 0, 1.17 - 1.06 * Math.cos(116 * deg)],
    ],
    source: 'approximate ab initio geometry of HN2 (r_NN 1.17 Å, r_NH 1.06 Å, 116°); no experimental structure exists',
  },
];

export const MOLECULE_NAMES: readonly string[] = TABLE.map((m) => m.name);

export function molecule(name: string): MoleculeTemplate {
  const m = TABLE.find((t) => t.name === name);
  if (!m) {
    throw new DftScienceError(`no molecule "${name}" in the table. Known adsorbates: ${MOLECULE_NAMES.join(', ')}.`, { name });
  }
  return { ...m, symbols: [...m.symbols], positions: m.positions.map((p) => [...p] as Vec3) };
}

/**
 * A gas-phase reference: the molecule centred in a cubic box of edge `edgeAngstrom`
 * (periodic, as pw.x needs; the images are edge − molecular extent apart).
 */
export function moleculeInBox(adsorbate: string | MoleculeTemplate, edgeAngstrom: number): Structure {
  const m = typeof adsorbate === 'string' ? molecule(adsorbate) : adsorbate;
  const extent = Math.max(...[0, 1, 2].map((k) => Math.max(...m.positions.map((p) => p[k])) - Math.min(...m.positions.map((p) => p[k]))));
  if (!Number.isFinite(edgeAngstrom) || edgeAngstrom <= extent + 4) {
    throw new DftScienceError(
      `a ${edgeAngstrom} Å box leaves less than 4 Å between images of ${m.name} (extent ${extent.toFixed(2)} Å). Pass a larger edge (10–15 Å is usual).`,
      { name: m.name, edgeAngstrom },
    );
  }
  const centre = [0, 1, 2].map((k) => (Math.max(...m.positions.map((p) => p[k])) + Math.min(...m.positions.map((p) => p[k]))) / 2);
  return {
    symbols: [...m.symbols],
    positions: m.positions.map((p) => p.map((x, k) => x - centre[k] + edgeAngstrom / 2) as Vec3),
    cell: [
      [edgeAngstrom, 0, 0],
      [0, edgeAngstrom, 0],
      [0, 0, edgeAngstrom],
    ],
    pbc: [true, true, true],
    info: { molecule: m.name, box: edgeAngstrom },
  };
}
