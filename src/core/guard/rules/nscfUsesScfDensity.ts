/**
 * A bands or nscf run reads the charge density of its SCF, so the SCF must be a converged,
 * final, production SCF (not a convergence test at settings chosen to vary), and the run must
 * have the SCF's physical settings exactly — structure, functional, cutoffs, spin and the same
 * pseudopotential files by content — with only the k-points, bands and (for a DOS) the
 * occupations changed. Anything else computes bands of a density that belongs to another system.
 */
import type { PwInputValue } from '../../artifacts/shapes';
import { physicalSettingsDifferences } from '../../dft/settingsComparison';
import type { Structure } from '../../dft/types';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';
import { scfOfEnergy } from './scfOfEnergy';

export const RULE = 'nscf-uses-scf-density';

function structureDifference(a: Structure, b: Structure): string | undefined {
  if (a.symbols.join(' ') !== b.symbols.join(' ')) return `atoms ${a.symbols.join(' ')} vs ${b.symbols.join(' ')}`;
  const far = (u: number[], v: number[]) => u.some((x, i) => Math.abs(x - v[i]!) > 1e-6);
  if (a.cell.some((row, i) => far(row, b.cell[i]!))) return `cell ${JSON.stringify(a.cell)} vs ${JSON.stringify(b.cell)} Å`;
  const moved = a.positions.findIndex((p, i) => far(p, b.positions[i]!));
  if (moved >= 0) return `atom ${moved + 1} at ${JSON.stringify(a.positions[moved])} vs ${JSON.stringify(b.positions[moved])} Å`;
  return undefined;
}

export const nscfUsesScfDensity: TierOneRule = (input) => {
  const scf = scfOfEnergy(input.provenance, input.call.args.scf);
  if (typeof scf === 'string')
    return [verdict(RULE, 'fail', [`the run needs the total_energy of the SCF whose charge density it reads: ${scf}.`], 'scf')];
  const { energy, meta } = scf;
  const problems: string[] = [];
  if (scf.input && scf.input.calculation !== 'scf')
    problems.push(`${energy.id} comes from a ${scf.input.calculation} run, not an SCF: run an SCF at the final geometry and continue that`);
  if (meta.purpose === 'convergence-test')
    problems.push(
      `${energy.id} is a convergence test, run at settings chosen to vary; continue the production SCF at the converged settings`,
    );
  if (meta.scfConverged === false || energy.status !== 'final')
    problems.push(
      `${energy.id} is ${energy.status}${meta.scfConverged === false ? ' (its SCF did not converge)' : ''}: its charge density is not a converged one`,
    );
  const nscf = resolvedArgument(input, 'input')?.value as PwInputValue | undefined;
  if (nscf) {
    if (nscf.calculation !== 'bands' && nscf.calculation !== 'nscf') {
      problems.push(
        `the input is a '${nscf.calculation}' run; a band structure or DOS continues an SCF with calculation 'bands' or 'nscf' (make_nscf_input)`,
      );
    }
    // k-points, bands and a DOS's occupations are what a non-self-consistent run changes; nothing else may
    const ignore = [
      'kSpacingPerAngstrom',
      'kMesh',
      'kShift',
      ...(nscf.calculation === 'nscf' ? (['occupations', 'smearing', 'degaussRy'] as const) : []),
    ] as const;
    const diffs = physicalSettingsDifferences(meta.settings, nscf.settings, [...ignore]);
    for (const d of diffs) problems.push(`${d.setting} differs: the SCF's ${JSON.stringify(d.a)}, this run's ${JSON.stringify(d.b)}`);
    const elA = Object.keys(meta.settings.pseudopotentials ?? {})
      .sort()
      .join(',');
    const elB = Object.keys(nscf.settings.pseudopotentials ?? {})
      .sort()
      .join(',');
    if (elA !== elB) problems.push(`pseudopotentials for ${elB || 'no element'} where the SCF had ${elA}`);
    // the files the SCF ran with, by content (run_pw hashed them when it ran)
    const ran = meta.pseudopotentialSha256 as Record<string, string> | undefined;
    for (const p of Object.values(nscf.settings.pseudopotentials ?? {})) {
      if (ran && p.sha256 && ran[p.file] && ran[p.file] !== p.sha256)
        problems.push(`${p.file} is not the file the SCF ran with (sha256 ${p.sha256.slice(0, 12)}… vs ${ran[p.file]!.slice(0, 12)}…)`);
      if (ran && !ran[p.file])
        problems.push(`${p.file} is not among the pseudopotential files the SCF ran with (${Object.keys(ran).join(', ')})`);
    }
    const geometry = scf.input ? structureDifference(scf.input.structure, nscf.structure) : undefined;
    if (geometry) problems.push(`the structure differs from the SCF's: ${geometry}`);
  }
  if (problems.length) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `a ${nscf?.calculation ?? 'bands/nscf'} run must read the charge density of a converged SCF with identical physical settings: ${problems.join('; ')}.`,
        ],
        problems.some((p) => p.startsWith(energy.id)) ? 'scf' : 'input',
      ),
    ];
  }
  return [
    verdict(
      RULE,
      'pass',
      [
        `${energy.id} is a converged production SCF${nscf ? ' with the same structure, functional, cutoffs, spin and pseudopotential files' : ''}`,
      ],
      'scf',
    ),
  ];
};
