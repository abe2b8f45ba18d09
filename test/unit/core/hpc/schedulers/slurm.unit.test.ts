import assert from 'node:assert/strict';
import { SchedulerOutputError } from '../../../../../src/core/hpc/schedulers/common';
import { formatWalltime, slurmDurationMinutes, SlurmAdapter } from '../../../../../src/core/hpc/schedulers/slurm';
import type { ClusterProfile, JobRecord } from '../../../../../src/core/hpc/types';

const slurm = new SlurmAdapter();
const profile: ClusterProfile = {
  name: 'c',
  sshHost: 'c',
  scheduler: 'slurm',
  workRoot: '~/w',
  pwCommand: 'srun pw.x',
  partition: 'standard',
  prelude: ['module load qe/6.7'],
};
const job: JobRecord = {
  id: 'job-20260101000000-abcd1234',
  backend: 'c',
  state: 'validated',
  program: 'pw.x',
  input: "it's $(x).in",
  files: [],
  pseudopotentials: [{ name: 'Al.UPF' }],
  outputs: [],
  createdAt: '',
  updatedAt: '',
  resources: { ntasks: 4, nodes: 1, walltimeMinutes: 90, memoryMb: 1800, reason: 'test' },
};

describe('SLURM adapter', () => {
  it('writes a batch script that names the job by its stable id and quotes the input', () => {
    const s = slurm.batchScript(job, { ...profile, batchOptions: ['--constraint=haswell'] });
    for (const line of [
      '#SBATCH --job-name=job-20260101000000-abcd1234',
      '#SBATCH --comment=job-20260101000000-abcd1234',
      '#SBATCH --ntasks=4',
      '#SBATCH --nodes=1',
      '#SBATCH --time=01:30:00',
      '#SBATCH --mem=1800M',
      '#SBATCH --partition=standard',
      '#SBATCH --constraint=haswell',
      'module load qe/6.7',
      'export ESPRESSO_PSEUDO="$SLURM_SUBMIT_DIR/pseudo"',
    ]) {
      assert.ok(s.split('\n').includes(line), `missing line: ${line}\n${s}`);
    }
    assert.match(s, /^srun pw\.x -in 'it'\\''s \$\(x\)\.in' > 'it'\\''s \$\(x\)\.out' 2> 'it'\\''s \$\(x\)\.err'$/m);
  });

  it('refuses directive values that could break out of their line', () => {
    assert.throws(() => slurm.batchScript(job, { ...profile, partition: 'a\n#SBATCH --x' }), /cannot go into a batch-script directive/);
    assert.throws(() => slurm.batchScript(job, { ...profile, batchOptions: ['--begin=now --x'] }), /not a single --name/);
    assert.throws(() => slurm.batchScript({ ...job, resources: undefined }, profile), /has no resources/);
  });

  it('tells a pending job SLURM will never start as submitted from one that only has to wait', () => {
    const st = slurm.parseStatus(
      [
        '30|PENDING|PartitionTimeLimit',
        '31|PENDING|QOSMaxWallDurationPerJobLimit',
        '32|PENDING|AssocMaxNodePerJobLimit',
        '33|PENDING|InvalidAccount',
        '40|PENDING|Priority',
        '41|PENDING|QOSMaxJobsPerUserLimit',
        '42|PENDING|ReqNodeNotAvail, UnavailableNodes:n1',
        '43|PENDING|Dependency',
        '44|PENDING|AssocGrpCpuLimit',
      ].join('\n'),
    );
    assert.match(st.get('30')!.neverStarts!, /^PartitionTimeLimit: its walltime is above the partition's time limit: ask for less time/);
    assert.match(
      st.get('31')!.neverStarts!,
      /^QOSMaxWallDurationPerJobLimit: the job asks for more than the QOS allows one job \(walltime\)/,
    );
    assert.match(st.get('32')!.neverStarts!, /association allows one job \(nodes\)/);
    assert.match(st.get('33')!.neverStarts!, /fix the profile's account/);
    for (const id of ['40', '41', '42', '43', '44'])
      assert.equal(st.get(id)!.neverStarts, undefined, `job ${id} (${st.get(id)!.reason}) only has to wait`);
    for (const id of ['30', '40']) assert.equal(st.get(id)!.state, 'queued');
  });

  it('reads sbatch --parsable, squeue and sacct output', () => {
    assert.equal(slurm.parseSubmitOutput('1234\n'), '1234');
    assert.equal(slurm.parseSubmitOutput('1234;cluster\n'), '1234');
    assert.throws(() => slurm.parseSubmitOutput('sbatch: error: invalid partition'), SchedulerOutputError);
    const st = slurm.parseStatus(
      '10|PENDING|Resources\n11|RUNNING|None\n12|COMPLETED|None\n13|TIMEOUT|TimeLimit\nslurm_load_jobs error: Invalid job id specified\n',
    );
    assert.deepEqual([...st.keys()], ['10', '11', '12', '13']);
    assert.equal(st.get('10')!.state, 'queued');
    assert.equal(st.get('10')!.reason, 'PENDING: Resources');
    assert.equal(st.get('11')!.state, 'running');
    assert.equal(st.get('12')!.state, 'completed');
    assert.match(st.get('13')!.reason!, /walltime/);
    assert.equal(st.get('10')!.neverStarts, undefined, 'waiting for resources is waiting');
    assert.equal(slurm.parseStatus('slurm_load_jobs error: Invalid job id specified\n').size, 0);
    assert.throws(
      () => slurm.parseStatus('slurm_load_jobs error: Unable to contact slurm controller'),
      /could not read the output of squeue/,
    );
    const fin = slurm.parseFinished('20|COMPLETED|0:0\n20.batch|COMPLETED|0:0\n21|FAILED|3:0\n22|CANCELLED by 1000|0:15\n');
    assert.deepEqual(
      [...fin.entries()].map(([k, v]) => [k, v.state, v.exitCode]),
      [
        ['20', 'completed', 0],
        ['21', 'failed', 3],
        ['22', 'cancelled', 0],
      ],
    );
  });

  it('builds one status command for all jobs, and falls back to sacct -c without accounting', () => {
    assert.equal(slurm.statusCommand(['1', '2', '3']), "squeue -h --states=all -o '%i|%T|%r' -j 1,2,3 2>&1");
    assert.match(slurm.finishedCommand(['4']), /^sacct .* -j 4 2>\/dev\/null \|\| sacct -c .* -j 4$/);
    assert.throws(() => slurm.statusCommand(['1; rm -rf ~']), /not a SLURM job id/);
    assert.equal(slurm.findByNameCommand("x'y"), `squeue -h --states=all -n 'x'\\''y' -o '%i'`);
    assert.equal(slurm.parseFindByName('7\n12\n'), '12');
    assert.equal(slurm.parseFindByName(''), undefined);
  });

  it("reads the partitions' per-job limits from sinfo, and SLURM durations in every form", () => {
    const slurm = new SlurmAdapter();
    assert.equal(slurm.partitionsCommand(), "sinfo -h -o '%P|%l|%s'");
    const parts = slurm.parsePartitions(
      'debug*|infinite|1-infinite\nshort|5:00|1-infinite\nlong|2-00:00:00|1-4\nlong|2-00:00:00|1-4\ngpu|12:00:00|1-2\n',
    );
    assert.deepEqual(parts, [
      { name: 'debug', isDefault: true },
      { name: 'short', isDefault: false, maxWalltimeMinutes: 5 },
      { name: 'long', isDefault: false, maxWalltimeMinutes: 2880, maxNodes: 4 },
      { name: 'gpu', isDefault: false, maxWalltimeMinutes: 720, maxNodes: 2 },
    ]);
    assert.throws(() => slurm.parsePartitions('sinfo: error: Unable to contact slurm controller'), /could not read the output of sinfo/);
    assert.deepEqual(['infinite', 'UNLIMITED', '45', '30:00', '2:30:00', '1-00:00:00', '1-12', '1-06:30'].map(slurmDurationMinutes), [
      undefined,
      undefined,
      45,
      30,
      150,
      1440,
      2160,
      1830,
    ]);
    assert.throws(() => slurmDurationMinutes('soon'), /not a SLURM time limit/);
  });

  it('formats walltimes as SLURM expects', () => {
    assert.equal(formatWalltime(10), '00:10:00');
    assert.equal(formatWalltime(1441), '1-00:01:00');
    assert.throws(() => formatWalltime(0), /positive/);
  });
});
