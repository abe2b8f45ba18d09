/**
 * The search as a Markdown report (run context, one row per iteration, the best
 * configuration drawn from above and from the side, the energy per iteration) and as
 * plain artifact drafts a host registers on the canvas with provenance.
 */
import type { CalculatorSettings } from '../calculators/types';
import { formatExtxyz } from '../dft/io/extxyz';
import type { ArtifactDraft } from '../provenance/types';
import { DEFAULT_DEGENERATE_TOLERANCE_EV, degenerateWithBest, type IterationRecord, type SearchOptions } from './loop';
import type { AdsorptionSearch } from './search';
import { energyCurveSvg, sideViewSvg, topViewSvg } from './svg';

export interface ReportContext {
  calculator: CalculatorSettings;
  planner: string;
  options: Partial<SearchOptions>;
  /** Where the slab came from (a file name, a builder call). */
  slabSource?: string;
}

export interface SearchReport {
  markdown: string;
  /** Files the Markdown links to, by name (SVGs, the best structure as extxyz). */
  files: { name: string; content: string }[];
  artifacts: ArtifactDraft[];
}

const formula = (symbols: string[]) => {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}${n > 1 ? n : ''}`).join('');
};
const siteLabel = (kind: string, hollowType?: string) => (hollowType ? `${kind} (${hollowType})` : kind);
const eV = (x: number) => `${x.toFixed(3)}`;

function iterationRow(r: IterationRecord, symbols: string[]): string {
  const planned = `${siteLabel(r.plannedSite.kind, r.plannedSite.hollowType)} ${r.plannedSite.surfaceAtoms.map((i) => `${symbols[i]}${i}`).join('-')}`;
  const rs = r.analysis.relaxedSite;
  const relaxed =
    rs.kind === 'desorbed'
      ? 'desorbed'
      : `${siteLabel(rs.kind, rs.hollowType)} ${rs.surfaceAtoms.map((i) => `${symbols[i]}${i}`).join('-')}`;
  return `| ${r.iteration} | ${planned} | ${relaxed} | ${r.analysis.slip} | ${r.analysis.dissociated ? 'yes' : 'no'} | ${eV(r.adsorptionEnergyEv)} | ${r.relaxSteps}${r.relaxConverged ? '' : ' (not converged)'} |`;
}

export function reportSearch(search: AdsorptionSearch, ctx: ReportContext): SearchReport {
  const { slab, surface, adsorbate, references, result } = search;
  const symbols = slab.slab.symbols;
  const best = result.best;
  const files: SearchReport['files'] = [];
  const lines: string[] = [];
  lines.push(`# Adsorption configuration search: ${adsorbate.name} on ${formula(symbols)}`, '');
  lines.push('## Run context', '');
  lines.push(
    `- Slab: ${formula(symbols)}, ${symbols.length} atoms${ctx.slabSource ? ` (from ${ctx.slabSource})` : ''}; ${surface.topLayer.length} top-layer atoms, ${surface.sites.length} sites in ${new Set(surface.sites.map((s) => s.fingerprint)).size} symmetry-distinct classes; vacuum ${slab.vacuumAngstrom.toFixed(1)} Å.`,
  );
  for (const c of slab.changes) lines.push(`  - Standardisation: ${c}`);
  lines.push(`- Adsorbate: ${adsorbate.name} (${adsorbate.symbols.join(' ')}); geometry: ${adsorbate.source}.`);
  lines.push(
    `- Calculator: ${ctx.calculator.method} (${Object.entries(ctx.calculator.details)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        '; ',
      )}).${ctx.calculator.production ? '' : ' A screening model: its energies rank configurations for this search and are not final numbers.'}`,
  );
  lines.push(
    `- Energy references: ${references.description}: E(slab) = ${eV(references.cleanSlabEv)} eV, E(${adsorbate.name}) = ${eV(references.gasPhaseEv)} eV.`,
  );
  const ab = { ...{ slipFeedback: true, forbid: true, terminate: true, oneShot: false }, ...ctx.options.ablations };
  lines.push(
    `- Planner: ${ctx.planner}; budget ${ctx.options.maxRelaxations ?? 10} relaxations; switches: slip feedback ${ab.slipFeedback ? 'on' : 'off'}, FORBID ${ab.forbid ? 'on' : 'off'}, TERMINATE ${ab.terminate ? 'on' : 'off'}${ab.oneShot ? ', one-shot' : ''}.`,
  );
  lines.push(
    `- Outcome: ${result.relaxations} relaxations, ${result.rejections.length} rejected proposals; stopped (${result.stopReason}): ${result.stopDetail}`,
    '',
  );
  lines.push('## Iterations', '');
  lines.push('| # | planned site | relaxed site | slip | dissociated | E_ads (eV) | relaxation steps |', '|---|---|---|---|---|---|---|');
  for (const r of result.iterations) lines.push(iterationRow(r, symbols));
  lines.push('');
  if (best) {
    const rs = best.analysis.relaxedSite;
    lines.push('## Best configuration', '');
    lines.push(
      `Iteration ${best.iteration}: E_ads = ${eV(best.adsorptionEnergyEv)} eV, ${rs.kind === 'desorbed' ? 'desorbed' : `${siteLabel(rs.kind, rs.hollowType)} over ${rs.elements.join('-')}`} (fingerprint \`${best.analysis.fingerprint}\`).`,
      '',
    );
    const resolution = ctx.options.degenerateToleranceEv ?? DEFAULT_DEGENERATE_TOLERANCE_EV;
    const ties = degenerateWithBest(result.iterations, best, resolution);
    if (ties.length > 0) {
      const tie = (r: IterationRecord) =>
        `iteration ${r.iteration}, ${siteLabel(r.analysis.relaxedSite.kind, r.analysis.relaxedSite.hollowType)} over ${r.analysis.relaxedSite.elements.join('-')}, E_ads = ${eV(r.adsorptionEnergyEv)} eV`;
      lines.push(
        `Degenerate with it within the search's energy resolution (${resolution} eV), not ranked against it: ${ties.map(tie).join('; ')}.`,
        '',
      );
    }
    const top = topViewSvg(best.relaxedStructure, best.adsorbateStart, slab.frame, `best ${adsorbate.name} configuration, top view`);
    const side = sideViewSvg(best.relaxedStructure, best.adsorbateStart, slab.frame, `best ${adsorbate.name} configuration, side view`);
    files.push({ name: 'best-top.svg', content: top }, { name: 'best-side.svg', content: side });
    files.push({
      name: 'best.extxyz',
      content: formatExtxyz({
        structure: best.relaxedStructure,
        info: { energy: best.totalEnergyEv, adsorption_energy_eV: best.adsorptionEnergyEv, adsorbate_start: best.adsorbateStart },
      }),
    });
    lines.push('![top view](best-top.svg) ![side view](best-side.svg)', '', 'Structure: [best.extxyz](best.extxyz)', '');
  } else {
    lines.push('## Best configuration', '', 'None: every relaxed configuration dissociated or desorbed.', '');
  }
  const curve = energyCurveSvg(
    result.iterations.map((r) => ({
      iteration: r.iteration,
      energyEv: r.adsorptionEnergyEv,
      status: !r.valid ? 'invalid' : r.analysis.slip === 'none' ? 'ok' : 'slip',
      best: best?.iteration === r.iteration,
    })),
  );
  files.push({ name: 'energy.svg', content: curve });
  lines.push(
    '## Energy per iteration',
    '',
    '![adsorption energy per iteration](energy.svg)',
    '',
    'Blue: stayed at the planned site; orange: slipped; grey: dissociated or desorbed; ringed: best; dashed: best so far.',
    '',
  );
  if (result.rejections.length > 0) {
    lines.push('## Rejected proposals (no relaxation spent)', '');
    for (const r of result.rejections) lines.push(`- \`${JSON.stringify(r.proposal)}\`: ${r.reasons.join(' ')}`);
    lines.push('');
  }
  const markdown = lines.join('\n');
  return { markdown, files, artifacts: artifactDrafts(search, ctx, markdown, files) };
}

