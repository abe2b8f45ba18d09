/**
 * Tier 3: for tools that combine results (convergence selection, EOS fits, energy
 * combinations), one verdict on how the parameters fit together, with the referenced
 * inputs shown in full enough to check the combination.
 */
import { pulayPressuresKbar } from '../../dft/convergencePressure';
import { isRef, resolveRef, type ProvenanceView } from '../../provenance/view';
import { latestRuleText } from '../rule-texts';
import type { ProposedCall, Verdict, VerdictLevel } from '../types';
import { askJudge, type JudgeConfig } from './askJudge';
import { describeCall } from './describeCall';
import { CROSS_VERDICT_TOOL, shown } from './judgePrompt';
import { judgeInfraVerdicts } from './paramJudge';

/**
 * The referenced inputs, each with its own numbers; settings every input shares are said once
 * above them (a sweep's runs differ in one setting), so each line shows what differs.
 */
function referencedInputs(call: ProposedCall, provenance: ProvenanceView): string[] {
  const refs = [
    ...new Set(
      Object.values(call.args)
        .flatMap((v) => (Array.isArray(v) ? v : [v]))
        .filter(isRef),
    ),
  ];
  const resolved = refs.map((ref) => ({ ref, r: resolveRef(provenance, ref) }));
  const metas = resolved.map(({ r }) => (r.ok && r.artifact.meta ? judgedMeta(r.artifact.meta) : undefined));
  const settingsOf = (m: Record<string, unknown> | undefined) => m?.settings as Record<string, unknown> | undefined;
  const all = metas.map(settingsOf);
  const shared: Record<string, unknown> = {};
  if (all.length > 1 && all.every(Boolean)) {
    for (const [k, v] of Object.entries(all[0]!)) if (all.every((s) => JSON.stringify(s![k]) === JSON.stringify(v))) shared[k] = v;
  }
  const lines = resolved.map(({ ref, r }, i) => {
    if (!r.ok) return `- ${ref}: does not resolve`;
    const m = metas[i];
    const own =
      m && settingsOf(m) ? { ...m, settings: Object.fromEntries(Object.entries(settingsOf(m)!).filter(([k]) => !(k in shared))) } : m;
    const meta = own ? ` meta ${shown(own, 500)}` : '';
    return `- ${ref} (${r.artifact.name}): ${shown(r.value, 600)}${r.artifact.unit ? ` ${r.artifact.unit}` : ''}${meta}`;
  });
  return [...(Object.keys(shared).length ? [`Settings every input shares: ${shown(shared, 600)}`] : []), ...lines];
}

/**
 * A cutoff sweep judged by pressure: the pressures the selection compares, pw.x's plus the Pulay
 * term a constant-cutoff EOS feels, so a judge need not rebuild them from the raw stresses.
 */
function comparedPressures(call: ProposedCall, provenance: ProvenanceView): string[] {
  const criterion = call.args.criterion;
  if (call.tool !== 'select_converged_settings' || call.args.parameter !== 'ecutwfc' || (criterion !== 'pressure' && criterion !== 'both'))
    return [];
  const refs = Array.isArray(call.args.energies) ? (call.args.energies as unknown[]).filter(isRef) : [];
  const runs = refs.map((ref) => {
    const r = resolveRef(provenance, ref);
    if (!r.ok || typeof r.value !== 'number') return undefined;
    const m = r.artifact.meta as { pressureKbar?: unknown; volumeAngstrom3?: unknown; settings?: { ecutwfcRy?: unknown } } | undefined;
    const [p, v, ecut] = [m?.pressureKbar, m?.volumeAngstrom3, m?.settings?.ecutwfcRy];
    return typeof p === 'number' && typeof v === 'number' && typeof ecut === 'number' ? { ref, p, v, ecut, e: r.value } : undefined;
  });
  if (runs.length < 3 || runs.some((x) => !x)) return [];
  const ok = runs as { ref: string; p: number; v: number; ecut: number; e: number }[];
  const pulay = pulayPressuresKbar(ok.map((x) => ({ ecutwfcRy: x.ecut, energyEv: x.e, volumeAngstrom3: x.v })));
  const f = (x: number) => x.toFixed(2);
  return [
    '',
    "Pressures the selection compares (kbar): pw.x's plus the Pulay term (2/3)(Ecut/V)|dE/dEcut| that a constant-cutoff E(V) feels:",
    ...ok.map((x, i) => `- ${x.ref} at ${x.ecut} Ry: ${f(x.p)} + ${f(pulay[i]!)} = ${f(x.p + pulay[i]!)}`),
  ];
}

