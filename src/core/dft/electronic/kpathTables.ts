/**
 * The Setyawan–Curtarolo band paths (Comput. Mater. Sci. 49, 299 (2010)): for each Bravais
 * lattice in its canonical setting, the primitive cell (rows, Å), the high-symmetry points
 * (fractional coordinates of that cell's reciprocal lattice) and the default path, as lists
 * of connected label runs (a break "|" starts a new run); the MCLC points and paths as ase.lattice
 * writes them. Lattice parameters in Å and degrees. Triclinic is not here.
 * kpath.ts maps these onto the user's cell.
 */
import type { Cell, Vec3 } from '../types';

export type ScLatticeType = 'CUB' | 'FCC' | 'BCC' | 'TET' | 'BCT' | 'ORC' | 'ORCF' | 'ORCI' | 'ORCC' | 'HEX' | 'RHL' | 'MCL' | 'MCLC';

export interface ScCanonical {
  type: ScLatticeType;
  a: number;
  b: number;
  c: number;
  /** Degrees: the rhombohedral angle (RHL) or the monoclinic angle between b and c (MCL, < 90). */
  alpha: number;
}

export interface ScPath {
  /** e.g. "FCC", "BCT2", "ORCF1", "RHL1". */
  variant: string;
  primitiveCell: Cell;
  points: Record<string, Vec3>;
  /** Connected runs of labels; consecutive runs are separated by a break. */
  segments: string[][];
}

const path = (s: string): string[][] => s.split('|').map((run) => run.split('-'));
const G: Vec3 = [0, 0, 0];
const DEG = Math.PI / 180;

