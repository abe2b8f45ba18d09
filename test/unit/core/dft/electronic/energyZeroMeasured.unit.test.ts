import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bandGap } from '../../../../../src/core/dft/electronic/bandGap';
import { bandStructureZero, dosZero, valenceEdges, ZERO_SOURCE } from '../../../../../src/core/dft/electronic/energyZero';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output/parse';
import { printedEigenvalues } from '../../../../../src/core/dft/qe/output/eigenvalues';
import { parseBandFile } from '../../../../../src/core/dft/qe/postprocessing/bandsx';
import { parseDosFile } from '../../../../../src/core/dft/qe/postprocessing/dosx';

// QE 6.7 outputs (READMEs beside them): si/dos-offmesh-vbm (SCF on a shifted 4×4×4 mesh without Γ, tetrahedra nscf
// on 8×8×8 with Γ, dos.x at 0.05 eV); spin-bands/o2 (smeared triplet, bands per channel); spin-bands/o2-fixed-moment
// and o2-smeared-moment (tot_magnetization = 2, fixed and smeared occupations, Γ only).
const FIX = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing');
const read = (...p: string[]) => fs.readFileSync(path.join(FIX, ...p), 'utf8');

describe('the zero of the plots where the SCF mesh or one Fermi energy would mislead', () => {
  describe('an insulator whose SCF mesh misses the valence-band maximum (Si, SCF mesh without Γ)', () => {
    const scf = parsePwOutput(read('si/dos-offmesh-vbm/scf.out'));
    const nscfText = read('si/dos-offmesh-vbm/nscf.out');
    const dos = parseDosFile(read('si/dos-offmesh-vbm/dreams.dos'));
    const eig = printedEigenvalues(nscfText)!;
    const base = { scfOccupations: 'fixed', scfHighestOccupiedEv: scf.highestOccupiedEv!, nspin: 1 };
    const integrated = { energiesEv: dos.energiesEv, integrated: dos.integrated, electrons: 8 };

    it("takes the DOS zero from the NSCF's printed eigenvalues (band 4 at Γ, 6.2632 eV), above the SCF's 5.9775 eV", () => {
      assert.equal(scf.highestOccupiedEv, 5.9775);
      assert.equal(eig.up.length, 29);
      assert.deepEqual(eig.up[0], [-5.6605, 6.2632, 6.2632, 6.2632, 8.833, 8.833, 8.833, 9.8157]);
      const top = valenceEdges(base, 8, eig.up)!;
      assert.equal(top.vbmEv, 6.2632);
      const zero = dosZero(
        { ...base, nscfHighestOccupiedEv: top.vbmEv, nscfGapped: true },
        { energyEv: dos.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi },
        integrated,
      )!;
      assert.deepEqual(zero, { energyEv: 6.2632, kind: 'vbm', source: ZERO_SOURCE.nscfHighestOccupied });
    });

    it("says so beside the zero when dos.x's integrated DOS reaches the 8 electrons more than one DOS step from it", () => {
      // with only the SCF's level (an NSCF that printed no eigenvalues) the zero is 0.31 eV below where the DOS fills 8 electrons
      const zero = dosZero(base, { energyEv: dos.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi }, integrated)!;
      assert.equal(zero.energyEv, 5.9775);
      assert.match(zero.note ?? '', /reaches the 8 electrons at 6\.289 eV, 0\.311 eV from this zero \(more than its 0\.050 eV step\)/);
    });
  });

  describe('a spin-polarised insulator from a smeared SCF (O2 triplet)', () => {
    const scf = parsePwOutput(read('spin-bands/o2/scf.out'));
    const up = parseBandFile(read('spin-bands/o2/bands.up.dat')).energiesEv;
    const down = parseBandFile(read('spin-bands/o2/bands.down.dat')).energiesEv;
    const levels = { scfOccupations: 'smearing', scfFermiEnergyEv: scf.fermiEnergyEv!, nspin: 2 };

    it('draws the bands and the DOS against the valence-band maximum, not against two Fermi energies', () => {
      assert.equal(scf.fermiEnergyEv, -4.9758);
      assert.equal(scf.totalMagnetization, 2);
      const pathTop = valenceEdges(levels, 12, up, down)!.vbmEv;
      assert.equal(pathTop, Math.max(...up.map((e) => e[6]!)), 'the top of the 7th majority band (π*↑) along the path');
      assert.deepEqual(bandStructureZero(levels, pathTop), { energyEv: pathTop, kind: 'vbm', source: ZERO_SOURCE.pathTop });
      // the SCF's own eigenvalues at Γ (its only k-point), as pw.x printed them: π*↑ at -5.2265 eV is the highest below E_F
      const eig = printedEigenvalues(read('spin-bands/o2/scf.out'))!;
      const top = valenceEdges(levels, 12, eig.up, eig.down)!;
      assert.equal(top.vbmEv, -5.2265);
      assert.equal(top.cbmEv, -2.7601);
      const zero = dosZero(
        { ...levels, nscfHighestOccupiedEv: top.vbmEv, nscfGapped: true },
        { energyEv: -3.9, source: ZERO_SOURCE.dosxFermi },
      );
      assert.deepEqual(zero, { energyEv: -5.2265, kind: 'vbm', source: ZERO_SOURCE.nscfHighestOccupied });
    });

    it("draws a spin-polarised metal's DOS against dos.x's Fermi energy and names the SCF's, the one its bands use", () => {
      const fe = parsePwOutput(read('spin-bands/fe/scf.out'));
      const feUp = parseBandFile(read('spin-bands/fe/bands.up.dat')).energiesEv;
      const feDown = parseBandFile(read('spin-bands/fe/bands.down.dat')).energiesEv;
      const feLevels = { scfOccupations: 'smearing', scfFermiEnergyEv: fe.fermiEnergyEv!, nspin: 2 };
      assert.equal(valenceEdges(feLevels, fe.settings.electrons!, feUp, feDown), undefined, 'bands cross E_F: no VBM');
      const dosFe = parseDosFile(read('fe/fe.dos')); // another bcc Fe run: its dos.x E_F 13.374 eV
      const zero = dosZero(feLevels, { energyEv: dosFe.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi })!;
      assert.equal(zero.energyEv, 13.374);
      assert.equal(zero.source, ZERO_SOURCE.dosxFermi);
      assert.match(zero.note ?? '', /the band structure is drawn against the SCF's Fermi energy, 12\.783 eV \(-0\.591 eV from this zero/);
      assert.deepEqual(bandStructureZero(feLevels, undefined), { energyEv: 12.7831, kind: 'fermi', source: ZERO_SOURCE.scfFermi });
    });
  });

  describe('an unpolarised metal (fcc Al): the DOS and the bands each against the Fermi energy of their own runs, the difference said', () => {
    it("draws the DOS against dos.x's Fermi energy, 0.122 eV above the SCF's its bands use, and says so beside the zero", () => {
      // al/scf.in (mv 0.05 Ry, 8×8×8) and al/al.dos (dos.x on the tetrahedra_opt nscf of al/nscf.in), QE 6.7
      const scf = parsePwOutput(read('al/scf.out'));
      const dos = parseDosFile(read('al/al.dos'));
      assert.equal(scf.fermiEnergyEv, 7.5679);
      assert.equal(dos.fermiEnergyEv, 7.69);
      const levels = { scfOccupations: 'smearing', scfFermiEnergyEv: scf.fermiEnergyEv!, nspin: 1 };
      const integrated = { energiesEv: dos.energiesEv, integrated: dos.integrated, electrons: 3 };
      const zero = dosZero(levels, { energyEv: dos.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi }, integrated)!;
      assert.deepEqual(bandStructureZero(levels, undefined), { energyEv: 7.5679, kind: 'fermi', source: ZERO_SOURCE.scfFermi });
      assert.equal(zero.energyEv, 7.69);
      assert.equal(zero.source, ZERO_SOURCE.dosxFermi);
      assert.match(
        zero.note ?? '',
        /the band structure is drawn against the SCF's Fermi energy, 7\.568 eV \(-0\.122 eV from this zero, on the SCF's own k mesh and smearing\)/,
      );
    });
  });

  describe('a fixed total magnetization (O2, tot_magnetization = 2)', () => {
    it('reads each spin channel against its own Fermi energy when pw.x printed two (smeared occupations)', () => {
      const text = read('spin-bands/o2-smeared-moment/scf.out');
      const out = parsePwOutput(text);
      assert.deepEqual(out.fermiEnergiesUpDownEv, [-3.0433, -7.7976]);
      assert.equal(out.fermiEnergyEv, undefined, 'no single Fermi energy printed');
      const eig = printedEigenvalues(text)!;
      const gap = bandGap({
        energiesEv: eig.up,
        energiesDownEv: eig.down!,
        nspin: 2,
        electrons: out.settings.electrons!,
        occupations: 'smearing',
        fermiEnergiesUpDownEv: out.fermiEnergiesUpDownEv!,
      });
      const channels = gap.channels!.map((c) => (c.metallic ? c : { spin: c.spin, gapEv: +c.gapEv.toFixed(4), occupied: c.occupiedBands }));
      assert.deepEqual(channels, [
        { spin: 'up', gapEv: 5.6746, occupied: 7 }, // 0.4481 − (−5.2265)
        { spin: 'down', gapEv: 6.9019, occupied: 5 }, // −2.7601 − (−9.6620)
      ]);
      assert.equal(+gap.gapEv.toFixed(4), 2.4664); // π*↓ −2.7601 − π*↑ −5.2265
      const levels = { scfOccupations: 'smearing', scfFermiEnergiesUpDownEv: out.fermiEnergiesUpDownEv!, nspin: 2 };
      assert.equal(valenceEdges(levels, 12, eig.up, eig.down)!.vbmEv, -5.2265);
    });

    it("fills (N ± M)/2 states per channel for fixed occupations, and names the SCF's highest occupied level a VBM, not a Fermi energy", () => {
      const text = read('spin-bands/o2-fixed-moment/scf.out');
      const out = parsePwOutput(text);
      assert.equal(out.highestOccupiedEv, -5.2265);
      assert.equal(out.lowestUnoccupiedEv, -2.7601);
      assert.equal(out.totalMagnetization, 2);
      const eig = printedEigenvalues(text)!;
      const levels = { scfOccupations: 'fixed', scfHighestOccupiedEv: out.highestOccupiedEv!, scfMagnetization: 2, nspin: 2 };
      assert.deepEqual(valenceEdges(levels, 12, eig.up, eig.down), { vbmEv: -5.2265, cbmEv: -2.7601 });
      assert.deepEqual(bandStructureZero(levels, undefined), { energyEv: -5.2265, kind: 'vbm', source: ZERO_SOURCE.scfHighestOccupied });
    });

    it('gives each channel its own gap from (N ± M)/2 filled states when the occupations were fixed', () => {
      const text = read('spin-bands/o2-fixed-moment/scf.out');
      const out = parsePwOutput(text);
      const eig = printedEigenvalues(text)!;
      const gap = bandGap({
        energiesEv: eig.up,
        energiesDownEv: eig.down!,
        nspin: 2,
        electrons: out.settings.electrons!,
        occupations: 'fixed',
        magnetization: out.totalMagnetization as number,
      });
      const channels = gap.channels!.map((c) => (c.metallic ? c : { spin: c.spin, gapEv: +c.gapEv.toFixed(4), occupied: c.occupiedBands }));
      assert.deepEqual(channels, [
        { spin: 'up', gapEv: 5.6746, occupied: 7 },
        { spin: 'down', gapEv: 6.9019, occupied: 5 },
      ]);
      // the crystal's gap is the one pw.x printed: lowest unoccupied −2.7601 minus highest occupied −5.2265
      assert.equal(+gap.gapEv.toFixed(4), +(out.lowestUnoccupiedEv! - out.highestOccupiedEv!).toFixed(4));
    });
  });

  it('says what to report instead when the Fermi level crosses bands in both channels (bcc Fe)', () => {
    const fe = parsePwOutput(read('spin-bands/fe/scf.out'));
    const up = parseBandFile(read('spin-bands/fe/bands.up.dat')).energiesEv;
    const down = parseBandFile(read('spin-bands/fe/bands.down.dat')).energiesEv;
    assert.throws(
      () =>
        bandGap({
          energiesEv: up,
          energiesDownEv: down,
          nspin: 2,
          electrons: fe.settings.electrons!,
          occupations: 'smearing',
          fermiEnergyEv: fe.fermiEnergyEv!,
        }),
      /a metal in both spin channels; a gap cannot be claimed\. Report the DOS at the Fermi level \(run_dos_x\) instead\./,
    );
  });
});
