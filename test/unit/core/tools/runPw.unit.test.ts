// Which earlier run_pw result a new call may reuse instead of running pw.x again: the same
// input text, the same pseudopotential files by content, a completed call whose energy is
// still final, and the original run rather than an earlier reuse of it. (The reuse itself,
// on the real pw.x and job service: test/qe/guardedTools.qe.test.ts.)
import assert from 'node:assert/strict';
import { identicalEarlierRun, identicalEarlierRunOfVersion } from '../../../../src/core/tools/runPw';
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
    assert.deepEqual(
      found?.artifacts.map((a) => a.name),
      ['pw_output', 'total_energy'],
    );
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
    await p.seedCall('adsorption_energy', { input: input!.id }, [
      { kind: 'scalar', name: 'total_energy', value: -1, unit: 'eV', meta: { pseudopotentialSha256: SHA } },
    ]);
    assert.equal(identicalEarlierRun(p, TEXT, SHA), undefined);
  });

  it('with a pw.x version, takes only a result of that version', async () => {
    const p = new MemoryProvenance();
    const old = await study(p, TEXT, { pseudopotentialSha256: SHA, job: 'j-1', settings: { codeVersion: '6.5' } });
    assert.equal(identicalEarlierRun(p, TEXT, SHA)?.energy.id, old.energy.id, 'without a version: by input and files');
    assert.equal(identicalEarlierRun(p, TEXT, SHA, '6.7MaX'), undefined, 'another pw.x');
    const now = await study(p, TEXT, { pseudopotentialSha256: SHA, job: 'j-2', settings: { codeVersion: '6.7MaX' } });
    assert.equal(identicalEarlierRun(p, TEXT, SHA, '6.7MaX')?.energy.id, now.energy.id, 'the later run of the same pw.x');
    assert.equal(identicalEarlierRun(p, TEXT, SHA, '6.5')?.energy.id, old.energy.id);
  });
});

describe('identicalEarlierRunOfVersion', () => {
  const asked = () => {
    const calls: string[] = [];
    return {
      calls,
      version: (v: string | undefined) => async () => {
        calls.push('probe');
        return v;
      },
    };
  };

  it('runs pw.x again for a result of another pw.x version, and says why', async () => {
    const p = new MemoryProvenance();
    const old = await study(p, TEXT, { pseudopotentialSha256: SHA, job: 'j-1', settings: { codeVersion: '6.5' } });
    const said: string[] = [];
    const probe = asked();
    assert.equal(await identicalEarlierRunOfVersion(p, TEXT, SHA, probe.version('6.7MaX'), (m) => said.push(m)), undefined);
    assert.equal(said.length, 1);
    assert.match(
      said[0]!,
      new RegExp(
        `identical input already run by ${old.energy.creator} in this run, but with pw\\.x 6\\.5; this backend runs pw\\.x 6\\.7MaX, so pw\\.x runs again`,
      ),
    );
  });

  it('reuses a result of the same version, or any when the version now cannot be told', async () => {
    const p = new MemoryProvenance();
    const first = await study(p, TEXT, { pseudopotentialSha256: SHA, job: 'j-1', settings: { codeVersion: '6.7MaX' } });
    const said: string[] = [];
    assert.equal(
      (await identicalEarlierRunOfVersion(p, TEXT, SHA, asked().version('6.7MaX'), (m) => said.push(m)))?.energy.id,
      first.energy.id,
    );
    assert.equal(
      (await identicalEarlierRunOfVersion(p, TEXT, SHA, asked().version(undefined), (m) => said.push(m)))?.energy.id,
      first.energy.id,
    );
    assert.deepEqual(said, []);
  });

  it('does not reuse a result whose version was not recorded once the version now is known', async () => {
    const p = new MemoryProvenance();
    await study(p, TEXT);
    const said: string[] = [];
    assert.equal(await identicalEarlierRunOfVersion(p, TEXT, SHA, asked().version('6.7MaX'), (m) => said.push(m), 'run r-1'), undefined);
    assert.match(said[0] ?? '', /in run r-1, but with a pw\.x of unrecorded version/);
  });

  it('asks for the version only when there is a result to reuse', async () => {
    const p = new MemoryProvenance();
    const probe = asked();
    assert.equal(await identicalEarlierRunOfVersion(p, TEXT, SHA, probe.version('6.7MaX')), undefined);
    assert.deepEqual(probe.calls, []);
  });
});
