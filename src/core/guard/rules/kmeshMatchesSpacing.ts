/**
 * A k-mesh stated together with the spacing it came from must be the mesh that spacing
 * gives on the structure's cell (dft/kpoints.ts meshFromSpacing).
 */
import type { Structure } from '../../dft/types';
import { meshFromSpacing } from '../../dft/kpoints';
import { numberArg, resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'kmesh-matches-spacing';

export const kmeshMatchesSpacing: TierOneRule = (input) => {
  const spacing = numberArg(input.call, 'kSpacingPerAngstrom');
  const mesh = input.call.args.kMesh;
  const structure = resolvedArgument(input, 'structure')?.value as Structure | undefined;
  if (spacing === undefined || !Array.isArray(mesh) || !structure?.cell) {
    return [verdict(RULE, 'pass', ['no mesh stated together with a spacing'])];
  }
  const expected = meshFromSpacing(structure.cell, spacing, structure.pbc);
  if (expected.every((n, i) => n === mesh[i])) {
    return [verdict(RULE, 'pass', [`k-mesh ${JSON.stringify(mesh)} is the mesh of spacing ${spacing} 1/Å on this cell`], 'kMesh')];
  }
  return [
    verdict(
      RULE,
      'fail',
      [
        `k-mesh ${JSON.stringify(mesh)} does not match the declared spacing ${spacing} 1/Å: on this cell that spacing gives ` +
          `${JSON.stringify(expected)}. Give only the spacing (the mesh is computed from it), or state the spacing your mesh achieves.`,
      ],
      'kMesh',
    ),
  ];
};
