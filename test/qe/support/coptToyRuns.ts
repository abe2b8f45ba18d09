/**
 * The CO/Pt(111) studies at toy settings, with real pw.x and the pslibrary files of
 * test/fixtures/workflows/pseudo: a two-layer p(1×1) Pt(111) slab (1 ML CO, bottom layer
 * fixed), 5 Å of vacuum, a 4×4×1 k-mesh, the files' smallest suggested cutoffs (47/402 Ry),
 * a loose force threshold and C started near its equilibrium height at each site. About six
 * minutes on two cores; the p(2×2) cell of the production study took 28 (the qe tier has a
 * time budget). Each study starts on first use, once; each test file awaits its own run.
 *
 * The BEEF-vdW study is also the interrupted one: its ontop relaxation is killed (SIGKILL, as
 * a node failure or a walltime kill would end it) after three geometries and the study goes
 * on from the last one. Its relaxation inputs are byte-identical to the site-preference
 * study's, whose ontop relaxation, run whole, is the reference the continuation is compared
 * with (workflow-interrupted-relax). One study for both saves the qe tier a third study.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { RunController, type RunResult } from '../../../src/core/run/controller';
import type { ProvenanceWriter } from '../../../src/core/provenance/view';
import type { JobRecord } from '../../../src/core/hpc/types';
import type { ArtifactRecord, ToolCallRecord } from '../../../src/core/provenance/types';
import type { RunSettings } from '../../../src/core/run/session';
import type { Objective } from '../../../src/core/workflows/objective';

export const WORKFLOW_PSEUDO_DIR = path.resolve(__dirname, '../../fixtures/workflows/pseudo');

/** The toy study of examples/copt111-toy.yaml: the example users run is the one tested here. */
export const TOY_INPUTS = (
  YAML.parse(fs.readFileSync(path.resolve(__dirname, '../../../examples/copt111-toy.yaml'), 'utf8')) as { inputs: Record<string, unknown> }
).inputs;

export interface ToyRun {
  controller: RunController;
  result: RunResult;
  wallSeconds: number;
}

/** The relaxation killed in the BEEF-vdW study: its call, its job and its pw.x output file. */
export interface KilledRelaxation {
  call: string;
  job: string;
  output: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Geometries a relaxation output holds: the start and each one BFGS printed. */
export const geometries = (text: string) => (text.match(/^ATOMIC_POSITIONS/gm) ?? []).length + 1;
export const KILL_AFTER_GEOMETRIES = 3;

function settings(objective: Objective): RunSettings {
  return {
    objective,
    offline: true,
    backend: 'local',
    approval: 'auto-approve',
    pseudoDir: WORKFLOW_PSEUDO_DIR,
    pwCommand: 'pw.x',
    localConcurrency: 1,
    models: {},
    judges: false,
    budget: {},
    qeVersion: '6.7',
  };
}

async function start(name: string, objective: Objective, killStep?: string): Promise<ToyRun & { killed?: KilledRelaxation }> {
  const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-${name}-`));
  const t0 = Date.now();
  const controller = await RunController.start({ runsDir, settings: settings(objective) });
  let killed: KilledRelaxation | undefined;
  let stop = false;
  // Watch the relaxation's output; kill its pw.x once it holds KILL_AFTER_GEOMETRIES + 1 geometries.
  const watcher = (async () => {
    const log = controller.session.run.log;
    while (killStep && !stop && !killed) {
      await sleep(200);
      const events = log.events();
      const call = events.find((e) => e.kind === 'provenance.call' && (e.payload as ToolCallRecord).step === killStep)?.payload as
        | ToolCallRecord
        | undefined;
      if (!call) continue;
      const job = events.filter((e) => e.kind === 'job.transition' && (e.payload as JobRecord).call === call.id).at(-1)?.payload as
        | JobRecord
        | undefined;
      if (job?.state !== 'running' || job.pid === undefined || !job.workDir) continue;
      const out = path.join(job.workDir, 'pw.out');
      const text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
      if (geometries(text) < KILL_AFTER_GEOMETRIES + 1) continue;
      process.kill(-job.pid, 'SIGKILL');
      killed = { call: call.id, job: job.id, output: out };
    }
  })();
  const result = await controller.run();
  stop = true;
  await watcher;
  return { controller, result, wallSeconds: (Date.now() - t0) / 1000, killed };
}

const started: { sitePreference?: Promise<ToyRun>; beef?: Promise<ToyRun & { killed?: KilledRelaxation }> } = {};

/** Each study starts on first use, once; a test file that needs both gets both running side by side. */
export function toyRuns(): { readonly sitePreference: Promise<ToyRun>; readonly beef: Promise<ToyRun & { killed?: KilledRelaxation }> } {
  return {
    get sitePreference() {
      return (started.sitePreference ??= start('copt111', {
        text: 'CO/Pt(111) site preference with PBE at toy settings',
        workflow: 'adsorption-site-preference',
        inputs: TOY_INPUTS,
      }));
    },
    get beef() {
      return (started.beef ??= start(
        'beef111',
        {
          text: 'BEEF-vdW ensemble of the CO/Pt(111) site preference at toy settings, its ontop relaxation interrupted',
          workflow: 'beef-ensemble',
          inputs: { ...TOY_INPUTS, adsorptionEnergies: false },
        },
        'relax-ontop-run',
      ));
    },
  };
}

export type StudyProvenance = ProvenanceWriter & { calls(): readonly ToolCallRecord[] };

/** A finished study's provenance, and its final artifact of a name from a plan step. */
export function studyOf(run: ToyRun): { p: StudyProvenance; byStep(step: string, name: string): ArtifactRecord } {
  const p = run.controller.session.runtime.provenance as StudyProvenance;
  const byStep = (step: string, name: string): ArtifactRecord => {
    const a = p
      .artifacts()
      .filter((x) => x.name === name && x.status === 'final' && p.call(x.creator)?.step === step)
      .at(-1);
    assert.ok(a, `no final ${name} from step ${step}`);
    return a;
  };
  return { p, byStep };
}
