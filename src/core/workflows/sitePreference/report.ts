/**
 * The site-preference report: ΔBE with its sign stated in words, the two adsorption
 * energies, where each adsorbate ended up after relaxation, the settings every energy
 * shares, and the slab sweep; one claim per reported number, each citing its artifact.
 */
import type { EnergyMeta } from '../../artifacts/shapes';
import type { Structure } from '../../dft/types';
import { claimValue } from '../../guard/claimChecks';
import type { SlabSelection } from '../../dft/slabSelection';
import type { ComposeContextOf, ComposerOf } from '../defineWorkflow';
import { BULK_PREFIX } from './bulkSteps';
import { round, sitePreferenceObjective, type SitePreferenceInputs } from './inputs';
import { adsorbateGeometry } from './relaxedGeometry';
import { SITES } from './steps';

/** A composer's context in this study (and the BEEF ensemble's, whose inputs extend it). */
export type Context = ComposeContextOf<SitePreferenceInputs>;

export interface ReportClaimDraft {
  quantity: string;
  value: number;
  unit: string;
  cites: string;
  statement: string;
}

export function need(ctx: Pick<Context, 'ref'>, step: string, name: string): string {
  const r = ctx.ref(step, name);
  if (!r) throw new Error(`the report needs the ${name} of step ${step}, which the run has not made yet; run that step first.`);
  return r;
}

const fnName = (i: SitePreferenceInputs): string => (i.functional === 'PZ' ? 'LDA (PZ)' : i.functional);

/** Where the adsorbate of a relaxed structure sits: "C over the fcc site (0.02 Å off), 1.31 Å above the top layer, C–O 1.19 Å". */
export function relaxedSiteLine(ctx: Context, site: string, relaxedStep: string): string {
  const ref = ctx.ref(relaxedStep, 'relaxed_structure');
  if (!ref) return `${site}: no relaxed geometry recorded.`;
  const s = ctx.value(ref) as Structure;
  const g = adsorbateGeometry(s);
  const meta = ctx.provenance.artifact(ref)?.meta as
    | { maxDisplacementAngstrom?: number; fixedAtoms?: number; fixedAtomsMoved?: number }
    | undefined;
  if (!g) return `${site} (${ref}): relaxed, adsorbate position not readable.`;
  const anchor = s.symbols[s.tags!.indexOf(0)];
  const kept = g.site === site ? `stayed over the ${site} site` : `**moved from the ${site} site to the ${g.site} site**`;
  return (
    `${site} (${ref}): ${anchor} ${kept} (${round(g.offsetAngstrom, 2)} Å off), ${round(g.heightAngstrom, 2)} Å above the top layer` +
    `${
      g.bondAngstrom !== undefined
        ? `, ${s.symbols
            .filter((_, k) => s.tags![k] === 0)
            .slice(0, 2)
            .join('–')} ${round(g.bondAngstrom, 3)} Å`
        : ''
    }; ` +
    `largest displacement ${round(meta?.maxDisplacementAngstrom ?? NaN, 3)} Å, ${meta?.fixedAtoms ?? 0} fixed ${meta?.fixedAtoms === 1 ? 'atom' : 'atoms'} ${meta?.fixedAtomsMoved ? `(${meta.fixedAtomsMoved} moved!)` : 'unmoved'}.`
  );
}

function settingsLine(ctx: Context, energyRef: string): string {
  const meta = ctx.provenance.artifact(energyRef)?.meta as EnergyMeta | undefined;
  const st = meta?.settings;
  if (!st) return '';
  return (
    `Every energy shares: ${st.functional}, ecutwfc ${st.ecutwfcRy} Ry, ecutrho ${st.ecutrhoRy} Ry, ` +
    `k-mesh ${st.kMesh?.join('×') ?? '?'}${st.kSpacingPerAngstrom !== undefined ? ` (spacing ${st.kSpacingPerAngstrom} 1/Å)` : ''} for the slabs (Γ for the molecule), ` +
    `${st.smearing ?? st.occupations} ${st.degaussRy ?? ''} Ry, pseudopotentials ${Object.values(st.pseudopotentials)
      .map((p) => p.file)
      .join(', ')}${st.codeVersion ? `, pw.x ${st.codeVersion}` : ''}.`
  );
}

function sweepLines(ctx: Context): string[] {
  const out: string[] = [];
  for (const step of ['layers-choice', 'vacuum-choice']) {
    const ref = ctx.ref(step, 'converged_slab');
    if (!ref) continue;
    const sel = ctx.value(ref) as SlabSelection;
    const col = sel.dimension === 'layers' ? 'layers' : 'vacuum (Å)';
    out.push(
      '',
      `Slab ${sel.dimension} sweep (${ref}, single points on unrelaxed slabs, tolerance ${sel.toleranceEv} eV on ΔBE):`,
      '',
      `| ${col} | ΔBE (eV) | deviation from the largest (meV) |`,
      '|---|---|---|',
      ...sel.tested.map(
        (t) =>
          `| ${sel.dimension === 'layers' ? t.layers : t.vacuumAngstrom} | ${t.valueEv.toFixed(4)} | ${(t.deviationEv * 1000).toFixed(1)} |`,
      ),
      '',
      `Chosen: ${sel.chosen.layers} layers (${sel.chosen.fixedLayers} fixed), ${sel.chosen.vacuumAngstrom} Å vacuum.`,
    );
  }
  return out;
}

