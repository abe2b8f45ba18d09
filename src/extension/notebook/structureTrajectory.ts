/**
 * The relaxation behind a structure artifact, for the notebook's 3-D view: walk upstream from
 * the structure (a relaxed_structure or restart_structure made from a relaxation's energy) to
 * the pw.x output its run_pw call stored, and read that output's geometries step by step.
 * Pure over the run's events and directory; no VS Code.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../core/canvas/types';
import { readPwxTrajectory } from '../../core/dft/io/trajectory';
import type { ArtifactRecord } from '../../core/provenance/types';
import type { StructureFrameData } from '../../shared/canvasOutputs';

const idOf = (ref: string) => ref.split('.')[0]!;

/** The run-relative location of the pw.x output behind a structure, or undefined. */
export function relaxationOutputOf(events: readonly CanvasEvent[], artifactId: string): string | undefined {
  const artifacts = new Map<string, ArtifactRecord>();
  for (const e of events) if (e.kind === 'provenance.artifact') artifacts.set(e.payload.id, e.payload);
  const start = artifacts.get(artifactId);
  if (!start) return undefined;
  // Breadth first, a few links up: structure → energy (run_pw) → that call's pw_output.
  let frontier = [start];
  const seen = new Set<string>([start.id]);
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const next: ArtifactRecord[] = [];
    for (const a of frontier) {
      for (const ref of a.inputs ?? []) {
        const input = artifacts.get(idOf(ref));
        if (!input || seen.has(input.id)) continue;
        seen.add(input.id);
        const output = [...artifacts.values()].find((x) => x.creator === input.creator && x.name === 'pw_output' && x.location);
        if (output) return output.location;
        next.push(input);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** The geometries of the relaxation behind a structure artifact, or why there are none. */
export function trajectoryOf(
  events: readonly CanvasEvent[],
  runDir: string,
  artifactId: string,
): { frames: StructureFrameData[] } | { error: string } {
  const location = relaxationOutputOf(events, artifactId);
  if (!location) return { error: `${artifactId} does not come from a pw.x relaxation recorded in this run.` };
  const file = path.resolve(runDir, location);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { error: `the pw.x output ${location} of ${artifactId} cannot be read (${(e as Error).message}).` };
  }
  const t = readPwxTrajectory(text);
  if (!t.frames.length) return { error: `the pw.x output ${location} holds no complete geometry.` };
  return { frames: t.frames };
}
