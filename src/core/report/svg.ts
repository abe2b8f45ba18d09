/**
 * A small SVG line/scatter chart: axes with round-number ticks, labelled in their units,
 * series drawn as lines, markers or both, optional horizontal band (a tolerance) and
 * vertical marker (a chosen value). Self-contained SVG, readable in any browser or
 * Markdown viewer, with no script.
 */

export interface Series {
  label: string;
  points: { x: number; y: number }[];
  line?: boolean;
  markers?: boolean;
  color: string;
  dashed?: boolean;
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** A shaded band between two y values (e.g. the convergence tolerance). */
  band?: { from: number; to: number; label: string };
  /** A vertical line at an x value (e.g. the chosen cutoff). */
  marker?: { x: number; label: string };
  width?: number;
  height?: number;
  /**
   * A logarithmic y axis (errors that fall over decades, as a convergence sweep's): ticks at 1, 2 and 5 × 10^n, and a
   * value of zero or below, which a log axis cannot hold, drawn as a hollow marker on the floor.
   */
  yLog?: boolean;
  /**
   * The x range drawn, as given (no padding): the lines are cut at its edges, markers outside it left out, and the y
   * range fitted to what lies inside it (a DOS drawn in an energy window around E_F).
   */
  xRange?: [number, number];
  /** A line of small print above the plot, right-aligned (what the window leaves out). */
  note?: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Round-number ticks covering [lo, hi]: steps of 1, 2 or 5 × 10^n. */
export function niceTicks(lo: number, hi: number, target = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/** Ticks of a log axis over [lo, hi]: the decades, with 2 and 5 × 10^n between them when fewer than three decades show. */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  const steps = Math.log10(hi / lo) < 3 ? [1, 2, 5] : [1];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const k of steps) {
      const t = Number((k * 10 ** e).toPrecision(6));
      if (t >= lo && t <= hi) out.push(t);
    }
  return out;
}

const label = (t: number): string => {
  const a = Math.abs(t);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return t.toExponential(1);
  return String(Number(t.toPrecision(6)));
};

/**
 * The parts of a line inside [lo, hi] in x: each a run of its points there, cut where a segment
 * crosses an edge (the crossing interpolated), so that the line ends at the edge of the plot.
 */
export function cutToRange(points: readonly { x: number; y: number }[], [lo, hi]: readonly [number, number]): { x: number; y: number }[][] {
  const runs: { x: number; y: number }[][] = [];
  let run: { x: number; y: number }[] = [];
  const inside = (p: { x: number }) => p.x >= lo && p.x <= hi;
  const at = (a: { x: number; y: number }, b: { x: number; y: number }, x: number) => ({
    x,
    y: a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x),
  });
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (prev && inside(prev) !== inside(p)) {
      // the segment crosses an edge: end (or start) the run there
      const [a, b] = inside(prev) ? [prev, p] : [p, prev];
      const edge = b.x < lo ? lo : hi;
      const cut = at(a, b, edge);
      if (inside(prev)) {
        run.push(cut);
        runs.push(run);
        run = [];
      } else run.push(cut);
    } else if (prev && !inside(prev) && !inside(p) && (prev.x - lo) * (p.x - lo) < 0 && (prev.x - hi) * (p.x - hi) < 0) {
      // a segment that spans the whole range
      runs.push([at(prev, p, Math.min(prev.x, p.x) === prev.x ? lo : hi), at(prev, p, Math.min(prev.x, p.x) === prev.x ? hi : lo)]);
    }
    if (inside(p)) run.push(p);
  });
  if (run.length) runs.push(run);
  return runs;
}

/** Height of one legend row under the chart, px. */
const LEGEND_ROW = 16;

