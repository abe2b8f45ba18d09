/**
 * Objectives: a YAML (or JSON) file naming a workflow and its inputs, or a sentence the
 * templates read. Both are validated against JSON schemas, and every problem is reported
 * as where it is, what is wrong and what to write instead.
 *
 *   workflow: lattice-constant
 *   objective: Lattice constant of fcc Al with LDA     # optional text
 *   inputs:
 *     element: Al
 *     structure: fcc
 *     latticeConstantAngstrom: 4.05
 *     functional: PZ
 *     pseudopotential: Al.pz-vbc.UPF
 *   run:                                               # optional; command-line options win
 *     backend: local
 *     pseudoDir: /usr/share/espresso/pseudo
 *     approval: continue
 *     budget: { maxTokens: 2000000, maxCostUsd: 20, maxJobs: 60, maxWallMinutes: 120 }
 *     reuseFrom: [runs/20260101-120000-copt111-pbe]    # identical pw.x inputs there are not run again
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { closest } from 'fastest-levenshtein';
import { parseDocument } from 'yaml';
import { describeSchemaErrors } from '../schemaErrors';
import { workflowTemplate, workflowTemplates } from './index';
import { boundProblems, firstInvalidUtf8, MAX_OBJECTIVE_FILE_BYTES, MAX_OBJECTIVE_TEXT_CHARS, nonFiniteNumbers } from './objectiveBounds';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment, type WorkflowTemplate } from './types';

/** YAML aliases (*name) an objective may expand (the YAML library's own default). */
const MAX_ALIAS_COUNT = 100;

export interface RunPreferences {
  backend?: string;
  /** The pseudopotential (UPF) library; relative paths are relative to the objective file. */
  pseudoDir?: string;
  approval?: 'wait' | 'continue' | 'auto-approve';
  budget?: { maxTokens?: number; maxCostUsd?: number; maxJobs?: number; maxWallMinutes?: number };
  /** Earlier runs (directories, relative to the objective file) whose identical pw.x runs are reused. */
  reuseFrom?: string[];
}

export interface Objective {
  /** The objective in words (what the supervisor reads). */
  text: string;
  workflow?: string;
  inputs?: Record<string, unknown>;
  run?: RunPreferences;
}

const BUDGET_SCHEMA = {
  type: 'object',
  properties: {
    maxTokens: { type: 'integer', exclusiveMinimum: 0 },
    maxCostUsd: { type: 'number', exclusiveMinimum: 0 },
    maxJobs: { type: 'integer', exclusiveMinimum: 0 },
    maxWallMinutes: { type: 'number', exclusiveMinimum: 0 },
  },
  additionalProperties: false,
};

export const OBJECTIVE_FILE_SCHEMA = {
  type: 'object',
  properties: {
    objective: { type: 'string', minLength: 1 },
    workflow: { type: 'string', minLength: 1 },
    inputs: { type: 'object' },
    run: {
      type: 'object',
      properties: {
        backend: { type: 'string', minLength: 1 },
        pseudoDir: { type: 'string', minLength: 1, description: 'the pseudopotential (UPF) library' },
        approval: { type: 'string', enum: ['wait', 'continue', 'auto-approve'] },
        budget: BUDGET_SCHEMA,
        reuseFrom: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description: 'directories of earlier runs whose identical pw.x runs may be reused',
        },
      },
      additionalProperties: false,
    },
  },
  required: ['workflow', 'inputs'],
  additionalProperties: false,
};

// verbose: errors carry their schema, so a message can list the fields that are known.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });

/**
 * Validate a template's inputs: the sanity bounds every workflow shares (objectiveBounds.ts),
 * then its schema; throws ObjectiveError listing every problem.
 */
