/**
 * A run's Markdown report, written from its event log and provenance: the result and the
 * report judge's verdict, every claim with the artifact it cites, the convergence and
 * E(V) plots, the plan as it ended, the jobs, what the guard found (with judge tiers
 * that did not run shown as "not judged"), approvals and model usage.
 */
import type { ConvergenceSelectionValue, EosFitValue } from '../artifacts/shapes';
import type { Plan } from '../plan/types';
import { eventsOf, type CanvasEvent, type EventCatalogue, type EventKind } from '../canvas/types';
import type { PhysicalSettings } from '../dft/types';
import { foldApprovals } from '../guard/approvals';
import { latestReportVerdict } from '../guard/reportVerdicts';
import type { Verdict } from '../guard/types';
import { foldJobEvents } from '../hpc/jobStore';
import type { ArtifactRecord, ToolCallRecord } from '../provenance/types';
import { convergenceSvg, eosSvg } from './plots';
import { judgesEnergy, judgesPressure } from '../dft/convergence';
import { structuresReportSection } from './sections/structures';
import { beefReportSection } from './sections/beef';
import { adsorptionSearchReportSection } from './sections/adsorptionSearch';
import { electronicStructureReportSection } from './sections/electronicStructure';
import { everydayReportSection } from './sections/everyday';

export interface ReportSource {
  runId: string;
  events: readonly CanvasEvent[];
  artifacts(): readonly ArtifactRecord[];
  calls(): readonly ToolCallRecord[];
  /** Text of a file-backed artifact (the report's Markdown). */
  readFile(location: string): string | undefined;
}

export interface RenderedReport {
  markdown: string;
  /** File name under plots/ → SVG text. */
  plots: Record<string, string>;
}

