/**
 * Standard atomic weights (IUPAC, conventional values rounded to 0.01 u) for the
 * ATOMIC_SPECIES card. pw.x uses masses only for dynamics; energies and relaxed
 * geometries do not depend on them.
 */
const MASSES: Readonly<Record<string, number>> = {
  H: 1.01, He: 4.0, Li: 6.94, Be: 9.01, B: 10.81, C: 12.01, N: 14.01, O: 16.0, F: 19.0, Ne: 20.18,
  Na: 22.99, Mg: 24.31, Al: 26.98, Si: 28.09, P: 30.97, S: 32.06, Cl: 35.45, Ar: 39.95, K: 39.1, Ca: 40.08,
  Sc: 44.96, Ti: 47.87, V: 50.94, Cr: 52.0, Mn: 54.94, Fe: 55.85, Co: 58.93, Ni: 58.69, Cu: 63.55, Zn: 65.38,
  Ga: 69.72, Ge: 72.63, As: 74.92, Se: 78.97, Br: 79.9, Kr: 83.8, Rb: 85.47, Sr: 87.62, Y: 88.91, Zr: 91.22,
  Nb: 92.91, Mo: 95.95, Tc: 97.0, Ru: 101.07, Rh: 102.91, Pd: 106.42, Ag: 107.87, Cd: 112.41, In: 114.82, Sn: 118.71,
  Sb: 121.76, Te: 127.6, I: 126.9, Xe: 131.29, Cs: 132.91, Ba: 137.33, La: 138.91, Ce: 140.12, Hf: 178.49, Ta: 180.95,
  W: 183.84, Re: 186.21, Os: 190.23, Ir: 192.22, Pt: 195.08, Au: 196.97, Hg: 200.59, Tl: 204.38, Pb: 207.2, Bi: 208.98,
};

export function atomicMassAmu(symbol: string): number {
  const m = MASSES[symbol];
  if (m === undefined) {
    throw new Error(`no atomic mass on file for "${symbol}"; the catalogue knows ${Object.keys(MASSES).length} elements (H–Bi without most lanthanides).`);
  }
  return m;
}
