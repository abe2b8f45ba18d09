/**
 * The SCF a band structure or DOS continues, found from its total_energy artifact: the run_pw
 * call that made it, the pw_input it ran (structure, options, pseudopotentials), its parsed
 * pw.x output (electrons, alat, Fermi level, occupations) and its job, whose saved charge
 * density the NSCF copies. The guard's rules and the tools read the SCF the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput } from '../dft/qe/output';
import type { PwOutput } from '../dft/qe/output/types';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from '../artifacts/shapes';
import { resolveRef, type ProvenanceView } from '../provenance/view';
import type { ArtifactRecord } from '../provenance/types';
import { inputRefOfRun } from './runPw';

export interface ScfSource {
  energy: ArtifactRecord;
  meta: EnergyMeta;
  input: PwInputValue;
  inputRef: string;
  /** The parsed pw.x output, when its file is at hand. */
  output?: PwOutput;
  /** The job that ran it (its saved files). */
  job: string;
}

/** The SCF behind a total_energy reference, or a sentence saying why it cannot be continued. */
export function scfSource(view: ProvenanceView, runDir: string | undefined, energyRef: string): ScfSource | string {
  const r = resolveRef(view, energyRef);
  if (!r.ok) return `${energyRef} does not resolve: ${r.problem}`;
  const energy = r.artifact;
  if (energy.name !== ARTIFACT.totalEnergy) return `${energyRef} is a "${energy.name}", not the total_energy of an SCF (run_pw)`;
  const call = view.call(energy.creator);
  if (call?.tool !== 'run_pw')
    return `${energyRef} was not made by run_pw (${call?.tool ?? 'unknown call'}), so no SCF files lie behind it`;
  const inputRef = inputRefOfRun(call);
  const input = inputRef ? resolveRef(view, inputRef) : undefined;
  if (!inputRef || !input?.ok)
    return `the input of ${energy.creator} cannot be read (${input && !input.ok ? input.problem : 'no input reference'})`;
  const value = input.value as PwInputValue;
  const meta = energy.meta as EnergyMeta;
  const out = view.artifacts().find((a) => a.creator === energy.creator && a.name === ARTIFACT.pwOutput);
  const file = out?.location && runDir ? path.join(runDir, out.location) : undefined;
  const output = file && fs.existsSync(file) ? parsePwOutput(fs.readFileSync(file, 'utf8')) : undefined;
  return { energy, meta, input: value, inputRef, ...(output ? { output } : {}), job: String(meta.job ?? '') };
}