/** A chart of width × height px for the axes, titles and plot, with the legend in rows below it. */
export function renderChart(c: Chart): string {
  const W = c.width ?? 640;
  const H = c.height ?? 400;
  const m = { left: 78, right: 20, top: 40, bottom: 56 };
  const runsOf = (s: Series) => (c.xRange ? cutToRange(s.points, c.xRange) : [s.points]);
  const all = c.series.flatMap((s) => runsOf(s).flat());
  const xs = [...all.map((p) => p.x), ...(c.marker ? [c.marker.x] : [])];
  const ys = [...all.map((p) => p.y), ...(c.band ? [c.band.from, c.band.to] : [])];
  let [x0, x1] = c.xRange ?? [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  const padX = c.xRange ? 0 : (x1 - x0) * 0.05;
  const padY = (y1 - y0) * 0.08;
  [x0, x1, y0, y1] = [x0 - padX, x1 + padX, y0 - padY, y1 + padY];
  const px = (x: number) => m.left + ((x - x0) / (x1 - x0)) * (W - m.left - m.right);
  const positive = ys.filter((y) => y > 0);
  const [l0, l1] = positive.length ? [Math.log10(Math.min(...positive) / 3), Math.log10(Math.max(...positive) * 3)] : [-2, 0];
  const floor = H - m.bottom;
  const py = c.yLog
    ? (y: number) => (y > 0 ? floor - ((Math.log10(y) - l0) / (l1 - l0)) * (H - m.top - m.bottom) : floor)
    : (y: number) => floor - ((y - y0) / (y1 - y0)) * (H - m.top - m.bottom);
  const yTicks = c.yLog ? logTicks(10 ** l0, 10 ** l1) : niceTicks(y0, y1);
  const total = H + (c.series.length ? LEGEND_ROW * c.series.length + 8 : 0);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${total}" viewBox="0 0 ${W} ${total}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(c.title)}</title>`,
    `<rect width="${W}" height="${total}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${esc(c.title)}</text>`,
  ];
  if (c.note)
    parts.push(
      `<text class="note" x="${W - m.right}" y="${m.top - 6}" text-anchor="end" font-size="11" fill="#616161">${esc(c.note)}</text>`,
    );
  if (c.band) {
    const top = py(Math.max(c.band.from, c.band.to));
    const bottom = py(Math.min(c.band.from, c.band.to));
    parts.push(
      `<rect x="${m.left}" y="${top.toFixed(1)}" width="${W - m.left - m.right}" height="${(bottom - top).toFixed(1)}" fill="#2e7d32" fill-opacity="0.12"><title>${esc(c.band.label)}</title></rect>`,
    );
    parts.push(`<text x="${W - m.right - 4}" y="${(top + 12).toFixed(1)}" text-anchor="end" fill="#2e7d32">${esc(c.band.label)}</text>`);
  }
  for (const t of niceTicks(x0, x1)) {
    parts.push(`<line x1="${px(t).toFixed(1)}" y1="${H - m.bottom}" x2="${px(t).toFixed(1)}" y2="${H - m.bottom + 5}" stroke="black"/>`);
    parts.push(`<text x="${px(t).toFixed(1)}" y="${H - m.bottom + 18}" text-anchor="middle">${label(t)}</text>`);
  }
  for (const t of yTicks) {
    parts.push(`<line x1="${m.left - 5}" y1="${py(t).toFixed(1)}" x2="${W - m.right}" y2="${py(t).toFixed(1)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${m.left - 8}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${label(t)}</text>`);
  }
  parts.push(`<line x1="${m.left}" y1="${H - m.bottom}" x2="${W - m.right}" y2="${H - m.bottom}" stroke="black"/>`);
  parts.push(`<line x1="${m.left}" y1="${m.top}" x2="${m.left}" y2="${H - m.bottom}" stroke="black"/>`);
  parts.push(`<text x="${(m.left + W - m.right) / 2}" y="${H - 14}" text-anchor="middle">${esc(c.xLabel)}</text>`);
  parts.push(`<text transform="translate(18 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(c.yLabel)}</text>`);
  if (c.marker) {
    parts.push(
      `<line x1="${px(c.marker.x).toFixed(1)}" y1="${m.top}" x2="${px(c.marker.x).toFixed(1)}" y2="${H - m.bottom}" stroke="#c62828" stroke-dasharray="4 3"/>`,
    );
    parts.push(`<text x="${(px(c.marker.x) + 4).toFixed(1)}" y="${H - m.bottom - 6}" fill="#c62828">${esc(c.marker.label)}</text>`);
  }
  c.series.forEach((s, i) => {
    const runs = runsOf(s);
    if (s.line !== false && runs.some((r) => r.length > 1)) {
      const d = runs.flatMap((r) => r.map((p, j) => `${j ? 'L' : 'M'}${px(p.x).toFixed(1)} ${py(p.y).toFixed(1)}`)).join(' ');
      parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    }
    if (s.markers) {
      for (const p of runs.flat()) {
        const hollow = c.yLog && !(p.y > 0);
        parts.push(
          `<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="4" fill="${hollow ? 'white' : s.color}"${hollow ? ` stroke="${s.color}" stroke-width="1.5"` : ''}><title>${esc(`${s.label}: (${label(p.x)}, ${label(p.y)})`)}</title></circle>`,
        );
      }
    }
    // Legend under the x-axis label, a row per series (a line for drawn series, a dot for points
    // only): inside the plot it hid data (a histogram's peak) and long labels ran off the edge.
    const ly = H + LEGEND_ROW * i + 6;
    const lx = m.left;
    if (s.line === false) parts.push(`<circle cx="${lx + 10}" cy="${ly}" r="4" fill="${s.color}"/>`);
    else
      parts.push(
        `<line x1="${lx}" y1="${ly}" x2="${lx + 20}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
    parts.push(`<text x="${lx + 26}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
