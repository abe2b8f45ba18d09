/**
 * The run report's sections for relaxations, magnetization and energy differences: each
 * relaxation's trajectory (E − E_final in meV and the largest force in eV/Å per geometry, the
 * force threshold shaded) as plots/relaxation-<id>.svg with its table and the checks that decide
 * convergence; a magnetization table (total, absolute and site moments, the order) per run; and
 * every energy difference with its formula written out.
 */
import type { ArtifactRecord } from '../../provenance/types';
import type { EnergyDifferenceValue, MagnetizationValue, RelaxationValue } from '../../artifacts/relaxation';
import { renderChart } from '../svg';

const cell = (s: unknown): string =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const table = (head: string[], rows: unknown[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
];
const num = (x: number | undefined, digits = 4): string => (x === undefined ? '—' : String(Number(x.toPrecision(digits))));
/** A moment to three significant digits with its trailing zeros ("2.30"), as the notebook's table writes it. */
const moment = (x: number | undefined): string => (x === undefined ? '—' : x.toPrecision(3));

/** Energy and largest force per geometry, two panels of one SVG. */
export function relaxationTrajectorySvg(v: RelaxationValue, id: string): string {
  const W = 640;
  const H = 300;
  const final = v.finalEnergyEv;
  const energy = v.steps.filter((s) => s.energyEv !== undefined).map((s) => ({ x: s.step, y: (s.energyEv! - final) * 1000 }));
  const force = v.steps.filter((s) => s.maxForceEvPerAngstrom !== undefined).map((s) => ({ x: s.step, y: s.maxForceEvPerAngstrom! }));
  const top = renderChart({
    title: `${v.title ?? v.calculation} (${id}): energy`,
    xLabel: 'geometry',
    yLabel: 'E − E_final (meV)',
    width: W,
    height: H,
    series: [
      {
        label: `energy of each geometry${v.calculation === 'vc-relax' ? ' (last: final SCF at the relaxed cell)' : ''}`,
        points: energy,
        line: true,
        markers: true,
        color: '#1565c0',
      },
    ],
  });
  const bottom = renderChart({
    title: `${v.calculation} (${id}): largest force component`,
    xLabel: 'geometry',
    yLabel: 'max |F| (eV/Å)',
    width: W,
    height: H,
    series: [{ label: 'largest force component on a free atom', points: force, line: true, markers: true, color: '#c62828' }],
    ...(v.thresholds.forceEvPerAngstrom !== undefined
      ? { band: { from: 0, to: v.thresholds.forceEvPerAngstrom, label: `forc_conv_thr ${num(v.thresholds.forceEvPerAngstrom, 3)} eV/Å` } }
      : {}),
  });
  const height = (svg: string): number => Number(/height="([\d.]+)"/.exec(svg)?.[1] ?? H);
  const h1 = height(top);
  const h2 = height(bottom);
  const inner = (svg: string, y: number): string => svg.replace(/^<svg /, `<svg y="${y}" `);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${h1 + h2}" viewBox="0 0 ${W} ${h1 + h2}">${inner(top, 0)}${inner(bottom, h1)}</svg>`;
}

export interface EverydaySection {
  markdown: string[];
  plots: Record<string, string>;
}

export function everydayReportSection(artifacts: readonly ArtifactRecord[]): EverydaySection | undefined {
  const live = artifacts.filter((a) => a.status !== 'stale');
  const relaxations = live.filter((a) => a.name === 'relaxation');
  const magnetizations = live.filter((a) => a.name === 'magnetization');
  const differences = live.filter((a) => a.name === 'energy_difference');
  if (!relaxations.length && !magnetizations.length && !differences.length) return undefined;
  const md: string[] = [];
  const plots: Record<string, string> = {};
  for (const a of relaxations) {
    const v = a.value as RelaxationValue;
    const file = `relaxation-${a.id}.svg`;
    plots[file] = relaxationTrajectorySvg(v, a.id);
    md.push(
      `## ${v.calculation === 'vc-relax' ? 'Variable-cell relaxation' : 'Relaxation'} of ${v.formula} (${a.id})`,
      '',
      `![trajectory](plots/${file})`,
      '',
      v.converged
        ? `Converged (${a.status}): ${v.checks.map((c) => c.statement).join('; ')}.`
        : `**Not converged** (${a.status}): ${v.problems.join('; ')}.`,
      '',
      `Final energy ${num(v.finalEnergyEv, 10)} eV; volume ${num(v.volumeAngstrom3, 6)} Å³ (${num(v.volumePerAtomAngstrom3, 5)} Å³/atom, from ${num(v.startVolumeAngstrom3, 6)} Å³)` +
        `${v.pressureKbar !== undefined ? `; pressure ${v.pressureKbar} kbar` : ''}; cell vector lengths ${v.cellLengthsAngstrom.map((x) => num(x, 6)).join(', ')} Å` +
        `${v.maxDisplacementAngstrom !== undefined ? `; atoms moved up to ${num(v.maxDisplacementAngstrom, 3)} Å` : ''}.`,
      '',
      ...table(
        ['geometry', 'E − E_final (meV)', 'max force (eV/Å)', ...(v.calculation === 'vc-relax' ? ['P (kbar)', 'V (Å³)'] : [])],
        v.steps.map((s) => [
          `${s.step}${s.finalScf ? ' (final SCF)' : ''}`,
          s.energyEv !== undefined ? ((s.energyEv - v.finalEnergyEv) * 1000).toFixed(2) : '—',
          num(s.maxForceEvPerAngstrom),
          ...(v.calculation === 'vc-relax' ? [s.pressureKbar ?? '—', num(s.volumeAngstrom3, 6)] : []),
        ]),
      ),
      '',
    );
  }
  if (magnetizations.length) {
    md.push(
      '## Magnetization',
      '',
      ...table(
        ['run', 'order', 'total (μB/cell)', 'absolute (μB/cell)', 'total (μB/atom)', 'site moments (μB)', 'source'],
        magnetizations.map((a) => {
          const v = a.value as MagnetizationValue;
          return [
            `${v.formula} (${a.id})`,
            v.order,
            moment(v.totalBohrMagnetonPerCell),
            moment(v.absoluteBohrMagnetonPerCell),
            moment(v.totalBohrMagnetonPerAtom),
            v.sites.map((s) => `${s.label ?? s.symbol}(${s.atom}) ${moment(s.momentBohrMagneton)}`).join(', ') || '—',
            v.siteSource ?? '—',
          ];
        }),
      ),
      '',
    );
  }
  if (differences.length) {
    md.push('## Energy differences', '');
    for (const a of differences) {
      const v = a.value as EnergyDifferenceValue;
      md.push(
        `- **${v.quantity.replace(/_/g, ' ')}** (${a.id}): ${v.formula} = **${num(v.value, 5)} ${v.unit}**${v.valueJPerM2 !== undefined ? ` (${num(v.valueJPerM2, 4)} J/m²)` : ''}; ` +
          v.terms.map((t) => `${t.energy} ${t.formula} ${num(t.energyEv, 10)} eV`).join(', '),
      );
    }
    md.push('');
  }
  return { markdown: md, plots };
}
