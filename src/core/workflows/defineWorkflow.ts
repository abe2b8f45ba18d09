/**
 * The one way to define a workflow template. A template declares its input schema (what ajv
 * checks an objective's inputs against, objective.ts `checkInputs`, and what the supervisor
 * and `dreams_workflows` show); the type of the checked inputs is inferred from it (TypeBox's
 * JSON Schema inference, as for a tool's arguments, tools/defineTool.ts), so renaming or
 * retyping an input in the schema fails tsc wherever a template reads it. Its resolver turns
 * checked inputs into the template's resolved inputs (defaults, the machine's pseudopotentials);
 * its steps, objective line and report composers get those, typed, with no cast.
 *
 *   export const BAND_STRUCTURE = defineWorkflow({
 *     id: 'band-structure', title: '...', description: '...',
 *     inputSchema: ELECTRONIC_INPUT_SCHEMA,            // `as const`
 *     resolveInputs: resolveElectronicInputs,           // (inputs: InputsOf<typeof ELECTRONIC_INPUT_SCHEMA>, env) => ElectronicInputs
 *     steps: (i) => [...],                              // i: ElectronicInputs
 *     objective: (i) => `band structure of ...`,
 *     composers: { title: (ctx) => ctx.inputs.functional, ... },
 *   });
 */
import type { XStatic } from 'typebox/schema';
import type { ComposeContext, Composer } from '../plan/types';
import type { TemplateStep, WorkflowEnvironment, WorkflowTemplate } from './types';

/**
 * The inputs an objective's schema admits. As for a tool's arguments, the schema's conditional
 * parts (allOf/anyOf/oneOf/if/then/else/not) only refine which inputs must be present, which
 * ajv checks; the inference leaves them out (TypeBox reads an if/then without else as always
 * taking the then branch).
 */
type Conditional = 'allOf' | 'anyOf' | 'oneOf' | 'if' | 'then' | 'else' | 'not';
export type InputsOf<S> = XStatic<S extends object ? Omit<S, Conditional> : S>;

/** What a report composer of a template gets: the run's provenance and the template's resolved inputs. */
export type ComposeContextOf<R> = Omit<ComposeContext, 'inputs'> & { inputs: R };
export type ComposerOf<R> = (ctx: ComposeContextOf<R>) => unknown;

export interface WorkflowDefinition<S, R> {
  id: string;
  title: string;
  /** One paragraph a person (and the supervisor model) reads to choose the template. */
  description: string;
  /** JSON schema of the inputs (`as const`, so their type is inferred); descriptions say what each input is and its unit. */
  inputSchema: S;
  /** Recognise a text objective and read the inputs it states (checked against the schema afterwards); undefined when it is not this workflow. */
  inputsFromText?(text: string): Record<string, unknown> | undefined;
  /** Read files an objective file names (relative to `baseDir`, its directory) into the inputs, so the run records what was read. */
  loadInputFiles?(inputs: InputsOf<S>, baseDir: string): InputsOf<S>;
  /** Whether a run of these inputs runs pw.x (default true). */
  usesPwx?(inputs: InputsOf<S>): boolean;
  /** Inputs after defaults (some depend on the pseudopotential the environment finds); throws ObjectiveError naming each problem. */
  resolveInputs(inputs: InputsOf<S>, env: WorkflowEnvironment): R;
  /** The plan for resolved inputs. */
  steps(inputs: R): TemplateStep[];
  /** One line naming the study, from resolved inputs. */
  objective(inputs: R): string;
  /**
   * The line from an objective file's checked inputs, before the machine is known; by default
   * `objective` of the inputs resolved without a machine. Needed where resolving asks the machine.
   */
  objectiveBeforeResolving?(inputs: InputsOf<S>): string;
  composers?: Record<string, ComposerOf<R>>;
  /**
   * Resolved inputs as an earlier version recorded them in a run's workflow event, read into the
   * shape the template reads now, so a run started before a change of shape resumes (default: as recorded).
   */
  readRecorded?(recorded: Record<string, unknown>): Record<string, unknown>;
}

/** Resolved inputs as the run holds and records them (a plain object of the resolver's fields). */
const record = (inputs: unknown): Record<string, unknown> => ({ ...(inputs as object) });

/** A workflow template whose steps, objective and composers read typed inputs. */
export function defineWorkflow<const S extends object, R extends object>(def: WorkflowDefinition<S, R>): WorkflowTemplate {
  // The boundaries where the untyped inputs become typed, each once:
  // - checked: objective.ts `checkInputs` validated them against `inputSchema` (ajv) before any of these is called;
  // - resolved: they are what `resolveInputs` returned, held by the run (and recorded in its workflow event, read back on
  //   resume, through `readRecorded` where an earlier version recorded another shape).
  const checked = (inputs: Record<string, unknown>): InputsOf<S> => inputs as InputsOf<S>;
  const { readRecorded } = def;
  const resolved = (inputs: Record<string, unknown>): R => (readRecorded ? readRecorded(inputs) : inputs) as R;
  const composers = def.composers
    ? Object.fromEntries(
        Object.entries(def.composers).map(([name, compose]): [string, Composer] => [
          name,
          (ctx) => compose({ ...ctx, inputs: resolved(ctx.inputs) }),
        ]),
      )
    : undefined;
  const { objectiveBeforeResolving, loadInputFiles, usesPwx, inputsFromText } = def;
  return {
    id: def.id,
    title: def.title,
    description: def.description,
    inputSchema: def.inputSchema,
    ...(inputsFromText ? { inputsFromText } : {}),
    ...(loadInputFiles ? { loadInputFiles: (inputs, baseDir) => record(loadInputFiles(checked(inputs), baseDir)) } : {}),
    ...(usesPwx ? { usesPwx: (inputs) => usesPwx(checked(inputs)) } : {}),
    resolveInputs: (inputs, env) => record(def.resolveInputs(checked(inputs), env)),
    steps: (inputs) => def.steps(resolved(inputs)),
    objective: (inputs) => def.objective(resolved(inputs)),
    objectiveBeforeResolving: (inputs) =>
      objectiveBeforeResolving ? objectiveBeforeResolving(checked(inputs)) : def.objective(def.resolveInputs(checked(inputs), {})),
    ...(composers ? { composers } : {}),
  };
}