export function siteNumbers(ctx: Context) {
  const dbe = need(ctx, 'site-preference', 'delta_be');
  const eads = Object.fromEntries(SITES.map((s) => [s, need(ctx, `eads-${s}`, 'adsorption_energy')])) as Record<'ontop' | 'fcc', string>;
  return {
    dbe,
    dbeValue: ctx.value(dbe) as number,
    eads,
    eadsValue: { ontop: ctx.value(eads.ontop) as number, fcc: ctx.value(eads.fcc) as number },
  };
}

export function siteClaims(ctx: Context): ReportClaimDraft[] {
  const n = siteNumbers(ctx);
  const i = ctx.inputs;
  const claims: ReportClaimDraft[] = [
    {
      quantity: 'delta_be',
      value: claimValue(n.dbeValue, 4),
      unit: 'eV',
      cites: n.dbe,
      statement: `ΔBE = E_ads(ontop) − E_ads(fcc) = ${claimValue(n.dbeValue, 4)} eV (${fnName(i)})`,
    },
    ...SITES.map((s) => ({
      quantity: 'adsorption_energy',
      value: claimValue(n.eadsValue[s], 4),
      unit: 'eV',
      cites: n.eads[s],
      statement: `E_ads(${s}) = ${claimValue(n.eadsValue[s], 4)} eV`,
    })),
  ];
  if (i.bulk) {
    const a = need(ctx, `${BULK_PREFIX}lattice`, 'lattice_constant');
    const cut = need(ctx, `${BULK_PREFIX}cutoff-choice`, 'converged_settings');
    const k = need(ctx, `${BULK_PREFIX}k-choice`, 'converged_settings');
    const av = ctx.value(a) as number;
    claims.push(
      {
        quantity: 'lattice_constant',
        value: claimValue(av, 4),
        unit: 'Å',
        cites: a,
        statement: `bulk a = ${claimValue(av, 4)} Å (${fnName(i)})`,
      },
      {
        quantity: 'converged_cutoff',
        value: ctx.value(`${cut}.chosen.ecutwfcRy`) as number,
        unit: 'Ry',
        cites: `${cut}.chosen.ecutwfcRy`,
        statement: `ecutwfc = ${ctx.value(`${cut}.chosen.ecutwfcRy`)} Ry`,
      },
      {
        quantity: 'converged_kspacing',
        value: ctx.value(`${k}.chosen.kSpacingPerAngstrom`) as number,
        unit: '1/Å',
        cites: `${k}.chosen.kSpacingPerAngstrom`,
        statement: `k-spacing = ${ctx.value(`${k}.chosen.kSpacingPerAngstrom`)} 1/Å`,
      },
    );
  }
  return claims;
}

export function siteText(ctx: Context): string[] {
  const n = siteNumbers(ctx);
  const i = ctx.inputs;
  const favoured =
    n.dbeValue > 0
      ? 'the fcc hollow binds more strongly'
      : n.dbeValue < 0
        ? 'the top site binds more strongly'
        : 'neither site is favoured';
  const slab = ctx.provenance.artifact(need(ctx, 'relaxed-fcc', 'relaxed_structure'))?.value as Structure | undefined;
  const info = slab?.info ?? {};
  const lattice = i.bulk ? ctx.ref(`${BULK_PREFIX}lattice`, 'lattice_constant') : undefined;
  return [
    `**ΔBE = E_ads(ontop) − E_ads(fcc) = ${round(n.dbeValue, 3)} eV** (${n.dbe}): ${favoured}. Positive ΔBE means the fcc hollow is favoured.`,
    '',
    `E_ads(ontop) = ${round(n.eadsValue.ontop, 3)} eV (${n.eads.ontop}), E_ads(fcc) = ${round(n.eadsValue.fcc, 3)} eV (${n.eads.fcc}); ` +
      `E_ads = E(slab+${i.adsorbate}) − E(slab) − E(${i.adsorbate}, gas), all relaxed, negative = bound.`,
    '',
    `${i.adsorbate}/${i.metal}(${i.facet.replace(/^[a-z]+/, '')}) p(${i.size.join('×')}) with ${fnName(i)}: ${info.layers ?? '?'} layers (${info.fixedLayers ?? '?'} bottom ${info.fixedLayers === 1 ? 'layer' : 'layers'} fixed), ` +
      `${info.vacuum ?? '?'} Å vacuum on each side, lattice constant ${lattice ? `${round(ctx.value(lattice) as number, 4)} Å (${lattice}, computed here)` : `${i.latticeConstantAngstrom} Å (given)`}.`,
    '',
    settingsLine(ctx, need(ctx, 'relax-fcc-run', 'total_energy')),
    '',
    'After relaxation:',
    '',
    ...SITES.map((s) => `- ${relaxedSiteLine(ctx, s, `relaxed-${s}`)}`),
    ...sweepLines(ctx),
  ];
}

export const SITE_PREFERENCE_COMPOSERS: Record<string, ComposerOf<SitePreferenceInputs>> = {
  title: (ctx) => sitePreferenceObjective(ctx.inputs),
  text: (ctx) => siteText(ctx).join('\n'),
  claims: (ctx) => siteClaims(ctx),
};
