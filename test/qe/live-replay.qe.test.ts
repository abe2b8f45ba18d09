// Studies a real model drove (answers written by hand in each role, from the request alone: see
// test/fixtures/live/), replayed through the real SDK against the fake Messages API with real pw.x.
// Each must follow its live run request for request (matched by role, thread and turn, so prompt
// changes are tolerated, flow changes are not) and end as it ended live. The site-preference study
// takes the pw.x results of the qe tier's own offline toy study (byte-identical inputs), so its
// replay costs seconds; the lattice constant runs its ~20 SCFs of fcc Al (about a minute), NaCl from
// its CIF its 13 two-atom SCFs (about 40 s). The band structure of Si (ultrasoft sweeps and a
// 224-point bands run: minutes) is replayed by bench:live only, as is the relaxation of the atoms of
// an 8-atom Si POSCAR (no symmetry: 63 k-points a run, seven sweep SCFs and a 12-step relax, about an
// hour of pw.x live; `npm run bench:live -- si8-relax-pbe --reuse-from <its live run>` takes seconds).
// The lattice constant of diamond Si with LDA follows the same template as fcc Al's (its 13 two-atom
// SCFs replay in about 80 s on a loaded machine): bench only, to keep the tier's time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTranscript, recordedSessions } from '../fixtures/live/replay';
import { replayStudy } from '../fixtures/live/replayRun';
import { toyRuns } from './support/coptToyRuns';

describe('recorded real-model studies, replayed (fake API, real pw.x)', function () {
  this.timeout(3_600_000);

  const benchOnly = new Set(['si-bands-pbe', 'si8-relax-pbe', 'si-lda-lattice']);
  for (const session of recordedSessions().filter((s) => !benchOnly.has(s))) {
    it(`${session}: follows the live run request for request and ends as it did`, async () => {
      const t = loadTranscript(session);
      const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-live-${session}-`));
      const reuseFrom =
        t.options.pseudoDir === 'workflows-fixture' && /copt111-toy/.test(t.objective)
          ? [(await toyRuns().sitePreference).controller.runDir]
          : undefined;
      const r = await replayStudy(t, { runsDir, judges: true, ...(reuseFrom ? { reuseFrom } : {}) });
      try {
        assert.deepEqual(r.report.unmatched, [], 'every request the replay made was made live');
        assert.deepEqual(
          r.report.unused().map((e) => e.key),
          [],
          'every recorded answer was asked for',
        );
        assert.equal(r.result.state, t.outcome.state, r.result.reason);
        assert.equal(r.reportAccepted, t.outcome.reportAccepted);
      } finally {
        await r.controller.close();
        await r.api.stop();
      }
    });
  }
});
