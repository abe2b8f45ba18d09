import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunSettings } from '../../../../../src/core/run/session';
import type { ProvenanceView } from '../../../../../src/core/provenance/view';
import type { ArtifactRecord, ToolCallRecord } from '../../../../../src/core/provenance/types';

export const freshDir = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** An offline run of the adsorption-search workflow with EMT (no pw.x, no model). */
export function emtSearchSettings(inputs: Record<string, unknown>, over: Partial<RunSettings> = {}): RunSettings {
  return {
    objective: {
      text: `adsorption search (${JSON.stringify(inputs.adsorbate)})`,
      workflow: 'adsorption-search',
      inputs: { calculator: { kind: 'emt' }, ...inputs },
    },
    offline: true,
    backend: 'local',
    approval: 'continue',
    pseudoDir: '',
    pwCommand: 'pw.x',
    localConcurrency: 1,
    models: {},
    judges: false,
    budget: {},
    ...over,
  };
}

export const byName = (view: { artifacts(): readonly ArtifactRecord[] }, name: string): ArtifactRecord[] =>
  view.artifacts().filter((a) => a.name === name);

export const callsOf = (view: { calls(): readonly ToolCallRecord[] }, tool: string): ToolCallRecord[] =>
  view.calls().filter((c) => c.tool === tool);

/** The creator call of an artifact, which must exist. */
export function creatorOf(view: ProvenanceView, id: string): ToolCallRecord {
  const a = view.artifact(id);
  if (!a) throw new Error(`no artifact ${id}`);
  const c = view.call(a.creator);
  if (!c) throw new Error(`no call ${a.creator}`);
  return c;
}
