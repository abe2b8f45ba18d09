import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';
import { relaxationOutputOf, trajectoryOf } from '../../../../src/extension/notebook/structureTrajectory';

const ROOT = path.resolve(__dirname, '../../../..');

let seq = 0;
const artifact = (a: Partial<ArtifactRecord> & Pick<ArtifactRecord, 'id' | 'name' | 'creator'>): CanvasEvent =>
  ({
    v: 1,
    seq: ++seq,
    ts: '',
    actor: { kind: 'tool', id: 't' },
    kind: 'provenance.artifact',
    payload: { kind: 'structure', status: 'final', inputs: [], hash: '', ...a },
  }) as unknown as CanvasEvent;

/** make_pw_input → run_pw (pw_output + total_energy) → relaxed_structure, as a relaxation is recorded. */
function relaxationRun(): CanvasEvent[] {
  return [
    artifact({ id: 'a-1', name: 'pw_input', creator: 'c-1' }),
    artifact({ id: 'a-2', name: 'pw_output', creator: 'c-2', inputs: ['a-1'], location: 'files/abc/relax.out' }),
    artifact({ id: 'a-3', name: 'total_energy', creator: 'c-2', inputs: ['a-1'] }),
    artifact({ id: 'a-4', name: 'relaxed_structure', creator: 'c-3', inputs: ['a-3'] }),
    artifact({ id: 'a-5', name: 'bulk_structure', creator: 'c-4' }),
  ];
}

describe('the relaxation behind a structure in the notebook', () => {
  it('finds the pw.x output of the run whose energy the relaxed structure was made from', () => {
    assert.equal(relaxationOutputOf(relaxationRun(), 'a-4'), 'files/abc/relax.out');
    assert.equal(relaxationOutputOf(relaxationRun(), 'a-5'), undefined);
  });

  it('reads that output step by step, and says why when there is nothing to play', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-traj-'));
    try {
      fs.mkdirSync(path.join(dir, 'files/abc'), { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'test/fixtures/qe/runs/si-relax.out'), path.join(dir, 'files/abc/relax.out'));
      const t = trajectoryOf(relaxationRun(), dir, 'a-4');
      assert.ok('frames' in t && t.frames.length > 1, JSON.stringify(t).slice(0, 200));
      const none = trajectoryOf(relaxationRun(), dir, 'a-5');
      assert.ok('error' in none && /does not come from a pw\.x relaxation/.test(none.error));
      fs.rmSync(path.join(dir, 'files/abc/relax.out'));
      const gone = trajectoryOf(relaxationRun(), dir, 'a-4');
      assert.ok('error' in gone && /cannot be read/.test(gone.error));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
