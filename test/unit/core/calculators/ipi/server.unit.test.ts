// The i-PI server against an independent client: ASE's SocketClient serving ASE's EMT
// (Debian's python3-ase). Energies, forces and stress must equal our own EMT after the
// atomic-unit round trip, over TCP and over a UNIX socket.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmtCalculator } from '../../../../../src/core/calculators/emt';
import { IpiServer } from '../../../../../src/core/calculators/ipi/server';
import { formatExtxyz, readExtxyz } from '../../../../../src/core/dft/io/extxyz';
import type { Structure, Vec3 } from '../../../../../src/core/dft/types';
import { fccBulk, rattled } from '../helpers';

const CLIENT = `
import sys
from ase.io import read
from ase.calculators.emt import EMT
from ase.calculators.socketio import SocketClient
atoms = read(sys.argv[1])
atoms.calc = EMT()
kind, where = sys.argv[2], sys.argv[3]
client = SocketClient(host='127.0.0.1', port=int(where)) if kind == 'tcp' else SocketClient(unixsocket=where)
client.run(atoms, use_stress=True)
`;

function startAseClient(structureFile: string, kind: 'tcp' | 'unix', where: string): ChildProcess {
  const p = spawn('/usr/bin/python3', ['-c', CLIENT, structureFile, kind, where], { stdio: ['ignore', 'ignore', 'pipe'] });
  p.stderr!.on('data', (d) => process.stderr.write(`[ase client] ${d}`));
  return p;
}

describe('i-PI server with ASE SocketClient + ASE EMT as the engine', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    const probe = spawnSync('/usr/bin/python3', ['-c', 'import ase.calculators.socketio'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(
        `these tests run ASE's SocketClient as the i-PI engine and need Debian's python3-ase: apt-get install -y python3-ase (${probe.error?.message ?? probe.stderr.trim()})`,
      );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-ipi-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const slab = readExtxyz(fs.readFileSync(path.resolve(__dirname, '../../../../fixtures/adsmind/aa20/12_Au_111.xyz'), 'utf8'));
  const withAdsorbate: Structure = rattled(
    {
      ...slab,
      fixed: undefined,
      tags: undefined,
      symbols: [...slab.symbols, 'O', 'H'],
      positions: [...slab.positions, [1.5, 1.0, 19.5], [1.6, 1.1, 20.4]],
    },
    0.05,
    21,
  );

  for (const transport of ['tcp', 'unix'] as const) {
    it(`${transport}: energies and forces equal our EMT's, forces match finite differences of served energies`, async () => {
      const file = path.join(dir, `start-${transport}.extxyz`);
      fs.writeFileSync(file, formatExtxyz(withAdsorbate));
      const server = await IpiServer.listen(
        transport === 'tcp' ? { engine: 'ASE EMT' } : { unixSocketName: `dreams-test-${process.pid}`, engine: 'ASE EMT' },
      );
      const client = startAseClient(
        file,
        transport,
        transport === 'tcp' ? String((server.address as { port: number }).port) : `dreams-test-${process.pid}`,
      );
      try {
        const ours = new EmtCalculator();
        for (const s of [withAdsorbate, rattled(withAdsorbate, 0.1, 22)]) {
          const served = await server.calculate(s);
          const local = ours.compute(s);
          assert.ok(Math.abs(served.energyEv - local.energyEv) < 1e-6, `energy ${served.energyEv} vs ${local.energyEv}`);
          served.forcesEvPerAngstrom.forEach((f, i) =>
            f.forEach((x, k) => assert.ok(Math.abs(x - local.forcesEvPerAngstrom[i]![k]!) < 1e-6, `force ${i},${k}`)),
          );
        }
        // forces against central differences of energies served over the socket
        const h = 1e-4;
        const atom = withAdsorbate.symbols.length - 2;
        const f0 = (await server.calculate(withAdsorbate)).forcesEvPerAngstrom[atom]!;
        for (let k = 0; k < 3; k++) {
          const moved = (d: number): Structure => ({
            ...withAdsorbate,
            positions: withAdsorbate.positions.map((p, i) => (i === atom ? (p.map((x, c) => (c === k ? x + d : x)) as Vec3) : p)),
          });
          const fd = -((await server.calculate(moved(h))).energyEv - (await server.calculate(moved(-h))).energyEv) / (2 * h);
          assert.ok(Math.abs(fd - f0[k]!) < 1e-5, `O force ${k}: ${f0[k]} vs finite difference ${fd}`);
        }
        assert.equal(server.evaluations, 9);
      } finally {
        await server.close();
        await new Promise((r) => (client.exitCode !== null ? r(null) : client.once('exit', r)));
      }
      assert.equal(client.exitCode, 0, 'the ASE client exits cleanly on EXIT');
    });
  }

  it('stress comes back from the virial with the sign and volume of our own', async () => {
    const bulk = rattled(
      fccBulk(
        'Pd',
        3.95,
        [
          [1.0, 0.02, 0],
          [0, 1.01, 0],
          [0, 0.01, 0.98],
        ],
        2,
      ),
      0.05,
      23,
    );
    const file = path.join(dir, 'bulk.extxyz');
    fs.writeFileSync(file, formatExtxyz(bulk));
    const server = await IpiServer.listen({ engine: 'ASE EMT' });
    const client = startAseClient(file, 'tcp', String((server.address as { port: number }).port));
    try {
      const served = await server.calculate(bulk, { stress: true });
      const local = new EmtCalculator().compute(bulk, true);
      served.stressEvPerAngstrom3!.forEach((row, a) =>
        row.forEach((x, b) =>
          assert.ok(
            Math.abs(x - local.stressEvPerAngstrom3![a]![b]!) < 1e-7,
            `stress ${a}${b}: ${x} vs ${local.stressEvPerAngstrom3![a]![b]}`,
          ),
        ),
      );
    } finally {
      await server.close();
      await new Promise((r) => (client.exitCode !== null ? r(null) : client.once('exit', r)));
    }
  });
});
