/**
 * Rules that need the pseudopotentials' headers (given when the pseudo directory is
 * known): files exist and are readable, the cutoffs reach what the files suggest, the
 * density cutoff suits ultrasoft/PAW augmentation, the functionals agree, and an odd
 * electron count is not forced into fixed occupations.
 */
import { elementOfSpeciesLabel, readAtomicPositions, readAtomicSpecies } from '../input/cards';
import { setVariableEdit } from '../input/edit';
import type { Range } from '../input/model';
import { assignedOf, cardOf, logicalIn, namelistOf, numberIn, stringIn } from '../input/query';
import { nspinOf, noncollinear, occupationsOf, type ValidationContext } from './context';

/** Below this ratio ecutrho/ecutwfc the augmentation charges of US/PAW pseudopotentials are usually under-resolved (QE's documentation: "8 to 12 times ecutwfc, typically"). */
export const USPP_MIN_DUAL = 8;

export function checkPseudopotentials(c: ValidationContext): void {
  if (!c.pseudos) return;
  const species = readAtomicSpecies(c.input)?.value ?? [];
  const speciesCard = cardOf(c.input, 'ATOMIC_SPECIES');
  const rangeOf = (label: string) => species.find((s) => s.label === label)?.range ?? speciesCard?.nameRange;
  for (const p of c.pseudos) {
    if (p.problem) {
      c.report({ code: 'pseudopotential-unreadable', severity: 'error', range: rangeOf(p.label)!, message: p.problem });
    }
  }
  const known = c.pseudos.filter((p) => p.header);
  if (!known.length) return;
  const ecutwfc = numberIn(c.input, 'system', 'ecutwfc');
  const ecutrho = numberIn(c.input, 'system', 'ecutrho') ?? (ecutwfc !== undefined ? 4 * ecutwfc : undefined);
  const wfcAt = assignedOf(c.input, 'system', 'ecutwfc')?.assignment.range ?? namelistOf(c.input, 'system')?.headerRange;
  const rhoAt = assignedOf(c.input, 'system', 'ecutrho')?.assignment.range ?? wfcAt;
  // A cutoff pw.x refuses (negative, zero) is reported by its own rule; comparing it with the files' suggestions says nothing more.
  if (ecutwfc !== undefined && ecutwfc > 0 && wfcAt) {
    const suggesting = known.filter((p) => p.header!.suggestedEcutwfcRy !== undefined && p.header!.suggestedEcutwfcRy > ecutwfc);
    const needWfc = Math.max(0, ...suggesting.map((p) => p.header!.suggestedEcutwfcRy!));
    if (suggesting.length) {
      const who = suggesting.map((p) => `${p.file} (${p.header!.suggestedEcutwfcRy!.toFixed(0)} Ry)`);
      c.report({
        code: 'ecutwfc-below-suggested',
        severity: 'warning',
        range: wfcAt,
        message: `ecutwfc = ${ecutwfc} Ry is below the minimum the pseudopotential files suggest: ${who.join(', ')}. Raise it to at least ${Math.ceil(needWfc)} Ry and converge from there.`,
      });
    }
    const needRho = Math.max(0, ...known.map((p) => p.header!.suggestedEcutrhoRy ?? 0));
    if (ecutrho !== undefined && ecutrho > 0 && rhoAt && needRho > ecutrho) {
      c.report({
        code: 'ecutrho-below-suggested',
        severity: 'warning',
        range: rhoAt,
        message: `ecutrho = ${ecutrho} Ry is below the ${Math.ceil(needRho)} Ry the pseudopotential files suggest for the density; raise it.`,
      });
    }
    const augmented = known.filter((p) => p.header!.type === 'US' || p.header!.type === 'PAW');
    if (augmented.length && ecutrho !== undefined && ecutrho < USPP_MIN_DUAL * ecutwfc && ecutrho >= 4 * ecutwfc) {
      c.report({
        code: 'ecutrho-low-for-uspp',
        severity: 'warning',
        range: rhoAt!,
        message:
          `${augmented.map((p) => `${p.file} (${p.header!.type})`).join(', ')} ${augmented.length === 1 ? 'has' : 'have'} augmentation charges that usually need ecutrho ≈ 8-12 × ecutwfc; ` +
          `here ecutrho = ${ecutrho} Ry = ${(ecutrho / ecutwfc).toFixed(1)} × ecutwfc. Set ecutrho ≥ ${USPP_MIN_DUAL * ecutwfc} Ry or test convergence in ecutrho.`,
        fixes: [
          {
            title: `Set ecutrho = ${USPP_MIN_DUAL * ecutwfc}`,
            edits: [setVariableEdit(c.input, 'system', 'ecutrho', USPP_MIN_DUAL * ecutwfc)],
          },
        ],
      });
    }
  }
  const inputDft = stringIn(c.input, 'system', 'input_dft');
  const functionals = new Set(known.map((p) => p.header!.functional));
  if (!inputDft && functionals.size > 1 && speciesCard) {
    c.report({
      code: 'functional-mismatch',
      severity: 'error',
      range: speciesCard.nameRange,
      message:
        `the pseudopotentials were generated with different functionals (${known.map((p) => `${p.file}: ${p.header!.functional}`).join(', ')}); ` +
        'pw.x stops with "conflicting values for ...". Use pseudopotentials of one functional (or set input_dft knowingly).',
    });
  }
  for (const p of known) {
    const el = elementOfSpeciesLabel(p.label);
    if (el && p.header!.element.toLowerCase() !== el.toLowerCase()) {
      c.report({
        code: 'species-element-mismatch',
        severity: 'warning',
        range: rangeOf(p.label)!,
        message: `species ${p.label} uses ${p.file}, a pseudopotential for ${p.header!.element}; check the ATOMIC_SPECIES line.`,
      });
    }
  }
  fullyRelativistic(c, rangeOf);
  oddElectrons(c);
}

