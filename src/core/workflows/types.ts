/**
 * Workflow templates: the plans the supervisor starts from and the offline provider
 * follows. A template turns validated inputs into plan steps; each step names the
 * worker, the one tool whose call must succeed, and argument hints.
 *
 * Argument hints (strings inside `args`, resolved against the run's provenance when the
 * step runs; see plan/stepArguments.ts):
 *   "$step.<stepId>.<artifact name>"          reference to the latest such artifact made by
 *                                             that step, e.g. "$step.structure.bulk_structure"
 *   "$step.<stepId>.<artifact name>.<path>"   a field of it, passed by reference, e.g.
 *                                             "$step.cutoff-choice.converged_settings.chosen.ecutwfcRy"
 *   "$all.<stepId>.<artifact name>"           the list of every such artifact of the step
 *   "$each.<stepId>.<artifact name>"          one call per such artifact (the step is done when
 *                                             every one of them has a successful call)
 *   "$run.<setting>"                          a run setting: "$run.backend"
 *   { "$compose": "<composer>" }              built from the run's artifacts by the template's
 *                                             composer of that name (e.g. the report)
 * Anything else is a literal. Only artifacts of a step's latest attempt count, so a step
 * that was redone after a replan never mixes old and new results.
 *
 * A step is done when its tool's call(s) ended ok and none of their outputs is provisional;
 * a write_report step is done when the report judge accepted the report.
 */
import { DreamsError } from '../errors';
import type { Composer, PlanStep } from '../plan/types';

export type TemplateStep = Omit<PlanStep, 'status' | 'summary'>;

/** What a template may learn about the machine it plans for, without touching files itself. */
export interface WorkflowEnvironment {
  /** The pseudopotential a file name (or, without one, an element and functional) resolves to. */
  pseudopotential?(request: { element: string; functional: string; file?: string }): PseudopotentialInfo | undefined;
}

export interface PseudopotentialInfo {
  file: string;
  /** 'NC' | 'US' | 'PAW' | 'SL' | 'other' (dft/qe/upf.ts). */
  type: string;
  functional?: string;
  suggestedEcutwfcRy?: number;
  suggestedEcutrhoRy?: number;
}

/** Templates are made with `defineWorkflow` (defineWorkflow.ts), which types their inputs from their schema. */
export interface WorkflowTemplate {
  id: string;
  title: string;
  /** One paragraph a person (and the supervisor model) reads to choose the template. */
  description: string;
  /** JSON schema of the inputs; descriptions say what each input is and its unit. */
  inputSchema: object;
  /** Recognise a text objective and read the inputs it states; undefined when it is not this workflow. */
  inputsFromText?(text: string): Record<string, unknown> | undefined;
  /**
   * Read files an objective file names (relative to `baseDir`, its directory) into the inputs,
   * when the objective is loaded, so the run records what was read (e.g. a slab file).
   */
  loadInputFiles?(inputs: Record<string, unknown>, baseDir: string): Record<string, unknown>;
  /** Whether a run of these inputs runs pw.x (default true); a study that does not need no Quantum ESPRESSO installed. */
  usesPwx?(inputs: Record<string, unknown>): boolean;
  /** Inputs after defaults (some depend on the pseudopotential the environment finds). */
  resolveInputs(inputs: Record<string, unknown>, env: WorkflowEnvironment): Record<string, unknown>;
  /** The plan for resolved inputs. */
  steps(inputs: Record<string, unknown>): TemplateStep[];
  /** One line naming the study, for the plan's objective, from resolved inputs. */
  objective(inputs: Record<string, unknown>): string;
  /** The same line from an objective file's checked inputs, before the machine is known (default: `objective` of them). */
  objectiveBeforeResolving?(inputs: Record<string, unknown>): string;
  composers?: Record<string, Composer>;
}

/** A template input a person must fix: where, what is wrong, what to write instead. */
export class ObjectiveError extends DreamsError<'bad-input'> {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super('bad-input', message);
    this.name = 'ObjectiveError';
  }
}
