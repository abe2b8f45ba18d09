import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bandGap } from '../../../../../src/core/dft/electronic/bandGap';
import { bandsAlongPath, locateOnPath } from '../../../../../src/core/dft/electronic/bandStructure';
import { pathFromNodes, samplePath, standardBandPath } from '../../../../../src/core/dft/electronic/kpath';
import { parseBandFile } from '../../../../../src/core/dft/qe/postprocessing/bandsx';
import type { Cell, Structure } from '../../../../../src/core/dft/types';

// bands.x 6.7 on diamond Si (PBE, Si.pbe-rrkj.UPF, 20 Ry, 6×6×6 SCF): test/fixtures/dft/qe-postprocessing/si
const FIX = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/si');
const file = parseBandFile(fs.readFileSync(path.join(FIX, 'si.bands.dat'), 'utf8'));
const a = 2.7345;
const cell: Cell = [
  [0, a, a],
  [a, 0, a],
  [a, a, 0],
];
const ALAT_BOHR = 7.3079;
// the crystal_b list of bands.in: Γ 20, X 10, W 10, K 20, Γ 1
const nodes = [
  { label: 'Γ', k: [0, 0, 0] as [number, number, number], count: 20 },
  { label: 'X', k: [0.5, 0, 0.5] as [number, number, number], count: 10 },
  { label: 'W', k: [0.5, 0.25, 0.75] as [number, number, number], count: 10 },
  { label: 'K', k: [0.375, 0.375, 0.75] as [number, number, number], count: 20 },
  { label: 'Γ', k: [0, 0, 0] as [number, number, number], count: 1 },
];

describe('bands along a path', () => {
  const bands = bandsAlongPath(pathFromNodes(nodes, cell), cell, ALAT_BOHR, file);

  it("matches bands.x's k-points to the path's and keeps its path coordinate (Γ–X = 2π/a)", () => {
    assert.equal(bands.x.length, 61);
    assert.ok(Math.abs(bands.ticks[1]!.x - (2 * Math.PI) / (2 * a)) < 1e-9);
  });

  it('refuses bands computed on another path (another number of k-points)', () => {
    const si: Structure = {
      symbols: ['Si', 'Si'],
      positions: [
        [0, 0, 0],
        [a / 2, a / 2, a / 2],
      ],
      cell,
      pbc: [true, true, true],
    };
    const standard = samplePath(standardBandPath(si), cell, 20);
    assert.throws(() => bandsAlongPath(standard, cell, ALAT_BOHR, file), /computed on another path/);
  });

  it("refuses bands whose k-points are not the path's (another alat)", () => {
    assert.throws(() => bandsAlongPath(pathFromNodes(nodes, cell), cell, ALAT_BOHR * 1.05, file), /belong to another cell or path/);
  });

  it('finds Si indirect: the valence maximum at Γ, the conduction minimum on Γ–X near X', () => {
    const gap = bandGap({ energiesEv: bands.energiesEv, electrons: 8, occupations: 'fixed' });
    assert.equal(gap.direct, false);
    assert.equal(gap.occupiedBands, 4);
    assert.equal(locateOnPath(bands, gap.vbm.kIndex).nearest, 'Γ');
    const cbm = locateOnPath(bands, gap.cbm.kIndex);
    assert.equal(`${cbm.from}–${cbm.to}`, 'Γ–X');
    assert.equal(cbm.nearest, 'X');
    assert.ok(cbm.fraction > 0.7 && cbm.fraction < 0.95, `CBM at ${cbm.text}`);
    assert.equal(gap.vbm.energyEv, 6.018);
    assert.ok(gap.gapEv > 0.4 && gap.gapEv < 0.8, `PBE gap ${gap.gapEv} eV`);
    assert.ok(gap.directGapEv > gap.gapEv);
  });

  it('refuses a gap for an odd electron count per cell (a half-filled band)', () => {
    assert.throws(
      () => bandGap({ energiesEv: bands.energiesEv, electrons: 7, occupations: 'fixed' }),
      /7 electrons per cell leave a band half filled/,
    );
  });

  it('refuses a gap from a smeared run whose Fermi level lies inside a band, and accepts one whose Fermi level is in the gap', () => {
    assert.throws(
      () => bandGap({ energiesEv: bands.energiesEv, electrons: 8, occupations: 'smearing', fermiEnergyEv: 7.5 }),
      /Fermi level at 7\.500 eV, inside a band/,
    );
    const ok = bandGap({ energiesEv: bands.energiesEv, electrons: 8, occupations: 'smearing', fermiEnergyEv: 6.3 });
    assert.equal(ok.direct, false);
  });

  it('refuses a gap where the bands overlap', () => {
    assert.throws(
      () =>
        bandGap({
          energiesEv: [
            [-1, 2, 3],
            [-1, 4, 5],
          ],
          electrons: 4,
          occupations: 'fixed',
        }),
      /bands overlap/,
    );
  });

  it('asks for more bands when no empty band was computed', () => {
    assert.throws(
      () => bandGap({ energiesEv: bands.energiesEv.map((e) => e.slice(0, 4)), electrons: 8, occupations: 'fixed' }),
      /nbnd of at least 8/,
    );
  });
});
