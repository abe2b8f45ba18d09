/**
 * A lattice constant from an EOS volume depends on the cell: how many computed cells make the
 * conventional one (4 for the fcc primitive cell, 2 for bcc, 1 for a cubic cell) and, for a
 * non-cubic crystal, the cell's shape. Both come from the symmetry of the standardised cell
 * (moyo), never from a name the structure carries. A Bravais lattice named in the call must be
 * the one the symmetry finds; a c/a named must be the computed cell's.
 */
import { cellVolume } from '../../dft/structure/cell';
import { analyseSymmetry, symprecSaid, type SymmetryInfo } from '../../dft/structure/symmetry';
import type { Structure, Vec3 } from '../../dft/types';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'lattice-uses-cell-symmetry';

export type CellShape = 'fcc-primitive' | 'bcc-primitive' | 'cubic' | 'hexagonal' | 'other';

const len = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);
const angleDeg = (a: Vec3, b: Vec3): number => (Math.acos((a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (len(a) * len(b))) * 180) / Math.PI;

/** The shape of a cell by its lengths and angles alone (a description for messages, not a decision). */
export function cellShape(cell: Structure['cell']): CellShape {
  const [a, b, c] = cell.map(len) as Vec3;
  const angles = [angleDeg(cell[1], cell[2]), angleDeg(cell[0], cell[2]), angleDeg(cell[0], cell[1])];
  const near = (x: number, y: number, tol: number) => Math.abs(x - y) <= tol;
  const allEqual = near(a, b, 1e-4 * a) && near(b, c, 1e-4 * a);
  if (allEqual && angles.every((t) => near(t, 60, 0.01))) return 'fcc-primitive';
  if (allEqual && angles.every((t) => near(t, 109.4712, 0.01))) return 'bcc-primitive';
  if (allEqual && angles.every((t) => near(t, 90, 0.01))) return 'cubic';
  if (
    near(a, b, 1e-4 * a) &&
    near(angles[0]!, 90, 0.01) &&
    near(angles[1]!, 90, 0.01) &&
    (near(angles[2]!, 120, 0.01) || near(angles[2]!, 60, 0.01))
  )
    return 'hexagonal';
  return 'other';
}

/** What each named lattice must be by symmetry: crystal system and centring letter of the space group. */
const NAMED: Record<string, { system: string; centring: string; say: string }> = {
  fcc: { system: 'Cubic', centring: 'F', say: 'face-centred cubic (F)' },
  diamond: { system: 'Cubic', centring: 'F', say: 'face-centred cubic (F)' },
  rocksalt: { system: 'Cubic', centring: 'F', say: 'face-centred cubic (F)' },
  zincblende: { system: 'Cubic', centring: 'F', say: 'face-centred cubic (F)' },
  cesiumchloride: { system: 'Cubic', centring: 'P', say: 'primitive cubic (P)' },
  bcc: { system: 'Cubic', centring: 'I', say: 'body-centred cubic (I)' },
  sc: { system: 'Cubic', centring: 'P', say: 'primitive cubic (P)' },
  hcp: { system: 'Hexagonal', centring: 'P', say: 'hexagonal (P)' },
};

/** c/a of the computed cell's conventional cell agrees with a given one to this relative tolerance. */
const C_OVER_A_TOLERANCE = 1e-4;

export const latticeUsesCellSymmetry: TierOneRule = (input) => {
  const structure = resolvedArgument(input, 'structure')?.value as Structure | undefined;
  if (!structure?.cell) return [verdict(RULE, 'pass', ['no cell to read the symmetry of'])];
  if (!structure.pbc?.every(Boolean)) {
    return [
      verdict(
        RULE,
        'fail',
        [
          'the structure is not periodic in three directions (a slab or molecule): a bulk lattice constant needs a bulk crystal. Reference the bulk structure the EOS series scaled.',
        ],
        'structure',
      ),
    ];
  }
  let sym: SymmetryInfo;
  try {
    sym = analyseSymmetry(structure, structure.labels ? { byLabel: true } : {});
  } catch (e) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the symmetry of the cell cannot be found (${(e as Error).message}), so V0 cannot be turned into lattice parameters; check the structure.`,
        ],
        'structure',
      ),
    ];
  }
  // the structure's own tolerance (set by the objective for a noisy file), as the plan and the tool used
  const sg = `${sym.spaceGroup.symbol} (${sym.spaceGroup.number}), ${sym.spaceGroup.crystalSystem.toLowerCase()}${symprecSaid(structure.symprecAngstrom)}`;
  const bravais = input.call.args.bravais;
  if (typeof bravais === 'string') {
    const named = NAMED[bravais];
    const centring = sym.spaceGroup.symbol[0];
    if (!named || named.system !== sym.spaceGroup.crystalSystem || named.centring !== centring) {
      return [
        verdict(
          RULE,
          'fail',
          [
            `bravais = "${bravais}" but the cell's symmetry is ${sg}${named ? `, not ${named.say}` : ''}: the volume-to-lattice relation follows the symmetry of the cell ` +
              `(a ${cellShape(structure.cell)} cell with ${structure.symbols.length} atom(s)). Leave bravais out to have it read from the cell, or reference the structure the series scaled.`,
          ],
          'bravais',
        ),
      ];
    }
  }
  const cOverA = input.call.args.cOverA;
  if (typeof cOverA === 'number' && Math.abs(cOverA - sym.lattice.cOverA) > C_OVER_A_TOLERANCE * sym.lattice.cOverA) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `cOverA = ${cOverA} but the cell the series scaled has c/a = ${sym.lattice.cOverA.toFixed(6)} (${sg}); the lattice parameters must use the shape computed. Leave cOverA out to have it read from the cell.`,
        ],
        'cOverA',
      ),
    ];
  }
  const conventionalPerCell = sym.lattice.volumeAngstrom3 / cellVolume(structure.cell);
  return [
    verdict(
      RULE,
      'pass',
      [
        `the cell is ${sg}; ${Number(conventionalPerCell.toFixed(6))} computed cell(s) per conventional cell` +
          (sym.spaceGroup.crystalSystem === 'Cubic' ? '' : `, c/a = ${sym.lattice.cOverA.toFixed(6)}`),
      ],
      typeof bravais === 'string' ? 'bravais' : 'structure',
    ),
  ];
};
