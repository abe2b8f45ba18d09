// The i-PI server with real pw.x 6.7 as the engine (pw.x --ipi host:port): energies equal
// a standalone SCF of the same input, and the served forces match central differences of
// served energies.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IpiServer } from '../../src/core/calculators/ipi/server';
import { parsePwOutput, pwInputFromStructure } from '../../src/core/dft/qe';
import type { Structure, Vec3 } from '../../src/core/dft/types';
import { BOHR_IN_ANGSTROM, ryToEv } from '../../src/core/units';

const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const a = 4.05;
// Conventional fcc Al with one atom pushed off its site, so forces do not vanish by symmetry.
const al: Structure = {
  symbols: ['Al', 'Al', 'Al', 'Al'],
  positions: [
    [0.12, 0.05, -0.03],
    [0, a / 2, a / 2],
    [a / 2, 0, a / 2],
    [a / 2, a / 2, 0],
  ],
  cell: [
    [a, 0, 0],
    [0, a, 0],
    [0, 0, a],
  ],
  pbc: [true, true, true],
};
const input = pwInputFromStructure(al, {
  namelists: {
    control: { calculation: 'scf', prefix: 'al', outdir: './tmp', pseudo_dir: PSEUDO_DIR, tprnfor: true },
    system: { ecutwfc: 15, occupations: 'smearing', smearing: 'mv', degauss: 0.02 },
    electrons: { conv_thr: 1e-10 },
  },
  species: { Al: { massAmu: 26.9815, pseudopotential: 'Al.pz-vbc.UPF' } },
  kPoints: { kind: 'automatic', mesh: [3, 3, 3] },
});

describe('i-PI server driving pw.x --ipi', function () {
  this.timeout(300_000);
  let dir: string;
  let server: IpiServer;
  let pw: ChildProcess;
  let pwLog = '';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-ipi-pw-'));
    fs.writeFileSync(path.join(dir, 'al.pwi'), input);
    server = await IpiServer.listen({ engine: 'pw.x 6.7 Al LDA 15 Ry' });
    pw = spawn('pw.x', ['--ipi', server.pwIpiArgument, '-in', 'al.pwi'], { cwd: dir, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    pw.stdout!.on('data', (d) => (pwLog += d));
    pw.stderr!.on('data', (d) => (pwLog += d));
    await server.waitForClient(120_000);
  });

  after(async () => {
    await server?.close();
    await new Promise((r) => (pw.exitCode !== null || pw.signalCode ? r(null) : pw.once('exit', r)));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same energy as a standalone SCF of the input', () => {
    const standalone = parsePwOutput(
      execFileSync('pw.x', ['-in', 'al.pwi'], { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } }),
    );
    assert.ok(standalone.totalEnergyRy !== undefined);
    return server.calculate(al).then((served) => {
      const expected = ryToEv(standalone.totalEnergyRy!);
      assert.ok(Math.abs(served.energyEv - expected) < 1e-5, `served ${served.energyEv} eV vs standalone ${expected} eV`);
      const fStandalone = standalone.forcesRyPerBohr![0]!.map((x) => ryToEv(x) / BOHR_IN_ANGSTROM);
      served.forcesEvPerAngstrom[0]!.forEach((x, k) =>
        assert.ok(Math.abs(x - fStandalone[k]!) < 1e-3, `force ${k}: ${x} vs ${fStandalone[k]}`),
      );
      assert.ok(Math.hypot(...served.forcesEvPerAngstrom[0]!) > 0.05, 'the displaced atom must feel a force');
    });
  });

  it('served forces match central differences of served energies', async () => {
    const h = 0.01;
    const f = (await server.calculate(al)).forcesEvPerAngstrom[0]!;
    for (const k of [0, 1]) {
      const moved = (d: number): Structure => ({
        ...al,
        positions: al.positions.map((p, i) => (i === 0 ? (p.map((x, c) => (c === k ? x + d : x)) as Vec3) : p)),
      });
      const fd = -((await server.calculate(moved(h))).energyEv - (await server.calculate(moved(-h))).energyEv) / (2 * h);
      assert.ok(Math.abs(fd - f[k]!) < 5e-3, `force ${k}: served ${f[k]} eV/Å vs finite difference ${fd} eV/Å\n${pwLog.slice(-2000)}`);
    }
  });
});
