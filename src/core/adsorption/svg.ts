/**
 * Plain SVG drawings for the search report: a configuration from above and from the side
 * (atoms as discs sized by covalent radius, coloured by element, drawn back to front),
 * and the adsorption energy per iteration.
 */
import { elementOf, UNKNOWN_ELEMENT_COLOUR } from '../../shared/elements';
import type { Structure, Vec3 } from '../dft/types';
import { add, dot, scale } from './geometry';
import type { SlabFrame } from './slab';

/** Jmol colours from the project's element table. */
const colour = (s: string) => elementOf(s)?.colour ?? UNKNOWN_ELEMENT_COLOUR;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const f = (x: number) => x.toFixed(2);

interface Disc {
  x: number;
  y: number;
  depth: number;
  r: number;
  symbol: string;
  adsorbate: boolean;
}

function canvas(discs: Disc[], outline: [number, number][] | undefined, title: string, pxPerAngstrom = 28): string {
  const xs = discs.flatMap((d) => [d.x - d.r, d.x + d.r]).concat(outline?.map((p) => p[0]) ?? []);
  const ys = discs.flatMap((d) => [d.y - d.r, d.y + d.r]).concat(outline?.map((p) => p[1]) ?? []);
  const [x0, x1, y0, y1] = [Math.min(...xs) - 0.5, Math.max(...xs) + 0.5, Math.min(...ys) - 0.5, Math.max(...ys) + 0.5];
  const w = (x1 - x0) * pxPerAngstrom,
    h = (y1 - y0) * pxPerAngstrom;
  // SVG y grows downward; the drawings keep "up" (normal or e2) up.
  const X = (x: number) => (x - x0) * pxPerAngstrom;
  const Y = (y: number) => (y1 - y) * pxPerAngstrom;
  const body = [...discs]
    .sort((a, b) => a.depth - b.depth)
    .map(
      (d) =>
        `<circle cx="${f(X(d.x))}" cy="${f(Y(d.y))}" r="${f(d.r * pxPerAngstrom)}" fill="${colour(d.symbol)}" stroke="${d.adsorbate ? '#000' : '#555'}" stroke-width="${d.adsorbate ? 1.5 : 0.6}"><title>${esc(d.symbol)}</title></circle>`,
    );
  const box = outline
    ? `<polygon points="${outline.map((p) => `${f(X(p[0]))},${f(Y(p[1]))}`).join(' ')}" fill="none" stroke="#888" stroke-dasharray="4 3"/>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${f(w)}" height="${f(h)}" viewBox="0 0 ${f(w)} ${f(h)}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title><rect width="100%" height="100%" fill="#fafafa"/>${box}${body.join('')}</svg>`;
}

const radius = (s: string) => 0.75 * (elementOf(s)?.covalentRadiusAngstrom ?? 1);

/** Top view along the surface normal: the adsorbate and the top three layers' worth of slab (4 Å), with the cell outline. */
export function topViewSvg(s: Structure, adsorbateStart: number, frame: SlabFrame, title = 'top view'): string {
  const h = (p: Vec3) => dot(p, frame.normal);
  const slabTop = Math.max(...s.positions.slice(0, adsorbateStart).map(h));
  const discs: Disc[] = s.positions.flatMap((p, i) =>
    i >= adsorbateStart || h(p) > slabTop - 4.5
      ? [
          {
            x: dot(p, frame.e1),
            y: dot(p, frame.e2),
            depth: h(p),
            r: radius(s.symbols[i]!),
            symbol: s.symbols[i]!,
            adsorbate: i >= adsorbateStart,
          },
        ]
      : [],
  );
  const corners = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ].map(([u, v]) => {
    const c = add(scale(s.cell[0], u!), scale(s.cell[1], v!));
    return [dot(c, frame.e1), dot(c, frame.e2)] as [number, number];
  });
  return canvas(discs, corners, title);
}

