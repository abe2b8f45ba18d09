/**
 * An energy difference is a reaction: the coefficients must balance every element (what the
 * compound or slab holds, the references take away), one coefficient per energy.
 */
import { imbalanceOf } from '../../dft/energyDifference';
import { compositionOfSource, energySourceOf } from '../../artifacts/energySource';
import { verdict, type TierOneRule } from './ruleInput';

export const RULE = 'energy-formula-balanced';

export const energyFormulaBalanced: TierOneRule = (input) => {
  const energies = input.call.args.energies;
  const coefficients = input.call.args.coefficients;
  if (!Array.isArray(energies) || !Array.isArray(coefficients)) return [verdict(RULE, 'pass', ['no energies with coefficients'])];
  if (energies.length !== coefficients.length) {
    return [
      verdict(
        RULE,
        'fail',
        [`${energies.length} energies but ${coefficients.length} coefficients: give one coefficient per energy, in the same order.`],
        'coefficients',
      ),
    ];
  }
  const terms = [];
  for (const [i, ref] of energies.entries()) {
    const composition = compositionOfSource(energySourceOf(input.provenance, String(ref)));
    if (!composition)
      return [
        verdict(
          RULE,
          'warn',
          [`energies[${i}] (${String(ref)}): its structure is not on record, so the balance of atoms cannot be checked.`],
          'energies',
        ),
      ];
    terms.push({ coefficient: Number(coefficients[i]), composition });
  }
  const left = imbalanceOf(terms);
  if (Object.keys(left).length) {
    const list = Object.entries(left)
      .map(([el, n]) => `${String(Number(n.toPrecision(8)))} ${el}`)
      .join(', ');
    return [
      verdict(
        RULE,
        'fail',
        [
          `the coefficients do not balance the atoms: ${list} left over (Σ coefficient × atoms must be 0 for every element). ` +
            'A reference takes away exactly the atoms of the compound or slab: −N_slab/N_bulk for a bulk cell, −½ per O for O2.',
        ],
        'coefficients',
      ),
    ];
  }
  return [verdict(RULE, 'pass', [`every element balances over ${terms.length} energies`], 'coefficients')];
};
