/**
 * Which model each role talks to, and what the request may contain for a given model.
 *
 * Default model ids are taken from the `Model` union of the installed @anthropic-ai/sdk
 * (1.14.0, src/resources/messages/messages.ts); test/unit/llm/models.unit.test.ts fails
 * when a default is no longer in that union. Choice per role:
 * - supervisor, planner, cross-judge, report-judge: claude-opus-5-5, the strongest
 *   generally available model at a moderate price; these calls are few and decide the run.
 * - dft and hpc workers, advisor: claude-sonnet-5-5, fast and good at tool use.
 * - param-judge: claude-haiku-5-5, one request per tool call on every call, so
 *   latency and price matter most; it also accepts a forced verdict tool.
 *
 * Request rules by model (from the model overview and migration pages on
 * platform.claude.com, November 2026):
 * - Opus/Sonnet/Haiku from 4.7 on, and every Fable and Mythos model, reject any
 *   non-default temperature/top_p/top_k with a 400.
 * - Opus and Sonnet from 5.5 on, and Fable/Mythos from 5.1 on, reject a forced tool
 *   choice ({type:'any'} or {type:'tool'}) with a 400. Haiku 5.5 accepts it.
 */
import type { LlmRole } from '../canvas/types';

export type RoleModels = Record<LlmRole, string>;

export const DEFAULT_ROLE_MODELS: Readonly<RoleModels> = Object.freeze({
  supervisor: 'claude-opus-5-5',
  planner: 'claude-opus-5-5',
  dft: 'claude-sonnet-5-5',
  hpc: 'claude-sonnet-5-5',
  advisor: 'claude-sonnet-5-5',
  'param-judge': 'claude-haiku-5-5',
  'cross-judge': 'claude-opus-5-5',
  'report-judge': 'claude-opus-5-5',
});

export const LLM_ROLES = Object.keys(DEFAULT_ROLE_MODELS) as LlmRole[];

/**
 * Merge user overrides (settings, CLI flags) over the defaults. An unknown role or an
 * empty model id is refused with the offending entry named.
 */
export function resolveRoleModels(overrides: Partial<Record<string, string>> = {}): RoleModels {
  const models: RoleModels = { ...DEFAULT_ROLE_MODELS };
  for (const [role, model] of Object.entries(overrides)) {
    if (model === undefined) continue;
    if (!(LLM_ROLES as string[]).includes(role)) {
      throw new Error(`unknown model role '${role}' in the model settings. Use one of: ${LLM_ROLES.join(', ')}.`);
    }
    if (typeof model !== 'string' || model.trim() === '') {
      throw new Error(
        `the model for role '${role}' is empty. Give a model id such as '${DEFAULT_ROLE_MODELS[role as LlmRole]}', or remove the entry to use the default.`,
      );
    }
    models[role as LlmRole] = model.trim();
  }
  return models;
}

type Line = 'opus' | 'sonnet' | 'haiku' | 'fable' | 'mythos';

interface ModelVersion {
  line: Line;
  /** major + minor/10, e.g. 4.7, 5, 5.5; Infinity for unversioned previews. */
  version: number;
}

/** Parse "claude-<line>-<major>[-<minor>][-<yyyymmdd>]" and "claude-mythos-preview". */
export function parseModelId(model: string): ModelVersion | undefined {
  if (model === 'claude-mythos-preview') return { line: 'mythos', version: Number.POSITIVE_INFINITY };
  const m = /^claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d))?(?:-\d{8})?$/.exec(model);
  if (!m) return undefined;
  return { line: m[1] as Line, version: Number(m[2]) + (m[3] ? Number(m[3]) / 10 : 0) };
}

export interface ModelRequestRules {
  /** temperature/top_p/top_k other than the default are accepted. */
  samplingParams: boolean;
  /** tool_choice {type:'any'} / {type:'tool'} is accepted. */
  forcedToolChoice: boolean;
}

/** Unknown ids (proxies, future naming) get no adjustments: the API's own answer decides. */
export function requestRulesFor(model: string): ModelRequestRules {
  const v = parseModelId(model);
  if (!v) return { samplingParams: true, forcedToolChoice: true };
  const frontier = v.line === 'fable' || v.line === 'mythos';
  return {
    samplingParams: !frontier && v.version < 4.7,
    forcedToolChoice: frontier ? v.version < 5.1 : v.line === 'haiku' || v.version < 5.5,
  };
}
