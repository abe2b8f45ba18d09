/** Where the QE I/O fixtures live and which of them are pw.x inputs and outputs. */
import fs from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '../../../../fixtures/qe');

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every pw.x input among the fixtures (the project's QE fixtures and other areas' .in/.pwi files). */
export function fixtureInputs(): string[] {
  const root = path.resolve(__dirname, '../../../../fixtures');
  return walk(root).filter((f) => /\.(in|pwi)$/.test(f) && /^\s*&(control|system)\b/im.test(fs.readFileSync(f, 'utf8')));
}

export function fixtureOutputs(): string[] {
  return walk(FIXTURES).filter((f) => f.endsWith('.out'));
}

/** QE's qe-7.2 test-suite inputs kept as fixtures, as paths relative to their folder ("pw_scf/scf.in"). */
export const QE_TEST_SUITE = path.join(FIXTURES, 'qe-7.2-test-suite');
export function qeTestSuiteInputs(): string[] {
  return fs
    .readdirSync(QE_TEST_SUITE)
    .filter((d) => d.startsWith('pw_'))
    .sort()
    .flatMap((d) =>
      fs
        .readdirSync(path.join(QE_TEST_SUITE, d))
        .filter((f) => f.endsWith('.in'))
        .sort()
        .map((f) => path.join(d, f)),
    );
}
