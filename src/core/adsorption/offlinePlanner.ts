/**
 * The deterministic planner. One hypothesis per symmetry-distinct site class (site
 * fingerprint), in order of the binding atom's coordination preference (adsorbate.ts
 * preferredCoordination; ties to the higher coordination), and within one coordination
 * by the single-point energy of the unrelaxed placement when a screen is supplied (fcc
 * before hcp otherwise). It skips classes that are forbidden, already tested, or already
 * reached by an earlier relaxation (a known basin), and stops on convergence: when the
 * last `patience` relaxations did not lower the best valid adsorption energy by more than
 * the tolerance, or when no class is left. With the loop off (one relaxation) its first
 * choice is the open-loop 1-Shot baseline.
 */
import { freeValence, heavyAtoms, preferredCoordination, type Adsorbate } from './adsorbate';
import type { PlannerDecision } from './hypothesis';
import type { IterationView, Planner, PlanningContext } from './planner';
import type { AdsorptionSite } from './sites';
import { hypothesisKey } from './validator';

const COORDINATION: Record<string, number> = { ontop: 1, bridge: 2, hollow: 3 };

export const coordinationOf = (s: Pick<AdsorptionSite, 'kind' | 'hollowType'>): number =>
  s.hollowType === '4fold' ? 4 : COORDINATION[s.kind]!;

/** The adsorbate atom the offline planner binds through: the heavy atom with the most free valence. */
export function defaultBindingAtom(a: Adsorbate): number {
  const candidates = heavyAtoms(a).length > 0 ? heavyAtoms(a) : a.symbols.map((_, i) => i);
  return candidates.reduce((best, i) => (freeValence(a, i) > freeValence(a, best) ? i : best), candidates[0]!);
}

/** Energy of the best unrelaxed placement of the adsorbate on a site, eV (single points only). */
export type SiteScreen = (site: AdsorptionSite, bindingAtom: number) => Promise<number>;

/** Site classes (one representative site per fingerprint) in the order the offline planner tries them. */
export function rankSiteClasses(sites: AdsorptionSite[], preferred: number, screenEv?: Map<string, number>): AdsorptionSite[] {
  const seen = new Map<string, AdsorptionSite>();
  for (const s of sites) if (!seen.has(s.fingerprint)) seen.set(s.fingerprint, s);
  return [...seen.values()]
    .map((s, i) => ({
      s,
      i,
      distance: Math.abs(coordinationOf(s) - preferred),
      c: coordinationOf(s),
      e: screenEv?.get(s.fingerprint) ?? (s.hollowType === 'hcp' ? 1 : 0),
    }))
    .sort((x, y) => x.distance - y.distance || y.c - x.c || x.e - y.e || x.i - y.i)
    .map((x) => x.s);
}

/**
 * Valid relaxations since the best valid energy last dropped by more than the tolerance
 * (dissociated or desorbed results say nothing about convergence and are not counted).
 */
export function relaxationsWithoutImprovement(history: IterationView[], toleranceEv: number): number {
  let best = Infinity;
  let since = 0;
  for (const h of history) {
    if (h.dissociated || h.relaxedSite?.kind === 'desorbed') continue;
    if (h.adsorptionEnergyEv < best - toleranceEv) {
      best = h.adsorptionEnergyEv;
      since = 0;
    } else {
      best = Math.min(best, h.adsorptionEnergyEv);
      since++;
    }
  }
  return since;
}

export interface OfflinePlannerOptions {
  /** Single-point screen to order site classes of equal coordination preference. */
  screen?: SiteScreen;
  /** Stop after this many relaxations without improvement (default 2). */
  patience?: number;
}

export class OfflinePlanner implements Planner {
  readonly name = 'offline-heuristic';
  private screened: Map<string, number> | undefined;

  constructor(private readonly opts: OfflinePlannerOptions = {}) {}

  private async screenEnergies(ctx: PlanningContext, binding: number): Promise<Map<string, number> | undefined> {
    if (!this.opts.screen) return undefined;
    if (!this.screened) {
      this.screened = new Map();
      for (const s of rankSiteClasses(ctx.surface.sites, 0)) this.screened.set(s.fingerprint, await this.opts.screen(s, binding));
    }
    return this.screened;
  }

  async decide(ctx: PlanningContext): Promise<PlannerDecision> {
    const binding = defaultBindingAtom(ctx.adsorbate);
    const preferred = preferredCoordination(ctx.adsorbate, binding);
    const patience = this.opts.patience ?? 2;
    if (ctx.mayStopOnConvergence && relaxationsWithoutImprovement(ctx.history, ctx.toleranceEv) >= patience) {
      return {
        action: 'terminate',
        reason: `converged: the last ${patience} relaxations did not lower the best adsorption energy by more than ${ctx.toleranceEv} eV.`,
      };
    }
    const forbid = new Set(ctx.forbid);
    const tested = new Set(ctx.history.map((h) => hypothesisKey(h.plannedSite.fingerprint, h.hypothesis)));
    const reached = new Set(
      ctx.history.flatMap((h) => (h.relaxedSite && 'fingerprint' in h.relaxedSite && !h.dissociated ? [h.relaxedSite.fingerprint] : [])),
    );
    const energies = await this.screenEnergies(ctx, binding);
    for (const site of rankSiteClasses(ctx.surface.sites, preferred, energies)) {
      if (forbid.has(site.fingerprint) || reached.has(site.fingerprint)) continue;
      if (tested.has(hypothesisKey(site.fingerprint, { bindingAtoms: [binding], orientation: 'upright' }))) continue;
      return {
        action: 'propose',
        siteType: site.kind,
        surfaceAtoms: [...site.surfaceAtoms],
        bindingAtoms: [binding],
        orientation: 'upright',
        rationale: `${ctx.adsorbate.symbols[binding]} (atom ${binding}) has ${freeValence(ctx.adsorbate, binding)} free valence(s) and prefers ${preferred}-fold coordination; next untested site class: ${site.kind}${site.hollowType ? ` ${site.hollowType}` : ''} over ${site.surfaceAtoms.map((i) => ctx.slab.slab.symbols[i]).join('-')}${energies ? ` (unrelaxed single point ${energies.get(site.fingerprint)!.toFixed(3)} eV)` : ''}.`,
      };
    }
    return {
      action: 'terminate',
      reason: 'every site class of the top layer has been tried, forbidden or reached by an earlier relaxation.',
    };
  }
}
