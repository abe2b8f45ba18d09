// `dreams run` on objective files no study needs (a 1e12 Ry cutoff, a 1e-9 1/Å k-spacing, NaN,
// bytes that are not UTF-8, an alias bomb, 5 MB): exit 2, the file named, no run directory made.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../../../src/cli/commands/run';

async function run(argv: string[]): Promise<{ code: number; err: string }> {
  const orig = console.error;
  let err = '';
  console.error = (...a: unknown[]) => {
    err += a.join(' ') + '\n';
  };
  try {
    return { code: await runCommand(argv), err };
  } finally {
    console.error = orig;
  }
}

const head = 'workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\n';
const bomb = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...'bcdefgh'.split('').map(
    (n) =>
      `${n}: &${n} [${Array(9)
        .fill(`*${String.fromCharCode(n.charCodeAt(0) - 1)}`)
        .join(', ')}]`,
  ),
].join('\n');

describe('dreams run: objective files beyond what a study needs', () => {
  const cases: [string, Buffer, RegExp][] = [
    [
      'huge-cutoff.yaml',
      Buffer.from(`${head}  cutoffsRy: [20, 25, 1e12]\n`),
      /huge-cutoff\.yaml: [\s\S]*cutoffsRy\[2\] = 1000000000000 Ry is above 400 Ry/,
    ],
    [
      'tiny-spacing.yaml',
      Buffer.from(`${head}  kSpacingsPerAngstrom: [0.3, 0.2, 1e-9]\n`),
      /tiny-spacing\.yaml: [\s\S]*kSpacingsPerAngstrom\[2\] = 1e-9 1\/Å is below 0\.02 1\/Å/,
    ],
    [
      'nan.yaml',
      Buffer.from(`${head}  toleranceMevPerAtom: .nan\n`),
      /nan\.yaml has numbers that are not numbers:\n- inputs\.toleranceMevPerAtom: \.nan is not a number/,
    ],
    [
      'latin1.yaml',
      Buffer.concat([Buffer.from('workflow: lattice-constant\nobjective: "Al '), Buffer.from([0xe9]), Buffer.from('"\ninputs: {}\n')]),
      /latin1\.yaml is not UTF-8 text: byte 42/,
    ],
    ['bomb.yaml', Buffer.from(`workflow: lattice-constant\n${bomb}\ninputs: {}\n`), /bomb\.yaml: its YAML could not be read/],
    [
      'five-mb.yaml',
      Buffer.from(`${head}objective: "${'x'.repeat(5 * 1024 * 1024)}"\n`),
      /five-mb\.yaml is 52\d{5} bytes, over the 262144 bytes/,
    ],
  ];
  for (const [name, bytes, message] of cases) {
    it(`refuses ${name} with exit 2, naming the file, before a run directory is made`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-objective-'));
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      const runs = path.join(dir, 'runs');
      const r = await run([file, '--offline', '--runs-dir', runs, '--pseudo-dir', '/usr/share/espresso/pseudo']);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, message);
      assert.equal(fs.existsSync(runs), false, 'no run directory');
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
});
