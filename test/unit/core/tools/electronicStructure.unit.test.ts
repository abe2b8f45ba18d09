import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { BandGapValue, BandPathValue } from '../../../../src/core/artifacts/electronic';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import type { GuardedOutcome, ProposedCall } from '../../../../src/core/guard/types';
import { samplePath, standardBandPath } from '../../../../src/core/dft/electronic/kpath';
import { parsePwOutput } from '../../../../src/core/dft/qe/output/parse';
import { parseBandFile } from '../../../../src/core/dft/qe/postprocessing/bandsx';
import type { Structure } from '../../../../src/core/dft/types';
import type { ProvenanceWriter } from '../../../../src/core/provenance/view';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { seedCall } from '../guard/support/seedCall';

const registry = new ToolRegistry();
const ctxFor = (provenance: ProvenanceWriter): GuardContext => ({
  provenance,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const run = (p: ProvenanceWriter, tool: string, args: Record<string, unknown>): Promise<GuardedOutcome> =>
  guardedCall(
    registry.get(tool)!,
    { tool, args, refs: {}, reasons: {}, context: 'test', agent: { role: 'dft' } } as ProposedCall,
    ctxFor(p),
  );
const outputs = (p: ProvenanceWriter, out: GuardedOutcome) => {
  assert.equal(out.status, 'ok', JSON.stringify(out));
  return (out as { outputs: string[] }).outputs.map((id) => p.artifact(id)!);
};

/** A band structure as run_bands_x records it: bandsEv[band][k] on a Γ–X path of five k-points. */
async function seededBands(
  p: ProvenanceWriter,
  occupations: string,
  electrons: number,
  fermi: number,
  bandsEv: number[][],
): Promise<string> {
  const [a] = await seedCall(p, 'run_bands_x', {}, [
    {
      kind: 'table',
      name: 'band_structure',
      unit: 'eV',
      value: {
        x: [0, 0.25, 0.5, 0.75, 1],
        bandsEv,
        ticks: [
          { x: 0, label: 'Γ' },
          { x: 1, label: 'X' },
        ],
        reference: { energyEv: fermi, kind: 'fermi' },
        kpoints: [0, 0.25, 0.5, 0.75, 1].map((f) => [f / 2, 0, f / 2]),
        electrons,
        nspin: 1,
        occupations,
        fermiEnergyEv: fermi,
        lattice: 'FCC',
        convention: 'Setyawan-Curtarolo 2010',
      },
    },
  ]);
  return a!.id;
}

describe('band-structure tool bodies', () => {
  it('band_path: the fcc path of diamond Si on its primitive cell, with the crystal_b nodes pw.x will get', async () => {
    const p = new MemoryProvenance();
    const [bulk] = outputs(p, await run(p, 'build_bulk', { elements: ['Si'], bravais: 'diamond', latticeConstantAngstrom: 5.431 }));
    const [path] = outputs(p, await run(p, 'band_path', { structure: bulk!.id, pointsPerInverseAngstrom: 10 }));
    const v = path!.value as BandPathValue;
    assert.equal(v.lattice, 'FCC');
    assert.equal(v.nodes.length, 12);
    const s = bulk!.value as Structure;
    assert.equal(v.kpointCount, samplePath(standardBandPath(s), s.cell, 10).kpoints.length);
  });

  it("band_gap: an insulator's gap, indirect, with where its edges lie", async () => {
    const p = new MemoryProvenance();
    const bands = await seededBands(p, 'fixed', 4, 5, [
      [-5, -4, -3, -2.5, -2],
      [5, 4.5, 4, 3.5, 3.2],
      [7, 6.5, 6.2, 5.9, 5.8],
      [9, 9, 9, 9, 9],
    ]);
    const [gap] = outputs(p, await run(p, 'band_gap', { bands }));
    const v = gap!.value as BandGapValue;
    assert.equal(v.direct, false);
    assert.equal(v.vbm.location, 'Γ');
    assert.equal(v.cbm.location, 'X');
    assert.ok(Math.abs(v.gapEv - 0.8) < 1e-12);
    assert.ok(Math.abs(v.directGapEv - 2) < 1e-12);
    assert.equal(v.directGapLocation, 'Γ');
  });

  it('band_gap: refused before it runs for a smeared metal, with the reason from the science', async () => {
    const p = new MemoryProvenance();
    const bands = await seededBands(p, 'smearing', 3, 7.6, [
      [-3, -2, 0, 2, 3],
      [6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15],
    ]);
    const out = await run(p, 'band_gap', { bands });
    assert.notEqual(out.status, 'ok');
    assert.match(JSON.stringify(out), /no-gap-from-metal/);
    assert.match(JSON.stringify(out), /3 electrons per cell leave a band half filled/);
  });

  // QE 6.7, bands.x per spin channel (test/fixtures/dft/qe-postprocessing/spin-bands): as run_bands_x records a spin-polarised run
  async function seededSpinBands(p: ProvenanceWriter, name: 'o2' | 'fe', electrons: number): Promise<string> {
    const dir = path.join(__dirname, '../../../fixtures/dft/qe-postprocessing/spin-bands', name);
    const byBand = (file: string) => {
      const e = parseBandFile(fs.readFileSync(path.join(dir, file), 'utf8')).energiesEv;
      return e[0]!.map((_, b) => e.map((row) => row[b]!));
    };
    const fermi = parsePwOutput(fs.readFileSync(path.join(dir, 'scf.out'), 'utf8')).fermiEnergyEv!;
    const bandsEv = byBand('bands.up.dat');
    const x = bandsEv[0]!.map((_, k) => k / (bandsEv[0]!.length - 1));
    const [a] = await seedCall(p, 'run_bands_x', {}, [
      {
        kind: 'table',
        name: 'band_structure',
        unit: 'eV',
        value: {
          x,
          bandsEv,
          bandsDownEv: byBand('bands.down.dat'),
          ticks: [
            { x: 0, label: 'Γ' },
            { x: 1, label: 'Z' },
          ],
          reference: { energyEv: fermi, kind: 'fermi' },
          kpoints: x.map((f) => [0, 0, f / 2]),
          electrons,
          nspin: 2,
          occupations: 'smearing',
          fermiEnergyEv: fermi,
          lattice: name === 'o2' ? 'TET' : 'BCC',
          convention: 'Setyawan-Curtarolo 2010',
        },
      },
    ]);
    return a!.id;
  }

  it("band_gap of a spin-polarised insulator (triplet O2): the crystal's gap and each channel's, through the guard", async () => {
    const p = new MemoryProvenance();
    const [gap] = outputs(p, await run(p, 'band_gap', { bands: await seededSpinBands(p, 'o2', 12) }));
    const v = gap!.value as BandGapValue;
    assert.equal(v.gapEv.toFixed(3), '2.265');
    assert.deepEqual(
      v.channels!.map((c) => `${c.spin} ${c.gapEv.toFixed(3)} ${c.occupiedBands}`),
      ['up 5.662 7', 'down 6.687 5'],
    );
  });

  it('band_gap of bcc Fe, spin-polarised: refused by no-gap-from-metal, each channel crossing the Fermi level', async () => {
    const p = new MemoryProvenance();
    const out = await run(p, 'band_gap', { bands: await seededSpinBands(p, 'fe', 8) });
    assert.notEqual(out.status, 'ok');
    const text = JSON.stringify(out);
    assert.match(text, /no-gap-from-metal/);
    assert.match(text, /a metal in both spin channels/);
  });
});