/** A stress tensor that says no more than the pressure: diagonal, each diagonal component the pressure (pw.x prints 2 decimals). */
function isotropicAt(stress: unknown, pressure: unknown): boolean {
  if (!Array.isArray(stress) || stress.length !== 3 || typeof pressure !== 'number') return false;
  return stress.every(
    (row, i) =>
      Array.isArray(row) &&
      row.length === 3 &&
      row.every((x, j) => typeof x === 'number' && Math.abs(x - (i === j ? pressure : 0)) < 0.006),
  );
}

/** Forces that are zero on every atom (a symmetric cell): nothing for a judge to weigh. */
function allZero(forces: unknown): boolean {
  return Array.isArray(forces) && forces.every((f) => Array.isArray(f) && f.every((x) => x === 0));
}

/**
 * An artifact's metadata as a combination is judged on: its own numbers first (pressure, volume,
 * SCF converged, purpose), then the settings without the pseudopotential hashes and the cell (the
 * same in every run of a sweep, and what cut the pressures off when it was shown whole). A stress
 * tensor equal to the pressure on its diagonal (a cubic cell) and forces zero on every atom are
 * left out: they repeat the pressure or say nothing, in every run of every sweep.
 */
export function judgedMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const {
    settings,
    cellAngstrom: _cell,
    ...all
  } = meta as { settings?: Record<string, unknown>; cellAngstrom?: unknown } & Record<string, unknown>;
  const { stressKbar, forcesEvPerAngstrom, ...rest0 } = all;
  const own = {
    ...rest0,
    ...(stressKbar !== undefined && !isotropicAt(stressKbar, all.pressureKbar) ? { stressKbar } : {}),
    ...(forcesEvPerAngstrom !== undefined && !allZero(forcesEvPerAngstrom) ? { forcesEvPerAngstrom } : {}),
  };
  const scalars = Object.fromEntries(Object.entries(own).filter(([, v]) => v === null || typeof v !== 'object'));
  const rest = Object.fromEntries(Object.entries(own).filter(([, v]) => v !== null && typeof v === 'object'));
  const { pseudopotentials: _pp, ...physics } = settings ?? {};
  // the pseudopotential files' hashes: tier 1 checks them; they only push the numbers off the line
  const kept = Object.fromEntries(Object.entries(rest).filter(([k]) => !/sha256/i.test(k)));
  return { ...scalars, ...(settings ? { settings: physics } : {}), ...kept };
}

export async function judgeCombination(
  call: ProposedCall,
  provenance: ProvenanceView,
  tier1: Verdict[],
  config: JudgeConfig,
): Promise<Verdict> {
  const rule = latestRuleText('cross-judge').id;
  const inputs = referencedInputs(call, provenance);
  const text = [
    describeCall(call, provenance, tier1),
    ...(inputs.length ? ['', 'Referenced inputs:', ...inputs] : []),
    ...comparedPressures(call, provenance),
    '',
    'Judge how these parameters fit together.',
  ].join('\n');
  const answer = await askJudge<{ level: VerdictLevel; reasons: string[] }>(
    config,
    'cross-judge',
    'judge-cross',
    CROSS_VERDICT_TOOL,
    text,
    { tools: [call.tool], parameters: Object.keys(call.args) },
  );
  if (!answer.ok) return judgeInfraVerdicts('tier3', rule, answer.error, [undefined], answer.model)[0]!;
  return { tier: 'tier3', rule, level: answer.input.level, reasons: answer.input.reasons, judged: true, model: answer.model };
}
