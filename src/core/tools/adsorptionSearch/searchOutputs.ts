/**
 * What a finished search leaves on the canvas: the answer (every iteration with the
 * artifacts it made, the FORBID list, why it stopped, the best configuration and the
 * references), the best configuration as a structure the notebook draws, and the
 * summarizer's Markdown with its drawings as files the run report includes.
 */
import { degenerateWithBest, type IterationRecord } from '../../adsorption/loop';
import { reportSearch } from '../../adsorption/report';
import type { AdsorptionSearch } from '../../adsorption/search';
import type { CalculatorSettings } from '../../calculators/types';
import { formatExtxyz } from '../../dft/io/extxyz';
import type { PhysicalSettings } from '../../dft/types';
import type { ArtifactDraft } from '../../provenance/types';
import type { AttemptLog, IterationRefs } from './guardedAttempt';
import { SEARCH_ARTIFACT } from '../../artifacts/adsorptionSearch';

export interface ResultIteration {
  iteration: number;
  hypothesis: IterationRecord['hypothesis'];
  plannedSite: string;
  relaxedSite: string;
  slip: string;
  dissociated: boolean;
  valid: boolean;
  relaxationConverged: boolean;
  adsorptionEnergyEv: number;
  totalEnergyEv: number;
  refs: IterationRefs;
  note?: string;
}

export interface SearchResultValue {
  search: string;
  planner: string;
  stopReason: string;
  stopDetail: string;
  relaxations: number;
  forbid: string[];
  rejections: { proposal: unknown; reasons: string[]; call?: string }[];
  iterations: ResultIteration[];
  /** The lowest valid configuration with a recorded (final) adsorption energy. */
  best: { iteration: number; adsorptionEnergyEv: number; relaxedSite: string; refs: IterationRefs } | null;
  /**
   * Other relaxed configurations within the search's energy resolution (degenerateToleranceEv) of the
   * best: degenerate with it, not ranked (absent when there are none).
   */
  degenerate?: {
    resolutionEv: number;
    configurations: { iteration: number; adsorptionEnergyEv: number; relaxedSite: string; refs: IterationRefs }[];
  };
  references: { cleanSlab: { ref: string; energyEv: number }; gasPhase: { ref: string; energyEv: number }; description: string };
  calculator: { method: string; production: boolean; settings: PhysicalSettings };
  switches: Record<string, unknown>;
  /** pw.x jobs of the planner's own single-point screen (outside any evaluation). */
  planningJobs?: string[];
}

const siteText = (kind: string, hollowType?: string, elements: string[] = []): string =>
  `${kind}${hollowType ? ` ${hollowType}` : ''}${elements.length ? ` over ${elements.join('-')}` : ''}`;

export function resultIterations(search: AdsorptionSearch, log: AttemptLog): ResultIteration[] {
  const symbols = search.slab.slab.symbols;
  return search.result.iterations.map((r) => {
    const rs = r.analysis.relaxedSite;
    const note = log.notes.get(r.iteration);
    return {
      iteration: r.iteration,
      hypothesis: r.hypothesis,
      plannedSite: siteText(
        r.plannedSite.kind,
        r.plannedSite.hollowType,
        r.plannedSite.surfaceAtoms.map((i) => symbols[i]!),
      ),
      relaxedSite: rs.kind === 'desorbed' ? 'desorbed' : siteText(rs.kind, rs.hollowType, rs.elements),
      slip: r.analysis.slip,
      dissociated: r.analysis.dissociated,
      valid: r.valid,
      relaxationConverged: r.relaxConverged,
      adsorptionEnergyEv: r.adsorptionEnergyEv,
      totalEnergyEv: r.totalEnergyEv,
      refs: log.byIteration.get(r.iteration)!,
      ...(note ? { note } : {}),
    };
  });
}

