/**
 * Cross-variable rules about the physics pw.x will compute, each either checked against
 * pw.x 6.7 (it stops, or silently ignores a setting) or stated in QE's documentation.
 */
import { arrayIn, assignedOf, namelistOf, numberIn, stringIn } from '../input/query';
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
      c.report({
        code: 'smearing-needs-smearing-occupations',
        severity: 'warning',
        range: r,
        message: `${key} acts only with occupations='smearing' (here '${occ}'); pw.x ignores it. For a metal set occupations='smearing'.`,
        fixes: [{ title: "Set occupations = 'smearing'", edits: [setVariableEdit(c.input, 'system', 'occupations', 'smearing')] }],
      });
    }
  }
  const degauss = numberIn(c.input, 'system', 'degauss') ?? 0;
  if (occ === 'smearing' && degauss <= 0) {
    c.report({
      code: 'smearing-needs-degauss',
      severity: 'error',
      range: at(c, 'occupations') ?? systemHeader(c)!,
      message:
        'occupations=\'smearing\' needs a positive degauss (Ry); pw.x stops with "smearing requires a value for gaussian broadening". A common start for metals is degauss = 0.01-0.02.',
    });
  }
}

function cutoffs(c: ValidationContext): void {
  const ecutwfc = numberIn(c.input, 'system', 'ecutwfc');
  const ecutrho = numberIn(c.input, 'system', 'ecutrho');
  if (ecutwfc === 0) {
    // PW/src/input.f90 set_cutoff: a cutoff <= 0 means "not set"; pw.x then takes the pseudopotentials' own, if they state one.
    c.report({
      code: 'ecutwfc-zero',
      severity: 'error',
      range: at(c, 'ecutwfc')!,
      message:
        'ecutwfc = 0 means "not set": pw.x stops with "ecutwfc not set" unless a pseudopotential file states a cutoff. Set ecutwfc (Ry) to a converged value, e.g. the largest the pseudopotentials suggest.',
    });
  }
  // Negative cutoffs are read_namelists' own check (value-out-of-range); 0 for ecutrho means 4 × ecutwfc.
  if (ecutwfc === undefined || ecutrho === undefined || !(ecutwfc > 0) || !(ecutrho > 0)) return;
  if (ecutrho <= ecutwfc) {
    c.report({
      code: 'ecutrho-not-above-ecutwfc',
      severity: 'error',
      range: at(c, 'ecutrho')!,
      message: `ecutrho = ${ecutrho} Ry is not above ecutwfc = ${ecutwfc} Ry; pw.x stops with "ecutrho <= ecutwfc?!?". The density needs at least 4 × ecutwfc = ${4 * ecutwfc} Ry (8-12 × for ultrasoft/PAW).`,
      fixes: [{ title: `Set ecutrho = ${4 * ecutwfc}`, edits: [setVariableEdit(c.input, 'system', 'ecutrho', 4 * ecutwfc)] }],
    });
  } else if (ecutrho < 4 * ecutwfc) {
    c.report({
      code: 'ecutrho-below-4x',
      severity: 'warning',
      range: at(c, 'ecutrho')!,
      message: `ecutrho = ${ecutrho} Ry is below 4 × ecutwfc = ${4 * ecutwfc} Ry, the least the density of the wavefunctions needs; pw.x asks "ecutrho < 4*ecutwfc, are you sure?". Use ecutrho ≥ ${4 * ecutwfc} Ry.`,
      fixes: [{ title: `Set ecutrho = ${4 * ecutwfc}`, edits: [setVariableEdit(c.input, 'system', 'ecutrho', 4 * ecutwfc)] }],
    });
  }
}

/** Calculations in which pw.x runs an SCF (its lscf): the spin checks of PW/src/input.f90 apply only there. */
const SCF_CALCULATIONS = new Set(['scf', 'ensemble', 'relax', 'md', 'vc-relax', 'vc-md']);

