// The pw.x version a backend runs in a session, which run_pw's reuse compares with an earlier
// result's: the local one by probing (once, only when asked), a cluster's from the banner of a
// job that ran there since the session opened. (The probe on the real pw.x: test/qe/hpc-pw-version.qe.test.ts.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pwVersionsOfSession } from '../../../../src/core/run/pwVersions';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import type { JobRecord } from '../../../../src/core/hpc/types';

const OPENED = '2026-12-02T10:00:00.000Z';
const banner = (v: string) =>
  `\n     Program PWSCF v.${v} starts on  2Dec2026 at 10: 1: 0 \n\n     This program is part of the open-source Quantum ESPRESSO suite\n`;

function jobsIn(dir: string, jobs: Array<Partial<JobRecord> & { id: string; output?: string }>) {
  const records = jobs.map(({ output, ...j }) => {
    fs.mkdirSync(path.join(dir, j.id), { recursive: true });
    if (output !== undefined) fs.writeFileSync(path.join(dir, j.id, 'pw.out'), output);
    return {
      backend: 'hpc',
      state: 'completed',
      program: 'pw.x',
      input: 'pw.in',
      files: [],
      pseudopotentials: [],
      outputs: [],
      createdAt: OPENED,
      updatedAt: OPENED,
      ...j,
    } as JobRecord;
  });
  return { list: () => records, jobDir: (id: string) => path.join(dir, id) };
}

describe('pwVersionsOfSession', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pwversions-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('probes the local pw.x once, and only when asked', async () => {
    const probed: string[] = [];
    const of = pwVersionsOfSession('mpirun -np 2 pw.x', jobsIn(dir, []), OPENED, async (c) => (probed.push(c), '6.7MaX'));
    assert.deepEqual(probed, []);
    assert.equal(await of('local'), '6.7MaX');
    assert.equal(await of('local'), '6.7MaX');
    assert.deepEqual(probed, ['mpirun -np 2 pw.x']);
  });

  it("reads a cluster's version off the newest job that ran there since the session opened", async () => {
    const jobs = jobsIn(dir, [
      { id: 'before', startedAt: '2026-12-01T09:00:00.000Z', endedAt: '2026-12-01T09:10:00.000Z', output: banner('6.5') },
      { id: 'failed', state: 'failed', startedAt: '2026-12-02T10:01:00.000Z', endedAt: '2026-12-02T10:30:00.000Z', output: banner('7.0') },
      {
        id: 'elsewhere',
        backend: 'other',
        startedAt: '2026-12-02T10:01:00.000Z',
        endedAt: '2026-12-02T10:40:00.000Z',
        output: banner('7.1'),
      },
      { id: 'older', startedAt: '2026-12-02T10:02:00.000Z', endedAt: '2026-12-02T10:05:00.000Z', output: banner('7.2') },
      {
        id: 'newer',
        submittedAt: '2026-12-02T10:03:00.000Z',
        endedAt: '2026-12-02T10:09:00.000Z',
        output: `${banner('7.3')}${'x'.repeat(100_000)}`,
      },
    ]);
    const of = pwVersionsOfSession('pw.x', jobs, OPENED, async () => assert.fail('no local probe for a cluster'));
    assert.equal(await of('hpc'), '7.3');
    assert.equal(await of('other'), '7.1');
  });

  it('does not know a cluster version before a job has run there in this session, nor from an output without a banner', async () => {
    const none = pwVersionsOfSession(
      'pw.x',
      jobsIn(dir, [{ id: 'before', startedAt: '2026-12-01T09:00:00.000Z', output: banner('6.5') }]),
      OPENED,
    );
    assert.equal(await none('hpc'), undefined);
    const bare = pwVersionsOfSession(
      'pw.x',
      jobsIn(dir, [
        { id: 'older', startedAt: '2026-12-02T10:02:00.000Z', endedAt: '2026-12-02T10:05:00.000Z', output: banner('7.2') },
        { id: 'no-banner', startedAt: '2026-12-02T10:06:00.000Z', endedAt: '2026-12-02T10:07:00.000Z', output: 'not pw.x output\n' },
        { id: 'no-output', startedAt: '2026-12-02T10:08:00.000Z', endedAt: '2026-12-02T10:09:00.000Z' },
      ]),
      OPENED,
    );
    assert.equal(await bare('hpc'), '7.2', 'the newest job with a banner');
  });

  it('reads a version the way the output parser records it on energies, so the two compare (6.4.1, not 6.4)', async () => {
    for (const v of ['6.4.1', '6.7MaX', '7.2']) {
      const of = pwVersionsOfSession(
        'pw.x',
        jobsIn(fs.mkdtempSync(path.join(dir, 'v')), [{ id: 'j', startedAt: '2026-12-02T10:02:00.000Z', output: banner(v) }]),
        OPENED,
      );
      assert.equal(await of('hpc'), v);
      assert.equal(parsePwOutput(banner(v)).codeVersion, v);
    }
  });
});
