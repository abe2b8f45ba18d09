/**
 * The BEEF-vdW ensemble report: the distribution of ΔBE over the members (mean, σ, range,
 * the share of members favouring fcc), the self-consistent BEEF-vdW ΔBE, and the site
 * preference with the relaxation functional when it was computed.
 */
import type { ComposeContextOf, ComposerOf } from '../defineWorkflow';
import type { BeefInputs } from './steps';
import { claimValue } from '../../guard/claimChecks';
import { round } from '../sitePreference/inputs';
import { need, relaxedSiteLine, siteClaims, siteText, type ReportClaimDraft } from '../sitePreference/report';
import { SITES } from '../sitePreference/steps';
import type { BeefStatsValue } from '../../artifacts/shapes';

type Context = ComposeContextOf<BeefInputs>;

export const BEEF_HISTOGRAM_FILE = 'beef-ensemble.svg';

function beefNumbers(ctx: Context): { ref: string; v: BeefStatsValue } {
  const ref = need(ctx, 'beef-stats', 'beef_ensemble_stats');
  return { ref, v: ctx.value(ref) as BeefStatsValue };
}

const withReferences = (ctx: Context): boolean => ctx.inputs.adsorptionEnergies !== false;

function beefText(ctx: Context): string[] {
  const { ref, v } = beefNumbers(ctx);
  const i = ctx.inputs;
  const side = v.fractionPositive >= 0.5 ? 'fcc' : 'top';
  return [
    `**BEEF-vdW ensemble: ΔBE = ${round(v.meanEv, 3)} ± ${round(v.sigmaEv, 3)} eV** (mean ± σ over ${v.count} members, ${ref}); ` +
      `${round(100 * v.fractionPositive, 1)} % of the members give ΔBE > 0 (fcc favoured), so the ensemble ${v.fractionPositive > 0.95 || v.fractionPositive < 0.05 ? 'agrees on' : 'is split on'} the ${side} site. ` +
      `Range ${round(v.minEv, 3)} to ${round(v.maxEv, 3)} eV; self-consistent BEEF-vdW ΔBE ${v.selfConsistentDeltaBeEv !== undefined ? `${round(v.selfConsistentDeltaBeEv, 3)} eV` : 'not recorded'}.`,
    '',
    `ΔBE_i = E_i(ontop) − E_i(fcc) per member i, each member's energy being the self-consistent BEEF-vdW energy plus its ensemble deviation; ` +
      `the clean slab and the gas-phase ${i.adsorbate} are the same for both sites and cancel. Positive ΔBE means the fcc hollow is favoured. ` +
      `The geometries are the ${i.functional} relaxations; the ensemble runs are single points on them (calculation='ensemble', input_dft='BEEF-vdW').`,
    '',
    `![BEEF-vdW ensemble ΔBE](plots/${BEEF_HISTOGRAM_FILE})`,
  ];
}

function beefClaims(ctx: Context): ReportClaimDraft[] {
  const { ref, v } = beefNumbers(ctx);
  return [
    {
      quantity: 'beef_ensemble',
      value: claimValue(v.meanEv, 4),
      unit: 'eV',
      cites: `${ref}.meanEv`,
      statement: `ensemble mean ΔBE = ${claimValue(v.meanEv, 4)} eV`,
    },
    {
      quantity: 'beef_ensemble',
      value: claimValue(v.sigmaEv, 4),
      unit: 'eV',
      cites: `${ref}.sigmaEv`,
      statement: `ensemble σ = ${claimValue(v.sigmaEv, 4)} eV`,
    },
    {
      quantity: 'beef_ensemble',
      value: claimValue(v.fractionPositive, 4),
      unit: '1',
      cites: `${ref}.fractionPositive`,
      statement: `fraction of members with ΔBE > 0 = ${claimValue(v.fractionPositive, 4)}`,
    },
  ];
}

export const BEEF_COMPOSERS: Record<string, ComposerOf<BeefInputs>> = {
  title: (ctx) => {
    const i = ctx.inputs;
    return `${i.adsorbate}/${i.metal}(${i.facet.replace(/^[a-z]+/, '')}) BEEF-vdW ensemble of ΔBE = E_ads(ontop) − E_ads(fcc)`;
  },
  text: (ctx) =>
    [
      ...beefText(ctx),
      '',
      ...(withReferences(ctx)
        ? ['## Site preference on the relaxed geometries', '', ...siteText(ctx)]
        : ['Relaxed geometries:', '', ...SITES.map((s) => `- ${relaxedSiteLine(ctx, s, `relaxed-${s}`)}`)]),
    ].join('\n'),
  claims: (ctx) => [...beefClaims(ctx), ...(withReferences(ctx) ? siteClaims(ctx) : [])],
};
