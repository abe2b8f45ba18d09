import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bandStructureZero, dosZero, ZERO_SOURCE } from '../../../../../src/core/dft/electronic/energyZero';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output/parse';
import { parseBandFile } from '../../../../../src/core/dft/qe/postprocessing/bandsx';
import { parseDosFile } from '../../../../../src/core/dft/qe/postprocessing/dosx';

// QE 6.7 on diamond Si (PBE, Si.pbe-rrkj.UPF). si/: 20 Ry, 6×6×6 SCF with fixed occupations and its
// bands.x file; si/dos-tetrahedra/: 12 Ry, 6×6×6 SCF (fixed), a 12×12×12 nscf with tetrahedra_opt, dos.x at 0.1 eV.
const SI = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/si');
const DOS = path.join(SI, 'dos-tetrahedra');
const read = (p: string) => fs.readFileSync(p, 'utf8');

describe('the zero of the band-structure and DOS plots', () => {
  const scf = parsePwOutput(read(path.join(DOS, 'scf.out')));
  const nscf = parsePwOutput(read(path.join(DOS, 'nscf.out')));
  const dos = parseDosFile(read(path.join(DOS, 'dreams.dos')));
  const levels = { scfOccupations: 'fixed', scfHighestOccupiedEv: scf.highestOccupiedEv! };

  it("draws an insulator's DOS from the SCF's highest occupied level, not from the Fermi energy a tetrahedra run puts in the gap", () => {
    // what the programs printed: pw.x "highest occupied level (ev): 6.2700" for the SCF, "the Fermi energy is 6.7378 ev"
    // for the tetrahedra nscf, dos.x "EFermi = 6.738 eV"
    assert.equal(scf.highestOccupiedEv, 6.27);
    assert.equal(nscf.fermiEnergyEv, 6.7378);
    assert.equal(dos.fermiEnergyEv, 6.738);
    const zero = dosZero(levels, { energyEv: dos.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi });
    assert.deepEqual(zero, { energyEv: 6.27, kind: 'vbm', source: ZERO_SOURCE.scfHighestOccupied });
  });

  it("puts that zero at the top of the DOS's own occupied states: 8 electrons are reached within one DOS step above it", () => {
    const step = dos.energiesEv[1]! - dos.energiesEv[0]!;
    const at = (e: number) => dos.integrated[dos.energiesEv.findIndex((x) => x >= e)]!;
    assert.ok(at(6.27 - step) < 7.9995, `integrated DOS one step below the zero: ${at(6.27 - step)}`);
    assert.ok(Math.abs(at(6.27 + step) - 8) < 1e-3, `integrated DOS one step above the zero: ${at(6.27 + step)}`);
    // and E_F − zero is most of the way across the gap: drawn against E_F, the valence top sat at −0.47 eV
    assert.ok(dos.fermiEnergyEv! - 6.27 > 0.4);
  });

  it("gives the bands and the DOS of one SCF the same zero: the top of band 4 along the path is the SCF's highest occupied level", () => {
    const si = parsePwOutput(read(path.join(SI, 'scf.out')));
    const bands = parseBandFile(read(path.join(SI, 'si.bands.dat')));
    const pathTop = Math.max(...bands.energiesEv.map((e) => e[3]!));
    const scfLevels = { scfOccupations: 'fixed', scfHighestOccupiedEv: si.highestOccupiedEv! };
    const b = bandStructureZero(scfLevels, pathTop);
    const d = dosZero(scfLevels)!;
    assert.equal(b.kind, 'vbm');
    assert.equal(d.kind, 'vbm');
    assert.ok(Math.abs(b.energyEv - d.energyEv) < 1e-3, `bands ${b.energyEv} eV, DOS ${d.energyEv} eV`);
  });

  it("draws a metal's DOS against the Fermi energy its own run printed, saying which, and names the SCF's its bands use", () => {
    const metal = { scfOccupations: 'smearing', scfFermiEnergyEv: 7.9 };
    const d = dosZero(metal, { energyEv: 7.93, source: ZERO_SOURCE.dosxFermi })!;
    assert.equal(d.energyEv, 7.93);
    assert.equal(d.kind, 'fermi');
    assert.equal(d.source, 'dos.x');
    assert.match(d.note ?? '', /the band structure is drawn against the SCF's Fermi energy, 7\.900 eV \(-0\.030 eV from this zero/);
    assert.deepEqual(bandStructureZero(metal, undefined), { energyEv: 7.9, kind: 'fermi', source: ZERO_SOURCE.scfFermi });
    assert.deepEqual(
      dosZero(metal, { energyEv: 7.9, source: ZERO_SOURCE.dosxFermi }),
      { energyEv: 7.9, kind: 'fermi', source: 'dos.x' },
      'no note when both agree',
    );
    assert.deepEqual(
      dosZero(metal),
      { energyEv: 7.9, kind: 'fermi', source: ZERO_SOURCE.scfFermi },
      "the SCF's when the DOS run printed none",
    );
    assert.equal(dosZero({ scfOccupations: 'smearing' }), undefined, 'no Fermi energy printed: absolute energies');
  });
});
