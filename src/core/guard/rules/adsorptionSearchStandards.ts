/**
 * The standards of the AdsMind search a study should not quietly loosen: relaxations to
 * fmax 0.10 eV/Å, lateral vectors of at least 6 Å and at least 15 Å of vacuum. Looser
 * values are warned about (a person decides; fine for a test, not for results); a force
 * threshold above 0.5 eV/Å leaves the geometry far from any minimum and is refused.
 */
import { MIN_LATERAL_ANGSTROM, MIN_VACUUM_ANGSTROM } from '../../adsorption/slab';
import { DEFAULT_RELAX } from '../../calculators/optimizers/fire';
import { fmt, numberArg, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'adsorption-search-standards';

const REFUSED_FMAX_EV_PER_ANGSTROM = 0.5;

export const adsorptionSearchStandards: TierOneRule = (input) => {
  const out = [];
  const fmax = numberArg(input.call, 'fmaxEvPerAngstrom');
  if (fmax !== undefined) {
    if (fmax > REFUSED_FMAX_EV_PER_ANGSTROM) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `fmaxEvPerAngstrom = ${fmt(fmax)} eV/Å stops relaxations far from a minimum; use ${DEFAULT_RELAX.fmaxEvPerAngstrom} eV/Å (AdsMind) or tighter.`,
          ],
          'fmaxEvPerAngstrom',
        ),
      );
    } else if (fmax > DEFAULT_RELAX.fmaxEvPerAngstrom) {
      out.push(
        verdict(
          RULE,
          'warn',
          [
            `fmaxEvPerAngstrom = ${fmt(fmax)} eV/Å is looser than the ${DEFAULT_RELAX.fmaxEvPerAngstrom} eV/Å of the AdsMind search: energies of such relaxations may rank configurations wrongly.`,
          ],
          'fmaxEvPerAngstrom',
        ),
      );
    } else {
      out.push(verdict(RULE, 'pass', [`fmax ${fmt(fmax)} eV/Å ≤ ${DEFAULT_RELAX.fmaxEvPerAngstrom} eV/Å`], 'fmaxEvPerAngstrom'));
    }
  }
  const lateral = numberArg(input.call, 'minLateralAngstrom');
  if (lateral !== undefined && lateral < MIN_LATERAL_ANGSTROM) {
    out.push(
      verdict(
        RULE,
        'warn',
        [
          `minLateralAngstrom = ${fmt(lateral)} Å: an adsorbate closer than ${MIN_LATERAL_ANGSTROM} Å to its periodic image feels it; fine for a test, not for results.`,
        ],
        'minLateralAngstrom',
      ),
    );
  }
  const vacuum = numberArg(input.call, 'minVacuumAngstrom');
  if (vacuum !== undefined && vacuum < MIN_VACUUM_ANGSTROM) {
    out.push(
      verdict(
        RULE,
        'warn',
        [
          `minVacuumAngstrom = ${fmt(vacuum)} Å: below ${MIN_VACUUM_ANGSTROM} Å the two surfaces of the slab interact through the periodic image; fine for a test, not for results.`,
        ],
        'minVacuumAngstrom',
      ),
    );
  }
  return out.length ? out : [verdict(RULE, 'pass', ['no search standard applies to this call'])];
};
