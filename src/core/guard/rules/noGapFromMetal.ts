/**
 * A band gap exists only for an insulator: refused where the electron count leaves a band
 * partly filled, where the bands overlap, or where the SCF smeared its occupations and its
 * Fermi level lies inside a band (a metal's smeared run; of a spin-polarised run, in either spin
 * channel: a half-metal has no gap of the crystal). The same test the band_gap tool's
 * science applies (dft/electronic/bandGap.ts), run before the call so a model learns why.
 */
import type { BandStructureValue } from '../../artifacts/electronic';
import { bandGap } from '../../dft/electronic/bandGap';
import { DftScienceError } from '../../dft/scienceError';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'no-gap-from-metal';

export const noGapFromMetal: TierOneRule = (input) => {
  const bs = resolvedArgument(input, 'bands')?.value as BandStructureValue | undefined;
  if (!bs?.bandsEv) return [verdict(RULE, 'pass', ['no band structure referenced'])];
  const energies = (bs.bandsEv[0] ?? []).map((_, k) => bs.bandsEv.map((band) => band[k]!));
  try {
    const gap = bandGap({
      energiesEv: energies,
      electrons: bs.electrons,
      occupations: bs.occupations,
      ...(bs.fermiEnergyEv !== undefined ? { fermiEnergyEv: bs.fermiEnergyEv } : {}),
      // spin-polarised: both channels, each against the Fermi level (a half-metal is named as one)
      ...(bs.nspin === 2
        ? {
            nspin: 2 as const,
            ...(bs.bandsDownEv ? { energiesDownEv: bs.bandsDownEv[0]!.map((_, k) => bs.bandsDownEv!.map((b) => b[k]!)) } : {}),
          }
        : {}),
    });
    return [
      verdict(
        RULE,
        'pass',
        [
          `an insulator: ${gap.occupiedBands} filled bands, ${gap.gapEv.toFixed(3)} eV between them and the first empty one${bs.occupations === 'smearing' ? ', with the smeared Fermi level inside the gap' : ''}`,
        ],
        'bands',
      ),
    ];
  } catch (e) {
    if (!(e instanceof DftScienceError)) throw e;
    return [verdict(RULE, 'fail', [`${e.message} (occupations of the SCF: ${bs.occupations}).`], 'bands')];
  }
};
