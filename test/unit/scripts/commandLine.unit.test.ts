// The command recorded beside a bench's figures must paste back into a shell as the same argv.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { commandLine } from '../../../scripts/commandLine';

describe('bench command line', () => {
  it('quotes only the arguments a shell would split or expand, and the shell reads back the same argv', () => {
    const argv = [
      '--functionals',
      'none',
      '--pw-command',
      'mpirun -np 2 pw.x -nk 2',
      '--runs-dir',
      "/tmp/a b/it's",
      '--elements',
      'W,Ir',
      '--x',
      '$HOME*',
    ];
    const line = commandLine('printf %s\\\\n', argv);
    assert.equal(line.split(' --pw-command ')[0], 'printf %s\\\\n --functionals none', 'plain words stay bare');
    assert.match(line, /--pw-command 'mpirun -np 2 pw\.x -nk 2'/);
    const echoed = execFileSync('sh', ['-c', line], { encoding: 'utf8' }).split('\n').slice(0, -1);
    assert.deepEqual(echoed, argv);
  });
});