/** Side view along e2: the surface normal points up. */
export function sideViewSvg(s: Structure, adsorbateStart: number, frame: SlabFrame, title = 'side view'): string {
  const discs: Disc[] = s.positions.map((p, i) => ({
    x: dot(p, frame.e1),
    y: dot(p, frame.normal),
    depth: -dot(p, frame.e2),
    r: radius(s.symbols[i]!),
    symbol: s.symbols[i]!,
    adsorbate: i >= adsorbateStart,
  }));
  return canvas(discs, undefined, title);
}

export interface EnergyPoint {
  iteration: number;
  energyEv: number;
  /** 'ok', 'slip', 'invalid' (dissociated or desorbed). */
  status: 'ok' | 'slip' | 'invalid';
  best?: boolean;
}

/** Adsorption energy per iteration: points joined in order, the best ringed, the running best dashed. */
export function energyCurveSvg(points: EnergyPoint[], title = 'adsorption energy per iteration'): string {
  const W = 480,
    H = 260,
    L = 64,
    R = 16,
    T = 24,
    B = 40;
  if (points.length === 0)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><title>${esc(title)}</title><text x="${W / 2}" y="${H / 2}" text-anchor="middle">no relaxations</text></svg>`;
  const es = points.map((p) => p.energyEv);
  let lo = Math.min(...es),
    hi = Math.max(...es);
  if (hi - lo < 0.1) {
    lo -= 0.05;
    hi += 0.05;
  }
  const pad = 0.08 * (hi - lo);
  lo -= pad;
  hi += pad;
  const n = points.length;
  const X = (i: number) => L + (n === 1 ? (W - L - R) / 2 : ((i - 1) / (n - 1)) * (W - L - R));
  const Y = (e: number) => T + ((hi - e) / (hi - lo)) * (H - T - B);
  const ticks = Array.from({ length: 5 }, (_, k) => lo + ((k + 0.5) / 5) * (hi - lo));
  const style: Record<EnergyPoint['status'], string> = { ok: '#1f77b4', slip: '#ff7f0e', invalid: '#7f7f7f' };
  let running = Infinity;
  const runningPts = points
    .map((p) => {
      if (p.status !== 'invalid') running = Math.min(running, p.energyEv);
      return Number.isFinite(running) ? `${f(X(p.iteration))},${f(Y(running))}` : '';
    })
    .filter(Boolean);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#000"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#000"/>`,
    ...ticks.map(
      (e) =>
        `<line x1="${L - 4}" y1="${f(Y(e))}" x2="${L}" y2="${f(Y(e))}" stroke="#000"/><text x="${L - 6}" y="${f(Y(e) + 4)}" font-size="11" text-anchor="end">${e.toFixed(2)}</text>`,
    ),
    ...points.map((p) => `<text x="${f(X(p.iteration))}" y="${H - B + 16}" font-size="11" text-anchor="middle">${p.iteration}</text>`),
    `<text x="${(L + W - R) / 2}" y="${H - 6}" font-size="12" text-anchor="middle">iteration</text>`,
    `<text x="14" y="${(T + H - B) / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 ${(T + H - B) / 2})">E_ads (eV)</text>`,
    runningPts.length > 1 ? `<polyline points="${runningPts.join(' ')}" fill="none" stroke="#2ca02c" stroke-dasharray="5 3"/>` : '',
    `<polyline points="${points.map((p) => `${f(X(p.iteration))},${f(Y(p.energyEv))}`).join(' ')}" fill="none" stroke="#999"/>`,
    ...points.map(
      (p) =>
        `<circle cx="${f(X(p.iteration))}" cy="${f(Y(p.energyEv))}" r="${p.best ? 7 : 4.5}" fill="${style[p.status]}" stroke="${p.best ? '#000' : 'none'}" stroke-width="2"><title>iteration ${p.iteration}: ${p.energyEv.toFixed(3)} eV (${p.status})</title></circle>`,
    ),
    '</svg>',
  ].join('');
}
