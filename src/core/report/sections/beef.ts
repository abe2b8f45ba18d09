/**
 * The run report's BEEF-vdW section: the ΔBE histogram over the ensemble members as
 * plots/beef-ensemble.svg, and one line with the statistics and where zero lies.
 */
import type { ArtifactRecord } from '../../provenance/types';
import { beefHistogramSvg } from './beefHistogram';
import type { BeefStatsValue } from '../../artifacts/shapes';
import { BEEF_HISTOGRAM_FILE } from '../../workflows/beef/report';

export function beefReportSection(artifacts: readonly ArtifactRecord[]): { markdown: string[]; plots: Record<string, string> } | undefined {
  const stats = artifacts.filter((a) => a.name === 'beef_ensemble_stats' && a.status !== 'stale').at(-1);
  if (!stats) return undefined;
  const v = stats.value as BeefStatsValue;
  return {
    plots: { [BEEF_HISTOGRAM_FILE]: beefHistogramSvg(v, stats.id) },
    markdown: [
      '## BEEF-vdW ensemble',
      '',
      `![BEEF-vdW ensemble ΔBE](plots/${BEEF_HISTOGRAM_FILE})`,
      '',
      `ΔBE = E_ads(ontop) − E_ads(fcc) over ${v.count} members (${stats.id}, ${stats.status}): mean ${v.meanEv.toFixed(4)} eV, σ ${v.sigmaEv.toFixed(4)} eV, ` +
        `range ${v.minEv.toFixed(3)} to ${v.maxEv.toFixed(3)} eV; ${(100 * v.fractionPositive).toFixed(1)} % of the members are above zero (fcc favoured)` +
        `${v.selfConsistentDeltaBeEv !== undefined ? `; self-consistent BEEF-vdW ${v.selfConsistentDeltaBeEv.toFixed(4)} eV` : ''}.`,
      '',
    ],
  };
}
