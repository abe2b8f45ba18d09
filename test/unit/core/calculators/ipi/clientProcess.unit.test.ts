// A calculator named by command: DREAMS starts the shipped ASE client script
// (dreams_ase_ipi_client.py around ASE's EMT from Debian's python3-ase), serves it over
// i-PI and relaxes two AA20 adsorption cases with FIRE; the results equal the built-in
// EMT's within 1 meV. A client killed mid-relaxation fails the relaxation at once with a
// clear message; a client that cannot start or import its calculator says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EmtCalculator } from '../../../../../src/core/calculators/emt';
import { commandSha256, IpiClientCalculator } from '../../../../../src/core/calculators/ipi/clientProcess';
import { relaxWithFire } from '../../../../../src/core/calculators/optimizers/fire';
import type { CalculateOptions, Calculator } from '../../../../../src/core/calculators/types';
import { readExtxyz } from '../../../../../src/core/dft/io/extxyz';
import type { Structure, Vec3 } from '../../../../../src/core/dft/types';

const root = path.resolve(__dirname, '../../../../..');
const CLIENT = path.join(root, 'src/core/calculators/ipi/python/dreams_ase_ipi_client.py');
const PYTHON = '/usr/bin/python3';
const EMT_COMMAND = [PYTHON, CLIENT, 'ase.calculators.emt:EMT'];

/** An AA20 slab with the case's adsorbate atoms placed above its top layer (fixed bottom layers kept). */
function aa20Case(file: string, adsorbate: { symbols: string[]; offsets: Vec3[] }): Structure {
  const slab = readExtxyz(fs.readFileSync(path.join(root, 'test/fixtures/adsmind/aa20', file), 'utf8'));
  const topZ = Math.max(...slab.positions.map((p) => p[2]));
  const top = slab.positions.find((p) => p[2] === topZ)!;
  const n = slab.symbols.length + adsorbate.symbols.length;
  return {
    ...slab,
    tags: undefined,
    symbols: [...slab.symbols, ...adsorbate.symbols],
    positions: [...slab.positions, ...adsorbate.offsets.map((o) => [top[0] + o[0], top[1] + o[1], topZ + o[2]] as Vec3)],
    fixed: Array.from({ length: n }, (_, i) => slab.fixed?.[i] ?? false),
  };
}

const CASES = [
  { name: '09 Pt(111) + O', structure: () => aa20Case('09_Pt_111.xyz', { symbols: ['O'], offsets: [[0.6, 0.4, 1.9]] }) },
  { name: '05 Cu3Ag(111) + H', structure: () => aa20Case('05_Cu3Ag_111.xyz', { symbols: ['H'], offsets: [[0.5, 0.7, 1.4]] }) },
];

describe('i-PI client calculator: the shipped ASE client script started by DREAMS', function () {
  this.timeout(300_000);
  before(() => {
    const probe = spawnSync(PYTHON, ['-c', 'import ase.calculators.socketio'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(
        `these tests need Debian's python3-ase (apt-get install -y python3-ase): ${probe.error?.message ?? probe.stderr.trim()}`,
      );
  });

  for (const c of CASES) {
    it(`${c.name}: a FIRE relaxation over i-PI with ASE's EMT ends where the built-in EMT's does, within 1 meV`, async () => {
      const s = c.structure();
      const opts = { fmaxEvPerAngstrom: 0.05, maxSteps: 300 };
      const ours = await relaxWithFire(new EmtCalculator(), s, opts);
      const calc = await IpiClientCalculator.start({ command: EMT_COMMAND }, s);
      try {
        assert.match(calc.calculatorName, /^EMT \(ase 3\.\d+/);
        assert.equal(calc.settings.production, false);
        assert.equal(calc.settings.details.commandSha256, commandSha256(EMT_COMMAND));
        const served = await relaxWithFire(calc, s, opts);
        assert.ok(ours.converged && served.converged);
        assert.ok(Math.abs(served.energyEv - ours.energyEv) < 1e-3, `E = ${served.energyEv} eV over i-PI vs ${ours.energyEv} eV built in`);
        assert.ok(served.steps > 3, `${served.steps} FIRE steps: a relaxation, not a single point`);
      } finally {
        await calc.close();
      }
    });
  }

  it('hashes the command with the content of the script it names', () => {
    const a = commandSha256(EMT_COMMAND);
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, commandSha256([PYTHON, CLIENT, 'mace.calculators:mace_mp']));
  });

  it('fails the relaxation at once, saying the client was killed, when the client dies mid-relaxation', async () => {
    const s = CASES[0]!.structure();
    const calc = await IpiClientCalculator.start({ command: EMT_COMMAND }, s);
    let evaluations = 0;
    const killing: Calculator = {
      name: calc.name,
      settings: calc.settings,
      calculate: (x: Structure, o?: CalculateOptions) => {
        if (++evaluations === 4) process.kill(calc.pid!, 'SIGKILL');
        return calc.calculate(x, o);
      },
    };
    const t0 = Date.now();
    try {
      await assert.rejects(relaxWithFire(killing, s, { fmaxEvPerAngstrom: 0.001, maxSteps: 500 }), (e: Error) => {
        assert.match(
          e.message,
          /the client \[.*dreams_ase_ipi_client\.py.*\] was killed \(SIGKILL\) during the calculation; no energy was recorded for it/,
        );
        return true;
      });
      assert.ok(Date.now() - t0 < 30_000, 'no hang');
      assert.equal(evaluations, 4);
    } finally {
      await calc.close();
    }
  });

  it('says what is wrong when the client cannot start, or cannot import its calculator', async () => {
    const s = CASES[1]!.structure();
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
