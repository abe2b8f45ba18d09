/**
 * The services tool bodies use, injected through ToolRunContext.services so that no tool
 * reaches past them: no shell, no arbitrary file writes.
 */
import { DreamsError } from '../errors';
import type { Actor, KeySummary, ReadResult, WriteResult } from '../canvas/types';
import type { ProvenanceView } from '../provenance/view';
import type { JobService } from '../hpc/jobService';
import type { ClusterProfile } from '../hpc/types';
import type { IpiClientSpec } from '../calculators/ipi/clientProcess';
import type { QeVersion } from '../dft/qe/definitions';
import type { ToolRunContext, ToolServices } from '../guard/toolSpec';

/** The three canvas operations agents have. */
export interface CanvasService {
  inspect(prefix?: string): KeySummary[];
  read(key: string, version?: number): ReadResult;
  write(key: string, value: unknown, reason: string, actor: Actor): Promise<WriteResult>;
}

export interface CatalogueServices {
  /** Read view of the run's provenance (the guard supplies it to every call). */
  provenance: ProvenanceView;
  canvas?: CanvasService;
  jobs?: JobService;
  /** Directory of the pseudopotential library (UPF files) the user configured. */
  pseudoDir?: string;
  /** Backends run_pw may use: default 'local' and the configured cluster profile names. */
  backends?: string[];
  /** The backend the run was started with: where run_pw sends pw.x when a call names none. */
  runBackend?: string;
  /** The QE version inputs are validated for (detected from pw.x by the host); default the validator's. */
  qeVersion?: QeVersion;
  /**
   * The cluster profiles the run was given, the same list its job backends use: their limits
   * bound the suggested resources and any override. Look one up with clusterProfileOf.
   */
  clusterProfiles?: readonly ClusterProfile[];
  /** The i-PI calculators the user declared for the run (its objective), by ipiCalculatorKey: a tool names one, never a command. */
  ipiCalculators?: Readonly<Record<string, IpiClientSpec>>;
  /** false: run_pw runs pw.x again even for an input identical to one already run (--rerun-identical). */
  reuseIdenticalRuns?: boolean;
  /** The pw.x version a backend runs now: a result is reused only from the same version. */
  pwVersionOf?: (backend: string) => Promise<string | undefined>;
  /** Earlier runs whose identical pw.x results run_pw may reuse. */
  earlierRuns?: EarlierRunSource[];
}

/** A tool body's context with the catalogue's services typed (defineTool gives every body one). */
export interface CatalogueContext extends ToolRunContext {
  services: CatalogueServices & ToolServices;
}

/** An earlier run open for reading, whose pw.x results run_pw may reuse. */
export interface EarlierRunSource {
  runId: string;
  dir: string;
  view: ProvenanceView;
}

/** A missing service is a host configuration problem: say which and what to configure. */
export class ToolSetupError extends DreamsError<'setup'> {
  override readonly name = 'ToolSetupError';
  constructor(message: string) {
    super('setup', message);
  }
}

export function service<K extends keyof CatalogueServices>(
  ctx: CatalogueContext,
  name: K,
  tool: string,
  hint: string,
): NonNullable<CatalogueServices[K]> {
  const s = ctx.services[name];
  if (s === undefined || s === null) {
    throw new ToolSetupError(`${tool} needs the ${String(name)} service, which this run was not given: ${hint}`);
  }
  return s;
}

/** The backends a tool may send pw.x to: those the host configured, else 'local' and every cluster profile. */
export function backendsOf(ctx: CatalogueContext): string[] {
  const services = ctx.services;
  return services.backends ?? ['local', ...(services.clusterProfiles ?? []).map((p) => p.name)];
}

/**
 * The profile of a backend, the one look-up every tool uses: 'local' has none (no limits); a
 * cluster backend must have its profile, since its limits bound what a job may ask for, and
 * a job sized without them is refused by the scheduler.
 */
export function clusterProfileOf(
  ctx: CatalogueContext,
  backend: string,
  tool: string,
): Pick<ClusterProfile, 'name' | 'limits' | 'partition' | 'account' | 'qos'> {
  if (backend === 'local') return { name: 'local' };
  const profile = (ctx.services.clusterProfiles ?? []).find((p) => p.name === backend);
  if (!profile) {
    throw new ToolSetupError(
      `${tool}: backend "${backend}" has no cluster profile in this run, so the limits of that cluster are unknown; add "${backend}" to the cluster profiles file (or dreams.clusters) and resume.`,
    );
  }
  return profile;
}
