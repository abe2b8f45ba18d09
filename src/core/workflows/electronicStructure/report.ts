/**
 * The band-structure and DOS reports: text and one claim per number (band gap, direct gap,
 * Fermi energy, k-point count of the path, converged settings), each citing its artifact.
 * The plots come with the run report (report/sections/electronicStructure.ts).
 */
import type { ComposeContextOf, ComposerOf } from '../defineWorkflow';
import type { ReportClaim } from '../../guard/claimChecks';
import { claimValue } from '../../guard/claimChecks';
import type { ConvergenceSelectionValue } from '../../artifacts/shapes';
import type { BandGapValue, BandPathValue, BandStructureValue, DosValue, PdosValue } from '../../artifacts/electronic';
import type { ElectronicInputs } from './inputs';
import { spinChannelGap, type ChannelGap } from '../../dft/electronic/bandGap';

type Context = ComposeContextOf<ElectronicInputs>;

const crystal = (i: ElectronicInputs) =>
  i.structureFile
    ? `the crystal of ${i.structureFile}`
    : `${i.structure} ${i.species.join('')}${i.latticeConstantAngstrom ? ` (a = ${i.latticeConstantAngstrom} Å)` : ''}`;

function settingsClaims(ctx: Context): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const s = i.settings;
  const claims: ReportClaim[] = [];
  const parts: string[] = [];
  const cut = ctx.ref('cutoff-choice', 'converged_settings');
  if (cut) {
    const v = ctx.value(cut) as ConvergenceSelectionValue;
    claims.push({
      quantity: 'converged_cutoff',
      value: v.chosen.ecutwfcRy!,
      unit: 'Ry',
      cites: `${cut}.chosen.ecutwfcRy`,
      statement: `ecutwfc = ${v.chosen.ecutwfcRy} Ry`,
    });
    parts.push(`ecutwfc = ${v.chosen.ecutwfcRy} Ry chosen within ${s.toleranceMevPerAtom} meV/atom (${cut})`);
  } else parts.push(`ecutwfc = ${s.ecutwfcRy} Ry as given`);
  const k = ctx.ref('k-choice', 'converged_settings');
  if (k) {
    const v = ctx.value(k) as ConvergenceSelectionValue;
    claims.push({
      quantity: 'converged_kspacing',
      value: v.chosen.kSpacingPerAngstrom!,
      unit: '1/Å',
      cites: `${k}.chosen.kSpacingPerAngstrom`,
      statement: `k-spacing = ${v.chosen.kSpacingPerAngstrom} 1/Å`,
    });
    parts.push(`SCF k-spacing ${v.chosen.kSpacingPerAngstrom} 1/Å chosen within ${s.toleranceMevPerAtom} meV/atom (${k})`);
  } else parts.push(`SCF k-spacing ${s.kSpacingPerAngstrom} 1/Å as given`);
  const occ = i.occupations === 'smearing' ? `${i.smearing} smearing ${i.degaussRy} Ry` : 'fixed occupations';
  const spin = i.spinPolarized ? `; spin-polarised (nspin 2, starting moments ${JSON.stringify(i.startingMagnetization ?? {})})` : '';
  return { text: `Settings: ${s.functional}, ${parts.join('; ')}; ${occ}${spin}.`, claims };
}

const need = (ctx: Context, step: string, name: string): string => {
  const r = ctx.ref(step, name);
  if (!r) throw new Error(`the report needs the ${name} of step ${step}, which the run has not made yet; run that step first.`);
  return r;
};

const channelWord = (spin: 'up' | 'down') => (spin === 'up' ? 'majority (spin-up)' : 'minority (spin-down)');

/**
 * The bands of a study with no gap step (a metal), or whose gap step the guard refused
 * (no-gap-from-metal): a metal, or a half-metal when one spin channel has a gap at the Fermi level
 * and the other has a band across it. The channel's gap is that channel's, never the crystal's.
 */
function noGapText(v: BandStructureValue, bs: string): string {
  const spin = v.bandsDownEv !== undefined;
  const metal = `The bands${spin ? ' of both spin channels' : ''} cross the Fermi level (${v.reference.energyEv.toFixed(3)} eV): a metal, no gap.`;
  if (!v.bandsDownEv || v.fermiEnergyEv === undefined) return metal;
  const ef = v.fermiEnergyEv;
  const byK = (bands: number[][]) => (bands[0] ?? []).map((_, k) => bands.map((band) => band[k]!));
  let channels: ChannelGap[];
  try {
    channels = [spinChannelGap('up', byK(v.bandsEv), ef), spinChannelGap('down', byK(v.bandsDownEv), ef)];
  } catch {
    return metal;
  }
  const gapped = channels.filter((c) => !c.metallic);
  const crossing = channels.filter((c) => c.metallic);
  if (gapped.length !== 1 || crossing.length !== 1) return metal;
  const g = gapped[0]!;
  const m = crossing[0]!;
  return (
    `A half-metal in this calculation (${bs}): the ${channelWord(g.spin)} channel has a gap of ${g.gapEv.toFixed(3)} eV at the Fermi level ` +
    `(${ef.toFixed(3)} eV; ${g.occupiedBands} bands below it), while band ${m.band + 1} of the ${channelWord(m.spin)} channel crosses it ` +
    `(${m.minEv.toFixed(3)} to ${m.maxEv.toFixed(3)} eV). The crystal has no gap to claim: ${g.gapEv.toFixed(3)} eV is the ${channelWord(g.spin)} channel's only` +
    `${v.magnetizationMuBPerCell !== undefined ? `; the total magnetization is ${v.magnetizationMuBPerCell.toFixed(2)} μB per cell` : ''}.`
  );
}

