/**
 * The band gap of an insulator from its bands: the valence-band maximum (highest energy of
 * the highest occupied band over all k), the conduction-band minimum, whether they sit at
 * the same k (direct) and the smallest direct gap. Refused, with the reason, where no gap
 * exists to claim: an odd electron count per cell (a half-filled band), overlapping bands,
 * a Fermi level of a smeared run inside a band, or no empty band computed. Energies in eV.
 */
import { DftScienceError } from '../scienceError';

export interface BandGapInput {
  /** energiesEv[k][band], eV, bands sorted by energy at each k. */
  energiesEv: number[][];
  /** Valence electrons per cell (pw.x's "number of electrons"). */
  electrons: number;
  /** pw.x's occupations of the SCF that made the charge density ('fixed', 'smearing', 'tetrahedra', ...). */
  occupations: string;
  /** The SCF's Fermi energy (smeared and tetrahedra runs), eV. */
  fermiEnergyEv?: number;
  /** A smeared SCF with a fixed total magnetization has no single E_F: each channel's (up, down), eV. */
  fermiEnergiesUpDownEv?: [number, number];
  /** The SCF's total magnetization, μB/cell: with fixed occupations and nspin 2 each channel holds (N ± M)/2 electrons. */
  magnetization?: number;
  /** 1 (unpolarised) or 2; a spin-polarised gap needs both channels' bands, given as energiesDownEv. */
  nspin?: 1 | 2;
  energiesDownEv?: number[][];
}

export interface BandEdge {
  energyEv: number;
  /** Index into the k-points of the bands. */
  kIndex: number;
  /** 0-based band index. */
  band: number;
}

export interface BandGap {
  gapEv: number;
  direct: boolean;
  vbm: BandEdge;
  cbm: BandEdge;
  /** The smallest gap at one k-point, and where. */
  directGapEv: number;
  directGapKIndex: number;
  occupiedBands: number;
  /** Spin-polarised runs with a Fermi level: each channel's own gap (both channels have one when the crystal has). */
  channels?: ChannelGap[];
}

/** One spin channel's bands against the Fermi level: its own gap, or the band that crosses E_F. */
export type ChannelGap =
  | ({ spin: 'up' | 'down'; metallic: false } & Omit<BandGap, 'channels'>)
  | { spin: 'up' | 'down'; metallic: true; band: number; minEv: number; maxEv: number };

/** The edges of `occupied` filled bands over k (energiesEv[k][band]). */
function edges(bands: number[][], occupied: number): Omit<BandGap, 'channels'> {
  let vbm: BandEdge = { energyEv: -Infinity, kIndex: -1, band: occupied - 1 };
  let cbm: BandEdge = { energyEv: Infinity, kIndex: -1, band: occupied };
  let directGapEv = Infinity;
  let directGapKIndex = -1;
  bands.forEach((e, k) => {
    const v = e[occupied - 1]!;
    const c = e[occupied]!;
    if (v > vbm.energyEv) vbm = { energyEv: v, kIndex: k, band: occupied - 1 };
    if (c < cbm.energyEv) cbm = { energyEv: c, kIndex: k, band: occupied };
    if (c - v < directGapEv) {
      directGapEv = c - v;
      directGapKIndex = k;
    }
  });
  const gapEv = cbm.energyEv - vbm.energyEv;
  return { gapEv, direct: Math.abs(directGapEv - gapEv) < 1e-6, vbm, cbm, directGapEv, directGapKIndex, occupiedBands: occupied };
}

/**
 * A spin channel read against the Fermi level (energiesEv[k][band]): the bands wholly below E_F are
 * its occupied ones, and its gap lies between them and the next; a band with states on both sides
 * of E_F makes the channel metallic. Both channels gapped: an insulator; one: a half-metal.
 */
export function spinChannelGap(spin: 'up' | 'down', energiesEv: number[][], fermiEnergyEv: number): ChannelGap {
  const nbnd = Math.min(...energiesEv.map((b) => b.length));
  for (let n = 0; n < nbnd; n++) {
    const values = energiesEv.map((e) => e[n]!);
    const minEv = Math.min(...values);
    const maxEv = Math.max(...values);
    if (minEv < fermiEnergyEv && maxEv > fermiEnergyEv) return { spin, metallic: true, band: n, minEv, maxEv };
  }
  const occupied = energiesEv[0]!.filter((e, n) => n < nbnd && e < fermiEnergyEv).length;
  if (occupied < 1 || occupied >= nbnd) {
    throw new DftScienceError(
      `the ${spin === 'up' ? 'majority (spin-up)' : 'minority (spin-down)'} channel has ${occupied} of its ${nbnd} bands below the Fermi level (${fermiEnergyEv.toFixed(3)} eV): ` +
        `${occupied < 1 ? 'no occupied band to take a gap from' : `no empty band was computed; rerun the bands with nbnd of at least ${occupied + 4}`}.`,
      { occupied, nbnd },
    );
  }
  return { spin, metallic: false, ...edges(energiesEv, occupied) };
}

