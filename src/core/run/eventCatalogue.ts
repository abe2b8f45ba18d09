/**
 * The event catalogue at run time: every kind's payload schema, gathered from the room that
 * declares it (canvas/types.ts EventCatalogue lists where), and the check every event read
 * from disk passes (run/directory.ts opens logs with it). The compiler keeps the two halves
 * together: a kind without a schema, a schema without a kind, or a schema that would refuse a
 * payload its type allows does not compile.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { AGENT_EVENTS } from '../agents/events';
import { CANVAS_EVENTS } from '../canvas/events';
import type { EventCatalogue, EventKind } from '../canvas/types';
import { GUARD_EVENTS } from '../guard/events';
import { JOB_EVENTS } from '../hpc/events';
import { LLM_EVENTS } from '../llm/events';
import { PLAN_EVENTS } from '../plan/events';
import { PROVENANCE_EVENTS } from '../provenance/events';
import { describeSchemaErrors } from '../schemaErrors';
import { WORKFLOW_EVENTS } from '../workflows/events';
import { RUN_EVENTS } from './events';

export const EVENT_PAYLOAD_SCHEMAS = {
  ...CANVAS_EVENTS,
  ...PROVENANCE_EVENTS,
  ...JOB_EVENTS,
  ...LLM_EVENTS,
  ...GUARD_EVENTS,
  ...PLAN_EVENTS,
  ...WORKFLOW_EVENTS,
  ...AGENT_EVENTS,
  ...RUN_EVENTS,
} satisfies { [K in EventKind]: TSchema };

type Schemas = typeof EVENT_PAYLOAD_SCHEMAS;
/** Kinds whose schema would refuse a payload the catalogue's type allows (must be none). */
type StricterThanItsType = { [K in EventKind]: EventCatalogue[K] extends Static<Schemas[K]> ? never : K }[EventKind];
/** Schemas for kinds the catalogue does not declare (must be none). */
type Undeclared = Exclude<keyof Schemas, EventKind>;
const agreed: [StricterThanItsType, Undeclared] extends [never, never] ? true : { stricter: StricterThanItsType; undeclared: Undeclared } =
  true;
void agreed;

export const EVENT_KINDS: readonly EventKind[] = Object.keys(EVENT_PAYLOAD_SCHEMAS) as EventKind[];

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(kind: EventKind): ValidateFunction {
  let v = validators.get(kind);
  if (!v) {
    v = ajv.compile(EVENT_PAYLOAD_SCHEMAS[kind]);
    validators.set(kind, v);
  }
  return v;
}

/**
 * What is wrong with a well-formed event's kind or payload, or undefined when it is one the
 * catalogue declares with a payload of its shape.
 */
export function eventProblem(event: { kind: string; payload: unknown }): string | undefined {
  if (!Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, event.kind)) {
    return `"${event.kind}" is not an event kind this version of DREAMS knows (a newer DREAMS wrote it, or the line was edited)`;
  }
  const validate = validatorFor(event.kind as EventKind);
  if (validate(event.payload)) return undefined;
  return `the payload of this "${event.kind}" event is not what that kind holds: ${describeSchemaErrors(validate.errors, event.payload, 'payload').join(' ')}`;
}