/** The canonical primitive cell, the points and the path of one lattice. */
export function scPath(l: ScCanonical): ScPath {
  const { a, b, c } = l;
  switch (l.type) {
    case 'CUB':
      return {
        variant: 'CUB',
        primitiveCell: [
          [a, 0, 0],
          [0, a, 0],
          [0, 0, a],
        ],
        points: { Γ: G, M: [0.5, 0.5, 0], R: [0.5, 0.5, 0.5], X: [0, 0.5, 0] },
        segments: path('Γ-X-M-Γ-R-X|M-R'),
      };
    case 'FCC':
      return {
        variant: 'FCC',
        primitiveCell: [
          [0, a / 2, a / 2],
          [a / 2, 0, a / 2],
          [a / 2, a / 2, 0],
        ],
        points: { Γ: G, K: [3 / 8, 3 / 8, 3 / 4], L: [0.5, 0.5, 0.5], U: [5 / 8, 1 / 4, 5 / 8], W: [0.5, 0.25, 0.75], X: [0.5, 0, 0.5] },
        segments: path('Γ-X-W-K-Γ-L-U-W-L-K|U-X'),
      };
    case 'BCC':
      return {
        variant: 'BCC',
        primitiveCell: [
          [-a / 2, a / 2, a / 2],
          [a / 2, -a / 2, a / 2],
          [a / 2, a / 2, -a / 2],
        ],
        points: { Γ: G, H: [0.5, -0.5, 0.5], P: [0.25, 0.25, 0.25], N: [0, 0, 0.5] },
        segments: path('Γ-H-N-Γ-P-H|P-N'),
      };
    case 'TET':
      return {
        variant: 'TET',
        primitiveCell: [
          [a, 0, 0],
          [0, a, 0],
          [0, 0, c],
        ],
        points: { Γ: G, A: [0.5, 0.5, 0.5], M: [0.5, 0.5, 0], R: [0, 0.5, 0.5], X: [0, 0.5, 0], Z: [0, 0, 0.5] },
        segments: path('Γ-X-M-Γ-Z-R-A-Z|X-R|M-A'),
      };
    case 'BCT': {
      const cell: Cell = [
        [-a / 2, a / 2, c / 2],
        [a / 2, -a / 2, c / 2],
        [a / 2, a / 2, -c / 2],
      ];
      if (c < a) {
        const eta = (1 + (c * c) / (a * a)) / 4;
        return {
          variant: 'BCT1',
          primitiveCell: cell,
          points: {
            Γ: G,
            M: [-0.5, 0.5, 0.5],
            N: [0, 0.5, 0],
            P: [0.25, 0.25, 0.25],
            X: [0, 0, 0.5],
            Z: [eta, eta, -eta],
            Z1: [-eta, 1 - eta, eta],
          },
          segments: path('Γ-X-M-Γ-Z-P-N-Z1-M|X-P'),
        };
      }
      const eta = (1 + (a * a) / (c * c)) / 4;
      const zeta = (a * a) / (2 * c * c);
      return {
        variant: 'BCT2',
        primitiveCell: cell,
        points: {
          Γ: G,
          N: [0, 0.5, 0],
          P: [0.25, 0.25, 0.25],
          Σ: [-eta, eta, eta],
          Σ1: [eta, 1 - eta, -eta],
          X: [0, 0, 0.5],
          Y: [-zeta, zeta, 0.5],
          Y1: [0.5, 0.5, -zeta],
          Z: [0.5, 0.5, -0.5],
        },
        segments: path('Γ-X-Y-Σ-Γ-Z-Σ1-N-P-Y1-Z|X-P'),
      };
    }
    case 'ORC':
      return {
        variant: 'ORC',
        primitiveCell: [
          [a, 0, 0],
          [0, b, 0],
          [0, 0, c],
        ],
        points: {
          Γ: G,
          R: [0.5, 0.5, 0.5],
          S: [0.5, 0.5, 0],
          T: [0, 0.5, 0.5],
          U: [0.5, 0, 0.5],
          X: [0.5, 0, 0],
          Y: [0, 0.5, 0],
          Z: [0, 0, 0.5],
        },
        segments: path('Γ-X-S-Y-Γ-Z-U-R-T-Z|Y-T|U-X|S-R'),
      };
    case 'ORCF':
      return orcf(a, b, c);
    case 'ORCI': {
      const zeta = (1 + (a * a) / (c * c)) / 4;
      const eta = (1 + (b * b) / (c * c)) / 4;
      const delta = (b * b - a * a) / (4 * c * c);
      const mu = (a * a + b * b) / (4 * c * c);
      return {
        variant: 'ORCI',
        primitiveCell: [
          [-a / 2, b / 2, c / 2],
          [a / 2, -b / 2, c / 2],
          [a / 2, b / 2, -c / 2],
        ],
        points: {
          Γ: G,
          L: [-mu, mu, 0.5 - delta],
          L1: [mu, -mu, 0.5 + delta],
          L2: [0.5 - delta, 0.5 + delta, -mu],
          R: [0, 0.5, 0],
          S: [0.5, 0, 0],
          T: [0, 0, 0.5],
          W: [0.25, 0.25, 0.25],
          X: [-zeta, zeta, zeta],
          X1: [zeta, 1 - zeta, -zeta],
          Y: [eta, -eta, eta],
          Y1: [1 - eta, eta, -eta],
          Z: [0.5, 0.5, -0.5],
        },
        segments: path('Γ-X-L-T-W-R-X1-Z-Γ-Y-S-W|L1-Y|Y1-Z'),
      };
    }
    case 'ORCC': {
      const zeta = (1 + (a * a) / (b * b)) / 4;
      return {
        variant: 'ORCC',
        primitiveCell: [
          [a / 2, -b / 2, 0],
          [a / 2, b / 2, 0],
          [0, 0, c],
        ],
        points: {
          Γ: G,
          A: [zeta, zeta, 0.5],
          A1: [-zeta, 1 - zeta, 0.5],
          R: [0, 0.5, 0.5],
          S: [0, 0.5, 0],
          T: [-0.5, 0.5, 0.5],
          X: [zeta, zeta, 0],
          X1: [-zeta, 1 - zeta, 0],
          Y: [-0.5, 0.5, 0],
          Z: [0, 0, 0.5],
        },
        segments: path('Γ-X-S-R-A-Z-Γ-Y-X1-A1-T-Y|Z-T'),
      };
    }
    case 'HEX':
      return {
        variant: 'HEX',
        primitiveCell: [
          [a / 2, (-a * Math.sqrt(3)) / 2, 0],
          [a / 2, (a * Math.sqrt(3)) / 2, 0],
          [0, 0, c],
        ],
        points: { Γ: G, A: [0, 0, 0.5], H: [1 / 3, 1 / 3, 0.5], K: [1 / 3, 1 / 3, 0], L: [0.5, 0, 0.5], M: [0.5, 0, 0] },
        segments: path('Γ-M-K-Γ-A-L-H-A|L-M|K-H'),
      };
    case 'RHL':
      return rhl(a, l.alpha);
    case 'MCL':
      return mcl(a, b, c, l.alpha);
    case 'MCLC':
      return mclc(a, b, c, l.alpha);
  }
}

