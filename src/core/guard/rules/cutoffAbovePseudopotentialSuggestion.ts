/**
 * The wavefunction and density cutoffs must not be below what the pseudopotentials'
 * authors suggest in the UPF header: below it, total energies are not meaningful.
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
  for (const { argument, key } of checks) {
    const value = numberArg(input.call, argument);
    if (value === undefined) continue;
    const suggestions = Object.entries(table.byElement)
      .filter(([, e]) => typeof e[key] === 'number')
      .map(([el, e]) => ({ el, file: e.file, ry: e[key] as number }));
    if (suggestions.length === 0) continue;
    const top = suggestions.reduce((a, b) => (b.ry > a.ry ? b : a));
    if (value < top.ry) {
      out.push(verdict(RULE, 'fail', [
        `${argument} = ${fmt(value)} Ry is below the ${fmt(top.ry)} Ry suggested in the header of ${top.file} (${top.el}). ` +
          `Use at least ${fmt(top.ry)} Ry, and converge upward from there.`,
      ], argument));
    } else {
      out.push(verdict(RULE, 'pass', [`${argument} = ${fmt(value)} Ry ≥ ${fmt(top.ry)} Ry suggested for ${top.el} (${top.file})`], argument));
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', ['the pseudopotential headers suggest no cutoffs'])];
};
