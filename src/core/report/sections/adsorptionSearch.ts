/**
 * The run report's adsorption-search section: the summarizer's Markdown (run context,
 * per-iteration table, the best configuration from above and from the side, the energy
 * per iteration) with its drawings under plots/, and the provenance of the best energy
 * walked back to its relaxation, the settings it ran with and the two references.
 */
import type { SearchResultValue } from '../../tools/adsorptionSearch/searchOutputs';
import { SEARCH_ARTIFACT } from '../../artifacts/adsorptionSearch';
import type { PhysicalSettings } from '../../dft/types';
import type { ArtifactRecord } from '../../provenance/types';

export interface SearchSectionSource {
  artifacts: readonly ArtifactRecord[];
  /** Text of a file-backed artifact. */
  readFile(location: string): string | undefined;
  /** The tool of a call id. */
  toolOf(callId: string): string | undefined;
}

const drawingFile = (search: string, name: string): string => `adsorption-${search}-${name}`;

function settingsLine(s: PhysicalSettings | undefined): string {
  if (!s) return 'settings not recorded';
  if (s.code === 'emt') return 'EMT (effective-medium theory; a screening model)';
  if (s.code === 'ipi')
    return `the user's own calculator over i-PI (a screening model), declared as ${String(s.extra?.ipiCalculator ?? '').slice(0, 12)}…`;
  const pseudos = Object.entries(s.pseudopotentials)
    .map(([el, p]) => `${el} ${p.file}${p.sha256 ? ` (sha256 ${p.sha256.slice(0, 12)}…)` : ''}`)
    .join(', ');
  const k = `${s.kSpacingPerAngstrom !== undefined ? `k spacing ${s.kSpacingPerAngstrom} 1/Å, ` : ''}mesh ${s.kMesh?.join('×') ?? '—'}`;
  return (
    `pw.x${s.codeVersion ? ` ${s.codeVersion}` : ''}, ${s.functional}, ecutwfc/ecutrho ${s.ecutwfcRy}/${s.ecutrhoRy} Ry, ${k}, ${s.occupations}` +
    `${s.smearing ? ` ${s.smearing} ${s.degaussRy} Ry` : ''}, nspin ${s.nspin}; ${pseudos}`
  );
}

function provenanceLines(v: SearchResultValue, byId: Map<string, ArtifactRecord>, toolOf: (c: string) => string | undefined): string[] {
  if (!v.best) return [];
  const r = v.best.refs;
  const describe = (id: string | undefined, what: string): string => {
    const a = id ? byId.get(id) : undefined;
    if (!a) return `${what}: not recorded`;
    const relax = a.meta?.relaxation as
      | { optimizer?: string; steps?: number; converged?: boolean; thresholdEvPerAngstrom?: number; jobs?: string[] }
      | undefined;
    return (
      `${what} ${a.id} = ${(a.value as number).toFixed(4)} eV, made by ${toolOf(a.creator) ?? 'a call'} ${a.creator}` +
      (relax
        ? ` (${relax.optimizer}, ${relax.steps} steps to fmax ${relax.thresholdEvPerAngstrom} eV/Å${relax.converged ? '' : ', not converged'}${relax.jobs?.length ? `; jobs ${relax.jobs.join(', ')}` : ''})`
        : '') +
      `; ${settingsLine(a.meta?.settings as PhysicalSettings | undefined)}`
    );
  };
  return [
    '#### Where the best energy comes from',
    '',
    `- E_ads ${r.adsorptionEnergy} = ${v.best.adsorptionEnergyEv.toFixed(4)} eV, made by adsorption_energy ${r.adsorptionEnergyCall ?? ''} (its guard checked that the three energies below share their settings) from:`,
    `  - ${describe(r.energy, 'the relaxed configuration')} (hypothesis evaluated by ${r.evaluation}; structure ${r.structure}; slip analysis ${r.slipAnalysis})`,
    `  - ${describe(v.references.cleanSlab.ref, 'the relaxed clean slab')}`,
    `  - ${describe(v.references.gasPhase.ref, 'the relaxed gas-phase adsorbate')}`,
    '',
  ];
}

export function adsorptionSearchReportSection(src: SearchSectionSource): { markdown: string[]; plots: Record<string, string> } | undefined {
  // One section per search: a search made again (a resumed step) replaces its earlier answer.
  const latest = new Map<string, ArtifactRecord>();
  for (const a of src.artifacts)
    if (a.name === SEARCH_ARTIFACT.result && a.status !== 'stale') latest.set((a.value as SearchResultValue).search, a);
  const results = [...latest.values()];
  if (!results.length) return undefined;
  const byId = new Map(src.artifacts.map((a) => [a.id, a]));
  const markdown: string[] = [];
  const plots: Record<string, string> = {};
  for (const result of results) {
    const v = result.value as SearchResultValue;
    const made = src.artifacts.filter((a) => a.creator === result.creator);
    const report = made.find((a) => a.name === SEARCH_ARTIFACT.report);
    const best = made.find((a) => a.name === SEARCH_ARTIFACT.best);
    let text = report?.location ? src.readFile(report.location) : undefined;
    for (const d of made.filter((a) => a.name === SEARCH_ARTIFACT.drawing)) {
      const name = String(d.meta?.drawing ?? '');
      const svg = d.location ? src.readFile(d.location) : undefined;
      if (!name || !svg) continue;
      plots[drawingFile(v.search, name)] = svg;
      text = text?.split(`](${name})`).join(`](plots/${drawingFile(v.search, name)})`);
    }
    if (best?.location) text = text?.split('](best.extxyz)').join(`](${best.location})`);
    markdown.push(`## Adsorption configuration search ${v.search} (${result.id}, ${result.creator})`, '');
    if (text)
      markdown.push(
        text
          .replace(/^# .*\n+/, '')
          .replace(/^## /gm, '### ')
          .trim(),
        '',
      );
    else markdown.push('_The search report file is missing from the run directory._', '');
    if (best) markdown.push(`Best configuration as a structure: ${best.id}${best.location ? ` (${best.location})` : ''}.`, '');
    markdown.push(...provenanceLines(v, byId, src.toolOf));
  }
  return { markdown, plots };
}
