/**
 * The wavefunction and density cutoffs must not be below what the pseudopotentials'
 * authors suggest in the UPF header: an ecutwfc below it fails (total energies are not
 * meaningful). An ecutrho below its suggestion fails too when ecutwfc is also below (or not
 * given); with ecutwfc at or above its own suggestion it warns: pw.x runs and the
 * wavefunctions are resolved, but the density (augmentation charges of ultrasoft and PAW
 * files) may be under-converged, which only a test over ecutrho settles, so the user decides.
 */
import type { PseudopotentialTableValue } from '../../artifacts/shapes';
import { fmt, numberArg, resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'cutoff-above-pseudopotential-suggestion';

export const cutoffAbovePseudopotentialSuggestion: TierOneRule = (input) => {
  const table = resolvedArgument(input, 'pseudopotentials')?.value as PseudopotentialTableValue | undefined;
  if (!table?.byElement) return [verdict(RULE, 'pass', ['no pseudopotential table referenced'])];
  const out = [];
  const checks = [
    { argument: 'ecutwfcRy', key: 'suggestedEcutwfcRy' as const },
    { argument: 'ecutrhoRy', key: 'suggestedEcutrhoRy' as const },
  ];
  const topOf = (key: 'suggestedEcutwfcRy' | 'suggestedEcutrhoRy') => {
    const suggestions = Object.entries(table.byElement)
      .filter(([, e]) => typeof e[key] === 'number')
      .map(([el, e]) => ({ el, file: e.file, ry: e[key] as number }));
    return suggestions.length ? suggestions.reduce((a, b) => (b.ry > a.ry ? b : a)) : undefined;
  };
  const wfc = numberArg(input.call, 'ecutwfcRy');
  const wfcTop = topOf('suggestedEcutwfcRy');
  const wfcAbove = wfc !== undefined && (!wfcTop || wfc >= wfcTop.ry);
  for (const { argument, key } of checks) {
    const value = numberArg(input.call, argument);
    if (value === undefined) continue;
    const top = topOf(key);
    if (!top) continue;
    if (value >= top.ry) {
      out.push(
        verdict(RULE, 'pass', [`${argument} = ${fmt(value)} Ry ≥ ${fmt(top.ry)} Ry suggested for ${top.el} (${top.file})`], argument),
      );
    } else if (argument === 'ecutrhoRy' && wfcAbove) {
      out.push(
        verdict(
          RULE,
          'warn',
          [
            `${argument} = ${fmt(value)} Ry is below the ${fmt(top.ry)} Ry suggested for the density in the header of ${top.file} (${top.el}), ` +
              `though ecutwfcRy = ${fmt(wfc!)} Ry is at or above its suggestion: pw.x runs, but the density may be under-converged. ` +
              `Use at least ${fmt(top.ry)} Ry, or approve this if a convergence test over ecutrho covered it.`,
          ],
          argument,
        ),
      );
    } else {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${argument} = ${fmt(value)} Ry is below the ${fmt(top.ry)} Ry suggested in the header of ${top.file} (${top.el}). ` +
              `Use at least ${fmt(top.ry)} Ry, and converge upward from there.`,
          ],
          argument,
        ),
      );
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', ['the pseudopotential headers suggest no cutoffs'])];
};