const cell = (s: unknown): string =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const table = (head: string[], rows: unknown[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
];

/** The payload of the last event of a kind (under a key, when given). */
const lastPayload = <K extends EventKind>(events: readonly CanvasEvent[], kind: K, key?: string): EventCatalogue[K] | undefined =>
  eventsOf(events, kind)
    .reverse()
    .find((e) => key === undefined || e.key === key)?.payload;

function seconds(a?: string, b?: string): string {
  if (!a || !b) return '';
  const s = (Date.parse(b) - Date.parse(a)) / 1000;
  return s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`;
}

/** The settings that make the result what it is, as a practitioner checks them. */
export function settingsRows(s: PhysicalSettings, meshNote = ''): unknown[][] {
  return [
    ['code', `${s.code}${s.codeVersion ? ` ${s.codeVersion}` : ''}`],
    ['functional', s.functional],
    ...Object.entries(s.pseudopotentials).map(([el, p]) => [
      `pseudopotential ${el}`,
      `${p.file}${p.sha256 ? ` (sha256 ${p.sha256.slice(0, 12)}…)` : ''}`,
    ]),
    ['ecutwfc / ecutrho', `${s.ecutwfcRy} / ${s.ecutrhoRy} Ry`],
    [
      'k-points',
      `${s.kSpacingPerAngstrom !== undefined ? `spacing ${s.kSpacingPerAngstrom} 1/Å, ` : ''}mesh ${s.kMesh ? s.kMesh.join('×') : '—'}${meshNote}${s.kShift ? `, shift ${s.kShift.join(' ')}` : ''}`,
    ],
    ['occupations', `${s.occupations}${s.smearing ? `, ${s.smearing} smearing ${s.degaussRy} Ry` : ''}`],
    ['nspin', s.nspin],
    ...Object.entries(s.extra ?? {}).map(([k, v]) => [k, v]),
  ];
}

/** A claimed value with its unit; a fraction or count (unit "1" or none) stands alone: "0.669", not "0.669 1". */
export const valueWithUnit = (value: number, unit: string | undefined): string =>
  !unit || unit === '1' ? String(value) : `${value} ${unit}`;

/**
 * Each plot shown once: a section's image line is dropped when an earlier part (the agent's
 * report text, which may embed the same plots/ file) already shows it.
 */
function onceEach(md: readonly string[]): string[] {
  const shown = new Set<string>();
  const images = (part: string) => [...part.matchAll(/!\[[^\]]*\]\((plots\/[^)\s]+)\)/g)].map((m) => m[1]!);
  return md.filter((part) => {
    const files = images(part);
    if (/^!\[[^\]]*\]\(plots\/[^)\s]+\)$/.test(part) && shown.has(files[0]!)) return false;
    for (const f of files) shown.add(f);
    return true;
  });
}

export function renderRunReport(src: ReportSource): RenderedReport {
  const ev = src.events;
  const start = lastPayload(ev, 'run.start');
  const state = lastPayload(ev, 'run.state');
  // The plan key holds a Plan, notes/response the final answer's text (their writers' schemas check them).
  const plan = lastPayload(ev, 'key.write', 'plan')?.value as Plan | undefined;
  const response = lastPayload(ev, 'key.write', 'notes/response')?.value as string | undefined;
  const judged = latestReportVerdict(ev);
  const artifacts = src.artifacts();
  const byId = new Map(artifacts.map((a) => [a.id, a]));
  // The judged report; before any judgement, the latest one written (its text is shown, marked not yet judged).
  const report = judged?.report
    ? byId.get(judged.report)
    : [...artifacts].reverse().find((a) => a.name === 'report' && a.kind === 'file' && a.status !== 'stale');
  const title = (report?.value as { title?: string } | undefined)?.title ?? start?.objective ?? src.runId;
  const plots: Record<string, string> = {};
  const md: string[] = [`# ${title}`, ''];
  md.push(
    `Run \`${src.runId}\` · ${state?.state ?? 'created'}${state?.reason ? ` (${state.reason})` : ''} · objective: ${start?.objective ?? ''}`,
  );
  const software = Object.entries(start?.software ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  if (software) md.push('', `Software: ${software}`);
  md.push('');

  md.push('## Result', '', response ?? '_The run has not finished; no response yet._', '');

  if (report) {
    if (judged) {
      const verdict = judged.accepted ? 'accepted' : judged.level === 'warn' ? 'needs review' : 'not accepted';
      md.push(`## Report ${report.id}: ${verdict} by the report judge`, '', `Judge: ${judged.summary}.`, '');
    } else md.push(`## Report ${report.id}: not yet judged`, '');
    const text = report.location ? src.readFile(report.location) : undefined;
    if (text) md.push(text.replace(/^# .*\n+/, '').trim(), '');
    const written = (report.value as { claims?: { quantity: string; value: number; unit?: string; cites: string }[] } | undefined)?.claims;
    md.push(
      ...table(
        ['Quantity', 'Value', 'Cites', 'Checks'],
        judged
          ? judged.claims.map((c) => [
              c.claim.quantity,
              valueWithUnit(c.claim.value, c.claim.unit),
              c.claim.cites,
              c.verdicts.map((v) => `${v.rule}: ${v.level}`).join(', '),
            ])
          : (written ?? []).map((c) => [c.quantity, valueWithUnit(c.value, c.unit), c.cites, 'not yet checked']),
      ),
      '',
    );
  }

  const selections = artifacts.filter((a) => a.name === 'converged_settings' && a.status !== 'stale');
  const latestBy = new Map<string, ArtifactRecord>();
  for (const a of selections) latestBy.set((a.value as ConvergenceSelectionValue).parameter, a);
  if (latestBy.size) {
    md.push('## Convergence', '');
    for (const [parameter, a] of latestBy) {
      const sel = a.value as ConvergenceSelectionValue;
      const name = `convergence-${parameter}.svg`;
      plots[name] = convergenceSvg(sel, a.id);
      const unit = parameter === 'ecutwfc' ? 'Ry' : '1/Å';
      const byPressure = sel.criterion !== undefined && judgesPressure(sel.criterion.kind);
      const within = [
        judgesEnergy(sel.criterion?.kind) && sel.toleranceMevPerAtom !== undefined ? `${sel.toleranceMevPerAtom} meV/atom` : '',
        byPressure
          ? `${sel.criterion!.toleranceLatticePercent} % of a by pressure (B ≈ ${sel.criterion!.bulkModulusGPa?.toPrecision(3)} GPa${sel.bulkModulus ? `, ${sel.bulkModulus.note}` : ''})`
          : '',
        sel.criterion?.toleranceShapePercent !== undefined
          ? `${sel.criterion.toleranceShapePercent} % of c/a by the deviatoric stress (C ≈ ${sel.criterion.shapeModulusGPa?.toPrecision(3)} GPa)`
          : '',
        sel.criterion?.toleranceMomentMuBPerAtom !== undefined
          ? `${sel.criterion.toleranceMomentMuBPerAtom} μB/atom in the magnetization`
          : '',
        sel.criterion?.toleranceGapEv !== undefined ? `${sel.criterion.toleranceGapEv} eV in the gap` : '',
        sel.criterion?.toleranceForceEvPerAngstrom !== undefined
          ? `${sel.criterion.toleranceForceEvPerAngstrom} eV/Å in every force component`
          : '',
      ]
        .filter(Boolean)
        .join(' and ');
      const byShape = sel.tested.some((t) => t.shapeShiftPercent !== undefined);
      const byMoment = sel.tested.some((t) => t.magnetizationMuBPerAtom !== undefined);
      const byGap = sel.tested.some((t) => t.gapEv !== undefined);
      const byForce = sel.tested.some((t) => t.maxForceEvPerAngstrom !== undefined);
      const rows = [...sel.tested].sort((x, y) => x.value - y.value);
      md.push(
        `![${parameter} convergence](plots/${name})`,
        '',
        `${parameter}: chose **${sel.chosenValue} ${unit}** (${a.id}, ${a.status}${sel.converged ? '' : ', not converged'}) within ${within} of the finest run.`,
        '',
        ...(byPressure
          ? table(
              [
                `${parameter} (${unit})`,
                'E (eV/atom)',
                'ΔE vs finest (meV/atom)',
                'P (kbar)',
                ...(rows.some((t) => t.pulayKbar !== undefined) ? ['Pulay (kbar)'] : []),
                'ΔP vs finest (kbar)',
                'Δa (% of a)',
                ...(byShape ? ['Δs vs finest (kbar)', 'Δ(c/a) (%)'] : []),
              ],
              rows.map((t) => [
                t.value,
                t.energyEvPerAtom.toFixed(6),
                t.deltaMevPerAtom.toFixed(3),
                t.pressureKbar?.toFixed(2) ?? '—',
                ...(rows.some((x) => x.pulayKbar !== undefined) ? [t.pulayKbar?.toFixed(2) ?? '—'] : []),
                t.deltaPressureKbar?.toFixed(2) ?? '—',
                t.latticeShiftPercent?.toFixed(4) ?? '—',
                ...(byShape ? [t.deviatoricErrorKbar?.toFixed(2) ?? '—', t.shapeShiftPercent?.toFixed(4) ?? '—'] : []),
              ]),
            )
          : table(
              [
                `${parameter} (${unit})`,
                'E (eV/atom)',
                'ΔE vs finest (meV/atom)',
                ...(byMoment ? ['m (μB/atom)', '|m| (μB/atom)', 'Δm vs finest (μB/atom)'] : []),
                ...(byGap ? ['gap (eV)', 'Δgap vs finest (eV)'] : []),
                ...(byForce ? ['largest force component (eV/Å)', 'ΔF vs finest (eV/Å)'] : []),
              ],
              rows.map((t) => [
                t.value,
                t.energyEvPerAtom.toFixed(6),
                t.deltaMevPerAtom.toFixed(3),
                ...(byMoment
                  ? [
                      t.magnetizationMuBPerAtom?.toFixed(3) ?? '—',
                      t.absoluteMagnetizationMuBPerAtom?.toFixed(3) ?? '—',
                      t.deltaMomentMuBPerAtom?.toFixed(3) ?? '—',
                    ]
                  : []),
                ...(byGap ? [t.gapEv?.toFixed(4) ?? '—', t.deltaGapEv?.toFixed(4) ?? '—'] : []),
                ...(byForce ? [t.maxForceEvPerAngstrom?.toFixed(4) ?? '—', t.deltaForceEvPerAngstrom?.toFixed(4) ?? '—'] : []),
              ]),
            )),
        '',
      );
    }
  }

  const beef = beefReportSection(artifacts);
  if (beef) {
    Object.assign(plots, beef.plots);
    md.push(...beef.markdown);
  }

  const electronic = electronicStructureReportSection(artifacts);
  if (electronic) {
    Object.assign(plots, electronic.plots);
    md.push(...electronic.markdown);
  }

  const everyday = everydayReportSection(artifacts);
  if (everyday) {
    Object.assign(plots, everyday.plots);
    md.push(...everyday.markdown);
  }

  const calls = src.calls();
  const search = adsorptionSearchReportSection({ artifacts, readFile: src.readFile, toolOf: (id) => calls.find((c) => c.id === id)?.tool });
  if (search) {
    Object.assign(plots, search.plots);
    md.push(...search.markdown);
  }

  const fits = artifacts.filter((a) => a.name === 'eos_fit' && a.status !== 'stale');
  const fit = fits.at(-1);
  if (fit) {
    const v = fit.value as EosFitValue;
    plots['eos.svg'] = eosSvg(v, fit.id);
    const lattice = artifacts.filter((a) => a.name === 'lattice_constant' && a.inputs.some((r) => r.split('.')[0] === fit.id)).at(-1);
    md.push(
      '## Equation of state',
      '',
      '![E(V)](plots/eos.svg)',
      '',
      `${v.form} (${fit.id}): V0 = ${v.v0Angstrom3.toFixed(4)} Å³, E0 = ${v.e0Ev.toFixed(6)} eV, B0 = ${v.b0GPa.toFixed(1)} GPa, B0' = ${v.b0Prime.toFixed(2)}, rms residual ${(v.rmsResidualEv * 1000).toFixed(3)} meV` +
        `${lattice ? `; a = **${(lattice.value as number).toFixed(4)} Å** (${lattice.id})` : ''}.`,
      '',
      ...table(
        ['V (Å³)', 'E (eV)'],
        v.points.map((p) => [p.volumeAngstrom3.toFixed(4), p.energyEv.toFixed(6)]),
      ),
      '',
    );
    const settings = fit.meta?.settings as PhysicalSettings | undefined;
    if (settings)
      md.push(
        '### Physical settings of the EOS energies',
        '',
        ...table(
          ['Setting', 'Value'],
          settingsRows(
            settings,
            settings.kSpacingPerAngstrom !== undefined
              ? " (the mesh of the spacing on the series' template cell, kept for every volume)"
              : '',
          ),
        ),
        '',
      );
  }

  const structures = structuresReportSection(artifacts);
  if (structures) {
    Object.assign(plots, structures.plots);
    md.push(...structures.markdown);
  }

  if (plan) {
    md.push(
      `## Plan (v${plan.version})`,
      '',
      ...table(
        ['#', 'Step', 'Tool', 'Status', 'Summary'],
        plan.steps.map((s, i) => [i + 1, `${s.id}: ${s.title}`, s.tool, s.status, (s.summary ?? '').slice(0, 300)]),
      ),
      '',
    );
  }

  const jobs = foldJobEvents(ev);
  if (jobs.length) {
    md.push(
      '## Jobs',
      '',
      ...table(
        ['Job', 'Backend', 'State', 'Run time', 'Error'],
        jobs.map((j) => [j.id, j.backend, j.state, seconds(j.startedAt, j.endedAt), (j.error ?? '').split('\n')[0]]),
      ),
      '',
    );
  }

  // pw.x results this run took instead of running pw.x: a reader must know where they were computed
  const reused = artifacts.filter((a) => a.name === 'total_energy' && (a.meta as { reusedFrom?: unknown } | undefined)?.reusedFrom);
  if (reused.length) {
    const from = (a: ArtifactRecord) => (a.meta as { reusedFrom: { run?: string; call: string; job: string; energy?: string } }).reusedFrom;
    const elsewhere = reused.filter((a) => from(a).run);
    md.push(
      '## Reused pw.x results',
      '',
      `${reused.length} energ${reused.length === 1 ? 'y was' : 'ies were'} taken from an identical earlier pw.x run (the same input text and pseudopotential files) instead of running pw.x again` +
        `${elsewhere.length ? `; ${elsewhere.length} of them from other runs (\`reuseFrom\`), which this run's bundle holds only as outputs` : ''}.`,
      '',
      ...table(
        ['Energy', 'Call', 'Value (eV)', 'Computed by', 'Job'],
        reused.map((a) => {
          const f = from(a);
          return [
            a.id,
            a.creator,
            typeof a.value === 'number' ? a.value.toFixed(6) : '',
            f.run ? `run ${f.run}: ${f.call} (${f.energy ?? ''})` : f.call,
            f.job,
          ];
        }),
      ),
      '',
    );
  }

  const verdicts = calls.flatMap((c) => c.verdicts);
  const count = (f: (v: Verdict) => boolean) => verdicts.filter(f).length;
  md.push(
    '## Guard',
    '',
    `${calls.length} tool calls (${calls.filter((c) => c.status === 'ok').length} ok, ${calls.filter((c) => c.status === 'refused').length} refused, ${calls.filter((c) => c.status === 'failed').length} failed). ` +
      `Verdicts: tier 1 ${count((v) => v.tier === 'tier1' && v.level === 'pass')} pass, ${count((v) => v.tier === 'tier1' && v.level === 'warn')} warn, ${count((v) => v.tier === 'tier1' && v.level === 'fail')} fail; ` +
      `judges (tiers 2–3) ${count((v) => (v.tier === 'tier2' || v.tier === 'tier3') && v.judged)} judged, ${count((v) => (v.tier === 'tier2' || v.tier === 'tier3') && !v.judged)} not judged` +
      `${count((v) => !!v.infraError) ? `, ${count((v) => !!v.infraError)} judge errors (failed open)` : ''}.`,
    '',
  );
  const approvals = foldApprovals(ev);
  if (approvals.length) {
    md.push(
      '### Approvals',
      '',
      ...table(
        ['Request', 'Call', 'Tool', 'Why', 'Answer'],
        approvals.map(({ request: r, answer: a, closed }) => [
          r.id,
          r.call,
          r.tool,
          r.verdicts.map((v) => v.reasons.join(' ')).join(' '),
          a
            ? `${a.decision} by ${a.by} at ${a.at}${a.comment ? `: ${a.comment}` : ''}`
            : closed
              ? `closed unanswered at ${closed.at}: ${closed.reason}`
              : 'open',
        ]),
      ),
      '',
    );
  }

  const usage = eventsOf(ev, 'llm.usage').map((e) => e.payload);
  if (usage.length) {
    const byRole = new Map<string, { tokens: number; cost: number | null; calls: number }>();
    for (const u of usage) {
      const r = byRole.get(u.role) ?? { tokens: 0, cost: 0, calls: 0 };
      r.tokens += u.usage.inputTokens + u.usage.outputTokens + u.usage.cacheReadTokens + u.usage.cacheWriteTokens;
      r.cost = r.cost === null || u.costUsd === null ? null : r.cost + u.costUsd;
      r.calls++;
      byRole.set(u.role, r);
    }
    md.push(
      '## Model usage',
      '',
      ...table(
        ['Role', 'Responses', 'Tokens', 'Cost (USD)'],
        [...byRole].map(([role, r]) => [role, r.calls, r.tokens.toLocaleString('en-US'), r.cost === null ? 'unknown' : r.cost.toFixed(4)]),
      ),
      '',
    );
  } else {
    md.push('## Model usage', '', 'No model was used (offline run): the judge tiers are recorded as not judged.', '');
  }
  md.push(
    '## Reproduce',
    '',
    'The event log `events.jsonl` is the record of this run; `bundle/` holds the inputs, outputs, pseudopotentials (with sha256) and PROV-JSON provenance needed to audit or rerun it.',
    '',
  );
  return { markdown: onceEach(md).join('\n'), plots };
}
