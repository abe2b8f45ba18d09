/**
 * What the LLM planner is told: a stable system prompt (the rules the validator enforces,
 * cacheable across iterations) and a user message with the surface, the adsorbate, every
 * relaxation so far, the FORBID list and why the last proposal was refused.
 */
import { dot } from '../../adsorption/geometry';
import type { PlanningContext } from '../../adsorption/planner';

export const PLANNER_TOOL = 'propose_adsorption_hypothesis';

export const PLANNER_SYSTEM = [
  'You are the adsorption planner of a closed-loop search for the most stable adsorption configuration of one adsorbate on one slab.',
  'Each turn you call the tool once: either propose one hypothesis to relax, or terminate when further relaxations are unlikely to find a lower energy.',
  'A hypothesis names: siteType (ontop, bridge or hollow); surfaceAtoms, indices of top-layer slab atoms the adsorbate binds to (ontop 1, bridge 1-2, hollow 3 or more, and they must form such a site); bindingAtoms, indices of adsorbate atoms that bind (1 or 2, heavy atoms unless the adsorbate has none); orientation (upright, tilted or flat).',
  'The executor places the adsorbate on your site and its symmetry-equivalent copies, screens 4 azimuths by single-point energy and relaxes the best placement. Each relaxation costs real compute: do not repeat a tested hypothesis (equivalent sites count as the same) and never propose a site on the FORBID list.',
  'After each relaxation you see where the configuration ended up. A geometric slip means it moved to other surface atoms; a chemical slip means it now binds to other surface elements, so the planned chemistry was wrong. Use slips, dissociations and energies to choose the next site: prefer untested site classes with the chemistry of the best result so far.',
  'A refused proposal costs no relaxation; read the refusal and correct it.',
].join('\n');

const fmt = (x: number) => x.toFixed(2);

export function plannerUserMessage(ctx: PlanningContext): string {
  const { slab, surface, adsorbate, history } = ctx;
  const s = slab.slab;
  const lines: string[] = [];
  lines.push(
    `Adsorbate ${adsorbate.name}: ${adsorbate.symbols.map((x, i) => `${i} ${x}`).join(', ')}; bonds ${adsorbate.bonds.map(([i, j]) => `${i}-${j}`).join(', ') || 'none'}.`,
  );
  lines.push(`Slab: ${s.symbols.length} atoms. Top-layer atoms (index element x y height, Å in the surface frame):`);
  for (const i of surface.topLayer) {
    const p = s.positions[i]!;
    lines.push(`  ${i} ${s.symbols[i]} ${fmt(dot(p, slab.frame.e1))} ${fmt(dot(p, slab.frame.e2))} ${fmt(dot(p, slab.frame.normal))}`);
  }
  const classes = new Map<string, { n: number; example: number[]; label: string }>();
  for (const site of surface.sites) {
    const c = classes.get(site.fingerprint);
    if (c) c.n++;
    else
      classes.set(site.fingerprint, {
        n: 1,
        example: site.surfaceAtoms,
        label: `${site.kind}${site.hollowType ? ` ${site.hollowType}` : ''} over ${site.surfaceAtoms.map((i) => s.symbols[i]).join('-')}`,
      });
  }
  lines.push(`Symmetry-distinct site classes (${classes.size}; label, copies, one example's atoms):`);
  for (const c of classes.values()) lines.push(`  ${c.label}; ${c.n} copies; e.g. [${c.example.join(', ')}]`);
  if (history.length === 0) lines.push('No configuration has been relaxed yet.');
  else {
    lines.push('Relaxations so far (iteration: planned site -> relaxed site, slip, dissociated, E_ads eV):');
    for (const h of history) {
      const planned = `${h.plannedSite.kind}${h.plannedSite.hollowType ? ` ${h.plannedSite.hollowType}` : ''} [${h.plannedSite.surfaceAtoms.join(', ')}] ${h.plannedSite.elements.join('-')} via atom(s) ${h.hypothesis.bindingAtoms.join(',')} ${h.hypothesis.orientation}`;
      const relaxed = h.relaxedSite
        ? h.relaxedSite.kind === 'desorbed'
          ? 'desorbed'
          : `${h.relaxedSite.kind}${h.relaxedSite.hollowType ? ` ${h.relaxedSite.hollowType}` : ''} [${h.relaxedSite.surfaceAtoms.join(', ')}] ${h.relaxedSite.elements.join('-')}`
        : '(not shown)';
      lines.push(
        `  ${h.iteration}: ${planned} -> ${relaxed}, slip ${h.slip ?? '(not shown)'}, ${h.dissociated ? 'dissociated' : 'intact'}, ${h.adsorptionEnergyEv.toFixed(3)}${h.relaxationConverged ? '' : ' (relaxation not converged)'}`,
      );
    }
  }
  if (ctx.forbid.length > 0)
    lines.push(`FORBID (site fingerprints whose configurations slipped away or desorbed): ${ctx.forbid.join(' ; ')}`);
  if (ctx.rejections.length > 0) lines.push(`Your last proposal was rejected: ${ctx.rejections.join(' ')}`);
  lines.push(
    `Relaxations left: ${ctx.relaxationsLeft}.${ctx.mayStopOnConvergence ? ' You may terminate when you judge the search converged.' : ' Do not terminate before the budget is spent unless every site class has been tried.'}`,
  );
  return lines.join('\n');
}
