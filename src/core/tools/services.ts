/**
 * The services tool bodies use, injected through ToolRunContext.services so that no tool
 * reaches past them: no shell, no arbitrary file writes.
 */
import type { Actor, KeySummary, ReadResult, WriteResult } from '../canvas/types';
import type { ProvenanceView } from '../provenance/view';
import type { JobService } from '../hpc/jobService';
import type { ClusterProfile } from '../hpc/types';
import type { QeVersion } from '../dft/qe/definitions';
import type { ToolRunContext } from '../guard/toolSpec';

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
  /** The QE version inputs are validated for (detected from pw.x by the host); default the validator's. */
  qeVersion?: QeVersion;
  /** Cluster profiles by name: their limits bound the suggested resources and any override. */
  clusterProfiles?: Record<string, ClusterProfile>;
}

/** An earlier run open for reading, whose pw.x results run_pw may reuse. */
export interface EarlierRunSource {
  runId: string;
  dir: string;
  view: ProvenanceView;
}

/** A missing service is a host configuration problem: say which and what to configure. */
export class ToolSetupError extends Error {
  override readonly name = 'ToolSetupError';
}

export function service<K extends keyof CatalogueServices>(ctx: ToolRunContext, name: K, tool: string, hint: string): NonNullable<CatalogueServices[K]> {
  const s = (ctx.services as Partial<CatalogueServices>)[name];
  if (s === undefined || s === null) {
    throw new ToolSetupError(`${tool} needs the ${String(name)} service, which this run was not given: ${hint}`);
  }
  return s as NonNullable<CatalogueServices[K]>;
}
