/**
 * Cross-variable rules about the physics pw.x will compute, each either checked against
 * pw.x 6.7 (it stops, or silently ignores a setting) or stated in QE's documentation.
 */
import { arrayIn, assignedOf, namelistOf, numberIn, stringIn, valueOf } from '../input/query';
import type { Range } from '../input/model';
import { setVariableEdit } from '../input/edit';
import { nspinOf, noncollinear, occupationsOf, type ValidationContext } from './context';

const at = (c: ValidationContext, key: string): Range | undefined => assignedOf(c.input, 'system', key)?.assignment.range;
const systemHeader = (c: ValidationContext) => namelistOf(c.input, 'system')?.headerRange;

function smearing(c: ValidationContext): void {
  const occ = occupationsOf(c);
  for (const key of ['smearing', 'degauss']) {
    const r = at(c, key);
    if (r && occ !== 'smearing') {
      c.report({ code: 'smearing-needs-smearing-occupations', severity: 'warning', range: r,
        message: `${key} acts only with occupations='smearing' (here '${occ}'); pw.x ignores it. For a metal set occupations='smearing'.`,
        fixes: [{ title: "Set occupations = 'smearing'", edits: [setVariableEdit(c.input, 'system', 'occupations', 'smearing')] }] });
    }
  }
  const degauss = numberIn(c.input, 'system', 'degauss') ?? 0;
  if (occ === 'smearing' && degauss <= 0) {
    c.report({ code: 'smearing-needs-degauss', severity: 'error', range: at(c, 'occupations') ?? systemHeader(c)!,
      message: "occupations='smearing' needs a positive degauss (Ry); pw.x stops with \"smearing requires a value for gaussian broadening\". A common start for metals is degauss = 0.01-0.02." });
  }
}

function cutoffs(c: ValidationContext): void {
  const ecutwfc = numberIn(c.input, 'system', 'ecutwfc');
  const ecutrho = numberIn(c.input, 'system', 'ecutrho');
  if (ecutwfc === undefined || ecutrho === undefined) return;
  if (ecutrho < 4 * ecutwfc) {
    c.report({ code: 'ecutrho-below-4x', severity: 'warning', range: at(c, 'ecutrho')!,
      message: `ecutrho = ${ecutrho} Ry is below 4 × ecutwfc = ${4 * ecutwfc} Ry, the least the density of the wavefunctions needs; pw.x asks "ecutrho < 4*ecutwfc, are you sure?". Use ecutrho ≥ ${4 * ecutwfc} Ry.`,
      fixes: [{ title: `Set ecutrho = ${4 * ecutwfc}`, edits: [setVariableEdit(c.input, 'system', 'ecutrho', 4 * ecutwfc)] }] });
  }
}

function magnetism(c: ValidationContext): void {
  const nspin = nspinOf(c);
  const magnetization = arrayIn(c.input, 'system', 'starting_magnetization');
  const anyStart = [...magnetization.values()].some((v) => v.value.type !== 'string' && Number(v.value.value) !== 0);
  if (magnetization.size && nspin !== 2 && !noncollinear(c)) {
    const first = [...magnetization.values()][0]!;
    c.report({ code: 'magnetization-needs-nspin', severity: 'warning', range: first.assignment.range,
      message: `starting_magnetization acts only in a spin-polarised run; with nspin = ${nspin} pw.x ignores it and the result is non-magnetic. Set nspin = 2 (collinear) or noncolin = .true.`,
      fixes: [{ title: 'Set nspin = 2', edits: [setVariableEdit(c.input, 'system', 'nspin', 2)] }] });
  }
  const totMag = valueOf(c.input, 'system', 'tot_magnetization');
  if (nspin === 2 && !anyStart && totMag === undefined) {
    c.report({ code: 'nspin-needs-magnetization', severity: 'error', range: at(c, 'nspin') ?? systemHeader(c)!,
      message: 'nspin = 2 with no non-zero starting_magnetization (and no tot_magnetization): pw.x stops with "some starting_magnetization MUST be set". Set starting_magnetization(i) for the magnetic species.' });
  }
}

function ensembleNeedsBeef(c: ValidationContext): void {
  const calc = stringIn(c.input, 'control', 'calculation');
  const dft = stringIn(c.input, 'system', 'input_dft');
  if (calc === 'ensemble' && !/beef/i.test(dft ?? '')) {
    c.report({ code: 'ensemble-needs-beef', severity: 'error', range: assignedOf(c.input, 'control', 'calculation')!.assignment.range,
      message: `calculation='ensemble' computes the BEEF-vdW error ensemble; with ${dft ? `input_dft = '${dft}'` : 'the pseudopotentials\' functional'} pw.x 6.7 runs and prints 2,000 zeros. Set input_dft = 'BEEF-vdW' in &SYSTEM.` });
  }
}

export function checkPhysics(c: ValidationContext): void {
  if (!namelistOf(c.input, 'system')) return;
  smearing(c);
  cutoffs(c);
  magnetism(c);
  ensembleNeedsBeef(c);
}