function magnetism(c: ValidationContext): void {
  const nspin = nspinOf(c);
  const magnetization = arrayIn(c.input, 'system', 'starting_magnetization');
  if (magnetization.size && nspin !== 2 && !noncollinear(c)) {
    const first = [...magnetization.values()][0]!;
    c.report({
      code: 'magnetization-needs-nspin',
      severity: 'warning',
      range: first.assignment.range,
      message: `starting_magnetization acts only in a spin-polarised run; with nspin = ${nspin} pw.x ignores it and the result is non-magnetic. Set nspin = 2 (collinear) or noncolin = .true.`,
      fixes: [{ title: 'Set nspin = 2', edits: [setVariableEdit(c.input, 'system', 'nspin', 2)] }],
    });
  }
  // PW/src/input.f90: tot_magnetization is "set" when it differs from its sentinel (-1 in 6.x, -10000 from 7.0 on).
  const sentinel = c.version === '6.7' ? -1 : -10000;
  const totMag = numberIn(c.input, 'system', 'tot_magnetization');
  const twoFermiEnergies = totMag !== undefined && totMag !== sentinel;
  const scf = SCF_CALCULATIONS.has(stringIn(c.input, 'control', 'calculation') ?? 'scf');
  const occ = occupationsOf(c);
  if (twoFermiEnergies && nspin !== 2) {
    c.report({
      code: 'tot-magnetization-needs-nspin',
      severity: 'error',
      range: at(c, 'tot_magnetization')!,
      message: `tot_magnetization fixes the spin-up minus spin-down electron count of a collinear spin-polarised run; with nspin = ${nspin} pw.x stops with "tot_magnetization requires nspin=2". Set nspin = 2 or remove tot_magnetization.`,
    });
  }
  if (c.version === '6.7' && twoFermiEnergies && totMag! < 0) {
    c.report({
      code: 'tot-magnetization-negative',
      severity: 'error',
      range: at(c, 'tot_magnetization')!,
      message: `tot_magnetization = ${totMag}: pw.x 6.x stops with "tot_magnetization only takes positive values". Give the magnitude (the sign of the moment does not matter for the energy).`,
    });
  }
  if (nspin !== 2 || !scf) return;
  if (occ === 'fixed') {
    if (!twoFermiEnergies) {
      c.report({
        code: 'fixed-occupations-need-tot-magnetization',
        severity: 'error',
        range: at(c, 'nspin') ?? systemHeader(c)!,
        message:
          'nspin = 2 with fixed occupations (the default) needs tot_magnetization, the number of unpaired electrons; pw.x stops with "fixed occupations and lsda need tot_magnetization". ' +
          "Set tot_magnetization (e.g. 2 for a triplet), or use occupations='smearing' with a starting_magnetization.",
      });
    } else if (Math.abs(Math.round(totMag!) - totMag!) > 1e-8) {
      c.report({
        code: 'fixed-occupations-need-integer-magnetization',
        severity: 'error',
        range: at(c, 'tot_magnetization')!,
        message: `tot_magnetization = ${totMag} with fixed occupations: pw.x stops with "fixed occupations requires integer tot_magnetization". Use a whole number, or smeared occupations.`,
      });
    }
    return;
  }
  // PW/src/input.f90: with no constraint, no fixed occupations and one Fermi energy, some starting_magnetization must be
  // *set* (an explicit 0 counts: pw.x tests "not set", not zero).
  const constrained = (stringIn(c.input, 'system', 'constrained_magnetization') ?? 'none') !== 'none';
  if (occ !== 'from_input' && !twoFermiEnergies && !constrained && magnetization.size === 0) {
    c.report({
      code: 'nspin-needs-magnetization',
      severity: 'error',
      range: at(c, 'nspin') ?? systemHeader(c)!,
      message:
        'nspin = 2 with no starting_magnetization (and no tot_magnetization): pw.x stops with "some starting_magnetization MUST be set". Set starting_magnetization(i) for the magnetic species.',
    });
  }
}

function ensembleNeedsBeef(c: ValidationContext): void {
  const calc = stringIn(c.input, 'control', 'calculation');
  const dft = stringIn(c.input, 'system', 'input_dft');
  if (calc === 'ensemble' && !/beef/i.test(dft ?? '')) {
    c.report({
      code: 'ensemble-needs-beef',
      severity: 'error',
      range: assignedOf(c.input, 'control', 'calculation')!.assignment.range,
      message: `calculation='ensemble' computes the BEEF-vdW error ensemble; with ${dft ? `input_dft = '${dft}'` : "the pseudopotentials' functional"} pw.x 6.7 runs and prints 2,000 zeros. Set input_dft = 'BEEF-vdW' in &SYSTEM.`,
    });
  }
}

export function checkPhysics(c: ValidationContext): void {
  if (!namelistOf(c.input, 'system')) return;
  smearing(c);
  cutoffs(c);
  magnetism(c);
  ensembleNeedsBeef(c);
}
