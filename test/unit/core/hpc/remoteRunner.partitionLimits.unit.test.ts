// How the remote runner reads a partition's limits: once, from the scheduler, and never in
// the way of a submission when the scheduler cannot say (the cluster tier runs the real sinfo).
import assert from 'node:assert/strict';
import type { JobUpdates } from '../../../../src/core/hpc/backend';
import { RemoteRunner } from '../../../../src/core/hpc/remoteRunner';
import type { ClusterConnection } from '../../../../src/core/hpc/ssh/connection';
import type { ClusterProfile } from '../../../../src/core/hpc/types';

const profile = { name: 'hpc', scheduler: 'slurm', workRoot: '~/dreams', pwCommand: 'pw.x' } as unknown as ClusterProfile;

function runnerAnswering(answer: () => Promise<{ code: number; stdout: string; stderr: string }>) {
  const commands: string[] = [];
  const connection = { exec: async (c: string) => (commands.push(c), answer()) } as unknown as ClusterConnection;
  return { runner: new RemoteRunner({} as JobUpdates, { profile, connection }), commands };
}

describe('remote runner: partition limits', () => {
  it('reads sinfo once and finds a named partition or the default one', async () => {
    const { runner, commands } = runnerAnswering(async () => ({
      code: 0,
      stdout: 'batch*|2-00:00:00|1-16\nshort|30:00|1-2\n',
      stderr: '',
    }));
    assert.deepEqual(await runner.partition(undefined), { name: 'batch', isDefault: true, maxWalltimeMinutes: 2880, maxNodes: 16 });
    assert.deepEqual(await runner.partition('short'), { name: 'short', isDefault: false, maxWalltimeMinutes: 30, maxNodes: 2 });
    assert.equal(await runner.partition('gpu'), undefined);
    assert.equal(commands.length, 1);
  });

  it('a scheduler that cannot list them (exit status or output it cannot read) is not asked again, and nothing fails', async () => {
    for (const answer of [
      { code: 1, stdout: '', stderr: 'sinfo: command not found' },
      { code: 0, stdout: 'sinfo: error: Unable to contact slurm controller', stderr: '' },
    ]) {
      const { runner, commands } = runnerAnswering(async () => answer);
      assert.equal(await runner.partition(undefined), undefined);
      assert.equal(await runner.partition('short'), undefined);
      assert.equal(commands.length, 1, JSON.stringify(answer));
    }
  });

  it('a dropped link asks again next time', async () => {
    let calls = 0;
    const { runner } = runnerAnswering(async () => {
      if (calls++ === 0) throw new Error('connection lost');
      return { code: 0, stdout: 'debug*|infinite|1-infinite\n', stderr: '' };
    });
    assert.equal(await runner.partition(undefined), undefined);
    assert.deepEqual(await runner.partition(undefined), { name: 'debug', isDefault: true });
    assert.equal(calls, 2);
  });
});
