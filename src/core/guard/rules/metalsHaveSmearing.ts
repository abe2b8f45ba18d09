/**
 * A metal (every substrate atom a metallic element) needs smeared occupations: with
 * fixed occupations the SCF of a metal converges poorly or to a wrong state, and
 * k-point convergence is far slower.
 */
import type { Structure } from '../../dft/types';
import { numberArg, resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'metals-have-smearing';

/** Elements whose elemental solid is a metal or semimetal at ambient conditions. */
const METALLIC = new Set([
  'Li',
  'Be',
  'Na',
  'Mg',
  'Al',
  'K',
  'Ca',
  'Sc',
  'Ti',
  'V',
  'Cr',
  'Mn',
  'Fe',
  'Co',
  'Ni',
  'Cu',
  'Zn',
  'Ga',
  'Rb',
  'Sr',
  'Y',
  'Zr',
  'Nb',
  'Mo',
  'Tc',
  'Ru',
  'Rh',
  'Pd',
  'Ag',
  'Cd',
  'In',
  'Sn',
  'Sb',
  'Cs',
  'Ba',
  'La',
  'Ce',
  'Pr',
  'Nd',
  'Pm',
  'Sm',
  'Eu',
  'Gd',
  'Tb',
  'Dy',
  'Ho',
  'Er',
  'Tm',
  'Yb',
  'Lu',
  'Hf',
  'Ta',
  'W',
  'Re',
  'Os',
  'Ir',
  'Pt',
  'Au',
  'Hg',
  'Tl',
  'Pb',
  'Bi',
  'Po',
  'Fr',
  'Ra',
  'Ac',
  'Th',
  'Pa',
  'U',
  'Np',
  'Pu',
]);

/** Substrate atoms: all atoms, less those tagged 0 (adsorbates) when the structure is tagged. */
function substrateSymbols(s: Structure): string[] {
  // Tags that do not cover every atom say nothing reliable about which atoms are adsorbates.
  if (!s.tags || s.tags.length !== s.symbols.length || !s.tags.some((t) => t !== 0)) return s.symbols;
  return s.symbols.filter((_, i) => s.tags![i] !== 0);
}

export function isMetallic(s: Structure): boolean {
  const symbols = substrateSymbols(s);
  return symbols.length > 0 && symbols.every((el) => METALLIC.has(el));
}

export const metalsHaveSmearing: TierOneRule = (input) => {
  const structure = resolvedArgument(input, 'structure')?.value as Structure | undefined;
  if (!structure?.symbols) return [verdict(RULE, 'pass', ['no structure referenced'])];
  const elements = [...new Set(substrateSymbols(structure))].join(', ');
  // Effective-medium theory has no electronic occupations to smear.
  if (input.call.args.calculator === 'emt') return [verdict(RULE, 'pass', ['EMT: a model potential with no occupations'])];
  if (input.call.args.calculator === 'ipi')
    return [verdict(RULE, 'pass', ["an i-PI client: the user's own calculator, whose occupations (if any) are its own"])];
  if (!isMetallic(structure)) return [verdict(RULE, 'pass', [`${elements}: not a metal by composition`])];
  const occupations = input.call.args.occupations;
  const degauss = numberArg(input.call, 'degaussRy');
  if (occupations !== 'smearing') {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the structure is a metal (${elements}) but occupations = ${JSON.stringify(occupations ?? 'fixed')}. ` +
            "Use occupations 'smearing' with a smearing ('mv' or 'mp' for metals) and degaussRy (typically 0.01–0.02 Ry).",
        ],
        'occupations',
      ),
    ];
  }
  if (!input.call.args.smearing || degauss === undefined || degauss <= 0) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the structure is a metal (${elements}): smeared occupations need a smearing and a positive degaussRy ` +
            `(given smearing ${JSON.stringify(input.call.args.smearing)}, degaussRy ${JSON.stringify(degauss)}).`,
        ],
        input.call.args.smearing ? 'degaussRy' : 'smearing',
      ),
    ];
  }
  return [
    verdict(RULE, 'pass', [`metal (${elements}) with ${String(input.call.args.smearing)} smearing, degauss ${degauss} Ry`], 'occupations'),
  ];
};
