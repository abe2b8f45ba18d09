/**
 * A planner's proposal: where the adsorbate should bind and how, as JSON checked by an
 * ajv schema (the same schema is the LLM planner's forced tool input), or a decision to
 * stop the search.
 */
import Ajv from 'ajv';
import type { Orientation } from './placement';
import type { SiteKind } from './sites';

export interface Hypothesis {
  action: 'propose';
  siteType: SiteKind;
  /** Slab atom indices of the surface atoms the adsorbate should bind to (top layer). */
  surfaceAtoms: number[];
  /** Adsorbate atom indices that bind (1 or 2). */
  bindingAtoms: number[];
  orientation: Orientation;
  rationale?: string;
}

export interface Termination {
  action: 'terminate';
  reason: string;
}

export type PlannerDecision = Hypothesis | Termination;

export const HYPOTHESIS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: {
    action: { enum: ['propose', 'terminate'], description: 'propose a configuration to relax, or terminate the search' },
    siteType: { enum: ['ontop', 'bridge', 'hollow'] },
    surfaceAtoms: {
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 1,
      maxItems: 6,
      uniqueItems: true,
      description: 'indices (0-based, in the slab) of the top-layer atoms to bind to',
    },
    bindingAtoms: {
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      description: 'indices (0-based, in the adsorbate) of the atoms that bind to the surface',
    },
    orientation: { enum: ['upright', 'tilted', 'flat'] },
    rationale: { type: 'string', maxLength: 2000 },
    reason: { type: 'string', maxLength: 2000 },
  },
  allOf: [
    {
      if: { properties: { action: { const: 'propose' } } },
      then: { required: ['siteType', 'surfaceAtoms', 'bindingAtoms', 'orientation'] },
    },
    { if: { properties: { action: { const: 'terminate' } } }, then: { required: ['reason'] } },
  ],
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validateShape = ajv.compile(HYPOTHESIS_SCHEMA);

/** Parse a planner's raw output; the error lists every schema violation with its path. */
export function parseDecision(raw: unknown): { ok: true; decision: PlannerDecision } | { ok: false; error: string } {
  if (!validateShape(raw)) {
    const problems = (validateShape.errors ?? []).map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`,
    );
    return {
      ok: false,
      error: `the hypothesis does not match its schema: ${problems.join('; ')}. Send {action, siteType, surfaceAtoms, bindingAtoms, orientation} or {action: "terminate", reason}.`,
    };
  }
  return { ok: true, decision: raw as PlannerDecision };
}
