/**
 * Checks every workflow template's plan steps the same way: each step names a catalogue tool
 * its worker may call, with arguments the tool's schema accepts (hints replaced by stand-ins of
 * the right type), a reason for every argument, and dependencies on earlier steps only,
 * including every step its hints refer to.
 */
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { hintedSteps, parseHint } from '../../../../src/core/plan/stepHints';
import { TOOL_CATALOGUE } from '../../../../src/core/tools';
import { stripAnnotations } from '../../../../src/core/guard/schemaAnnotations';
import type { TemplateStep } from '../../../../src/core/workflows/types';
import { dependsTransitively } from '../../../../src/core/plan/edits';

const tools = new Map(TOOL_CATALOGUE.map((t) => [t.name, t]));
const ajv = new Ajv({ allErrors: true, strict: false });

type Prop = { type?: string; minimum?: number; maximum?: number; items?: Prop };

/** A claim for compose hints of array arguments (a report's claims). */
export interface ClaimStandIn {
  quantity: string;
  value: number;
  unit: string;
}

/** Stand-ins of the right type for hints, so a step's literal arguments meet the tool's schema. */
export function placeholders(
  args: Record<string, unknown>,
  schema: { properties?: Record<string, Prop> },
  claim: ClaimStandIn,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => {
      const prop = schema.properties?.[k] ?? {};
      if (Array.isArray(v) && v.length && v.every((x) => parseHint(x))) return [k, v.map((_, j) => `a-${j + 1}`)];
      const hint = parseHint(v);
      if (!hint) return [k, v];
      if (hint.kind === 'all') return [k, ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']];
      if (hint.kind === 'compose') return [k, prop.type === 'array' ? [{ ...claim, cites: 'a-9' }] : 'composed'];
      if (hint.kind === 'run') return [k, 'local'];
      if (prop.type === 'number' || prop.type === 'integer') return [k, Math.min(Math.max(prop.minimum ?? 0, 3), prop.maximum ?? Infinity)];
      return [k, 'a-1'];
    }),
  );
}

export function checkTemplateSteps(steps: readonly TemplateStep[], claim: ClaimStandIn): void {
  assert.equal(new Set(steps.map((s) => s.id)).size, steps.length, 'step ids are unique');
  for (const step of steps) {
    assert.match(step.id, /^[a-z0-9][a-z0-9-]{0,63}$/);
    const tool = tools.get(step.tool);
    assert.ok(tool, `step ${step.id}: no tool ${step.tool}`);
    assert.ok(tool.roles.includes(step.worker), `step ${step.id}: ${step.worker} may not call ${step.tool}`);
    const schema = stripAnnotations(tool.schema) as { properties?: Record<string, Prop> };
    const validate = ajv.compile(schema);
    assert.ok(validate(placeholders(step.args ?? {}, schema, claim)), `step ${step.id}: ${JSON.stringify(validate.errors)}`);
    for (const arg of Object.keys(step.args ?? {})) assert.ok(step.reasons?.[arg], `step ${step.id}: no reason for ${arg}`);
    for (const d of step.dependsOn ?? [])
      assert.ok(steps.findIndex((s) => s.id === d) < steps.indexOf(step), `step ${step.id} depends on the later or missing step ${d}`);
    for (const h of hintedSteps(step.args ?? {}))
      assert.ok(dependsTransitively({ steps }, step.dependsOn ?? [], h), `step ${step.id} refers to ${h} without depending on it`);
  }
}