function orcf(a: number, b: number, c: number): ScPath {
  const cell: Cell = [
    [0, b / 2, c / 2],
    [a / 2, 0, c / 2],
    [a / 2, b / 2, 0],
  ];
  const lhs = 1 / (a * a);
  const rhs = 1 / (b * b) + 1 / (c * c);
  if (Math.abs(lhs - rhs) > 1e-6 * lhs && lhs < rhs) {
    const eta = (1 + (a * a) / (b * b) - (a * a) / (c * c)) / 4;
    const phi = (1 + (c * c) / (b * b) - (c * c) / (a * a)) / 4;
    const delta = (1 + (b * b) / (a * a) - (b * b) / (c * c)) / 4;
    return {
      variant: 'ORCF2',
      primitiveCell: cell,
      points: {
        Γ: G,
        C: [0.5, 0.5 - eta, 1 - eta],
        C1: [0.5, 0.5 + eta, eta],
        D: [0.5 - delta, 0.5, 1 - delta],
        D1: [0.5 + delta, 0.5, delta],
        L: [0.5, 0.5, 0.5],
        H: [1 - phi, 0.5 - phi, 0.5],
        H1: [phi, 0.5 + phi, 0.5],
        X: [0, 0.5, 0.5],
        Y: [0.5, 0, 0.5],
        Z: [0.5, 0.5, 0],
      },
      segments: path('Γ-Y-C-D-X-Γ-Z-D1-H-C|C1-Z|X-H1|H-Y|L-Γ'),
    };
  }
  const zeta = (1 + (a * a) / (b * b) - (a * a) / (c * c)) / 4;
  const eta = (1 + (a * a) / (b * b) + (a * a) / (c * c)) / 4;
  const points: Record<string, Vec3> = {
    Γ: G,
    A: [0.5, 0.5 + zeta, zeta],
    A1: [0.5, 0.5 - zeta, 1 - zeta],
    L: [0.5, 0.5, 0.5],
    T: [1, 0.5, 0.5],
    X: [0, eta, eta],
    X1: [1, 1 - eta, 1 - eta],
    Y: [0.5, 0, 0.5],
    Z: [0.5, 0.5, 0],
  };
  if (Math.abs(lhs - rhs) <= 1e-6 * lhs) {
    return { variant: 'ORCF3', primitiveCell: cell, points, segments: path('Γ-Y-T-Z-Γ-X-A1-Y|X-A-Z|L-Γ') };
  }
  return { variant: 'ORCF1', primitiveCell: cell, points, segments: path('Γ-Y-T-Z-Γ-X-A1-Y|T-X1|X-A-Z|L-Γ') };
}

function rhl(a: number, alphaDeg: number): ScPath {
  const al = alphaDeg * DEG;
  const ch = Math.cos(al / 2);
  const sh = Math.sin(al / 2);
  const ca = Math.cos(al);
  const cell: Cell = [
    [a * ch, -a * sh, 0],
    [a * ch, a * sh, 0],
    [(a * ca) / ch, 0, a * Math.sqrt(1 - (ca * ca) / (ch * ch))],
  ];
  if (alphaDeg < 90) {
    const eta = (1 + 4 * ca) / (2 + 4 * ca);
    const nu = 0.75 - eta / 2;
    return {
      variant: 'RHL1',
      primitiveCell: cell,
      points: {
        Γ: G,
        B: [eta, 0.5, 1 - eta],
        B1: [0.5, 1 - eta, eta - 1],
        F: [0.5, 0.5, 0],
        L: [0.5, 0, 0],
        L1: [0, 0, -0.5],
        P: [eta, nu, nu],
        P1: [1 - nu, 1 - nu, 1 - eta],
        P2: [nu, nu, eta - 1],
        Q: [1 - nu, nu, 0],
        X: [nu, 0, -nu],
        Z: [0.5, 0.5, 0.5],
      },
      segments: path('Γ-L-B1|B-Z-Γ-X|Q-F-P1-Z|L-P'),
    };
  }
  const eta = 1 / (2 * Math.tan(al / 2) ** 2);
  const nu = 0.75 - eta / 2;
  return {
    variant: 'RHL2',
    primitiveCell: cell,
    points: {
      Γ: G,
      F: [0.5, -0.5, 0],
      L: [0.5, 0, 0],
      P: [1 - nu, -nu, 1 - nu],
      P1: [nu, nu - 1, nu - 1],
      Q: [eta, eta, eta],
      Q1: [1 - eta, -eta, -eta],
      Z: [0.5, -0.5, 0.5],
    },
    segments: path('Γ-P-Z-Q-Γ-F-P1-Q1-L-Z'),
  };
}

