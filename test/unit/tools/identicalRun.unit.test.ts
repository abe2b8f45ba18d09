// Which earlier run_pw result a new call may reuse instead of running pw.x again: the same
// input text, the same pseudopotential files by content, a completed call whose energy is
// still final, and the original run rather than an earlier reuse of it. (The reuse itself,
// on the real pw.x and job service: test/qe/guardedTools.qe.test.ts.)
import assert from 'node:assert/strict';
import { identicalEarlierRun } from '../../../src/core/agents/tools/runPw';
import { MemoryProvenance } from '../guard/support/memoryProvenance';

const TEXT = "&CONTROL\n  calculation = 'scf'\n/\n";
const SHA = { 'Al.pz-vbc.UPF': 'aa11' };

async function study(p: MemoryProvenance, text: string, meta: Record<string, unknown> = { pseudopotentialSha256: SHA, job: 'j-1' }) {
  const [input] = await p.seedCall('make_pw_input', {}, [{ kind: 'table', name: 'pw_input', value: { text } }]);
  const made = await p.seedCall('run_pw', { input: input!.id, backend: 'local' }, [
    { kind: 'file', name: 'pw_output', file: { name: 'pw.out', bytes: 'JOB DONE' } },
    { kind: 'scalar', name: 'total_energy', value: -57.1, unit: 'eV', meta },
  ]);
  return { input: input!, output: made[0]!, energy: made[1]! };
}

describe('identicalEarlierRun', () => {
  it('finds the completed run of the same input text and pseudopotential files', async () => {
    const p = new MemoryProvenance();
    const first = await study(p, TEXT);
    const found = identicalEarlierRun(p, TEXT, { ...SHA });
    assert.equal(found?.energy.id, first.energy.id);
    assert.equal(found?.output.id, first.output.id);
    assert.deepEqual(found?.artifacts.map((a) => a.name), ['pw_output', 'total_energy']);
  });

  it('does not reuse another input, other pseudopotential files, or a run without their hashes', async () => {
    const p = new MemoryProvenance();
    await study(p, TEXT);
    assert.equal(identicalEarlierRun(p, TEXT.replace('scf', 'relax'), SHA), undefined, 'other text');
    assert.equal(identicalEarlierRun(p, `${TEXT}\n`, SHA), undefined, 'byte-identical only');
    assert.equal(identicalEarlierRun(p, TEXT, { 'Al.pz-vbc.UPF': 'bb22' }), undefined, 'the file changed');
    assert.equal(identicalEarlierRun(p, TEXT, { ...SHA, 'O.pz.UPF': 'cc33' }), undefined, 'another file');
    const old = new MemoryProvenance();
    await study(old, TEXT, { job: 'j-0' });
    assert.equal(identicalEarlierRun(old, TEXT, SHA), undefined, 'recorded before pseudopotential hashes were: not known to match');
  });

  it('does not reuse a stale or provisional energy', async () => {
    const p = new MemoryProvenance();
    const first = await study(p, TEXT);
    await p.markStatus([first.energy.id], 'stale', 'upstream setting changed');
    assert.equal(identicalEarlierRun(p, TEXT, SHA), undefined);
    await p.markStatus([first.energy.id], 'provisional', 'SCF not converged');
    assert.equal(identicalEarlierRun(p, TEXT, SHA), undefined);
  });

  it('points at the original run, never at a reuse of it', async () => {
    const p = new MemoryProvenance();
    await study(p, TEXT, { pseudopotentialSha256: SHA, job: 'j-1', reusedFrom: { call: 'c-9', job: 'j-9' } });
    assert.equal(identicalEarlierRun(p, TEXT, SHA), undefined);
    const original = await study(p, TEXT);
    assert.equal(identicalEarlierRun(p, TEXT, SHA)?.energy.id, original.energy.id);
  });

  it('ignores energies that were not made by run_pw', async () => {
    const p = new MemoryProvenance();
    const [input] = await p.seedCall('make_pw_input', {}, [{ kind: 'table', name: 'pw_input', value: { text: TEXT } }]);
    await p.seedCall('adsorption_energy', { input: input!.id }, [{ kind: 'scalar', name: 'total_energy', value: -1, unit: 'eV', meta: { pseudopotentialSha256: SHA } }]);
    assert.equal(identicalEarlierRun(p, TEXT, SHA), undefined);
  });
});