/**
 * Spin-orbit (fully relativistic) pseudopotentials in a run without lspinorb: pw.x averages
 * them into scalar-relativistic ones (PW/src/average_pp.f90), except an ultrasoft or PAW one,
 * for which it stops ("FR-PP please use lspinorb=.true." in 6.x and 7.0-7.2; "Fully relativistic
 * PPs, need spin-orbit calc." from 7.3), and, in the development version (7.4 on), any of them
 * with DFT+U.
 */
function fullyRelativistic(c: ValidationContext, rangeOf: (label: string) => Range | undefined): void {
  if (logicalIn(c.input, 'system', 'lspinorb') === true) return;
  const hubbard = c.version === 'develop' && cardOf(c.input, 'HUBBARD') !== undefined;
  for (const p of c.pseudos ?? []) {
    if (!p.header?.spinOrbit) continue;
    const augmented = p.header.type === 'US' || p.header.type === 'PAW';
    const at = rangeOf(p.label);
    if (!at) continue;
    if (augmented || hubbard) {
      c.report({
        code: 'fr-pseudo-needs-lspinorb',
        severity: 'error',
        range: at,
        message:
          `${p.file} is fully relativistic (spin-orbit)${augmented ? ` and ${p.header.type === 'US' ? 'ultrasoft' : 'PAW'}` : ''}; without lspinorb = .true. pw.x ${c.version} stops ` +
          `(${c.version === 'develop' ? '"Fully relativistic PPs, need spin-orbit calc."' : '"FR-PP please use lspinorb=.true."'}${hubbard && !augmented ? ', with DFT+U' : ''}). ` +
          'Set noncolin = .true. and lspinorb = .true. for spin-orbit, or use the scalar-relativistic pseudopotential.',
      });
    } else {
      c.report({
        code: 'fr-pseudo-averaged',
        severity: 'info',
        range: at,
        message: `${p.file} is fully relativistic (spin-orbit) and norm-conserving; without lspinorb pw.x averages it into a scalar-relativistic pseudopotential and runs.`,
      });
    }
  }
}

function oddElectrons(c: ValidationContext): void {
  const positions = readAtomicPositions(c.input)?.value;
  if (!positions || !c.pseudos || occupationsOf(c) !== 'fixed' || nspinOf(c) !== 1 || noncollinear(c)) return;
  const z = new Map(c.pseudos.filter((p) => p.header).map((p) => [p.label, p.header!.zValence]));
  let electrons = 0;
  for (const a of positions.atoms) {
    const v = z.get(a.label);
    if (v === undefined) return;
    electrons += v;
  }
  electrons -= numberIn(c.input, 'system', 'tot_charge') ?? 0;
  const rounded = Math.round(electrons);
  if (Math.abs(electrons - rounded) < 1e-6 && rounded % 2 === 1) {
    const where = assignedOf(c.input, 'system', 'occupations')?.assignment.range ?? namelistOf(c.input, 'system')!.headerRange;
    c.report({
      code: 'odd-electrons-fixed-occupations',
      severity: 'error',
      range: where,
      message:
        `the cell has ${rounded} valence electrons (odd) and fixed occupations without spin polarisation, so the highest band is half filled; pw.x stops ("charge is wrong"). ` +
        "For a metal set occupations='smearing' with a degauss; for a radical set nspin = 2 with a starting_magnetization.",
      fixes: [{ title: "Set occupations = 'smearing'", edits: [setVariableEdit(c.input, 'system', 'occupations', 'smearing')] }],
    });
  }
}
