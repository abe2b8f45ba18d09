import assert from 'node:assert/strict';
import { parsePwCommand } from '../../../../src/core/hpc/pwCommand';

describe('parsePwCommand', () => {
  it('splits a launcher command into argv', () => {
    assert.deepEqual(parsePwCommand('pw.x'), ['pw.x']);
    assert.deepEqual(parsePwCommand('mpirun -np 2 pw.x'), ['mpirun', '-np', '2', 'pw.x']);
    assert.deepEqual(parsePwCommand(`"/opt/q e/bin/pw.x" -nk '2'`), ['/opt/q e/bin/pw.x', '-nk', '2']);
  });

  it('refuses shell syntax, since no shell runs it', () => {
    assert.throws(() => parsePwCommand('pw.x; rm -rf ~'), /operator ";".*without a shell/);
    assert.throws(() => parsePwCommand('pw.x | tee out'), /operator "\|"/);
    assert.throws(() => parsePwCommand('mpirun -np $NP pw.x'), /\$NP.*write the value itself/);
    assert.throws(() => parsePwCommand('pw.x *.in'), /pattern/);
    assert.throws(() => parsePwCommand('   '), /empty/);
  });
});
