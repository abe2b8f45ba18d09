import assert from 'node:assert/strict';
import { ensembleStatistics } from '../../../../../src/core/dft/beef';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';
import { beefHistogramSvg } from '../../../../../src/core/report/sections/beefHistogram';
import { beefReportSection } from '../../../../../src/core/report/sections/beef';
import { renderRunReport, valueWithUnit } from '../../../../../src/core/report/runReport';
import type { CanvasEvent } from '../../../../../src/core/canvas/types';

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
    const art = (status: ArtifactRecord['status']): ArtifactRecord => ({
      id: 'a-77',
      kind: 'table',
      name: 'beef_ensemble_stats',
      value: stats,
      contentHash: 'x',
      creator: 'c-1',
      inputs: [],
      concerns: [],
      status,
      createdAt: '',
    });
    const s = beefReportSection([art('final')])!;
    assert.ok(s.plots['beef-ensemble.svg']);
    const text = s.markdown.join('\n');
    assert.match(text, /over 2000 members \(a-77, final\)/);
    assert.match(text, /70\.0 % of the members are above zero \(fcc favoured\)/);
    assert.equal(beefReportSection([art('stale')]), undefined);
  });

  it('the run report shows the histogram once: not again in its BEEF section when the judged report embeds it', () => {
    const art = (id: string, name: string, value: unknown, location?: string): ArtifactRecord => ({
      id,
      kind: 'table',
      name,
      value,
      contentHash: id,
      creator: 'c-1',
      inputs: [],
      concerns: [],
      status: 'final',
      createdAt: '',
      ...(location ? { location } : {}),
    });
    const judged = {
      v: 1,
      seq: 1,
      ts: '',
      actor: { kind: 'framework', id: 'judge' },
      kind: 'report.judged',
      payload: {
        report: 'a-80',
        accepted: true,
        level: 'pass',
        summary: '1 claim(s)',
        claims: [{ claim: { quantity: 'beef_ensemble', value: 0.7, unit: '1', cites: 'a-77.fractionPositive' }, verdicts: [] }],
      },
    } as unknown as CanvasEvent;
    const render = (reportText: string) =>
      renderRunReport({
        runId: 'r',
        events: [judged],
        calls: () => [],
        readFile: () => reportText,
        artifacts: () => [art('a-77', 'beef_ensemble_stats', stats), art('a-80', 'report', { title: 'BEEF' }, 'files/report.md')],
      });
    const image = /!\[[^\]]*\]\(plots\/beef-ensemble\.svg\)/g;
    const embedded = render('# BEEF\n\n![BEEF-vdW ensemble ΔBE](plots/beef-ensemble.svg)\n');
    assert.equal(embedded.markdown.match(image)?.length, 1, "the report's own image, not a second one");
    assert.match(embedded.markdown, /## BEEF-vdW ensemble/);
    assert.ok(embedded.plots['beef-ensemble.svg'], 'the plot file is still written');
    assert.equal(render('# BEEF\n\nno image here\n').markdown.match(image)?.length, 1, 'the section draws it when the report does not');
    assert.match(embedded.markdown, /\| beef_ensemble \| 0\.7 \| a-77\.fractionPositive \|/, 'a fraction without a unit "1" after it');
  });

  it('claimed values: a unit is written after the value, "1" and none are not', () => {
    assert.equal(valueWithUnit(0.669, '1'), '0.669');
    assert.equal(valueWithUnit(3, ''), '3');
    assert.equal(valueWithUnit(-1.6964, 'eV'), '-1.6964 eV');
  });
});