/** The reported configurations degenerate with the reported best (see degenerateWithBest). */
export function reportedDegenerate(
  search: AdsorptionSearch,
  iterations: ResultIteration[],
  best: ResultIteration | undefined,
  resolutionEv: number,
): SearchResultValue['degenerate'] {
  const reported = new Map(iterations.filter((i) => i.valid && i.refs.adsorptionEnergy).map((i) => [i.iteration, i] as const));
  const bestRecord = best ? search.result.iterations.find((r) => r.iteration === best.iteration) : undefined;
  const ties = degenerateWithBest(search.result.iterations, bestRecord, resolutionEv, (r) => reported.has(r.iteration));
  if (ties.length === 0) return undefined;
  return {
    resolutionEv,
    configurations: ties.map((r) => {
      const i = reported.get(r.iteration)!;
      return { iteration: i.iteration, adsorptionEnergyEv: i.adsorptionEnergyEv, relaxedSite: i.relaxedSite, refs: i.refs };
    }),
  };
}

/** Only a configuration whose adsorption energy is a final recorded artifact can be reported. */
export function reportedBest(iterations: ResultIteration[]): ResultIteration | undefined {
  return iterations
    .filter((i) => i.valid && i.refs.adsorptionEnergy)
    .reduce<ResultIteration | undefined>((b, i) => (!b || i.adsorptionEnergyEv < b.adsorptionEnergyEv ? i : b), undefined);
}

export interface OutputContext {
  value: SearchResultValue;
  search: AdsorptionSearch;
  calculator: CalculatorSettings;
  slabSource: string;
}

export function searchOutputDrafts(o: OutputContext): ArtifactDraft[] {
  const { value, search } = o;
  const best = value.best ? search.result.iterations.find((r) => r.iteration === value.best!.iteration) : undefined;
  // The summarizer draws and tabulates the reported best, not a lower energy that cannot be claimed.
  const report = reportSearch(
    { ...search, result: { ...search.result, best } },
    {
      calculator: o.calculator,
      planner: value.planner,
      slabSource: o.slabSource,
      options: { maxRelaxations: value.switches.maxRelaxations as number, ablations: value.switches.ablations as never },
    },
  );
  const every = value.iterations.flatMap((i) => [
    i.refs.structure,
    i.refs.energy,
    i.refs.slipAnalysis,
    ...(i.refs.adsorptionEnergy ? [i.refs.adsorptionEnergy] : []),
  ]);
  const drafts: ArtifactDraft[] = [
    {
      kind: 'table',
      name: SEARCH_ARTIFACT.result,
      value,
      inputs: [...every, value.references.cleanSlab.ref, value.references.gasPhase.ref],
      meta: {
        search: value.search,
        stopReason: value.stopReason,
        relaxations: value.relaxations,
        bestIteration: value.best?.iteration ?? null,
      },
    },
  ];
  if (best && value.best) {
    const binding = best.relaxedStructure.positions[best.adsorbateStart + best.analysis.bindingAtom]!;
    drafts.push({
      kind: 'structure',
      name: SEARCH_ARTIFACT.best,
      value: best.relaxedStructure,
      file: {
        name: 'best.extxyz',
        bytes: formatExtxyz({
          structure: best.relaxedStructure,
          info: { energy: best.totalEnergyEv, adsorption_energy_eV: best.adsorptionEnergyEv, adsorbate_start: best.adsorbateStart },
        }),
      },
      inputs: [value.best.refs.structure, value.best.refs.adsorptionEnergy!],
      meta: {
        iteration: best.iteration,
        adsorptionEnergyEv: best.adsorptionEnergyEv,
        adsorbateStart: best.adsorbateStart,
        site: { kind: value.best.relaxedSite, position: binding },
        search: value.search,
      },
    });
  }
  drafts.push({
    kind: 'file',
    name: SEARCH_ARTIFACT.report,
    file: { name: 'adsorption-search.md', bytes: report.markdown },
    meta: { search: value.search },
  });
  for (const f of report.files.filter((x) => x.name.endsWith('.svg'))) {
    drafts.push({
      kind: 'file',
      name: SEARCH_ARTIFACT.drawing,
      file: { name: f.name, bytes: f.content },
      meta: { search: value.search, drawing: f.name },
    });
  }
  return drafts;
}
