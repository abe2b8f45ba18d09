// A calculator named by command, with real i-PI clients: DREAMS starts the shipped ASE client
// script (dreams_ase_ipi_client.py around ASE's EMT from Debian's python3-ase), serves it over
// i-PI and relaxes two AA20 adsorption cases with FIRE; the results equal the built-in EMT's
// within 1 meV. A client killed mid-relaxation fails the relaxation at once with a clear
// message; a geometry the client does not answer within calculator.timeoutSeconds fails with
// the limit, and the client is stopped. The relaxations cost ~30 s each here (a few hundred
// socket round trips), which is why this is in this tier and not the unit tier.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EmtCalculator } from '../../src/core/calculators/emt';
import { commandSha256, IpiClientCalculator } from '../../src/core/calculators/ipi/clientProcess';
import { relaxWithFire } from '../../src/core/calculators/optimizers/fire';
import type { CalculateOptions, Calculator } from '../../src/core/calculators/types';
import { readExtxyz } from '../../src/core/dft/io/extxyz';
import { slab } from '../../src/core/dft/structure/surface';
import type { Structure, Vec3 } from '../../src/core/dft/types';

const root = path.resolve(__dirname, '../..');
const CLIENT = path.join(root, 'src/core/calculators/ipi/python/dreams_ase_ipi_client.py');
const PYTHON = '/usr/bin/python3';
const EMT_COMMAND = [PYTHON, CLIENT, 'ase.calculators.emt:EMT'];
// ASE's EMT slowed down (test/fixtures/ipi/slow_emt.py): the first geometry at once, every other after 60 s
const SLOW_COMMAND = [PYTHON, CLIENT, 'slow_emt:SlowEMT', 'seconds=60'];

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

describe('i-PI client calculator: real clients started by DREAMS', function () {
  this.timeout(300_000);
  const savedPath = process.env.PYTHONPATH;
  before(() => {
    const probe = spawnSync(PYTHON, ['-c', 'import ase.calculators.socketio'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(
        `these tests need Debian's python3-ase (apt-get install -y python3-ase): ${probe.error?.message ?? probe.stderr.trim()}`,
      );
    // the slow calculator's module, for the client's import
    process.env.PYTHONPATH = [path.join(root, 'test/fixtures/ipi'), savedPath].filter(Boolean).join(':');
  });
  after(() => {
    if (savedPath === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = savedPath;
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

  it("serves a generated slab (periodic in the plane only, as build_slab makes it): energy and forces equal the built-in EMT's", async () => {
    const clean = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.9218, size: [2, 2], layers: 3, vacuumAngstrom: 8, fixedLayers: 1 });
    const topZ = Math.max(...clean.positions.map((p) => p[2]));
    const top = clean.positions.find((p) => p[2] === topZ)!;
    const s: Structure = {
      ...clean,
      symbols: [...clean.symbols, 'O'],
      positions: [...clean.positions, [top[0] + 0.6, top[1] + 0.4, topZ + 1.9]],
      ...(clean.fixed ? { fixed: [...clean.fixed, false] } : {}),
      ...(clean.tags ? { tags: [...clean.tags, 0] } : {}),
    };
    assert.deepEqual(s.pbc, [true, true, false], 'precondition: a slab is not periodic along its normal');
    const ours = await new EmtCalculator().calculate(s);
    const calc = await IpiClientCalculator.start({ command: EMT_COMMAND }, s);
    try {
      const served = await calc.calculate(s);
      assert.ok(Math.abs(served.energyEv - ours.energyEv) < 1e-3, `E = ${served.energyEv} eV over i-PI vs ${ours.energyEv} eV built in`);
      const worst = Math.max(
        ...served.forcesEvPerAngstrom.flatMap((f, i) => f.map((x, k) => Math.abs(x - ours.forcesEvPerAngstrom[i]![k]!))),
      );
      assert.ok(worst < 1e-3, `largest force difference ${worst} eV/Å`);
    } finally {
      await calc.close();
    }
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

  it('fails a geometry the client does not answer within timeoutSeconds, with the limit, and stops the client', async () => {
    const s = CASES[0]!.structure();
    const calc = await IpiClientCalculator.start({ command: SLOW_COMMAND, timeoutSeconds: 2 }, s);
    const pid = calc.pid!;
    try {
      const first = await calc.calculate(s);
      assert.ok(Number.isFinite(first.energyEv), 'the first geometry is answered');
      const moved: Structure = {
        ...s,
        positions: s.positions.map((p, i) => (i === s.positions.length - 1 ? [p[0], p[1], p[2] + 0.1] : p)),
      };
      const t0 = Date.now();
      await assert.rejects(
        calc.calculate(moved),
        new RegExp(
          `no answer for ${s.symbols.length} atoms within 2 s; the client is stopped\\. Raise calculator\\.timeoutSeconds if one geometry takes that long`,
        ),
      );
      // 2 s, 2 s for an exit, 5 s for the client to leave after EXIT: not the geometry's 60 s
      assert.ok(Date.now() - t0 < 20_000, `gave up after ${(Date.now() - t0) / 1000} s`);
      assert.throws(() => process.kill(pid, 0), /ESRCH/, `client ${pid} is stopped`);
      assert.equal(calc.serves(s), false, 'a stopped client serves nothing');
    } finally {
      await calc.close();
    }
  });
});
