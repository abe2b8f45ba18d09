/**
 * Energy–volume forms of the equations of state, in consistent units: volumes and V0 in
 * one volume unit, B0 in energy per that volume unit, energies in the energy unit.
 *
 * - Birch–Murnaghan 3rd order: F. Birch, Phys. Rev. 71, 809 (1947).
 * - Murnaghan: F. D. Murnaghan, PNAS 30, 244 (1944).
 * - Vinet: P. Vinet, J. H. Rose, J. Ferrante, J. R. Smith, J. Phys.: Condens. Matter 1, 1941 (1989).
 * - SJ (stabilized jellium): a cubic polynomial in V^(-1/3), A. B. Alchagirov, J. P. Perdew,
 *   J. C. Boettger, R. C. Albers, C. Fiolhais, Phys. Rev. B 63, 224115 (2001).
 */
export interface EosParameters {
  e0: number;
  v0: number;
  b0: number;
  b0Prime: number;
}

export function birchMurnaghanEnergy(v: number, p: EosParameters): number {
  const f = (p.v0 / v) ** (2 / 3) - 1;
  return p.e0 + ((9 * p.v0 * p.b0) / 16) * (f ** 3 * p.b0Prime + f ** 2 * (6 - 4 * (p.v0 / v) ** (2 / 3)));
}

export function murnaghanEnergy(v: number, p: EosParameters): number {
  const bp = p.b0Prime;
  return p.e0 + ((p.b0 * v) / bp) * ((p.v0 / v) ** bp / (bp - 1) + 1) - (p.v0 * p.b0) / (bp - 1);
}

export function vinetEnergy(v: number, p: EosParameters): number {
  const bp = p.b0Prime;
  const eta = (v / p.v0) ** (1 / 3);
  return p.e0 + ((2 * p.b0 * p.v0) / (bp - 1) ** 2) * (2 - (5 + 3 * bp * (eta - 1) - 3 * eta) * Math.exp((-3 * (bp - 1) * (eta - 1)) / 2));
}
