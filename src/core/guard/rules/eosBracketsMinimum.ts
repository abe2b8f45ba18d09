/**
 * The volumes of an equation-of-state fit must bracket the minimum: the lowest energy
 * lies at an interior volume, with points on both sides. Otherwise the fit extrapolates.
 */
import type { ArtifactRecord } from '../../provenance/types';
import type { EnergyMeta } from '../../artifacts/shapes';
import { artifactsOf, fmt, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'eos-brackets-minimum';

interface Point {
  id: string;
  volume: number;
  energyPerAtom: number;
}

function pointOf(a: ArtifactRecord): Point | undefined {
  const meta = a.meta as Partial<EnergyMeta> | undefined;
  if (typeof a.value !== 'number' || typeof meta?.volumeAngstrom3 !== 'number') return undefined;
  const natoms = typeof meta.natoms === 'number' && meta.natoms > 0 ? meta.natoms : 1;
  return { id: a.id, volume: meta.volumeAngstrom3 / natoms, energyPerAtom: a.value / natoms };
}

export const eosBracketsMinimum: TierOneRule = (input) => {
  const energies = artifactsOf(input, 'energies');
  const points = energies
    .map(pointOf)
    .filter((p): p is Point => !!p)
    .sort((a, b) => a.volume - b.volume);
  const noVolume = energies.filter((a) => !pointOf(a)).map((a) => a.id);
  if (noVolume.length) {
    return [
      verdict(
        RULE,
        'fail',
        [`energies ${noVolume.join(', ')} carry no cell volume, so the EOS cannot be placed: reference total energies from run_pw.`],
        'energies',
      ),
    ];
  }
  if (points.length < 3) {
    return [
      verdict(
        RULE,
        'fail',
        [`${points.length} EOS point(s) cannot bracket a minimum: compute at least five volumes around the expected equilibrium.`],
        'energies',
      ),
    ];
  }
  const span = points[points.length - 1]!.volume - points[0]!.volume;
  if (span <= 1e-6 * points[0]!.volume) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `all ${points.length} energies are at the same volume (${fmt(points[0]!.volume, 4)} Å^3/atom): an EOS needs a series of volumes (generate_series kind "eos").`,
        ],
        'energies',
      ),
    ];
  }
  const iMin = points.reduce((best, p, i) => (p.energyPerAtom < points[best]!.energyPerAtom ? i : best), 0);
  const range = `${fmt(points[0]!.volume, 4)}–${fmt(points[points.length - 1]!.volume, 4)} Å^3/atom`;
  if (iMin === 0 || iMin === points.length - 1) {
    const side = iMin === 0 ? 'smallest' : 'largest';
    const move = iMin === 0 ? 'smaller' : 'larger';
    return [
      verdict(
        RULE,
        'fail',
        [
          `the lowest energy is at the ${side} volume (${points[iMin]!.id}, ${fmt(points[iMin]!.volume, 4)} Å^3/atom; range ${range}): ` +
            `the minimum is not bracketed. Add volumes ${move} than ${fmt(points[iMin]!.volume, 4)} Å^3/atom and fit again.`,
        ],
        'energies',
      ),
    ];
  }
  return [
    verdict(
      RULE,
      'pass',
      [`minimum at ${points[iMin]!.id} (${fmt(points[iMin]!.volume, 4)} Å^3/atom) lies inside ${range}, ${points.length} points`],
      'energies',
    ),
  ];
};
