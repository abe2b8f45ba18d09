/**
 * The pw.x input of a non-self-consistent run on an SCF's charge density: the SCF's own input
 * rendered again (same structure, pseudopotentials, cutoffs, functional, spin, scratch) with
 * calculation = 'bands' along a path (K_POINTS crystal_b) or 'nscf' on a denser mesh for a
 * DOS, more bands, and for a DOS the occupations the user chose (optimised tetrahedra or the
 * SCF's smearing). Everything that shapes the charge density stays the SCF's.
 */
import { DftScienceError } from '../scienceError';
import type { PhysicalSettings, Structure } from '../types';
import type { PathNode } from '../electronic/kpath';
import { parsePwInput } from './input';
import { replaceCardEdit, serializePwInput, withEdits, withoutVariable, withVariable } from './input/edit';
import { renderPwInput, type PseudoChoice, type PwInputOptions } from './pwInput';

export type NscfRequest =
  | { kind: 'bands'; nbnd: number; path: PathNode[] }
  | { kind: 'dos'; nbnd: number; kMesh: [number, number, number]; occupations: 'tetrahedra_opt' | 'smearing' };

export interface ScfInputParts {
  structure: Structure;
  options: PwInputOptions;
  pseudos: Record<string, PseudoChoice>;
}

/** Bands for an NSCF: the occupied ones (half the electrons, all of them when spin-polarised) and at least four and 20 % more empty. */
export function defaultNbnd(electrons: number, nspin: number): number {
  const occupied = Math.ceil(nspin === 2 ? electrons : electrons / 2);
  return Math.max(occupied + 4, Math.ceil(occupied * 1.2));
}

export function renderNscfInput(
  scf: ScfInputParts,
  req: NscfRequest,
): { text: string; settings: PhysicalSettings; calculation: 'bands' | 'nscf' } {
  if (scf.options.calculation !== 'scf') {
    throw new DftScienceError(
      `a ${req.kind === 'bands' ? 'band structure' : 'DOS'} continues an SCF, but this input is a ${scf.options.calculation}; run an SCF at the final geometry first.`,
      { calculation: scf.options.calculation },
    );
  }
  if (!(Number.isInteger(req.nbnd) && req.nbnd > 0))
    throw new DftScienceError(`nbnd must be a positive whole number of bands (got ${req.nbnd}).`, { nbnd: req.nbnd });
  // a DOS mesh replaces the SCF's; a path replaces the K_POINTS card below
  const options: PwInputOptions = { ...scf.options };
  if (req.kind === 'dos') {
    delete options.kSpacingPerAngstrom;
    options.kMesh = req.kMesh;
  }
  const { text, settings } = renderPwInput(scf.structure, options, scf.pseudos);
  const calculation = req.kind === 'bands' ? 'bands' : 'nscf';
  let input = parsePwInput(text);
  input = withVariable(input, 'control', 'calculation', calculation);
  // forces and stress belong to the SCF; pw.x computes neither in a non-self-consistent run
  input = withoutVariable(withoutVariable(input, 'control', 'tprnfor'), 'control', 'tstress');
  input = withVariable(input, 'system', 'nbnd', req.nbnd);
  const out: PhysicalSettings = { ...settings };
  if (req.kind === 'dos' && req.occupations === 'tetrahedra_opt') {
    input = withoutVariable(withoutVariable(input, 'system', 'smearing'), 'system', 'degauss');
    input = withVariable(input, 'system', 'occupations', 'tetrahedra_opt');
    out.occupations = 'tetrahedra_opt';
    delete out.smearing;
    delete out.degaussRy;
  }
  if (req.kind === 'bands') {
    if (req.path.length < 2) throw new DftScienceError('a band path needs at least two points.', {});
    const lines = [String(req.path.length), ...req.path.map((n) => `  ${n.k.map((x) => x.toFixed(10)).join(' ')} ${n.count}`)];
    input = withEdits(input, [replaceCardEdit(input, 'K_POINTS', { option: 'crystal_b', lines })]);
    delete out.kMesh;
    delete out.kShift;
    delete out.kSpacingPerAngstrom;
  } else {
    delete out.kSpacingPerAngstrom;
  }
  return { text: serializePwInput(input), settings: out, calculation };
}