function artifactDrafts(search: AdsorptionSearch, ctx: ReportContext, markdown: string, files: SearchReport['files']): ArtifactDraft[] {
  const { references, adsorbate, result } = search;
  const meta = { calculator: ctx.calculator };
  const drafts: ArtifactDraft[] = [
    {
      kind: 'scalar',
      name: 'clean_slab_energy',
      value: references.cleanSlabEv,
      unit: 'eV',
      meta: { ...meta, role: 'reference', relaxSteps: references.cleanSlab.steps, converged: references.cleanSlab.converged },
    },
    {
      kind: 'scalar',
      name: 'gas_phase_energy',
      value: references.gasPhaseEv,
      unit: 'eV',
      meta: { ...meta, role: 'reference', adsorbate: adsorbate.name, converged: references.gasPhase.converged },
    },
  ];
  for (const r of result.iterations) {
    const it = { iteration: r.iteration };
    drafts.push(
      {
        kind: 'table',
        name: 'adsorption_hypothesis',
        value: { ...it, ...r.hypothesis, plannedSiteId: r.plannedSite.id, plannedSiteFingerprint: r.plannedSite.fingerprint },
        meta: it,
      },
      {
        kind: 'structure',
        name: 'relaxed_configuration',
        value: r.relaxedStructure,
        file: {
          name: `iteration-${r.iteration}.extxyz`,
          bytes: formatExtxyz({ structure: r.relaxedStructure, info: { energy: r.totalEnergyEv, adsorbate_start: r.adsorbateStart } }),
        },
        status: r.relaxConverged ? 'final' : 'provisional',
        meta: { ...it, relaxSteps: r.relaxSteps, fmaxEvPerAngstrom: r.finalFmaxEvPerAngstrom },
      },
      {
        kind: 'scalar',
        name: 'adsorption_energy',
        value: r.adsorptionEnergyEv,
        unit: 'eV',
        status: r.relaxConverged ? 'final' : 'provisional',
        meta: { ...meta, ...it, totalEnergyEv: r.totalEnergyEv, references: references.description },
      },
      { kind: 'table', name: 'slip_analysis', value: { ...it, ...r.analysis, valid: r.valid }, meta: it },
    );
  }
  drafts.push({
    kind: 'table',
    name: 'adsorption_search_table',
    value: result.iterations.map((r) => ({
      iteration: r.iteration,
      plannedSite: r.plannedSite.id,
      relaxedSite: r.analysis.relaxedSite.kind,
      slip: r.analysis.slip,
      dissociated: r.analysis.dissociated,
      adsorptionEnergyEv: r.adsorptionEnergyEv,
    })),
    meta: { stopReason: result.stopReason, bestIteration: result.best?.iteration ?? null },
  });
  drafts.push({ kind: 'file', name: 'adsorption_search_report', file: { name: 'report.md', bytes: markdown } });
  for (const f of files) drafts.push({ kind: 'file', name: f.name.replace(/\W+/g, '_'), file: { name: f.name, bytes: f.content } });
  return drafts;
}
