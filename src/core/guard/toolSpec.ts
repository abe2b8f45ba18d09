/**
 * The tool contract, as the guarded call runs a tool: its spec (schema, roles, tier-1 rules,
 * what the judges look at), the context its body gets and what it hands back. The catalogue
 * (tools/) implements it; the guard (assessCall.ts, guardedCall.ts) checks and runs it.
 */
import type { AgentRole } from '../canvas/types';
import type { ArtifactDraft, DeclaredOutputs, Ref } from '../provenance/types';

/**
 * A tool: JSON-schema'd arguments (checked with ajv before the guard sees the call),
 * a description a model can use, the tier-1 rules that apply, and a body that returns
 * artifacts to register. No tool runs arbitrary shell commands or writes arbitrary files.
 */
export interface ToolSpec<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON schema of the arguments (draft 2020-12 subset ajv supports). */
  schema: object;
  /** Roles allowed to call it. */
  roles: AgentRole[];
  /** Tier-1 rule names (guard/rules) that check this tool's calls. */
  rules: string[];
  /** Whether the tier-3 cross-parameter judge looks at its calls. */
  crossParameterJudge?: boolean;
  /** Per-parameter notes for the tier-2 judge: what a good value looks like. */
  parameterNotes?: Record<string, string>;
  run(args: A, ctx: ToolRunContext): Promise<ToolOutput>;
}

export interface ToolOutput {
  artifacts: ArtifactDraft[];
  /** A short result a model reads (large outputs become artifacts and are summarised). */
  summary: string;
}

/**
 * What a tool body may use. Services are injected so tools stay testable and so no tool
 * reaches past them (no shell, no arbitrary file writes).
 */
export interface ToolRunContext {
  /** The tool call id being executed. */
  callId: string;
  runId: string;
  /** Directory of the run (files/, jobs/ live under it). */
  runDir: string;
  signal: AbortSignal;
  progress(message: string): void;
  /** Resolve a reference "a-12[.path]" to its value. */
  resolve(ref: string): unknown;
  /**
   * Where the call's values were taken from, as recorded with it: argument name → the reference
   * its value was read from ("bulkModulusGPa" → "a-12.criterion.bulkModulusGPa"), for arguments
   * that hold a value rather than a reference (one that takes an artifact holds its reference).
   */
  references: Readonly<Record<string, Ref>>;
  /** Services, present when the host configured them. */
  services: ToolServices;
}

/** Services tools may use; each is an interface owned by its module. */
export interface ToolServices {
  [name: string]: unknown;
}

/**
 * Tool-spec fields the guard reads beyond the spec: what the tool may make, judging and
 * resuming. Tools are written with defineTool (tools/defineTool.ts), which fills them in.
 */
export interface GuardedToolSpec extends ToolSpec {
  /** The artifacts the tool may create, by name (kind and unit): the registry refuses any other. */
  outputs: DeclaredOutputs;
  /** false for tools with nothing to judge (canvas reads); default true. */
  parameterJudge?: boolean;
  /**
   * A call a stopped process left open is run again under its own call id on resume (its
   * body finds the work it had recorded), instead of being ended as interrupted.
   */
  resumable?: boolean;
}
