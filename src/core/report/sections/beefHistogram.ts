/**
 * The ΔBE distribution over the BEEF-vdW ensemble as an SVG histogram: members per bin,
 * the ensemble mean, and ΔBE = 0, right of which a member favours the fcc hollow.
 */
import { histogram } from '../../dft/beef';
import type { BeefStatsValue } from '../../artifacts/shapes';
import { renderChart } from '../svg';

export function beefHistogramSvg(stats: BeefStatsValue, artifactId: string, bins = 40): string {
  const lo = Math.min(stats.minEv, 0);
  const hi = Math.max(stats.maxEv, 0);
  const pad = (hi - lo) * 0.02 || 1e-3;
  const h = histogram(stats.deltaBeEv, bins, [lo - pad, hi + pad]);
  // a closed step outline: up and across each bin
  const outline = h.flatMap((b) => [
    { x: b.fromEv, y: b.count },
    { x: b.toEv, y: b.count },
  ]);
  const points = [{ x: h[0]!.fromEv, y: 0 }, ...outline, { x: h.at(-1)!.toEv, y: 0 }];
  const top = Math.max(...h.map((b) => b.count));
  return renderChart({
    title: `BEEF-vdW ensemble ΔBE = E_ads(ontop) − E_ads(fcc) (${artifactId})`,
    xLabel: 'ΔBE (eV); > 0: fcc favoured',
    yLabel: `members per bin (of ${stats.count})`,
    series: [
      {
        label: `${stats.count} members: mean ${stats.meanEv.toFixed(3)} eV, σ ${stats.sigmaEv.toFixed(3)} eV, ${(100 * stats.fractionPositive).toFixed(1)} % > 0`,
        points,
        color: '#1565c0',
      },
      {
        label: 'ensemble mean',
        points: [
          { x: stats.meanEv, y: 0 },
          { x: stats.meanEv, y: top },
        ],
        color: '#2e7d32',
        dashed: true,
      },
      ...(stats.selfConsistentDeltaBeEv !== undefined
        ? [
            {
              label: `self-consistent BEEF-vdW ${stats.selfConsistentDeltaBeEv.toFixed(3)} eV`,
              points: [
                { x: stats.selfConsistentDeltaBeEv, y: 0 },
                { x: stats.selfConsistentDeltaBeEv, y: top },
              ],
              color: '#6a1b9a',
              dashed: true,
            },
          ]
        : []),
    ],
    marker: { x: 0, label: 'ΔBE = 0' },
  });
}
