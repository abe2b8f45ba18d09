/**
 * The workflows' event: the template a run follows and its resolved inputs, recorded when the
 * run chooses it (a resumed run reads them back). Declared into the event catalogue
 * (canvas/types.ts EventCatalogue), with what it must hold when read from disk.
 */
import Type from 'typebox';

/** The template a run follows and the inputs it was instantiated with. */
export interface WorkflowInputsPayload {
  workflow: string;
  inputs: Record<string, unknown>;
}

declare module '../canvas/types' {
  interface EventCatalogue {
    'workflow.inputs': WorkflowInputsPayload;
  }
}

export const WORKFLOW_EVENTS = {
  'workflow.inputs': Type.Object({ workflow: Type.String(), inputs: Type.Record(Type.String(), Type.Unknown()) }),
};