function mcl(a: number, b: number, c: number, alphaDeg: number): ScPath {
  const al = alphaDeg * DEG;
  const eta = (1 - (b * Math.cos(al)) / c) / (2 * Math.sin(al) ** 2);
  const nu = 0.5 - (eta * c * Math.cos(al)) / b;
  return {
    variant: 'MCL',
    primitiveCell: [
      [a, 0, 0],
      [0, b, 0],
      [0, c * Math.cos(al), c * Math.sin(al)],
    ],
    points: {
      Γ: G,
      A: [0.5, 0.5, 0],
      C: [0, 0.5, 0.5],
      D: [0.5, 0, 0.5],
      D1: [0.5, 0, -0.5],
      E: [0.5, 0.5, 0.5],
      H: [0, eta, 1 - nu],
      H1: [0, 1 - eta, nu],
      H2: [0, eta, -nu],
      M: [0.5, eta, 1 - nu],
      M1: [0.5, 1 - eta, nu],
      M2: [0.5, eta, -nu],
      X: [0, 0.5, 0],
      Y: [0, 0, 0.5],
      Y1: [0, 0, -0.5],
      Z: [0.5, 0, 0],
    },
    segments: path('Γ-Y-H-C-E-M1-A-X-H1|M-D-Z|Y-D'),
  };
}

/** The angle (degrees) between the first two reciprocal vectors of a cell. */
function reciprocalGamma(cell: Cell): number {
  const [a1, a2, a3] = cell;
  const cross = (u: Vec3, v: Vec3): Vec3 => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const b1 = cross(a2, a3);
  const b2 = cross(a3, a1);
  const dot = b1[0] * b2[0] + b1[1] * b2[1] + b1[2] * b2[2];
  return Math.acos(dot / (Math.hypot(...b1) * Math.hypot(...b2))) / DEG;
}

