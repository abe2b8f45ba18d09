/**
 * The adversarial scenarios (test/fixtures/guard-scenarios/*.json): a registry state, a
 * tool call or a report, and the verdict the guard must reach.
 *
 * In strings, "@name" or "@name.path" is the reference to a named artifact of the base
 * (or of an "extra"), and "=@name.path" is the value recorded there.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ArtifactDraft, ArtifactStatus } from '../../../../../src/core/provenance/types';
import type { PhysicalSettings } from '../../../../../src/core/dft/types';
import { resolveRef } from '../../../../../src/core/provenance/view';
import type { ProposedCall, VerdictLevel } from '../../../../../src/core/guard/types';
import type { ReportClaim } from '../../../../../src/core/guard/claimChecks';
import { alSettings, ptSettings, SCENARIO_BASES, type ScenarioBase } from './scenarioBases';
import { seedCall } from './seedCall';

export const SCENARIO_DIR = path.resolve(__dirname, '../../../../fixtures/guard-scenarios');

export const CATEGORIES = [
  'legitimate',
  'fabricated-value',
  'copied-value',
  'input-where-output-needed',
  'provisional-value',
  'mismatched-settings',
  'unconverged-parameter',
  'out-of-range',
  'units',
  'schema',
  'judge-scope',
] as const;

export interface ScenarioExtra {
  name: string;
  tool: string;
  args?: Record<string, unknown>;
  /**
   * A total energy like another one (same meta), with its own value, settings changes and status;
   * `meta` adds entries to the meta (a relaxation's facts), "=@name.path" values substituted.
   */
  energy?: {
    like: string;
    ev: number;
    settings?: Partial<PhysicalSettings>;
    status?: 'final' | 'provisional';
    volumeAngstrom3?: number;
    meta?: Record<string, unknown>;
  };
  artifact?: ArtifactDraft;
}

export interface Scenario {
  id: string;
  category: (typeof CATEGORIES)[number];
  description: string;
  base: keyof typeof SCENARIO_BASES;
  extra?: ScenarioExtra[];
  /** Status changes applied after the base is built ("@eos2": "stale"). */
  status?: Record<string, ArtifactStatus>;
  /** Approval requests on artifacts' concerns, answered or not. */
  approvals?: { on: string; answer?: 'approve' | 'reject' }[];
  call?: {
    tool: string;
    arguments: Record<string, unknown>;
    references?: Record<string, string>;
    reasons?: Record<string, string>;
    context?: string;
  };
  report?: { claims: ReportClaim[] };
  expect: { tier: 'schema' | 'tier1' | 'report'; level: VerdictLevel; rules: string[] };
  /** What a model judge should say (reported, not asserted, when a model is configured). */
  judge?: { parameter?: string; level: VerdictLevel; why: string };
}

export function loadScenarios(): { file: string; scenario: Scenario }[] {
  return fs
    .readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, scenario: JSON.parse(fs.readFileSync(path.join(SCENARIO_DIR, file), 'utf8')) as Scenario }));
}

function substitute(value: unknown, base: ScenarioBase): unknown {
  if (typeof value === 'string') {
    const m = /^(=?)@([A-Za-z0-9]+)((?:\.[A-Za-z0-9_]+)*)$/.exec(value);
    if (!m) return value;
    const id = base.names[m[2]!];
    if (!id) throw new Error(`scenario names "@${m[2]}", which the base does not have (it has ${Object.keys(base.names).join(', ')})`);
    const ref = `${id}${m[3]}`;
    if (!m[1]) return ref;
    const r = resolveRef(base.provenance, ref);
    if (!r.ok) throw new Error(`scenario value =@${m[2]}${m[3]}: ${r.problem}`);
    return r.value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, base));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, base)]));
  return value;
}

/** The base registry with the scenario's extras, status changes and approvals applied. */
export async function prepare(s: Scenario): Promise<ScenarioBase> {
  const base = await SCENARIO_BASES[s.base]!();
  for (const x of s.extra ?? []) {
    let draft: ArtifactDraft;
    if (x.energy) {
      const like = base.provenance.artifact(String(substitute(`@${x.energy.like}`, base)))!;
      const settingsBase = s.base === 'co-pt' ? ptSettings() : alSettings();
      const meta = {
        ...like.meta,
        settings: { ...((like.meta?.settings as PhysicalSettings) ?? settingsBase), ...x.energy.settings },
      } as Record<string, unknown>;
      if (x.energy.volumeAngstrom3 !== undefined) meta.volumeAngstrom3 = x.energy.volumeAngstrom3;
      Object.assign(meta, substitute(x.energy.meta ?? {}, base));
      draft = { kind: 'scalar', name: 'total_energy', value: x.energy.ev, unit: 'eV', status: x.energy.status ?? 'final', meta };
    } else {
      draft = substitute(x.artifact, base) as ArtifactDraft;
    }
    const [made] = await seedCall(base.provenance, x.tool, substitute(x.args ?? {}, base) as Record<string, unknown>, [draft]);
    base.names[x.name] = made!.id;
  }
  for (const [name, status] of Object.entries(s.status ?? {})) {
    await base.provenance.markStatus([String(substitute(name, base))], status, `scenario ${s.id}`);
  }
  for (const ap of s.approvals ?? []) {
    const id = String(substitute(ap.on, base));
    const art = base.provenance.artifact(id)!;
    const req = await base.approvals.raise({
      call: art.creator,
      tool: base.provenance.call(art.creator)!.tool,
      verdicts: [{ rule: 'param-judge@1', level: 'warn', reasons: ['scenario concern'] }],
      provenancePath: [id],
    });
    await base.provenance.addConcern(id, {
      source: 'tier2',
      rule: 'param-judge@1',
      level: 'warn',
      message: 'scenario concern',
      approval: req.id,
    });
    if (ap.answer) await base.approvals.answer(req.id, ap.answer, 'user@cli', 'scenario answer');
  }
  return base;
}

export function proposedOf(s: Scenario, base: ScenarioBase): ProposedCall {
  const c = s.call!;
  return {
    tool: c.tool,
    args: substitute(c.arguments, base) as Record<string, unknown>,
    refs: substitute(c.references ?? {}, base) as Record<string, string>,
    reasons: c.reasons ?? {},
    context: c.context ?? `scenario ${s.id}`,
    agent: { role: 'dft' },
  };
}

export function claimsOf(s: Scenario, base: ScenarioBase): ReportClaim[] {
  return substitute(s.report!.claims, base) as ReportClaim[];
}
