// A calculator named by command: the command's hash (with the content of the script it
// names), and what DREAMS says when the client cannot start or cannot import its calculator.
// The relaxations over i-PI, a killed client and the per-geometry timeout are in
// test/qe/ipi-client.qe.test.ts (real clients, ~30 s a relaxation).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { commandSha256, IpiClientCalculator } from '../../../../../src/core/calculators/ipi/clientProcess';
import { readExtxyz } from '../../../../../src/core/dft/io/extxyz';

const root = path.resolve(__dirname, '../../../../..');
const CLIENT = path.join(root, 'src/core/calculators/ipi/python/dreams_ase_ipi_client.py');
const PYTHON = '/usr/bin/python3';
const EMT_COMMAND = [PYTHON, CLIENT, 'ase.calculators.emt:EMT'];
const slab = () => readExtxyz(fs.readFileSync(path.join(root, 'test/fixtures/adsmind/aa20/05_Cu3Ag_111.xyz'), 'utf8'));

describe('i-PI client calculator: the command and its start', function () {
  this.timeout(60_000);
  before(() => {
    const probe = spawnSync(PYTHON, ['-c', 'import ase.calculators.socketio'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(
        `these tests need Debian's python3-ase (apt-get install -y python3-ase): ${probe.error?.message ?? probe.stderr.trim()}`,
      );
  });

  it('hashes the command with the content of the script it names', () => {
    const a = commandSha256(EMT_COMMAND);
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, commandSha256([PYTHON, CLIENT, 'mace.calculators:mace_mp']));
  });

  it('says what is wrong when the client cannot start, or cannot import its calculator', async () => {
    const s = slab();
    await assert.rejects(
      IpiClientCalculator.start({ command: ['/nonexistent/python3', CLIENT, 'ase.calculators.emt:EMT'] }, s),
      /could not be started .*ENOENT.*is \/nonexistent\/python3 installed/,
    );
    await assert.rejects(
      IpiClientCalculator.start({ command: [PYTHON, CLIENT, 'ase.calculators.nowhere:EMT'] }, s),
      /exited with code 2 before it connected[\s\S]*cannot import ase\.calculators\.nowhere/,
    );
    await assert.rejects(IpiClientCalculator.start({ command: [] }, s), /argument list/);
  });
});
