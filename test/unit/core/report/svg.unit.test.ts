// The report's SVG charts: the legend sits under the plot, inside the drawing, so it neither
// hides data (a histogram's peak is where a corner legend used to go) nor runs off the edge.
import assert from 'node:assert/strict';
import { renderChart } from '../../../../src/core/report/svg';
import { ensembleStatistics } from '../../../../src/core/dft/beef';
import { beefHistogramSvg } from '../../../../src/core/report/sections/beefHistogram';

const num = (svg: string, attr: string): number => Number(new RegExp(`<svg[^>]* ${attr}="([\\d.]+)"`).exec(svg)![1]);
/** The text elements' x and y, with their content. */
const texts = (svg: string) =>
  [...svg.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    text: m[3]!,
  }));

describe('report SVG charts', () => {
  it("puts each series' legend row under the x-axis label, and the drawing grows to hold it", () => {
    const series = [
      {
        label: 'total energy',
        points: [
          { x: 30, y: 10 },
          { x: 40, y: 2 },
          { x: 50, y: 0.3 },
        ],
        color: '#1565c0',
        markers: true,
      },
      {
        label: 'a label long enough to have run off the right edge from a corner legend (60+ characters)',
        points: [
          { x: 30, y: 5 },
          { x: 50, y: 1 },
        ],
        color: '#6a1b9a',
        dashed: true,
      },
    ];
    const svg = renderChart({ title: 't', xLabel: 'ecutwfc (Ry)', yLabel: 'error (meV/atom)', series, width: 640, height: 400 });
    assert.equal(num(svg, 'width'), 640);
    assert.equal(num(svg, 'height'), 400 + 2 * 16 + 8);
    const xLabel = texts(svg).find((t) => t.text === 'ecutwfc (Ry)')!;
    const rows = series.map((s) => texts(svg).find((t) => t.text.startsWith(s.label.slice(0, 20)))!);
    for (const r of rows) {
      assert.ok(r.y > xLabel.y, `legend "${r.text.slice(0, 20)}…" at y ${r.y} is under the x-axis label (y ${xLabel.y})`);
      assert.ok(r.y < num(svg, 'height'), 'and inside the drawing');
      assert.ok(r.x < 120, `legend row starts at the plot's left (x ${r.x}), so a long label has the drawing's width`);
    }
    assert.ok(rows[1]!.y > rows[0]!.y, 'one row per series');
  });

  it('the BEEF-vdW histogram keeps its legend off the bars', () => {
    const members = Array.from({ length: 2000 }, (_, i) => 0.05 + 0.115 * Math.sin(i * 1.3));
    const svg = beefHistogramSvg({ ...ensembleStatistics(members), selfConsistentDeltaBeEv: 0.05, deltaBeEv: members }, 'a-36');
    const plotBottom = Math.max(
      ...[...svg.matchAll(/<path d="([^"]+)"/g)].flatMap((m) => [...m[1]!.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((p) => Number(p[1]))),
    );
    const legend = texts(svg).find((t) => t.text.startsWith('2000 members'))!;
    assert.ok(legend.y > plotBottom, `legend (y ${legend.y}) below every bar (lowest ${plotBottom})`);
  });
});
