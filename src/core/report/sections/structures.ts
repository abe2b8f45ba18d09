/**
 * The structures of a run as still pictures for report.md (the notebook draws them in 3-D; a
 * report is read where no viewer runs): the crystal read from the user's file, with its file and
 * sha256, and the last relaxed structure. Each is an SVG: the cell seen obliquely (as the 3-D
 * view opens), atoms as shaded spheres coloured and sized from the element table, the far faces'
 * periodic images, the cell edges, fixed atoms crossed. Lengths in Å.
 */
import { elementOf, UNKNOWN_ELEMENT_COLOUR } from '../../../shared/elements';
import type { ArtifactRecord } from '../../provenance/types';
import type { Structure, Vec3 } from '../../dft/types';
import { toFractional } from '../../dft/structure/cell';
import { symprecSaid } from '../../dft/structure/symprec';

type Mat3 = [Vec3, Vec3, Vec3];

const rotY = (deg: number): Mat3 => {
  const t = (deg * Math.PI) / 180;
  return [
    [Math.cos(t), 0, Math.sin(t)],
    [0, 1, 0],
    [-Math.sin(t), 0, Math.cos(t)],
  ];
};
const rotX = (deg: number): Mat3 => {
  const t = (deg * Math.PI) / 180;
  return [
    [1, 0, 0],
    [0, Math.cos(t), -Math.sin(t)],
    [0, Math.sin(t), Math.cos(t)],
  ];
};
const apply = (m: Mat3, v: Vec3): Vec3 => [0, 1, 2].map((i) => m[i]![0] * v[0] + m[i]![1] * v[1] + m[i]![2] * v[2]) as Vec3;
const mul = (a: Mat3, b: Mat3): Mat3 =>
  [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[i]![0] * b[0]![j]! + a[i]![1] * b[1]![j]! + a[i]![2] * b[2]![j]!)) as Mat3;
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The picture of a structure, as SVG text. */
export function structureSvg(s: Structure, title: string): string {
  const periodic = s.pbc.every(Boolean);
  const atoms: { symbol: string; p: Vec3; fixed: boolean }[] = s.positions.map((p, i) => ({
    symbol: s.symbols[i]!,
    p,
    fixed: s.fixed?.[i] === true,
  }));
  if (periodic) {
    // Atoms on a face (fractional 0) are also drawn on the opposite face, as a crystallographer draws a cell.
    s.positions.forEach((p, i) => {
      const f = toFractional(s.cell, p);
      const shifts = f.map((x) => (Math.abs(x) < 1e-3 ? [0, 1] : [0]));
      for (const a of shifts[0]!)
        for (const b of shifts[1]!)
          for (const c of shifts[2]!) {
            if (!a && !b && !c) continue;
            atoms.push({
              symbol: s.symbols[i]!,
              p: add(add(add(p, scale(s.cell[0], a)), scale(s.cell[1], b)), scale(s.cell[2], c)),
              fixed: s.fixed?.[i] === true,
            });
          }
    });
  }
  const view = mul(rotX(15), rotY(-25));
  const [a, b, c] = s.cell;
  const o: Vec3 = [0, 0, 0];
  const corners = { o, a, b, c, ab: add(a, b), ac: add(a, c), bc: add(b, c), abc: add(add(a, b), c) };
  const edgeKeys: [keyof typeof corners, keyof typeof corners][] = [
    ['o', 'a'],
    ['o', 'b'],
    ['o', 'c'],
    ['a', 'ab'],
    ['a', 'ac'],
    ['b', 'ab'],
    ['b', 'bc'],
    ['c', 'ac'],
    ['c', 'bc'],
    ['ab', 'abc'],
    ['ac', 'abc'],
    ['bc', 'abc'],
  ];
  const edges = periodic ? edgeKeys.map(([p, q]) => [apply(view, corners[p]), apply(view, corners[q])] as [Vec3, Vec3]) : [];
  const drawn = atoms
    .map((x) => {
      const e = elementOf(x.symbol);
      return { ...x, q: apply(view, x.p), r: 0.5 * (e?.covalentRadiusAngstrom ?? 1.2), colour: e?.colour ?? UNKNOWN_ELEMENT_COLOUR };
    })
    .sort((u, v) => u.q[2] - v.q[2]);
  const xs = [...drawn.flatMap((d) => [d.q[0] - d.r, d.q[0] + d.r]), ...edges.flatMap(([p, q]) => [p[0], q[0]])];
  const ys = [...drawn.flatMap((d) => [d.q[1] - d.r, d.q[1] + d.r]), ...edges.flatMap(([p, q]) => [p[1], q[1]])];
  const size = 360,
    pad = 16,
    legendHeight = 26;
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1e-6);
  const k = (size - 2 * pad) / span;
  const x0 = Math.min(...xs),
    y1 = Math.max(...ys);
  const X = (x: number) => (pad + (x - x0) * k).toFixed(2);
  const Y = (y: number) => (pad + legendHeight + (y1 - y) * k).toFixed(2);
  const species = [...new Set(s.symbols)];
  const gradients = species.map((sym) => {
    const colour = elementOf(sym)?.colour ?? UNKNOWN_ELEMENT_COLOUR;
    return `<radialGradient id="g-${sym}" cx="35%" cy="35%" r="65%"><stop offset="0%" stop-color="#ffffff"/><stop offset="35%" stop-color="${colour}"/><stop offset="100%" stop-color="${colour}" stop-opacity="1"/></radialGradient>`;
  });
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size + legendHeight}" viewBox="0 0 ${size} ${size + legendHeight}" font-family="sans-serif" font-size="11">`,
    `<title>${esc(title)}</title>`,
    `<defs>${gradients.join('')}</defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${pad}" y="14" font-weight="bold">${esc(title)}</text>`,
  ];
  let lx = pad;
  for (const sym of species) {
    out.push(
      `<circle cx="${lx + 5}" cy="${legendHeight - 4}" r="5" fill="url(#g-${sym})" stroke="#333" stroke-width="0.6"/><text x="${lx + 13}" y="${legendHeight}">${esc(sym)}</text>`,
    );
    lx += 18 + 7 * sym.length + 10;
  }
  if (s.fixed?.some(Boolean)) out.push(`<text x="${lx}" y="${legendHeight}">× fixed</text>`);
  // Edges behind the atoms; drawn first, thin, so near atoms cover them.
  for (const [p, q] of edges)
    out.push(
      `<line x1="${X(p[0])}" y1="${Y(p[1])}" x2="${X(q[0])}" y2="${Y(q[1])}" stroke="#666" stroke-width="1" stroke-dasharray="4 3"/>`,
    );
  for (const d of drawn) {
    const r = Math.max(1.5, d.r * k).toFixed(2);
    out.push(`<circle cx="${X(d.q[0])}" cy="${Y(d.q[1])}" r="${r}" fill="url(#g-${d.symbol})" stroke="#222" stroke-width="0.8"/>`);
    if (d.fixed) {
      const h = Number(r) * 0.5;
      const cx = Number(X(d.q[0])),
        cy = Number(Y(d.q[1]));
      out.push(
        `<path d="M${cx - h},${cy - h}L${cx + h},${cy + h}M${cx - h},${cy + h}L${cx + h},${cy - h}" stroke="#222" stroke-width="1.2"/>`,
      );
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

export interface StructureSection {
  markdown: string[];
  plots: Record<string, string>;
}

const formula = (symbols: string[]) => {
  const counts = new Map<string, number>();
  for (const e of symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  return [...counts].map(([e, n]) => `${e}${n > 1 ? n : ''}`).join('');
};

/** The structure read from the user's file and the last relaxed structure, when the run has them. */
export function structuresReportSection(artifacts: readonly ArtifactRecord[]): StructureSection | undefined {
  const fromFile = artifacts
    .filter((a) => a.kind === 'structure' && a.status !== 'stale' && (a.value as Structure | undefined)?.source?.sha256)
    .at(0);
  const relaxed = artifacts.filter((a) => a.name === 'relaxed_structure' && a.status !== 'stale').at(-1);
  if (!fromFile && !relaxed) return undefined;
  const md: string[] = ['## Structures', ''];
  const plots: Record<string, string> = {};
  if (fromFile) {
    const s = fromFile.value as Structure;
    const name = `structure-${fromFile.id}.svg`;
    const file = s.source!.file.split(/[\\/]/).pop();
    plots[name] = structureSvg(s, `${formula(s.symbols)} from ${file} (${fromFile.id})`);
    md.push(
      `![${formula(s.symbols)} from ${file}](plots/${name})`,
      '',
      `${fromFile.id}: ${s.symbols.length} atoms read from \`${s.source!.file}\` (${s.source!.format}, sha256 \`${s.source!.sha256}\`)` +
        `${fromFile.meta?.spaceGroup ? `, ${String(fromFile.meta.spaceGroup)}${symprecSaid(fromFile.meta.symprecAngstrom as number | undefined)}` : ''}${fromFile.meta?.cell === 'primitive' ? ', computed on its standardised primitive cell' : ''}.`,
      '',
    );
  }
  if (relaxed) {
    const s = relaxed.value as Structure;
    const name = `structure-${relaxed.id}.svg`;
    plots[name] = structureSvg(s, `relaxed ${formula(s.symbols)} (${relaxed.id})`);
    md.push(
      `![relaxed ${formula(s.symbols)}](plots/${name})`,
      '',
      `${relaxed.id}: the relaxed structure (relaxed_structure). The notebook plays its relaxation step by step.`,
      '',
    );
  }
  return { markdown: md, plots };
}