export const BAND_STRUCTURE_COMPOSERS: Record<string, ComposerOf<ElectronicInputs>> = {
  title: (ctx) => `Band structure of ${crystal(ctx.inputs)} with ${ctx.inputs.settings.functional}`,
  text: (ctx) => {
    const bs = need(ctx, 'bands-x', 'band_structure');
    const path = need(ctx, 'band-path', 'band_path');
    const v = ctx.value(bs) as BandStructureValue;
    const p = ctx.value(path) as BandPathValue;
    const gapRef = ctx.ref('gap', 'band_gap');
    const g = gapRef ? (ctx.value(gapRef) as BandGapValue) : undefined;
    const spin = v.bandsDownEv !== undefined;
    const channelText = (c: NonNullable<BandGapValue['channels']>[number]) =>
      `${c.spin === 'up' ? 'majority (spin up)' : 'minority (spin down)'} ${c.gapEv.toFixed(3)} eV, ${c.direct ? 'direct' : 'indirect'}, from ${c.vbm.location} to ${c.cbm.location}`;
    return [
      g
        ? `The ${ctx.inputs.settings.functional} band gap is **${g.gapEv.toFixed(3)} eV, ${g.direct ? 'direct' : 'indirect'}** (${gapRef}): ` +
          `the valence-band maximum lies at ${g.vbm.location}, the conduction-band minimum at ${g.cbm.location}` +
          `${g.direct ? '' : `; the smallest direct gap is ${g.directGapEv.toFixed(3)} eV at ${g.directGapLocation}`}.` +
          (g.channels?.length ? ` Each spin channel's own gap: ${g.channels.map(channelText).join('; ')}.` : '')
        : noGapText(v, bs),
      '',
      `Path: ${p.segments.map((s) => s.join('–')).join(' | ')} (${p.convention}, ${p.lattice} lattice of ${p.spaceGroup.symbol}; ${path}), ${p.kpointCount} k-points; ` +
        (spin
          ? `${v.bandsEv.length} bands in each spin channel from bands.x (${bs}), run once for the majority (spin up, spin_component 1) and once for the minority (spin down, spin_component 2), on the charge density of the spin-polarised SCF.`
          : `${v.bandsEv.length} bands from bands.x (${bs}) on the charge density of the SCF.`),
      '',
      settingsClaims(ctx).text,
    ].join('\n');
  },
  claims: (ctx) => {
    const path = need(ctx, 'band-path', 'band_path');
    const p = ctx.value(path) as BandPathValue;
    const claims: ReportClaim[] = [];
    const gapRef = ctx.ref('gap', 'band_gap');
    if (gapRef) {
      const g = ctx.value(gapRef) as BandGapValue;
      claims.push({
        quantity: 'band_gap',
        value: claimValue(g.gapEv, 3),
        unit: 'eV',
        cites: `${gapRef}.gapEv`,
        statement: `E_g = ${claimValue(g.gapEv, 3)} eV (${g.direct ? 'direct' : 'indirect'})`,
      });
      if (!g.direct)
        claims.push({
          quantity: 'direct_gap',
          value: claimValue(g.directGapEv, 3),
          unit: 'eV',
          cites: `${gapRef}.directGapEv`,
          statement: `smallest direct gap ${claimValue(g.directGapEv, 3)} eV`,
        });
    }
    claims.push({
      quantity: 'kpoint_count',
      value: p.kpointCount,
      unit: 'count',
      cites: `${path}.kpointCount`,
      statement: `${p.kpointCount} k-points along the path`,
    });
    return [...claims, ...settingsClaims(ctx).claims];
  },
};

export const DOS_COMPOSERS: Record<string, ComposerOf<ElectronicInputs>> = {
  title: (ctx) => `Density of states of ${crystal(ctx.inputs)} with ${ctx.inputs.settings.functional}`,
  text: (ctx) => {
    const i = ctx.inputs;
    const dos = need(ctx, 'dos-x', 'dos');
    const v = ctx.value(dos) as DosValue;
    const pdosRef = ctx.ref('projwfc', 'pdos');
    const p = pdosRef ? (ctx.value(pdosRef) as PdosValue) : undefined;
    return [
      `Total DOS (${dos}) from dos.x on a ${v.kMesh?.join('×') ?? '?'} mesh (${i.dosMeshFactor}× the SCF's in each direction) with ${v.occupations}` +
        `${v.fermiEnergyEv !== undefined ? `; the Fermi energy is **${v.fermiEnergyEv} eV**` : ''}` +
        `${v.spin ? '; spin-polarised: the spin-up and spin-down DOS apart (up drawn above the axis, down below)' : ''}.`,
      ...(p
        ? [
            '',
            `Projected DOS (${pdosRef}) per species and angular momentum: ${(p.projections ?? []).map((x) => x.label).join(', ')}; ` +
              `Löwdin charges ${p.lowdin.map((l) => `atom ${l.atom} ${l.total.toFixed(3)} e${l.polarization !== undefined ? ` (polarization ${l.polarization.toFixed(2)} μB)` : ''}`).join(', ')}${p.spilling !== undefined ? ` (spilling ${p.spilling})` : ''}.`,
          ]
        : []),
      '',
      settingsClaims(ctx).text,
    ].join('\n');
  },
  claims: (ctx) => {
    const dos = need(ctx, 'dos-x', 'dos');
    const v = ctx.value(dos) as DosValue;
    return [
      ...(v.fermiEnergyEv !== undefined
        ? [
            {
              quantity: 'fermi_energy',
              value: v.fermiEnergyEv,
              unit: 'eV',
              cites: `${dos}.fermiEnergyEv`,
              statement: `E_F = ${v.fermiEnergyEv} eV`,
            },
          ]
        : []),
      ...settingsClaims(ctx).claims,
    ];
  },
};
