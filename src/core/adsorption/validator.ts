/**
 * The hypothesis validator, as AdsMind states it. A rejected hypothesis goes back to
 * the planner with the reasons and costs no relaxation.
 *  - binding atoms are valid adsorbate indices, and heavy atoms unless the adsorbate has none;
 *  - counts fit the site type (binding + surface): ontop 1 + 1, bridge 1–2 + 1–2, hollow 1–2 + ≥3;
 *  - the named surface atoms are in the top layer and make (part of) a site of that type;
 *  - the site is not on the FORBID list, and the hypothesis was not tested before
 *    (compared by site fingerprint, binding atoms and orientation, not by element symbols).
 */
import { heavyAtoms, type Adsorbate } from './adsorbate';
import type { Hypothesis } from './hypothesis';
import type { AdsorptionSite, SurfaceSites } from './sites';

export const MAX_CANDIDATE_SITES = 8;

const COUNTS: Record<Hypothesis['siteType'], { binding: [number, number]; surface: [number, number] }> = {
  ontop: { binding: [1, 1], surface: [1, 1] },
  bridge: { binding: [1, 2], surface: [1, 2] },
  hollow: { binding: [1, 2], surface: [3, Infinity] },
};

export type ValidationResult =
  | { ok: true; sites: AdsorptionSite[]; siteFingerprint: string; key: string }
  | { ok: false; reasons: string[] };

export interface ValidationContext {
  adsorbate: Adsorbate;
  surface: SurfaceSites;
  slabSymbols: string[];
  /** Site fingerprints the loop has forbidden. */
  forbid: ReadonlySet<string>;
  /** Keys of hypotheses already relaxed. */
  tested: ReadonlySet<string>;
}

export const hypothesisKey = (siteFingerprint: string, h: Pick<Hypothesis, 'bindingAtoms' | 'orientation'>): string =>
  `${siteFingerprint}#${[...h.bindingAtoms].sort((a, b) => a - b).join(',')}#${h.orientation}`;

const range = ([lo, hi]: [number, number]) => (lo === hi ? `${lo}` : hi === Infinity ? `${lo} or more` : `${lo}–${hi}`);

export function validateHypothesis(h: Hypothesis, ctx: ValidationContext): ValidationResult {
  const reasons: string[] = [];
  const { adsorbate: a, surface } = ctx;
  const heavy = heavyAtoms(a);
  for (const b of h.bindingAtoms) {
    if (!Number.isInteger(b) || b < 0 || b >= a.symbols.length) {
      reasons.push(
        `binding atom ${b} does not exist: ${a.name} has atoms 0–${a.symbols.length - 1} (${a.symbols.map((s, i) => `${i} ${s}`).join(', ')}).`,
      );
    } else if (heavy.length > 0 && a.symbols[b] === 'H') {
      reasons.push(
        `binding atom ${b} is hydrogen; ${a.name} binds through a heavy atom: choose from ${heavy.map((i) => `${i} (${a.symbols[i]})`).join(', ')}.`,
      );
    }
  }
  const counts = COUNTS[h.siteType];
  if (h.bindingAtoms.length < counts.binding[0] || h.bindingAtoms.length > counts.binding[1]) {
    reasons.push(`a ${h.siteType} hypothesis needs ${range(counts.binding)} binding atom(s); got ${h.bindingAtoms.length}.`);
  }
  if (h.surfaceAtoms.length < counts.surface[0] || h.surfaceAtoms.length > counts.surface[1]) {
    reasons.push(`a ${h.siteType} hypothesis needs ${range(counts.surface)} surface atom(s); got ${h.surfaceAtoms.length}.`);
  }
  const top = new Set(surface.topLayer);
  const notTop = h.surfaceAtoms.filter((i) => !top.has(i));
  if (notTop.length > 0) {
    reasons.push(
      `surface atom(s) ${notTop.join(', ')} are not in the top layer; top-layer atoms are ${surface.topLayer.map((i) => `${i} (${ctx.slabSymbols[i]})`).join(', ')}.`,
    );
  }
  if (reasons.length > 0) return { ok: false, reasons };

  const named = new Set(h.surfaceAtoms);
  const matching = surface.sites.filter(
    (s) =>
      s.kind === h.siteType &&
      h.surfaceAtoms.every((i) => s.surfaceAtoms.includes(i)) &&
      (h.siteType !== 'hollow' || s.surfaceAtoms.length === named.size || s.hollowType === '4fold'),
  );
  if (matching.length === 0) {
    const near = surface.sites.filter((s) => s.kind === h.siteType && s.surfaceAtoms.some((i) => named.has(i))).slice(0, 4);
    reasons.push(
      `atoms ${h.surfaceAtoms.join(', ')} do not form a ${h.siteType} site of this surface.` +
        (near.length
          ? ` ${h.siteType} sites that use some of them: ${near.map((s) => `[${s.surfaceAtoms.join(', ')}]${s.hollowType ? ` (${s.hollowType})` : ''}`).join('; ')}.`
          : ''),
    );
    return { ok: false, reasons };
  }
  const first = matching[0]!;
  if (ctx.forbid.has(first.fingerprint)) {
    reasons.push(
      `the ${first.kind}${first.hollowType ? ` ${first.hollowType}` : ''} site [${first.surfaceAtoms.join(', ')}] is forbidden: a configuration planned there relaxed away before (fingerprint ${first.fingerprint}). Choose another site.`,
    );
  }
  const key = hypothesisKey(first.fingerprint, h);
  if (ctx.tested.has(key)) {
    reasons.push(
      `this hypothesis repeats one already relaxed: an equivalent ${first.kind} site (fingerprint ${first.fingerprint}) with binding atoms [${h.bindingAtoms.join(', ')}], ${h.orientation}. Propose a different site, binding atom or orientation.`,
    );
  }
  if (reasons.length > 0) return { ok: false, reasons };
  const equivalents = surface.sites.filter((s) => s.fingerprint === first.fingerprint && !matching.includes(s));
  return { ok: true, sites: [...matching, ...equivalents].slice(0, MAX_CANDIDATE_SITES), siteFingerprint: first.fingerprint, key };
}
