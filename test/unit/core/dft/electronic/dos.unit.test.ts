import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bandBottomEv, integrateUpTo, pdosBySpeciesAndL, valueAt } from '../../../../../src/core/dft/electronic/dos';
import { parseDosFile } from '../../../../../src/core/dft/qe/postprocessing/dosx';
import { parsePdosFiles } from '../../../../../src/core/dft/qe/postprocessing/projwfcx';

// dos.x and projwfc.x 6.7 on fcc Al (LDA, 15 Ry, tetrahedra_opt NSCF on 12×12×12): test/fixtures/dft/qe-postprocessing/al
const FIX = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/al');
const dos = parseDosFile(fs.readFileSync(path.join(FIX, 'al.dos'), 'utf8'));
const pdos = parsePdosFiles(
  Object.fromEntries(
    fs
      .readdirSync(FIX)
      .filter((f) => f.startsWith('al.pdos'))
      .map((f) => [f, fs.readFileSync(path.join(FIX, f), 'utf8')]),
  ),
);

describe('DOS curves', () => {
  it('integrates three electrons of Al up to its Fermi energy', () => {
    const n = integrateUpTo(dos.energiesEv, dos.dos, dos.fermiEnergyEv!);
    assert.ok(Math.abs(n - 3) < 0.05, `∫ DOS to E_F = ${n}`);
  });

  it('has an occupied bandwidth of Al within 10 % of the free-electron gas of three electrons per atom', () => {
    const volume = 2.025 * 2.025 * 2.025 * 2; // fcc primitive, a = 4.05 Å: a³/4
    const n = 3 / volume;
    const hbar2Over2m = 3.80998; // eV Å²
    const freeElectronEf = hbar2Over2m * (3 * Math.PI * Math.PI * n) ** (2 / 3);
    const width = dos.fermiEnergyEv! - bandBottomEv(dos.energiesEv, dos.integrated);
    assert.ok(
      Math.abs(width / freeElectronEf - 1) < 0.1,
      `bandwidth ${width.toFixed(2)} eV vs free-electron ${freeElectronEf.toFixed(2)} eV`,
    );
  });

  it('interpolates the DOS at an energy and refuses one outside the grid', () => {
    assert.equal(valueAt(dos.energiesEv, dos.dos, dos.energiesEv[3]!), dos.dos[3]);
    assert.throws(() => valueAt(dos.energiesEv, dos.dos, 100), /outside the DOS grid/);
  });

  it('sums the PDOS per species and angular momentum', () => {
    const by = pdosBySpeciesAndL(pdos.channels);
    assert.deepEqual(
      by.map((c) => `${c.species}-${c.l}`),
      ['Al-s', 'Al-p'],
    );
    assert.deepEqual(by[0]!.atoms, [1]);
    const low = dos.energiesEv.findIndex((e) => e >= -3.2); // the bottom of Al's band is s-like
    assert.ok(by[0]!.dos[low]! > by[1]!.dos[low]!);
  });
});
