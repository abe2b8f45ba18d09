// The advisor reads pw.x's CRASH file beside a failed run's output (the job's directory, where
// the local and the cluster runner leave it): an output cut before pw.x's error, from a job no
// DREAMS process was watching, is pw.x stopping on its input, not an interrupted run to repeat.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diagnose } from '../../../../../src/core/agents/advice/adviceRules';
import { evidenceOfCall } from '../../../../../src/core/agents/advisor';
import { UNWATCHED_EXIT } from '../../../../../src/core/hpc/types';
import type { ArtifactRecord, ToolCallRecord } from '../../../../../src/core/provenance/types';
import type { ProvenanceView } from '../../../../../src/core/provenance/view';

const runs = path.resolve(__dirname, '../../../../fixtures/qe/runs');
const read = (f: string) => fs.readFileSync(path.join(runs, f), 'utf8');

/** A run directory with a failed run_pw call whose output (cut after 10 lines) is jobs/j-1/al.out. */
function failedRun(withCrash: boolean): { dir: string; view: ProvenanceView } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-advisor-crash-'));
  fs.mkdirSync(path.join(dir, 'jobs/j-1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'jobs/j-1/al.out'), read('al-missing-pseudo.out').split('\n').slice(0, 10).join('\n'));
  if (withCrash) fs.writeFileSync(path.join(dir, 'jobs/j-1/CRASH'), read('al-missing-pseudo.CRASH'));
  const input = {
    id: 'a-1',
    name: 'pw_input',
    kind: 'qe-input',
    value: { text: read('al-missing-pseudo.in') },
  } as unknown as ArtifactRecord;
  const output = { id: 'a-2', name: 'pw_output', kind: 'file', value: {}, location: 'jobs/j-1/al.out' } as unknown as ArtifactRecord;
  const call = {
    id: 'c-2',
    tool: 'run_pw',
    status: 'failed',
    args: { input: { value: 'a-1', ref: 'a-1' } },
    outputs: ['a-2'],
    error: `${UNWATCHED_EXIT} and its output has no "JOB DONE"`,
  } as unknown as ToolCallRecord;
  const artifacts = [input, output];
  const view = {
    call: (id: string) => (id === call.id ? call : undefined),
    artifact: (id: string) => artifacts.find((a) => a.id === id),
  } as unknown as ProvenanceView;
  return { dir, view };
}

describe("convergence advisor: pw.x's CRASH file beside the output", () => {
  it("takes pw.x's error from the CRASH file when the output was cut before it, and does not call the run interrupted", () => {
    const { dir, view } = failedRun(true);
    try {
      const ev = evidenceOfCall(view, 'c-2', dir, () => ({ state: 'failed' }));
      assert.equal(ev.output?.failure?.source, 'crash');
      assert.match(ev.errorText, /readpp[\s\S]*Al\.no-such-file\.UPF not found/);
      assert.notEqual(diagnose(ev).kind, 'killed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with no CRASH file, a cut output from an unwatched job is still an interrupted run', () => {
    const { dir, view } = failedRun(false);
    try {
      const ev = evidenceOfCall(view, 'c-2', dir, () => ({ state: 'failed' }));
      assert.equal(ev.output?.error, undefined);
      assert.equal(diagnose(ev).kind, 'killed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
