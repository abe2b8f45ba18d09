import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { shellJoin, shellPath, shellQuote } from '../../../../src/core/hpc/shellQuote';

/** What a real POSIX shell makes of each quoted word: printed back NUL-separated. */
function throughShell(words: string[]): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  const hostile = [
    'a b',
    "it's",
    '"double"',
    '$(touch x)',
    '`touch y`',
    'a;b',
    '-rf',
    '--',
    'line\nbreak',
    '\\',
    '$HOME',
    '*',
    '~',
    '!',
    "''",
    '',
  ];

  it('every hostile word reaches the program exactly, as one argument', () => {
    assert.deepEqual(throughShell(hostile), hostile);
  });

  it('any string without NUL survives the shell unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'binary' }).map((s) => s.replace(/\0/g, '')),
          { minLength: 1, maxLength: 40 },
        ),
        (words) => {
          assert.deepEqual(throughShell(words), words);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a NUL byte with a message that says what to do', () => {
    assert.throws(() => shellQuote('a\0b'), /NUL byte.*Rename the file/);
  });

  it('shellJoin and shellPath: ~ expands to the home, the rest stays literal', () => {
    assert.equal(shellJoin(['a b', 'c']), "'a b' 'c'");
    const out = execFileSync('sh', ['-c', `printf '%s' ${shellPath('~/x $(y)')}`], { encoding: 'utf8', env: { HOME: '/home/it is' } });
    assert.equal(out, '/home/it is/x $(y)');
    assert.equal(shellPath('/abs/p q'), "'/abs/p q'");
  });
});
