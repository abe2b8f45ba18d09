/**
 * The run report's band-structure and DOS sections: the bands along the path (E − E_ref, eV,
 * against the path coordinate, with the labelled points, the valence-band maximum and the
 * conduction-band minimum marked) as plots/band-structure.svg, the total DOS with the PDOS per
 * species and angular momentum against the same zero as the bands (an insulator's valence-band
 * maximum, a metal's Fermi energy; E − E_F for artifacts without one) as plots/dos.svg, and a line
 * each with the numbers.
 */
import type { ArtifactRecord } from '../../provenance/types';
import type { BandGapValue, BandStructureValue, DosValue, PdosValue } from '../../artifacts/electronic';
import { dosEnergyAxis, ENERGY_WINDOW_EV, type EnergyZero } from '../../../shared/electronicStructure';
import { niceTicks, renderChart } from '../svg';

export const BAND_STRUCTURE_FILE = 'band-structure.svg';
export const DOS_FILE = 'dos.svg';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const COLOURS = ['#c62828', '#2e7d32', '#6a1b9a', '#ef6c00', '#00838f', '#5d4037'];
/** The two spin channels of a spin-polarised band structure: majority (up) and minority (down). */
export const SPIN_COLOURS = { up: '#1565c0', down: '#c62828' } as const;

