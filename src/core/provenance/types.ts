/**
 * The provenance contract. Artifacts are immutable values; only tool calls create
 * them; an argument is either a literal the agent reasons about or a reference to an
 * artifact whose recorded value equals it. Implementation: registry.ts, queries.ts.
 */
import { DreamsError } from '../errors';
import type { AgentRole } from '../canvas/types';

/** A guard verdict on a call or one of its parameters, recorded with the call (guard/types.ts). */
export type VerdictLevel = 'pass' | 'warn' | 'fail';
export type VerdictTier = 'schema' | 'tier1' | 'tier2' | 'tier3' | 'report' | 'user';

export interface Verdict {
  tier: VerdictTier;
  /** Tier 1: the rule's name. Judges: the rule text's id and version ("param-judge@3"). */
  rule: string;
  /** The parameter judged (tier 2), or undefined for whole-call verdicts. */
  parameter?: string;
  level: VerdictLevel;
  reasons: string[];
  /**
   * false when no judge looked (offline provider, or a judge tier not configured):
   * recorded as "not judged", never as a pass.
   */
  judged: boolean;
  /** Set when the judge itself failed (network, malformed answer): fails open, counted apart. */
  infraError?: string;
  /** Judge model, when a model judged. */
  model?: string;
}

export type ArtifactKind =
  | 'scalar' // a number with a unit
  | 'vector' // numbers with one unit
  | 'table' // rows of named columns (convergence tables, EOS points)
  | 'structure' // atoms + cell (dft/structure.ts Structure)
  | 'qe-input' // a pw.x input (text + parsed model)
  | 'qe-output' // a parsed pw.x output (dft/pwOutput.ts PwOutput) + the raw file
  | 'file' // any other file, by hash and location
  | 'report-claim'; // a number a report states, citing an artifact

export type ArtifactStatus = 'final' | 'provisional' | 'stale';

/** A reference to an artifact or into its value: "a-12" or "a-12.energy.totalEv". */
export type Ref = string;

export interface Concern {
  source: 'tier1' | 'tier2' | 'tier3' | 'report-judge' | 'user';
  rule?: string;
  parameter?: string;
  level: 'warn' | 'fail';
  message: string;
  /** The approval request raised for it, if any. */
  approval?: string;
}

export interface ArtifactRecord {
  /** "a-<n>", unique within the run. */
  id: string;
  kind: ArtifactKind;
  /** What it is in the domain: "total_energy", "lattice_constant", "pw_input". */
  name: string;
  /** Inline value (JSON). Large content lives in a file: see location. */
  value?: unknown;
  unit?: string;
  /** sha256 (hex) of the canonical JSON of value, or of the file's bytes. */
  contentHash: string;
  /** File path relative to the run directory, for file-backed artifacts. */
  location?: string;
  /** The tool call that created it (exactly one). */
  creator: string;
  /** References it was computed from (its tool call's referenced arguments). */
  inputs: Ref[];
  concerns: Concern[];
  status: ArtifactStatus;
  /** Comparison tolerance for references that carry a value (default: floating-point noise, references.ts NOISE_TOLERANCE). */
  tolerance?: { abs?: number; rel?: number };
  /**
   * Domain metadata, e.g. for energies the physical settings they were computed with
   * (dft/settings.ts PhysicalSettings) so energy differences can be checked for comparability.
   */
  meta?: Record<string, unknown>;
  createdAt: string;
}

export interface ArgumentRecord {
  value: unknown;
  /** Present when the value came from an artifact. */
  ref?: Ref;
  /**
   * The argument only seeds the calculation (the starting geometry of a relaxation): the
   * call read it, but what it made does not depend on it, so it is not an input of the outputs.
   */
  seed?: true;
}

export type ToolCallStatus = 'running' | 'ok' | 'failed' | 'refused';

export interface ToolCallRecord {
  /** "c-<n>", unique within the run. */
  id: string;
  tool: string;
  args: Record<string, ArgumentRecord>;
  /** The agent's reason for each parameter's value. */
  reasons: Record<string, string>;
  /** The context the agent declared (what step, what goal). */
  context: string;
  verdicts: Verdict[];
  agent: { role: AgentRole | 'user' | 'framework'; model?: string };
  /** Plan step this call serves, if any. */
  step?: string;
  startedAt: string;
  endedAt?: string;
  status: ToolCallStatus;
  error?: string;
  /** What the tool said of its result when it ended ok (the text the agent read). */
  summary?: string;
  /** Artifact ids this call created. */
  outputs: string[];
}

/** What a tool body hands back for registration; the registry fills in the rest. */
export interface ArtifactDraft {
  kind: ArtifactKind;
  name: string;
  value?: unknown;
  unit?: string;
  /** File-backed content: bytes to store under the run's files/ directory. */
  file?: { name: string; bytes: Uint8Array | string };
  /** Extra inputs beyond the call's referenced arguments. */
  inputs?: Ref[];
  status?: 'final' | 'provisional';
  tolerance?: { abs?: number; rel?: number };
  meta?: Record<string, unknown>;
}

/**
 * The artifacts a tool may create, by name: each one's kind and unit (a tool's `outputs`,
 * guard/toolSpec.ts). The registry refuses a draft the declaration does not name, or of
 * another kind or unit.
 */
export type DeclaredOutputs = Readonly<Record<string, { readonly kind: ArtifactKind; readonly unit?: string }>>;

/** A violated insert rule: which, and what to do about it. */
export class ProvenanceError extends DreamsError<
  'single-creator' | 'unknown-reference' | 'cycle' | 'value-mismatch' | 'unknown-call' | 'immutable' | 'undeclared-artifact'
> {
  constructor(code: ProvenanceError['code'], message: string) {
    super(code, message);
    this.name = 'ProvenanceError';
  }
}
