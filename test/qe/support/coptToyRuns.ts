/**
 * The CO/Pt(111) studies at toy settings, with real pw.x and the pslibrary files of
 * test/fixtures/workflows/pseudo: a two-layer p(1×1) Pt(111) slab (1 ML CO, bottom layer
 * fixed), 5 Å of vacuum, a 4×4×1 k-mesh, the files' smallest suggested cutoffs (47/402 Ry),
 * a loose force threshold and C started near its equilibrium height at each site. About six
 * minutes on two cores; the p(2×2) cell of the production study took 28 (the qe tier has a
 * time budget). Each study starts on first use, once; each test file awaits its own run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { RunController, type RunResult } from '../../../src/core/agents/runController';
import type { ProvenanceWriter } from '../../../src/core/guard/ports';
import type { ArtifactRecord, ToolCallRecord } from '../../../src/core/provenance/types';
import type { RunSettings } from '../../../src/core/agents/runSession';
import type { Objective } from '../../../src/core/workflows/objective';

export const WORKFLOW_PSEUDO_DIR = path.resolve(__dirname, '../../fixtures/workflows/pseudo');

/** The toy study of examples/copt111-toy.yaml: the example users run is the one tested here. */
export const TOY_INPUTS = (YAML.parse(fs.readFileSync(path.resolve(__dirname, '../../../examples/copt111-toy.yaml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs;

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
