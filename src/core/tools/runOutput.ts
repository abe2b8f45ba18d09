/**
 * The run_pw call behind a total energy, as tools that read a finished pw.x run need it: the
 * energy, the call, the input it ran, and the pw.x output the call registered (read from the
 * run directory, never from outside it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput } from '../dft/qe/output';
import type { PwOutput } from '../dft/qe/output/types';
import type { ArtifactRecord, ToolCallRecord } from '../provenance/types';
import { parseRef, type ProvenanceView } from '../provenance/view';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from '../artifacts/shapes';
import { inputRefOfRun } from './runPw';
import { service, type CatalogueContext } from './services';

export interface FinishedRun {
  view: ProvenanceView;
  energy: ArtifactRecord;
  meta: EnergyMeta;
  call: ToolCallRecord;
  inputRef: string;
  input: PwInputValue;
  output: PwOutput;
  outputArtifact: ArtifactRecord;
}

/** The pw.x run behind `energyRef` (a total_energy run_pw made), with its parsed output; throws a sentence a model can act on. */
export function finishedRunOf(ctx: CatalogueContext, energyRef: string, tool: string): FinishedRun {
  const view = service(ctx, 'provenance', tool, 'the guard passes the run provenance to every call');
  const energy = view.artifact(parseRef(energyRef)?.artifactId ?? '');
  const call = energy ? view.call(energy.creator) : undefined;
  if (!energy || energy.name !== ARTIFACT.totalEnergy || call?.tool !== 'run_pw' || !energy.meta?.settings) {
    throw new Error(`${tool}: ${energyRef} is not a total energy from a run_pw call; reference the total_energy run_pw returned.`);
  }
  const inputRef = inputRefOfRun(call);
  const input = inputRef ? (ctx.resolve(inputRef) as PwInputValue | undefined) : undefined;
  if (!inputRef || !input?.structure || !input.settings) {
    throw new Error(
      `${tool}: the run behind ${energyRef} was not given a make_pw_input input, so its structure is unknown; compute it from make_pw_input.`,
    );
  }
  const outputArtifact = call.outputs.map((id) => view.artifact(id)).find((a): a is ArtifactRecord => a?.name === ARTIFACT.pwOutput);
  const file = outputArtifact?.location ? path.resolve(ctx.runDir, outputArtifact.location) : undefined;
  if (!outputArtifact || !file || !file.startsWith(path.resolve(ctx.runDir) + path.sep) || !fs.existsSync(file)) {
    throw new Error(`${tool}: the pw.x output of ${call.id} is not in this run's files; run the calculation again with run_pw.`);
  }
  return {
    view,
    energy,
    meta: energy.meta as EnergyMeta,
    call,
    inputRef,
    input,
    output: parsePwOutput(fs.readFileSync(file, 'utf8')),
    outputArtifact,
  };
}

/** "Fe2O3": element counts in order of first appearance, 1 left out. */
export function formulaOf(symbols: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => (n === 1 ? el : `${el}${n}`)).join('');
}