/** Bands as lines over the path, E − E_ref between `window` eV around the reference. */
export function bandStructureSvg(
  bs: BandStructureValue,
  id: string,
  gap?: BandGapValue,
  window: readonly [number, number] = ENERGY_WINDOW_EV,
): string {
  const W = 640;
  const H = 440;
  const m = { left: 64, right: 16, top: 40, bottom: 40 };
  const ref = bs.reference.energyEv;
  const [y0, y1] = window;
  const x0 = bs.x[0] ?? 0;
  const x1 = bs.x.at(-1) ?? 1;
  const px = (x: number) => m.left + ((x - x0) / (x1 - x0 || 1)) * (W - m.left - m.right);
  const py = (e: number) => H - m.bottom - ((e - y0) / (y1 - y0)) * (H - m.top - m.bottom);
  const zero = bs.reference.kind === 'vbm' ? 'E − E_VBM (eV)' : 'E − E_F (eV)';
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(`Band structure (${id})`)}</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${esc(`${bs.title ?? 'Band structure'} — ${bs.lattice} path (${id})`)}</text>`,
    `<clipPath id="plot"><rect x="${m.left}" y="${m.top}" width="${W - m.left - m.right}" height="${H - m.top - m.bottom}"/></clipPath>`,
  ];
  for (const t of niceTicks(y0, y1)) {
    parts.push(`<line x1="${m.left - 5}" y1="${py(t).toFixed(1)}" x2="${m.left}" y2="${py(t).toFixed(1)}" stroke="black"/>`);
    parts.push(`<text x="${m.left - 8}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${t}</text>`);
  }
  for (const t of bs.ticks) {
    parts.push(
      `<line x1="${px(t.x).toFixed(1)}" y1="${m.top}" x2="${px(t.x).toFixed(1)}" y2="${H - m.bottom}" stroke="#9e9e9e" stroke-width="${t.label.includes('|') ? 1.5 : 0.8}"/>`,
    );
    parts.push(`<text x="${px(t.x).toFixed(1)}" y="${H - m.bottom + 18}" text-anchor="middle">${esc(t.label)}</text>`);
  }
  // the zero line (grey where the spin-up bands are drawn in its blue)
  parts.push(
    `<line x1="${m.left}" y1="${py(0).toFixed(1)}" x2="${W - m.right}" y2="${py(0).toFixed(1)}" stroke="${bs.bandsDownEv ? '#616161' : '#1565c0'}" stroke-dasharray="5 4"/>`,
  );
  // a spin-polarised run: the majority (up) and minority (down) channels in two colours, the minority dashed
  const spin = bs.bandsDownEv !== undefined;
  const stroke = (band: number[], attrs: string) => {
    // a break (two points at one x) starts a new stroke
    const d = band
      .map((e, k) => `${k > 0 && bs.x[k] === bs.x[k - 1] ? 'M' : k ? 'L' : 'M'}${px(bs.x[k]!).toFixed(1)} ${py(e - ref).toFixed(1)}`)
      .join(' ');
    return `<path d="${d}" fill="none" ${attrs} stroke-width="1.2"/>`;
  };
  const lines = bs.bandsEv.map((band) => stroke(band, `stroke="${spin ? SPIN_COLOURS.up : 'black'}"${spin ? ' class="spin-up"' : ''}`));
  const down = (bs.bandsDownEv ?? []).map((band) => stroke(band, `stroke="${SPIN_COLOURS.down}" stroke-dasharray="4 2" class="spin-down"`));
  parts.push(`<g clip-path="url(#plot)">`, ...lines, ...down, '</g>');
  if (spin) {
    const lx = W - m.right - 172;
    for (const [i, [name, colour, dash]] of (
      [
        ['spin up (majority)', SPIN_COLOURS.up, ''],
        ['spin down (minority)', SPIN_COLOURS.down, ' stroke-dasharray="4 2"'],
      ] as const
    ).entries()) {
      const y = m.top + 14 + 16 * i;
      parts.push(
        `<rect x="${lx - 4}" y="${y - 11}" width="170" height="15" fill="white" fill-opacity="0.85"/>`,
        `<line x1="${lx}" y1="${y - 4}" x2="${lx + 22}" y2="${y - 4}" stroke="${colour}" stroke-width="2"${dash}/>`,
        `<text x="${lx + 28}" y="${y}">${name}</text>`,
      );
    }
  }
  if (gap) {
    for (const [edge, colour, name] of [
      [gap.vbm, '#c62828', 'VBM'],
      [gap.cbm, '#2e7d32', 'CBM'],
    ] as const) {
      parts.push(
        `<circle cx="${px(edge.x).toFixed(1)}" cy="${py(edge.energyEv - ref).toFixed(1)}" r="4.5" fill="${colour}"><title>${esc(`${name} ${edge.energyEv.toFixed(3)} eV at ${edge.location}`)}</title></circle>`,
      );
    }
    parts.push(
      `<text x="${m.left + 6}" y="${m.top - 6}" fill="#2e7d32">${esc(`${gap.direct ? 'direct' : 'indirect'} gap ${gap.gapEv.toFixed(3)} eV`)}</text>`,
    );
  }
  parts.push(
    `<rect x="${m.left}" y="${m.top}" width="${W - m.left - m.right}" height="${H - m.top - m.bottom}" fill="none" stroke="black"/>`,
  );
  parts.push(`<text transform="translate(16 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(zero)}</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}

/** The zero a DOS is drawn against: its own (an insulator's VBM), else E_F; undefined: absolute energies. */
export function dosZeroOf(dos: DosValue): EnergyZero | undefined {
  return dos.reference ?? (dos.fermiEnergyEv !== undefined ? { energyEv: dos.fermiEnergyEv, kind: 'fermi' } : undefined);
}

/**
 * Total DOS and the projections, E − E_VBM for an insulator, E − E_F otherwise, in the bands' energy
 * window around that zero (the y range fitted to what lies inside it; small print above the plot
 * when the window leaves data out); absolute energies, all of them. A spin-polarised
 * DOS (dos.x's dosup and dosdw columns) is drawn as its two channels, up above the axis and down
 * below it (negated), each projection likewise in its colour (down dashed).
 */
export function dosSvg(dos: DosValue, id: string, pdos?: { value: PdosValue; id: string }): string {
  const zero = dosZeroOf(dos);
  const ef = zero?.energyEv ?? 0;
  const symbol = zero?.kind === 'vbm' ? 'E_VBM' : 'E_F';
  const points = (values: number[], energies: number[], sign = 1) => energies.map((e, i) => ({ x: e - ef, y: sign * values[i]! }));
  const total = dos.spin
    ? [
        { label: 'total, spin up', points: points(dos.spin.up, dos.energiesEv), color: 'black' },
        { label: 'total, spin down (drawn negative)', points: points(dos.spin.down, dos.energiesEv, -1), color: 'black', dashed: true },
      ]
    : [{ label: 'total', points: points(dos.total, dos.energiesEv), color: 'black' }];
  const projections = (pdos?.value.projections ?? []).flatMap((p, i) => {
    const color = COLOURS[i % COLOURS.length]!;
    const e = pdos!.value.energiesEv;
    return p.spin && dos.spin
      ? [
          { label: `PDOS ${p.label}, up`, points: points(p.spin.up, e), color },
          { label: `PDOS ${p.label}, down`, points: points(p.spin.down, e, -1), color, dashed: true },
        ]
      : [{ label: `PDOS ${p.label}`, points: points(p.dos, e), color }];
  });
  const axis = dosEnergyAxis(
    [...dos.energiesEv, ...(pdos?.value.energiesEv ?? [])].map((e) => e - ef),
    zero !== undefined,
  );
  return renderChart({
    title: `Density of states (${id}${pdos ? `, ${pdos.id}` : ''})`,
    ...(zero ? { xRange: axis.domain } : {}),
    ...(axis.note ? { note: axis.note } : {}),
    xLabel: zero ? `E − ${symbol} (eV)` : 'E (eV)',
    yLabel: dos.spin ? 'DOS (states/eV per cell; spin down < 0)' : 'DOS (states/eV per cell)',
    series: [...total, ...projections],
    ...(zero ? { marker: { x: 0, label: `${symbol} = ${zero.energyEv.toFixed(3)} eV` } } : {}),
  });
}

const latest = (artifacts: readonly ArtifactRecord[], name: string) =>
  artifacts.filter((a) => a.name === name && a.status !== 'stale').at(-1);

export function electronicStructureReportSection(
  artifacts: readonly ArtifactRecord[],
): { markdown: string[]; plots: Record<string, string> } | undefined {
  const bands = latest(artifacts, 'band_structure');
  const gap = latest(artifacts, 'band_gap');
  const dos = latest(artifacts, 'dos');
  const pdos = latest(artifacts, 'pdos');
  if (!bands && !dos) return undefined;
  const md: string[] = [];
  const plots: Record<string, string> = {};
  if (bands) {
    const v = bands.value as BandStructureValue;
    const g = gap?.value as BandGapValue | undefined;
    plots[BAND_STRUCTURE_FILE] = bandStructureSvg(v, bands.id, g);
    md.push(
      '## Band structure',
      '',
      `![Band structure](plots/${BAND_STRUCTURE_FILE})`,
      '',
      `${v.bandsEv.length} bands${v.bandsDownEv ? ' in each spin channel (spin up, majority, blue; spin down, minority, red dashed)' : ''} at ${v.x.length} k-points along ${v.ticks.map((t) => t.label).join('–')} (${v.convention}, ${v.lattice}; ${bands.id}); ` +
        `zero at the ${v.reference.kind === 'vbm' ? 'valence-band maximum' : 'Fermi level'} (${v.reference.energyEv.toFixed(3)} eV${v.reference.source ? `, ${v.reference.source}` : ''}).` +
        (g
          ? ` ${g.direct ? 'Direct' : 'Indirect'} gap **${g.gapEv.toFixed(3)} eV** (${gap!.id}): valence maximum at ${g.vbm.location}, conduction minimum at ${g.cbm.location}` +
            `${g.direct ? '' : `; smallest direct gap ${g.directGapEv.toFixed(3)} eV at ${g.directGapLocation}`}.` +
            (g.channels?.length
              ? ` Per spin channel: ${g.channels.map((c) => `${c.spin} ${c.gapEv.toFixed(3)} eV (${c.direct ? 'direct' : 'indirect'})`).join(', ')}.`
              : '')
          : ''),
      '',
    );
  }
  if (dos) {
    const v = dos.value as DosValue;
    plots[DOS_FILE] = dosSvg(v, dos.id, pdos ? { value: pdos.value as PdosValue, id: pdos.id } : undefined);
    md.push(
      '## Density of states',
      '',
      `![DOS](plots/${DOS_FILE})`,
      '',
      `Total DOS (${dos.id}) on ${v.energiesEv.length} energies, ${v.occupations}${v.kMesh ? ` on a ${v.kMesh.join('×')} mesh` : ''}` +
        `${v.fermiEnergyEv !== undefined ? `; Fermi energy **${v.fermiEnergyEv} eV**` : ''}` +
        `${v.spin ? '; spin-polarised: spin up above the axis, spin down below' : ''}` +
        `${v.reference ? `; zero at the ${v.reference.kind === 'vbm' ? 'valence-band maximum' : 'Fermi level'} (${v.reference.energyEv.toFixed(3)} eV${v.reference.source ? `, ${v.reference.source}` : ''})` : ''}` +
        `${v.reference?.note ? ` (${v.reference.note})` : ''}` +
        `${pdos ? `; projections ${((pdos.value as PdosValue).projections ?? []).map((p) => p.label).join(', ')} (${pdos.id})` : ''}.`,
      '',
    );
  }
  return { markdown: md, plots };
}
