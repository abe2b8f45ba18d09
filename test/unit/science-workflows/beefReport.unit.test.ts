import assert from 'node:assert/strict';
import { ensembleStatistics } from '../../../src/core/dft/beef';
import type { ArtifactRecord } from '../../../src/core/provenance/types';
import { beefHistogramSvg } from '../../../src/core/workflows/beef/histogram';
import { beefReportSection } from '../../../src/core/workflows/beef/reportSection';

// A skewed member distribution with 30 % below zero, so "where zero lies" is visible.
const members = Array.from({ length: 2000 }, (_, k) => (k < 600 ? -0.02 - 0.0001 * k : 0.01 + 0.0002 * (k - 600)));
const stats = { ...ensembleStatistics(members), selfConsistentDeltaBeEv: 0.05, deltaBeEv: members };

describe('BEEF-vdW report: histogram and section', () => {
  it('draws every member into bins, the mean, the self-consistent value and ΔBE = 0', () => {
    const svg = beefHistogramSvg(stats, 'a-77');
    assert.match(svg, /^<svg/);
    assert.match(svg, /2000 members: mean 0\.\d{3} eV, σ 0\.\d{3} eV, 70\.0 % &gt; 0/);
    assert.match(svg, /ΔBE = 0/);
    assert.match(svg, /self-consistent BEEF-vdW 0\.050 eV/);
    assert.match(svg, /a-77/);
  });

  it('the report section names the artifact, its statistics and the share of members favouring fcc; stale statistics are left out', () => {
    const art = (status: ArtifactRecord['status']): ArtifactRecord => ({ id: 'a-77', kind: 'table', name: 'beef_ensemble_stats', value: stats, contentHash: 'x', creator: 'c-1', inputs: [], concerns: [], status, createdAt: '' });
    const s = beefReportSection([art('final')])!;
    assert.ok(s.plots['beef-ensemble.svg']);
    const text = s.markdown.join('\n');
    assert.match(text, /over 2000 members \(a-77, final\)/);
    assert.match(text, /70\.0 % of the members are above zero \(fcc favoured\)/);
    assert.equal(beefReportSection([art('stale')]), undefined);
  });
});
