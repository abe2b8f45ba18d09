/**
 * The CO/Pt(111) studies of the qe tier at toy settings, with real pw.x and the pslibrary
 * files of test/fixtures/workflows/pseudo: a two-layer p(2×2) Pt(111) slab (bottom layer
 * fixed), 5 Å of vacuum, a 2×2×1 k-mesh, the files' smallest suggested cutoffs (47/402 Ry),
 * a loose force threshold and C started near its equilibrium height at each site. The site-preference study and the BEEF-vdW study (adsorbed
 * states only) start together on first use, one pw.x each, so the two test files share
 * the machine's two cores; each test file awaits its own run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { RunController, type RunResult } from '../../../src/core/agents/runController';
import type { ProvenanceWriter } from '../../../src/core/guard/ports';
import type { ArtifactRecord, ToolCallRecord } from '../../../src/core/provenance/types';
import type { RunSettings } from '../../../src/core/agents/runSession';
import type { Objective } from '../../../src/core/workflows/objective';

export const WORKFLOW_PSEUDO_DIR = path.resolve(__dirname, '../../fixtures/workflows/pseudo');

export const TOY_INPUTS = {
  metal: 'Pt', functional: 'PBE', latticeConstantAngstrom: 3.98, ecutwfcRy: 47, kMesh: [2, 2, 1],
  slab: { layers: 2, vacuumAngstrom: 5 }, moleculeBoxAngstrom: 8, forceThresholdEvPerAngstrom: 0.25,
  startingHeightsAngstrom: { ontop: 1.85, fcc: 1.3 },
};

export interface ToyRun {
  controller: RunController;
  result: RunResult;
  wallSeconds: number;
}

function settings(objective: Objective): RunSettings {
  return {
    objective, offline: true, backend: 'local', approval: 'auto-approve', pseudoDir: WORKFLOW_PSEUDO_DIR, pwCommand: 'pw.x',
    localConcurrency: 1, models: {}, judges: false, budget: {}, qeVersion: '6.7',
  };
}

async function start(name: string, objective: Objective): Promise<ToyRun> {
  const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-${name}-`));
  const t0 = Date.now();
  const controller = await RunController.start({ runsDir, settings: settings(objective) });
  const result = await controller.run();
  return { controller, result, wallSeconds: (Date.now() - t0) / 1000 };
}

const started: { sitePreference?: Promise<ToyRun>; beef?: Promise<ToyRun> } = {};

/** Each study starts on first use, once; a test file that needs both gets both running side by side. */
export function toyRuns(): { readonly sitePreference: Promise<ToyRun>; readonly beef: Promise<ToyRun> } {
  return {
    get sitePreference() {
      return (started.sitePreference ??= start('copt111', { text: 'CO/Pt(111) site preference with PBE at toy settings', workflow: 'adsorption-site-preference', inputs: TOY_INPUTS }));
    },
    get beef() {
      return (started.beef ??= start('beef111', { text: 'BEEF-vdW ensemble of the CO/Pt(111) site preference at toy settings', workflow: 'beef-ensemble', inputs: { ...TOY_INPUTS, adsorptionEnergies: false } }));
    },
  };
}

export type StudyProvenance = ProvenanceWriter & { calls(): readonly ToolCallRecord[] };

/** A finished study's provenance, and its final artifact of a name from a plan step. */
export function studyOf(run: ToyRun): { p: StudyProvenance; byStep(step: string, name: string): ArtifactRecord } {
  const p = run.controller.session.runtime.provenance as StudyProvenance;
  const byStep = (step: string, name: string): ArtifactRecord => {
    const a = p.artifacts().filter((x) => x.name === name && x.status === 'final' && p.call(x.creator)?.step === step).at(-1);
    assert.ok(a, `no final ${name} from step ${step}`);
    return a;
  };
  return { p, byStep };
}
