// bench/results/copt111-production.json is written by several invocations (PBE and LDA one
// night, the BEEF-vdW ensemble another): each may only replace what it measured.
import assert from 'node:assert/strict';
import { mergeProductionResults } from '../../../../scripts/science/copt111Summary';

const night1 = {
  date: '2026-11-30T19:01:25.646Z',
  command: 'npx tsx scripts/science/copt111Production.ts --functionals LDA,PBE',
  pseudoDir: '/pseudo/a',
  results: { LDA: { state: 'completed', deltaBeEv: 0.288 }, PBE: { state: 'completed', deltaBeEv: 0.072 } },
};
const now = {
  command: 'npx tsx scripts/science/copt111Production.ts --functionals none --beef',
  pseudoDir: '/pseudo/b',
  date: '2026-12-02T04:00:00.000Z',
};

describe('copt111 production results file', () => {
  it('adds a new study and keeps the earlier ones with the command, directory and date that measured them', () => {
    const merged = mergeProductionResults(night1, { BEEF: { state: 'completed', deltaBeEv: 0.05 } }, now);
    assert.deepEqual(Object.keys(merged.results).sort(), ['BEEF', 'LDA', 'PBE']);
    assert.deepEqual(merged.results.PBE, {
      command: night1.command,
      pseudoDir: '/pseudo/a',
      date: night1.date,
      state: 'completed',
      deltaBeEv: 0.072,
    });
    assert.deepEqual(merged.results.BEEF, { ...now, state: 'completed', deltaBeEv: 0.05 });
    assert.equal(merged.command, now.command);
  });

  it('a study measured again replaces its earlier entry', () => {
    const merged = mergeProductionResults(night1, { PBE: { state: 'completed', deltaBeEv: 0.08 } }, now);
    assert.equal((merged.results.PBE as { deltaBeEv: number }).deltaBeEv, 0.08);
    assert.equal((merged.results.PBE as { command: string }).command, now.command);
    assert.equal((merged.results.LDA as { deltaBeEv: number }).deltaBeEv, 0.288);
  });

  it('a study with no run this time (another --runs-dir, a typo) does not wipe out its measurement', () => {
    const merged = mergeProductionResults(night1, { PBE: { state: 'not started' }, BEEF: { state: 'not started' } }, now);
    assert.deepEqual(merged.results.PBE, {
      command: night1.command,
      pseudoDir: '/pseudo/a',
      date: night1.date,
      state: 'completed',
      deltaBeEv: 0.072,
    });
    // with nothing earlier to keep, the file says it was not started
    assert.deepEqual(merged.results.BEEF, { ...now, state: 'not started' });
  });

  it('a study carrying its own command keeps it over the file-level one of a later merge', () => {
    const twice = mergeProductionResults(
      mergeProductionResults(night1, { BEEF: { state: 'completed' } }, now),
      { LDA: { state: 'completed', deltaBeEv: 0.29 } },
      { ...now, command: 'third', date: '2026-12-03T00:00:00.000Z' },
    );
    assert.equal((twice.results.BEEF as { command: string }).command, now.command);
    assert.equal((twice.results.PBE as { command: string }).command, night1.command);
    assert.equal((twice.results.LDA as { command: string }).command, 'third');
  });
});