/** C-centred monoclinic (unique axis a, α < 90°, b ≤ c): five variants by the reciprocal angle k_γ and the shape. */
function mclc(a: number, b: number, c: number, alphaDeg: number): ScPath {
  const al = alphaDeg * DEG;
  const cosa = Math.cos(al);
  const sin2 = Math.sin(al) ** 2;
  const cell: Cell = [
    [a / 2, b / 2, 0],
    [-a / 2, b / 2, 0],
    [0, c * cosa, c * Math.sin(al)],
  ];
  const kGamma = reciprocalGamma(cell);
  const eps = 1e-4;
  if (Math.abs(kGamma - 90) < eps || kGamma > 90) {
    const zeta = (2 - (b * cosa) / c) / (4 * sin2);
    const eta = 0.5 + (2 * zeta * c * cosa) / b;
    const psi = 0.75 - (a * a) / (4 * b * b * sin2);
    const phi = psi + ((0.75 - psi) * b * cosa) / c;
    const points: Record<string, Vec3> = {
      Γ: G,
      N: [0.5, 0, 0],
      N1: [0, -0.5, 0],
      F: [1 - zeta, 1 - zeta, 1 - eta],
      F1: [zeta, zeta, eta],
      F2: [-zeta, -zeta, 1 - eta],
      F3: [1 - zeta, -zeta, 1 - eta],
      I: [phi, 1 - phi, 0.5],
      I1: [1 - phi, phi - 1, 0.5],
      L: [0.5, 0.5, 0.5],
      M: [0.5, 0, 0.5],
      X: [1 - psi, psi - 1, 0],
      X1: [psi, 1 - psi, 0],
      X2: [psi - 1, -psi, 0],
      Y: [0.5, 0.5, 0],
      Y1: [-0.5, -0.5, 0],
      Z: [0, 0, 0.5],
    };
    return Math.abs(kGamma - 90) < eps
      ? { variant: 'MCLC2', primitiveCell: cell, points, segments: path('Γ-Y-F-L-I|I1-Z-F1|N-Γ-M') }
      : { variant: 'MCLC1', primitiveCell: cell, points, segments: path('Γ-Y-F-L-I|I1-Z-F1|Y-X1|X-Γ-N|M-Γ') };
  }
  const shape = (b * cosa) / c + (b * b * sin2) / (a * a);
  if (shape <= 1 + eps) {
    const mu = (1 + (b * b) / (a * a)) / 4;
    const delta = (b * c * cosa) / (2 * a * a);
    const zeta = mu - 0.25 + (1 - (b * cosa) / c) / (4 * sin2);
    const eta = 0.5 + (2 * zeta * c * cosa) / b;
    const phi = 1 + zeta - 2 * mu;
    const psi = eta - 2 * delta;
    const points: Record<string, Vec3> = {
      Γ: G,
      F: [1 - phi, 1 - phi, 1 - psi],
      F1: [phi, phi - 1, psi],
      F2: [1 - phi, -phi, 1 - psi],
      H: [zeta, zeta, eta],
      H1: [1 - zeta, -zeta, 1 - eta],
      H2: [-zeta, -zeta, 1 - eta],
      I: [0.5, -0.5, 0.5],
      M: [0.5, 0, 0.5],
      N: [0.5, 0, 0],
      N1: [0, -0.5, 0],
      X: [0.5, -0.5, 0],
      Y: [mu, mu, delta],
      Y1: [1 - mu, -mu, -delta],
      Y2: [-mu, -mu, -delta],
      Y3: [mu, mu - 1, delta],
      Z: [0, 0, 0.5],
    };
    return Math.abs(shape - 1) <= eps
      ? { variant: 'MCLC4', primitiveCell: cell, points, segments: path('Γ-Y-F-H-Z-I|H1-Y1-X-Γ-N|M-Γ') }
      : { variant: 'MCLC3', primitiveCell: cell, points, segments: path('Γ-Y-F-H-Z-I-F1|H1-Y1-X-Γ-N|M-Γ') };
  }
  const zeta = ((b * b) / (a * a) + (1 - (b * cosa) / c) / sin2) / 4;
  const eta = 0.5 + (2 * zeta * c * cosa) / b;
  const mu = eta / 2 + (b * b) / (4 * a * a) - (b * c * cosa) / (2 * a * a);
  const nu = 2 * mu - zeta;
  const omega = ((4 * nu - 1 - (b * b * sin2) / (a * a)) * c) / (2 * b * cosa);
  const delta = (zeta * c * cosa) / b + omega / 2 - 0.25;
  const rho = 1 - (zeta * a * a) / (b * b);
  return {
    variant: 'MCLC5',
    primitiveCell: cell,
    points: {
      Γ: G,
      F: [nu, nu, omega],
      F1: [1 - nu, 1 - nu, 1 - omega],
      F2: [nu, nu - 1, omega],
      H: [zeta, zeta, eta],
      H1: [1 - zeta, -zeta, 1 - eta],
      H2: [-zeta, -zeta, 1 - eta],
      I: [rho, 1 - rho, 0.5],
      I1: [1 - rho, rho - 1, 0.5],
      L: [0.5, 0.5, 0.5],
      M: [0.5, 0, 0.5],
      N: [0.5, 0, 0],
      N1: [0, -0.5, 0],
      X: [0.5, -0.5, 0],
      Y: [mu, mu, delta],
      Y1: [1 - mu, -mu, -delta],
      Y2: [-mu, -mu, -delta],
      Y3: [mu, mu - 1, delta],
      Z: [0, 0, 0.5],
    },
    segments: path('Γ-Y-F-L-I|I1-Z-H-F1|H1-Y1-X-Γ-N|M-Γ'),
  };
}