export function checkInputs(template: WorkflowTemplate, inputs: unknown, where: string): Record<string, unknown> {
  const bounds = boundProblems(inputs);
  if (bounds.length)
    throw new ObjectiveError(`${where}: the inputs of workflow ${template.id} need fixing:\n- ${bounds.join('\n- ')}`, bounds);
  const validate = ajv.compile(template.inputSchema);
  if (!validate(inputs)) {
    const problems = describeSchemaErrors(validate.errors, inputs, 'inputs');
    throw new ObjectiveError(`${where}: the inputs of workflow ${template.id} need fixing:\n- ${problems.join('\n- ')}`, problems);
  }
  return inputs as Record<string, unknown>;
}

/**
 * Read an objective file's bytes: at most MAX_OBJECTIVE_FILE_BYTES, UTF-8 (a byte that is not
 * is refused with its offset, line and column, not replaced), then parseObjectiveFile.
 */
export function parseObjectiveBytes(bytes: Uint8Array, file: string): Objective {
  if (bytes.length > MAX_OBJECTIVE_FILE_BYTES) {
    throw new ObjectiveError(
      `${file} is ${bytes.length} bytes, over the ${MAX_OBJECTIVE_FILE_BYTES} bytes (${MAX_OBJECTIVE_FILE_BYTES / 1024} KiB) an objective file may have: ` +
        'no study needs more. Put structures in their own files and name them in the objective.',
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined) {
    const before = Buffer.from(bytes.subarray(0, bad)).toString('utf8');
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    throw new ObjectiveError(
      `${file} is not UTF-8 text: byte ${bad} (0x${bytes[bad]!.toString(16).padStart(2, '0')}, line ${line}, column ${column}) is not valid UTF-8. ` +
        'Save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8).',
    );
  }
  return parseObjectiveFile(Buffer.from(bytes).toString('utf8'), file);
}

/** Read an objective file's text (YAML or JSON). `file` names it in messages. */
/**
 * `baseDir`: where files the objective names are relative to (default: the objective file's
 * directory; a notebook passes its canvas's).
 */
export function parseObjectiveFile(text: string, file: string, baseDir?: string): Objective {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    const problems = doc.errors.map(
      (e) => `${e.linePos?.[0] ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}: ` : ''}${e.message.split('\n')[0]}`,
    );
    throw new ObjectiveError(`${file} is not valid YAML:\n- ${problems.join('\n- ')}`, problems);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // The YAML library refuses a document whose aliases (*name) expand without end (an "alias bomb").
    throw new ObjectiveError(
      `${file}: its YAML could not be read: ${(e as Error).message}. ` +
        `An objective needs no more than ${MAX_ALIAS_COUNT} alias (*name) expansions: write the values out.`,
    );
  }
  const notNumbers = nonFiniteNumbers(data);
  if (notNumbers.length) throw new ObjectiveError(`${file} has numbers that are not numbers:\n- ${notNumbers.join('\n- ')}`, notNumbers);
  const validate = ajv.compile(OBJECTIVE_FILE_SCHEMA);
  if (!validate(data)) {
    const problems = describeSchemaErrors(validate.errors, data);
    throw new ObjectiveError(
      `${file} is not an objective file:\n- ${problems.join('\n- ')}\nSee examples/ for objective files that work.`,
      problems,
    );
  }
  const obj = data as { objective?: string; workflow: string; inputs: Record<string, unknown>; run?: RunPreferences };
  const template = workflowTemplate(obj.workflow);
  if (!template) {
    const ids = workflowTemplates().map((t) => t.id);
    throw new ObjectiveError(
      `${file}: workflow "${obj.workflow}" is not a built-in workflow${ids.length ? ` (did you mean "${closest(obj.workflow, ids)}"?)` : ''}; use one of ${ids.join(', ')}.`,
    );
  }
  const checked = checkInputs(template, obj.inputs, file);
  const inputs = template.loadInputFiles ? template.loadInputFiles(checked, baseDir ?? path.dirname(path.resolve(file))) : checked;
  return {
    text: obj.objective ?? (template.objectiveBeforeResolving ? template.objectiveBeforeResolving(inputs) : template.objective(inputs)),
    workflow: template.id,
    inputs,
    ...(obj.run ? { run: obj.run } : {}),
  };
}

/**
 * Read an objective sentence; a sentence no template recognises stays text for a model
 * supervisor to plan. With `forModel`, a sentence that names a workflow but not all its
 * inputs also stays text: the supervisor fills them in (e.g. a starting lattice constant).
 * A structure file the sentence names ("... from examples/NaCl.cif") is read as the objective
 * file route reads one, relative to `baseDir` (the working directory; a notebook passes its
 * canvas's folder).
 */
export function parseObjectiveText(text: string, opts: { forModel?: boolean; baseDir?: string } = {}): Objective {
  const trimmed = text.trim();
  if (!trimmed)
    throw new ObjectiveError(
      'the objective is empty: say what to compute, e.g. "lattice constant of fcc Al, a0 = 4.05 Å, LDA", or give an objective file.',
    );
  if (trimmed.length > MAX_OBJECTIVE_TEXT_CHARS) {
    throw new ObjectiveError(
      `the objective is ${trimmed.length} characters long, over the ${MAX_OBJECTIVE_TEXT_CHARS} an objective may have (the supervisor reads it in every turn): ` +
        'say what to compute in a few sentences, and put inputs in an objective file.',
    );
  }
  for (const template of workflowTemplates()) {
    const inputs = template.inputsFromText?.(trimmed);
    if (!inputs) continue;
    const required = requiredInputs(template.inputSchema, inputs).filter((r) => inputs[r] === undefined);
    if (required.length) {
      if (opts.forModel) return { text: trimmed };
      throw new ObjectiveError(
        `the objective reads as workflow ${template.id} but does not state ${required.join(', ')}. ` +
          `Say it in the text (e.g. "lattice constant of fcc Al, a0 = 4.05 Å, PBE") or use an objective file (see examples/).`,
        required.map((r) => `${r} is missing`),
      );
    }
    const checked = checkInputs(template, inputs, 'the objective');
    if (!template.loadInputFiles) return { text: trimmed, workflow: template.id, inputs: checked };
    const baseDir = path.resolve(opts.baseDir ?? process.cwd());
    // structure: { file } (lattice constant, relax, magnetic order, formation energy) or structureFile (band structure, DOS)
    const named = (checked.structure as { file?: unknown } | undefined)?.file ?? checked.structureFile;
    if (typeof named === 'string' && !fs.existsSync(path.resolve(baseDir, named))) {
      throw new ObjectiveError(
        `the objective names the structure file ${named}, but ${path.resolve(baseDir, named)} does not exist: a file named in an objective sentence ` +
          `is relative to ${opts.baseDir ? baseDir : `the working directory (${baseDir})`} (a notebook cell's, to its canvas's folder). Give its path from there or an absolute path.`,
      );
    }
    return { text: trimmed, workflow: template.id, inputs: template.loadInputFiles(checked, baseDir) };
  }
  return { text: trimmed };
}

/** The inputs a schema requires of these inputs: its `required`, and its `then.required` where its `if` holds. */
function requiredInputs(schema: object, inputs: Record<string, unknown>): string[] {
  const s = schema as { required?: string[]; if?: object; then?: { required?: string[] } };
  const conditional = s.if && s.then?.required && ajv.validate(s.if, inputs) ? s.then.required : [];
  return [...new Set([...(s.required ?? []), ...conditional])];
}

export interface PreparedWorkflow {
  template: WorkflowTemplate;
  inputs: Record<string, unknown>;
  objective: string;
  steps: TemplateStep[];
}

/** Defaults resolved against the machine (pseudopotential headers), and the plan steps. */
export function prepareWorkflow(workflow: string, inputs: Record<string, unknown>, env: WorkflowEnvironment): PreparedWorkflow {
  const template = workflowTemplate(workflow);
  if (!template)
    throw new ObjectiveError(
      `no workflow "${workflow}"; use one of ${workflowTemplates()
        .map((t) => t.id)
        .join(', ')}.`,
    );
  const resolved = template.resolveInputs(checkInputs(template, inputs, `workflow ${workflow}`), env);
  return { template, inputs: resolved, objective: template.objective(resolved), steps: template.steps(resolved) };
}
