/**
 * The report of an adsorption-configuration search: the most stable configuration found,
 * how the search got there (relaxations, refused hypotheses, FORBID, why it stopped), the
 * references, and one claim: the best adsorption energy, citing the adsorption_energy
 * artifact of its iteration. With EMT the claim is a screening energy, never a DFT number.
 */
import type { SearchResultValue } from '../../tools/adsorptionSearch/searchOutputs';
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { ComposeContextOf, ComposerOf } from '../defineWorkflow';
import type { AdsorptionSearchInputs } from './inputs';
import { searchObjective, slabLabel } from './objectiveText';

type Context = ComposeContextOf<AdsorptionSearchInputs>;

const RESULT = 'adsorption_search_result';

function result(ctx: Context): { ref: string; value: SearchResultValue } {
  const ref = ctx.ref('search', RESULT);
  if (!ref) throw new Error('step search has no final adsorption_search_result yet: the report needs the finished search.');
  return { ref, value: ctx.value(ref) as SearchResultValue };
}

/** The quantity a search's best energy is reported as: a DFT number only from pw.x. */
export const claimQuantity = (i: Pick<AdsorptionSearchInputs, 'calculator'>): string =>
  i.calculator.kind === 'pw.x' ? 'adsorption_energy' : 'screening_adsorption_energy';

const round3 = (x: number): number => Number(x.toFixed(3));

function text(ctx: Context): string {
  const i = ctx.inputs;
  const { ref, value: v } = result(ctx);
  const lines: string[] = [];
  const emt = i.calculator.kind === 'emt';
  const energiesNote =
    (emt ? ' The energies are EMT energies: they rank the configurations for testing the search and are not DFT numbers.' : '') +
    (i.calculator.kind === 'ipi'
      ? ` The energies come from the user's own calculator over i-PI (${v.calculator.settings.functional}): they rank the configurations and are not DFT numbers.`
      : '');
  if (v.best && v.degenerate) {
    const others = v.degenerate.configurations.map(
      (d) => `**${d.relaxedSite}** (iteration ${d.iteration}, E_ads = ${round3(d.adsorptionEnergyEv)} eV, ${d.refs.adsorptionEnergy})`,
    );
    lines.push(
      `The most stable configurations of ${i.adsorbate} on ${slabLabel(i)} found by the search are degenerate within its resolution ` +
        `(${v.degenerate.resolutionEv} eV), so the search does not rank them: **${v.best.relaxedSite}** (iteration ${v.best.iteration}, ` +
        `E_ads = ${round3(v.best.adsorptionEnergyEv)} eV, ${v.best.refs.adsorptionEnergy}; relaxed structure ${v.best.refs.structure}${others.length > 1 ? '), ' : ') and '}` +
        `${others.length > 1 ? `${others.slice(0, -1).join(', ')} and ${others.at(-1)}` : others[0]}. The lowest of them, iteration ${v.best.iteration}, is the one drawn and cited below.` +
        energiesNote,
    );
  } else if (v.best) {
    lines.push(
      `The most stable configuration of ${i.adsorbate} on ${slabLabel(i)} found by the search is **${v.best.relaxedSite}** (iteration ${v.best.iteration}), ` +
        `with E_ads = ${round3(v.best.adsorptionEnergyEv)} eV (${v.best.refs.adsorptionEnergy}; relaxed structure ${v.best.refs.structure}).` +
        energiesNote,
    );
  } else {
    lines.push(`The search found no valid configuration of ${i.adsorbate} on ${slabLabel(i)} with a converged relaxation.`);
  }
  lines.push(
    '',
    `Search ${v.search} (${ref}) with the ${v.planner} planner: ${v.relaxations} relaxation(s), ${v.rejections.length} refused proposal(s) that cost no relaxation; ` +
      `stopped (${v.stopReason}): ${v.stopDetail}` +
      (v.forbid.length ? ` FORBID: ${v.forbid.length} site class(es) whose configurations slipped away.` : ''),
  );
  lines.push(
    '',
    '| # | planned site | relaxed site | slip | dissociated | E_ads (eV) | adsorption energy |',
    '|---|---|---|---|---|---|---|',
  );
  for (const it of v.iterations) {
    lines.push(
      `| ${it.iteration} | ${it.plannedSite} | ${it.relaxedSite} | ${it.slip} | ${it.dissociated ? 'yes' : 'no'} | ${it.adsorptionEnergyEv.toFixed(3)} | ${it.refs.adsorptionEnergy ?? `— (${it.note ?? 'not recorded'})`} |`,
    );
  }
  lines.push(
    '',
    `References: ${v.references.description}; E(clean slab) = ${v.references.cleanSlab.energyEv.toFixed(4)} eV, E(gas phase) = ${v.references.gasPhase.energyEv.toFixed(4)} eV, ` +
      `computed with the same ${v.calculator.method} settings as every configuration (checked by the guard for each adsorption energy).`,
  );
  return lines.join('\n');
}

function claims(ctx: Context): ReportClaim[] {
  const i = ctx.inputs;
  const { value: v } = result(ctx);
  if (!v.best?.refs.adsorptionEnergy)
    throw new Error(
      'the search has no valid configuration with a recorded adsorption energy to report; see its iterations and why they were not recorded.',
    );
  const quantity = claimQuantity(i);
  return [
    {
      quantity,
      value: claimValue(v.best.adsorptionEnergyEv, 3),
      unit: 'eV',
      cites: v.best.refs.adsorptionEnergy,
      statement: `E_ads(${i.adsorbate}, ${v.best.relaxedSite}) = ${claimValue(v.best.adsorptionEnergyEv, 3)} eV${quantity === 'adsorption_energy' ? '' : ` (${i.calculator.kind === 'ipi' ? 'i-PI' : 'EMT'} screening energy)`}`,
    },
  ];
}

export const ADSORPTION_SEARCH_COMPOSERS: Record<string, ComposerOf<AdsorptionSearchInputs>> = {
  title: (ctx) => searchObjective(ctx.inputs),
  text,
  claims,
};
