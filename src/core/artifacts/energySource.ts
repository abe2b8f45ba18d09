/**
 * What a total_energy was computed on, read from the provenance alone (no files): the pw.x input
 * its run_pw call ran, the structure of that input, the geometry the run ended at (a relaxation's
 * last cell and positions), the physical settings, the facts run_pw recorded of a relaxation
 * and of a spin-polarised run. Tools and tier-1 rules both read energies this way.
 */
import type { Cell, PhysicalSettings, Structure, Vec3 } from '../dft/types';
import type { ArtifactRecord } from '../provenance/types';
import { parseRef, resolveRef, type ProvenanceView } from '../provenance/view';
import type { MagnetizationFacts, RelaxationFacts } from './relaxation';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from './shapes';

export interface EnergySource {
  energy: ArtifactRecord;
  meta: EnergyMeta;
  settings: PhysicalSettings;
  /** The pw.x input the run ran (absent when the run was not given a make_pw_input input). */
  input?: PwInputValue;
  /** The input's structure with the geometry the run ended at (a relaxation's last cell and positions). */
  structure?: Structure;
  cellAngstrom?: Cell;
  calculation?: string;
  relaxation?: RelaxationFacts;
  magnetization?: MagnetizationFacts;
}

/** The run_pw input reference of a call: its recorded reference, or an artifact id given as the value. */
function inputRefOf(view: ProvenanceView, creator: string): string | undefined {
  const arg = view.call(creator)?.args.input;
  return arg?.ref ?? (typeof arg?.value === 'string' && /^a-\d+/.test(arg.value) ? arg.value : undefined);
}

/** The source of a total_energy artifact (by id or reference), or undefined when it is not one. */
export function energySourceOf(view: ProvenanceView, ref: string): EnergySource | undefined {
  const energy = view.artifact(parseRef(ref)?.artifactId ?? '');
  const meta = energy?.meta as EnergyMeta | undefined;
  if (!energy || energy.name !== ARTIFACT.totalEnergy || !meta?.settings) return undefined;
  const inputRef = inputRefOf(view, energy.creator);
  const resolved = inputRef ? resolveRef(view, inputRef) : undefined;
  const input = resolved?.ok ? (resolved.value as PwInputValue | undefined) : undefined;
  const cell = (meta.cellAngstrom as Cell | undefined) ?? input?.structure?.cell;
  const final = meta.finalPositionsAngstrom as Vec3[] | undefined;
  const start = input?.structure;
  const structure = start
    ? { ...start, ...(cell ? { cell } : {}), ...(final && final.length === start.symbols.length ? { positions: final } : {}) }
    : undefined;
  return {
    energy,
    meta,
    settings: meta.settings,
    ...(input ? { input, calculation: input.calculation } : {}),
    ...(structure ? { structure } : {}),
    ...(cell ? { cellAngstrom: cell } : {}),
    ...(meta.relaxation ? { relaxation: meta.relaxation as RelaxationFacts } : {}),
    ...(meta.magnetization ? { magnetization: meta.magnetization as MagnetizationFacts } : {}),
  };
}

/** Element counts of the structure an energy was computed on, or undefined when unknown. */
export function compositionOfSource(s: EnergySource | undefined): Record<string, number> | undefined {
  if (!s?.structure) return undefined;
  const out: Record<string, number> = {};
  for (const el of s.structure.symbols) out[el] = (out[el] ?? 0) + 1;
  return out;
}

/** A cell with vacuum: not periodic along some axis, or tagged as a slab's layers. */
export function hasVacuum(s: Structure): boolean {
  return s.pbc.some((p) => !p) || (s.tags?.some((t) => t > 0) ?? false) || s.info?.facet !== undefined;
}
