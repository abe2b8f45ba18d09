/**
 * The one element table of DREAMS, shared by the core, the CLI and the browser bundles (data
 * only: no imports, so the webviews may use it). By atomic number, 1-118:
 *
 * - standard atomic weight, u: IUPAC conventional values rounded to 0.01 u (for the
 *   ATOMIC_SPECIES card; pw.x uses masses only for dynamics, never for energies);
 * - covalent radius, Å: B. Cordero et al., "Covalent radii revisited", Dalton Trans. 2008,
 *   2832-2838, doi:10.1039/b801115j, Table 2 (C sp3; Mn, Fe, Co low spin), H-Cm; null beyond;
 * - colour: the Jmol element colours (as hex), to Mt; null beyond.
 */

export interface ElementData {
  symbol: string;
  atomicNumber: number;
  massAmu: number;
  covalentRadiusAngstrom?: number;
  /** #rrggbb. */
  colour?: string;
}

type Row = readonly [symbol: string, massAmu: number, covalentRadiusAngstrom: number | null, colour: string | null];

const ROWS: readonly Row[] = [
  ['H', 1.01, 0.31, '#ffffff'],
  ['He', 4, 0.28, '#d9ffff'],
  ['Li', 6.94, 1.28, '#cc80ff'],
  ['Be', 9.01, 0.96, '#c2ff00'],
  ['B', 10.81, 0.84, '#ffb5b5'],
  ['C', 12.01, 0.76, '#909090'],
  ['N', 14.01, 0.71, '#3050f8'],
  ['O', 16, 0.66, '#ff0d0d'],
  ['F', 19, 0.57, '#90e050'],
  ['Ne', 20.18, 0.58, '#b3e3f5'],
  ['Na', 22.99, 1.66, '#ab5cf2'],
  ['Mg', 24.31, 1.41, '#8aff00'],
  ['Al', 26.98, 1.21, '#bfa6a6'],
  ['Si', 28.09, 1.11, '#f0c8a0'],
  ['P', 30.97, 1.07, '#ff8000'],
  ['S', 32.06, 1.05, '#ffff30'],
  ['Cl', 35.45, 1.02, '#1ff01f'],
  ['Ar', 39.95, 1.06, '#80d1e3'],
  ['K', 39.1, 2.03, '#8f40d4'],
  ['Ca', 40.08, 1.76, '#3dff00'],
  ['Sc', 44.96, 1.7, '#e6e6e6'],
  ['Ti', 47.87, 1.6, '#bfc2c7'],
  ['V', 50.94, 1.53, '#a6a6ab'],
  ['Cr', 52, 1.39, '#8a99c7'],
  ['Mn', 54.94, 1.39, '#9c7ac7'],
  ['Fe', 55.85, 1.32, '#e06633'],
  ['Co', 58.93, 1.26, '#f090a0'],
  ['Ni', 58.69, 1.24, '#50d050'],
  ['Cu', 63.55, 1.32, '#c88033'],
  ['Zn', 65.38, 1.22, '#7d80b0'],
  ['Ga', 69.72, 1.22, '#c28f8f'],
  ['Ge', 72.63, 1.2, '#668f8f'],
  ['As', 74.92, 1.19, '#bd80e3'],
  ['Se', 78.97, 1.2, '#ffa100'],
  ['Br', 79.9, 1.2, '#a62929'],
  ['Kr', 83.8, 1.16, '#5cb8d1'],
  ['Rb', 85.47, 2.2, '#702eb0'],
  ['Sr', 87.62, 1.95, '#00ff00'],
  ['Y', 88.91, 1.9, '#94ffff'],
  ['Zr', 91.22, 1.75, '#94e0e0'],
  ['Nb', 92.91, 1.64, '#73c2c9'],
  ['Mo', 95.95, 1.54, '#54b5b5'],
  ['Tc', 97, 1.47, '#3b9e9e'],
  ['Ru', 101.07, 1.46, '#248f8f'],
  ['Rh', 102.91, 1.42, '#0a7d8c'],
  ['Pd', 106.42, 1.39, '#006985'],
  ['Ag', 107.87, 1.45, '#c0c0c0'],
  ['Cd', 112.41, 1.44, '#ffd98f'],
  ['In', 114.82, 1.42, '#a67573'],
  ['Sn', 118.71, 1.39, '#668080'],
  ['Sb', 121.76, 1.39, '#9e63b5'],
  ['Te', 127.6, 1.38, '#d47a00'],
  ['I', 126.9, 1.39, '#940094'],
  ['Xe', 131.29, 1.4, '#429eb0'],
  ['Cs', 132.91, 2.44, '#57178f'],
  ['Ba', 137.33, 2.15, '#00c900'],
  ['La', 138.91, 2.07, '#70d4ff'],
  ['Ce', 140.12, 2.04, '#ffffc7'],
  ['Pr', 140.91, 2.03, '#d9ffc7'],
  ['Nd', 144.24, 2.01, '#c7ffc7'],
  ['Pm', 144.91, 1.99, '#a3ffc7'],
  ['Sm', 150.36, 1.98, '#8fffc7'],
  ['Eu', 151.96, 1.98, '#61ffc7'],
  ['Gd', 157.25, 1.96, '#45ffc7'],
  ['Tb', 158.93, 1.94, '#30ffc7'],
  ['Dy', 162.5, 1.92, '#1fffc7'],
  ['Ho', 164.93, 1.92, '#00ff9c'],
  ['Er', 167.26, 1.89, '#00e675'],
  ['Tm', 168.93, 1.9, '#00d452'],
  ['Yb', 173.05, 1.87, '#00bf38'],
  ['Lu', 174.97, 1.87, '#00ab24'],
  ['Hf', 178.49, 1.75, '#4dc2ff'],
  ['Ta', 180.95, 1.7, '#4da6ff'],
  ['W', 183.84, 1.62, '#2194d6'],
  ['Re', 186.21, 1.51, '#267dab'],
  ['Os', 190.23, 1.44, '#266696'],
  ['Ir', 192.22, 1.41, '#175487'],
  ['Pt', 195.08, 1.36, '#d0d0e0'],
  ['Au', 196.97, 1.36, '#ffd123'],
  ['Hg', 200.59, 1.32, '#b8b8d0'],
  ['Tl', 204.38, 1.45, '#a6544d'],
  ['Pb', 207.2, 1.46, '#575961'],
  ['Bi', 208.98, 1.48, '#9e4fb5'],
  ['Po', 208.98, 1.4, '#ab5c00'],
  ['At', 209.99, 1.5, '#754f45'],
  ['Rn', 222.02, 1.5, '#428296'],
  ['Fr', 223.02, 2.6, '#420066'],
  ['Ra', 226.03, 2.21, '#007d00'],
  ['Ac', 227.03, 2.15, '#70abfa'],
  ['Th', 232.04, 2.06, '#00baff'],
  ['Pa', 231.04, 2, '#00a1ff'],
  ['U', 238.03, 1.96, '#008fff'],
  ['Np', 237.05, 1.9, '#0080ff'],
  ['Pu', 244.06, 1.87, '#006bff'],
  ['Am', 243.06, 1.8, '#545cf2'],
  ['Cm', 247.07, 1.69, '#785ce3'],
  ['Bk', 247.07, null, '#8a4fe3'],
  ['Cf', 251.08, null, '#a136d4'],
  ['Es', 252.08, null, '#b31fd4'],
  ['Fm', 257.1, null, '#b31fba'],
  ['Md', 258.1, null, '#b30da6'],
  ['No', 259.1, null, '#bd0d87'],
  ['Lr', 262.11, null, '#c70066'],
  ['Rf', 267.12, null, '#cc0059'],
  ['Db', 268.13, null, '#d1004f'],
  ['Sg', 271.13, null, '#d90045'],
  ['Bh', 270.13, null, '#e00038'],
  ['Hs', 269.13, null, '#e6002e'],
  ['Mt', 278.16, null, '#eb0026'],
  ['Ds', 281.17, null, null],
  ['Rg', 281.17, null, null],
  ['Cn', 285.18, null, null],
  ['Nh', 286.18, null, null],
  ['Fl', 289.19, null, null],
  ['Mc', 289.19, null, null],
  ['Lv', 293.2, null, null],
  ['Ts', 293.21, null, null],
  ['Og', 294.21, null, null],
];

/** Chemical symbols by atomic number; index 0 is the placeholder "X", as in ASE. */
export const CHEMICAL_SYMBOLS: readonly string[] = ['X', ...ROWS.map((r) => r[0])];

/** Colour for a species the table does not know (a label, a dummy atom). */
export const UNKNOWN_ELEMENT_COLOUR = '#ff1493';

const BY_SYMBOL = new Map<string, ElementData>(
  ROWS.map(([symbol, massAmu, radius, colour], k) => {
    const e: ElementData = { symbol, atomicNumber: k + 1, massAmu };
    if (radius !== null) e.covalentRadiusAngstrom = radius;
    if (colour !== null) e.colour = colour;
    return [symbol, e];
  }),
);

/** The element with this exact chemical symbol ("Pt", not "PT"), or undefined. */
export function elementOf(symbol: string): ElementData | undefined {
  return BY_SYMBOL.get(symbol);
}

/** Every element, by atomic number. */
export function allElements(): ElementData[] {
  return [...BY_SYMBOL.values()];
}
