/** The pw.x input model: parse, query, edit, serialize, build. */
export * from './model';
export * from './fortran';
export { parsePwInput, isCardName } from './parse';
export * from './query';
export * from './edit';
export * from './cards';
export * from './build';
export { evaluateCoordinate } from './expression';
export { latticeOfInput, usesCelldm, LatticeError, type InputLattice } from './lattice';
