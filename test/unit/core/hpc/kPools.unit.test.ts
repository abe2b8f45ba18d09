import assert from 'node:assert/strict';
import os from 'node:os';
import { autoLocalJobs, kPoolsFor, kSetsAtLeast, mpiProcesses, withKPools } from '../../../../src/core/hpc/kPools';

describe('k-point pools for local jobs', () => {
  it('reads the process count an MPI launcher is given', () => {
    assert.equal(mpiProcesses(['mpirun', '-np', '4', 'pw.x']), 4);
    assert.equal(mpiProcesses(['/usr/bin/mpiexec', '-n', '2', 'pw.x']), 2);
    assert.equal(mpiProcesses(['pw.x']), undefined);
    assert.equal(mpiProcesses(['mpirun', 'pw.x']), undefined);
  });

  it('splits the processes into as many pools as the k-point sets allow, dividing the process count', () => {
    assert.equal(kPoolsFor(['mpirun', '-np', '2', 'pw.x'], 27), 2);
    assert.equal(kPoolsFor(['mpirun', '-np', '6', 'pw.x'], 4), 3, 'the largest divisor of 6 not above 4');
    assert.equal(kPoolsFor(['mpirun', '-np', '4', 'pw.x'], 1), undefined, 'Γ only: one pool');
    assert.equal(kPoolsFor(['pw.x'], 100), undefined, 'serial: nothing to split');
    assert.equal(kPoolsFor(['mpirun', '-np', '4', 'pw.x', '-nk', '1'], 100), undefined, "the user's own -nk is kept");
    assert.deepEqual(withKPools(['mpirun', '-np', '2', 'pw.x'], 10), ['mpirun', '-np', '2', 'pw.x', '-nk', '2']);
  });

  it('counts k-point sets conservatively from the mesh (never more pools than pw.x finds k-points)', () => {
    // fcc 2×2×2 has 3 irreducible points: 8/48 rounds up to 1
    assert.equal(kSetsAtLeast(8, 1), 1);
    assert.equal(kSetsAtLeast(11 ** 3, 1), 28);
    assert.equal(kSetsAtLeast(11 ** 3, 2), 56, 'spin-polarized runs have two sets per k-point');
  });

  it('auto is one job per core the process may use', () => {
    assert.equal(autoLocalJobs(), os.availableParallelism());
  });
});
