/**
 * Rules that need the pseudopotentials' headers (given when the pseudo directory is
 * known): files exist and are readable, the cutoffs reach what the files suggest, the
 * density cutoff suits ultrasoft/PAW augmentation, the functionals agree, and an odd
 * electron count is not forced into fixed occupations.
 */
import { elementOfSpeciesLabel, readAtomicPositions, readAtomicSpecies } from '../input/cards';
import { setVariableEdit } from '../input/edit';
import { assignedOf, cardOf, namelistOf, numberIn, stringIn } from '../input/query';
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
  if (ecutwfc !== undefined && wfcAt) {
    const needWfc = Math.max(...known.map((p) => p.header!.suggestedEcutwfcRy ?? 0));
    if (needWfc > ecutwfc) {
      const who = known.filter((p) => (p.header!.suggestedEcutwfcRy ?? 0) > ecutwfc).map((p) => `${p.file} (${p.header!.suggestedEcutwfcRy!.toFixed(0)} Ry)`);
      c.report({ code: 'ecutwfc-below-suggested', severity: 'warning', range: wfcAt,
        message: `ecutwfc = ${ecutwfc} Ry is below the minimum the pseudopotential files suggest: ${who.join(', ')}. Raise it to at least ${Math.ceil(needWfc)} Ry and converge from there.` });
    }
    const needRho = Math.max(...known.map((p) => p.header!.suggestedEcutrhoRy ?? 0));
    if (ecutrho !== undefined && rhoAt && needRho > ecutrho) {
      c.report({ code: 'ecutrho-below-suggested', severity: 'warning', range: rhoAt,
        message: `ecutrho = ${ecutrho} Ry is below the ${Math.ceil(needRho)} Ry the pseudopotential files suggest for the density; raise it.` });
    }
    const augmented = known.filter((p) => p.header!.type === 'US' || p.header!.type === 'PAW');
    if (augmented.length && ecutrho !== undefined && ecutrho < USPP_MIN_DUAL * ecutwfc && ecutrho >= 4 * ecutwfc) {
      c.report({ code: 'ecutrho-low-for-uspp', severity: 'warning', range: rhoAt!,
        message: `${augmented.map((p) => `${p.file} (${p.header!.type})`).join(', ')} ${augmented.length === 1 ? 'has' : 'have'} augmentation charges that usually need ecutrho ≈ 8-12 × ecutwfc; ` +
          `here ecutrho = ${ecutrho} Ry = ${(ecutrho / ecutwfc).toFixed(1)} × ecutwfc. Set ecutrho ≥ ${USPP_MIN_DUAL * ecutwfc} Ry or test convergence in ecutrho.`,
        fixes: [{ title: `Set ecutrho = ${USPP_MIN_DUAL * ecutwfc}`, edits: [setVariableEdit(c.input, 'system', 'ecutrho', USPP_MIN_DUAL * ecutwfc)] }] });
    }
  }
  const inputDft = stringIn(c.input, 'system', 'input_dft');
  const functionals = new Set(known.map((p) => p.header!.functional));
  if (!inputDft && functionals.size > 1 && speciesCard) {
    c.report({ code: 'functional-mismatch', severity: 'error', range: speciesCard.nameRange,
      message: `the pseudopotentials were generated with different functionals (${known.map((p) => `${p.file}: ${p.header!.functional}`).join(', ')}); ` +
        'pw.x stops with "conflicting values for ...". Use pseudopotentials of one functional (or set input_dft knowingly).' });
  }
  for (const p of known) {
    const el = elementOfSpeciesLabel(p.label);
    if (el && p.header!.element.toLowerCase() !== el.toLowerCase()) {
      c.report({ code: 'species-element-mismatch', severity: 'warning', range: rangeOf(p.label)!,
        message: `species ${p.label} uses ${p.file}, a pseudopotential for ${p.header!.element}; check the ATOMIC_SPECIES line.` });
    }
  }
  oddElectrons(c);
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
    c.report({ code: 'odd-electrons-fixed-occupations', severity: 'error', range: where,
      message: `the cell has ${rounded} valence electrons (odd) and fixed occupations without spin polarisation, so the highest band is half filled; pw.x stops ("charge is wrong"). ` +
        "For a metal set occupations='smearing' with a degauss; for a radical set nspin = 2 with a starting_magnetization.",
      fixes: [{ title: "Set occupations = 'smearing'", edits: [setVariableEdit(c.input, 'system', 'occupations', 'smearing')] }] });
  }
}