type GappedChannel = Extract<ChannelGap, { metallic: false }>;

/** The crystal's gap from both channels' own gaps: VBM the higher of the two, CBM the lower, direct gap per k. */
function fromChannels([up, down]: GappedChannel[], upBands: number[][], downBands: number[][]): Omit<BandGap, 'channels'> {
  const vbm = up!.vbm.energyEv >= down!.vbm.energyEv ? up!.vbm : down!.vbm;
  const cbm = up!.cbm.energyEv <= down!.cbm.energyEv ? up!.cbm : down!.cbm;
  const gapEv = cbm.energyEv - vbm.energyEv;
  if (gapEv <= 0) {
    throw new DftScienceError(
      `no band gap: each spin channel has a gap, but the highest occupied state (${vbm.energyEv.toFixed(3)} eV) lies above the lowest empty one (${cbm.energyEv.toFixed(3)} eV) of the other channel; ` +
        "report each channel's gap as that channel's, not as a gap of the crystal.",
      { vbmEv: vbm.energyEv, cbmEv: cbm.energyEv },
    );
  }
  // the smallest gap at one k: the higher of the two channels' tops to the lower of their bottoms
  let directGapEv = Infinity;
  let directGapKIndex = -1;
  upBands.forEach((u, k) => {
    const d = downBands[k]!;
    const g = Math.min(u[up!.occupiedBands]!, d[down!.occupiedBands]!) - Math.max(u[up!.occupiedBands - 1]!, d[down!.occupiedBands - 1]!);
    if (g < directGapEv) {
      directGapEv = g;
      directGapKIndex = k;
    }
  });
  return {
    gapEv,
    direct: Math.abs(directGapEv - gapEv) < 1e-6,
    vbm,
    cbm,
    directGapEv,
    directGapKIndex,
    occupiedBands: up!.occupiedBands + down!.occupiedBands,
  };
}

const channelName = (c: { spin: 'up' | 'down' }) => (c.spin === 'up' ? 'majority (spin-up)' : 'minority (spin-down)');

/** Bands in one list per k with both spin channels merged (for a spin-polarised insulator). */
function merged(input: BandGapInput): number[][] {
  if ((input.nspin ?? 1) === 1) return input.energiesEv;
  if (!input.energiesDownEv || input.energiesDownEv.length !== input.energiesEv.length) {
    throw new DftScienceError(
      'a spin-polarised band gap needs the bands of both spin channels on the same k-points (run bands.x with spin_component 1 and 2).',
      {},
    );
  }
  return input.energiesEv.map((up, k) => [...up, ...input.energiesDownEv![k]!].sort((a, b) => a - b));
}

/**
 * Fixed occupations with nspin 2 and a total magnetization M: pw.x fills (N + M)/2 states up and
 * (N − M)/2 down, and prints no Fermi energy; each channel's gap from its own count. Undefined
 * where that count is not whole or no empty band of a channel was computed (the merged count then).
 */
function fixedMomentChannels(input: BandGapInput): ChannelGap[] | undefined {
  if ((input.nspin ?? 1) !== 2 || !/^fixed$/i.test(input.occupations) || input.magnetization === undefined) return undefined;
  const m = Math.round(input.magnetization);
  const counts: [number, number] = [(input.electrons + m) / 2, (input.electrons - m) / 2];
  const sets = [input.energiesEv, input.energiesDownEv ?? []];
  const ok = counts.every((n, i) => Number.isInteger(n) && n >= 1 && sets[i]!.length && Math.min(...sets[i]!.map((b) => b.length)) > n);
  if (!ok) return undefined;
  return (['up', 'down'] as const).map((spin, i) => ({ spin, metallic: false as const, ...edges(sets[i]!, counts[i]!) }));
}

