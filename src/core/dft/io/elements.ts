/**
 * Chemical symbols by atomic number (index 0 is the placeholder "X", as in ASE), so
 * formats that store atomic numbers (XSF, some extxyz files) map to symbols and back.
 */
export const CHEMICAL_SYMBOLS: readonly string[] = [
  'X',
  'H', 'He',
  'Li', 'Be', 'B', 'C', 'N', 'O', 'F', 'Ne',
  'Na', 'Mg', 'Al', 'Si', 'P', 'S', 'Cl', 'Ar',
  'K', 'Ca', 'Sc', 'Ti', 'V', 'Cr', 'Mn', 'Fe', 'Co', 'Ni', 'Cu', 'Zn',
  'Ga', 'Ge', 'As', 'Se', 'Br', 'Kr',
  'Rb', 'Sr', 'Y', 'Zr', 'Nb', 'Mo', 'Tc', 'Ru', 'Rh', 'Pd', 'Ag', 'Cd',
  'In', 'Sn', 'Sb', 'Te', 'I', 'Xe',
  'Cs', 'Ba', 'La', 'Ce', 'Pr', 'Nd', 'Pm', 'Sm', 'Eu', 'Gd', 'Tb', 'Dy',
  'Ho', 'Er', 'Tm', 'Yb', 'Lu', 'Hf', 'Ta', 'W', 'Re', 'Os', 'Ir', 'Pt',
  'Au', 'Hg', 'Tl', 'Pb', 'Bi', 'Po', 'At', 'Rn',
  'Fr', 'Ra', 'Ac', 'Th', 'Pa', 'U', 'Np', 'Pu', 'Am', 'Cm', 'Bk', 'Cf',
  'Es', 'Fm', 'Md', 'No', 'Lr', 'Rf', 'Db', 'Sg', 'Bh', 'Hs', 'Mt', 'Ds',
  'Rg', 'Cn', 'Nh', 'Fl', 'Mc', 'Lv', 'Ts', 'Og',
];

const NUMBER_BY_SYMBOL = new Map(CHEMICAL_SYMBOLS.map((s, z) => [s, z]));

export function atomicNumber(symbol: string): number | undefined {
  return NUMBER_BY_SYMBOL.get(symbol);
}

export function isChemicalSymbol(symbol: string): boolean {
  return NUMBER_BY_SYMBOL.has(symbol) && symbol !== 'X';
}

/** "pt", "PT" -> "Pt"; returns the input unchanged when it is not an element. */
export function normaliseSymbol(raw: string): string {
  const s = raw.length > 1 ? raw[0]!.toUpperCase() + raw.slice(1).toLowerCase() : raw.toUpperCase();
  return NUMBER_BY_SYMBOL.has(s) ? s : raw;
}
