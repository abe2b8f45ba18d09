/**
 * An adsorption hypothesis must pass the AdsMind validator before anything is computed:
 * binding atoms that exist (heavy unless the adsorbate has none), counts that fit the site
 * type, named surface atoms in the top layer that form such a site, no site on the search's
 * FORBID list, no repeat of a hypothesis the search already relaxed. The search's history
 * is what the run recorded for it, so a refusal names the evaluation it repeats.
 */
import type { Hypothesis } from '../../adsorption/hypothesis';
import { validateHypothesis } from '../../adsorption/validator';
import { searchState, type SurfaceValue } from '../../artifacts/adsorptionSearch';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'adsorption-hypothesis-valid';

export const adsorptionHypothesisValid: TierOneRule = (input) => {
  const surface = resolvedArgument(input, 'surface')?.value as SurfaceValue | undefined;
  const a = input.call.args;
  if (!surface?.surface || !surface.adsorbate || typeof a.search !== 'string')
    return [verdict(RULE, 'pass', ['no adsorption hypothesis in this call'])];
  const hypothesis = {
    action: 'propose',
    siteType: a.siteType,
    surfaceAtoms: a.surfaceAtoms,
    bindingAtoms: a.bindingAtoms,
    orientation: a.orientation,
  } as Hypothesis;
  const state = searchState(input.provenance, a.search);
  const v = validateHypothesis(hypothesis, {
    adsorbate: surface.adsorbate,
    surface: surface.surface,
    slabSymbols: surface.slab.slab.symbols,
    forbid: a.enforceForbid === false ? new Set() : state.forbid,
    tested: state.tested,
  });
  if (v.ok) {
    return [
      verdict(RULE, 'pass', [
        `a valid ${hypothesis.siteType} hypothesis (${v.sites.length} candidate site(s), fingerprint ${v.siteFingerprint}); ` +
          `${state.tested.size} relaxed before in search ${a.search}, ${state.forbid.size} site(s) forbidden`,
      ]),
    ];
  }
  const alone = validateHypothesis(hypothesis, {
    adsorbate: surface.adsorbate,
    surface: surface.surface,
    slabSymbols: surface.slab.slab.symbols,
    forbid: new Set(),
    tested: new Set(),
  });
  const key = alone.ok ? alone.key : undefined;
  const repeats = key ? state.configurations.filter((c) => (c.value as { key?: string }).key === key) : [];
  return [
    verdict(RULE, 'fail', [
      ...v.reasons,
      ...(repeats.length
        ? [
            `It repeats ${repeats.map((c) => `${c.id} (iteration ${(c.value as { iteration: number }).iteration}, ${c.creator})`).join(', ')} of search ${a.search}.`,
          ]
        : []),
      'No relaxation was spent; propose a corrected hypothesis.',
    ]),
  ];
};
