/** Where the QE I/O fixtures live and which of them are pw.x inputs and outputs. */
import fs from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '../../../../fixtures/qe');

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}

/** Every pw.x input among the fixtures (the project's QE fixtures and other areas' .in/.pwi files). */
export function fixtureInputs(): string[] {
  const root = path.resolve(__dirname, '../../../../fixtures');
  return walk(root).filter((f) => /\.(in|pwi)$/.test(f) && /^\s*&(control|system)\b/im.test(fs.readFileSync(f, 'utf8')));
}

export function fixtureOutputs(): string[] {
  return walk(FIXTURES).filter((f) => f.endsWith('.out'));
}