export function bandGap(input: BandGapInput): BandGap {
  const bands = merged(input);
  // a spin-polarised run with a Fermi level: each channel against its own (one per channel when the
  // magnetization was fixed) first, so a half-metal is named as one
  const levels =
    input.fermiEnergiesUpDownEv ?? (input.fermiEnergyEv !== undefined ? [input.fermiEnergyEv, input.fermiEnergyEv] : undefined);
  const channels =
    (input.nspin ?? 1) === 2 && levels
      ? [spinChannelGap('up', input.energiesEv, levels[0]), spinChannelGap('down', input.energiesDownEv!, levels[1])]
      : fixedMomentChannels(input);
  const levelText = input.fermiEnergiesUpDownEv
    ? `the Fermi levels (spin up ${levels![0].toFixed(3)} eV, spin down ${levels![1].toFixed(3)} eV) lie`
    : `the Fermi level (${levels?.[0]?.toFixed(3)} eV) lies`;
  const crossing = (channels ?? []).filter((c) => c.metallic);
  if (channels && crossing.length) {
    const gapped = channels.find((c) => !c.metallic);
    const across = crossing
      .map((c) => `band ${c.band + 1} of the ${channelName(c)} channel spans ${c.minEv.toFixed(3)} to ${c.maxEv.toFixed(3)} eV`)
      .join('; ');
    throw new DftScienceError(
      `no band gap: ${levelText} inside a band (${across}), so the crystal is ` +
        (gapped && !gapped.metallic
          ? `a half-metal in this calculation: only the ${channelName(gapped)} channel has a gap (${gapped.gapEv.toFixed(3)} eV); no gap of the crystal can be claimed. ` +
            `Report instead that the crystal is a half-metal, with ${gapped.gapEv.toFixed(3)} eV as the ${channelName(gapped)} channel's gap (not the crystal's), ` +
            'and the DOS at the Fermi level of the other channel (run_dos_x).'
          : 'a metal in both spin channels; a gap cannot be claimed. Report the DOS at the Fermi level (run_dos_x) instead.'),
      { fermiEnergyEv: levels![0], ...(gapped && !gapped.metallic ? { channelGapEv: gapped.gapEv } : {}) },
    );
  }
  if ((input.nspin ?? 1) === 2 && !levels && !/^fixed$/i.test(input.occupations)) {
    throw new DftScienceError(
      `a spin-polarised band gap of a run with occupations='${input.occupations}' needs the SCF's Fermi level (or one per spin channel), and none was printed: ` +
        'rerun the SCF to completion and take the bands from it.',
      {},
    );
  }
  // each channel filled to its own level: the crystal's edges are the higher channel VBM and the lower channel CBM
  if (channels && channels.every((c) => !c.metallic))
    return { ...fromChannels(channels as GappedChannel[], input.energiesEv, input.energiesDownEv!), channels };
  if (bands.length === 0) throw new DftScienceError('no k-points: the band file holds no bands to take a gap from.', {});
  // electrons per band: 2 unpolarised; 1 per state when both channels are merged
  const perBand = (input.nspin ?? 1) === 1 ? 2 : 1;
  const occ = input.electrons / perBand;
  if (Math.abs(occ - Math.round(occ)) > 1e-6) {
    throw new DftScienceError(
      `no band gap: ${input.electrons} electrons per cell leave a band ${perBand === 2 ? 'half' : 'partly'} filled, so the system is a metal in this calculation` +
        `${perBand === 2 ? ' (or needs spin polarisation)' : ''}; a gap cannot be claimed.`,
      { electrons: input.electrons },
    );
  }
  const occupied = Math.round(occ);
  const nbnd = Math.min(...bands.map((b) => b.length));
  if (occupied < 1 || nbnd <= occupied) {
    throw new DftScienceError(
      `no empty band was computed (${nbnd} bands for ${occupied} occupied): rerun the bands with nbnd of at least ${occupied + 4}.`,
      { nbnd, occupied },
    );
  }
  const { gapEv, direct, vbm, cbm, directGapEv, directGapKIndex } = edges(bands, occupied);
  if (gapEv <= 0) {
    throw new DftScienceError(
      `no band gap: the highest occupied band reaches ${vbm.energyEv.toFixed(3)} eV, above the lowest empty one at ${cbm.energyEv.toFixed(3)} eV, so the bands overlap (a metal or semimetal).`,
      { vbmEv: vbm.energyEv, cbmEv: cbm.energyEv },
    );
  }
  const smeared = /smearing/i.test(input.occupations);
  if (
    smeared &&
    input.fermiEnergyEv !== undefined &&
    (input.fermiEnergyEv < vbm.energyEv - 1e-3 || input.fermiEnergyEv > cbm.energyEv + 1e-3)
  ) {
    throw new DftScienceError(
      `no band gap: the SCF smeared its occupations and put the Fermi level at ${input.fermiEnergyEv.toFixed(3)} eV, inside a band (the gap would be ${vbm.energyEv.toFixed(3)}–${cbm.energyEv.toFixed(3)} eV); ` +
        "the run describes a metal. Compute the gap of an insulator with occupations='fixed', or report the DOS at the Fermi level instead.",
      { fermiEnergyEv: input.fermiEnergyEv },
    );
  }
  return { gapEv, direct, vbm, cbm, directGapEv, directGapKIndex, occupiedBands: occupied, ...(channels ? { channels } : {}) };
}
