import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bandGap, spinChannelGap } from '../../../../../src/core/dft/electronic/bandGap';
import { DftScienceError } from '../../../../../src/core/dft/scienceError';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output/parse';
import { parseBandFile } from '../../../../../src/core/dft/qe/postprocessing/bandsx';

// QE 6.7, bands.x once per spin channel after a spin-polarised SCF (test/fixtures/dft/qe-postprocessing/spin-bands)
const FIX = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/spin-bands');
const read = (name: string) => {
  const dir = path.join(FIX, name);
  const scf = parsePwOutput(fs.readFileSync(path.join(dir, 'scf.out'), 'utf8'));
  return {
    scf,
    up: parseBandFile(fs.readFileSync(path.join(dir, 'bands.up.dat'), 'utf8')).energiesEv,
    down: parseBandFile(fs.readFileSync(path.join(dir, 'bands.down.dat'), 'utf8')).energiesEv,
  };
};

describe('the band gap of a spin-polarised crystal, from both spin channels', () => {
  it("gives triplet O2's gap per channel and the crystal's gap between the channels (π*↑ to π*↓)", () => {
    const o2 = read('o2');
    const gap = bandGap({
      energiesEv: o2.up,
      energiesDownEv: o2.down,
      nspin: 2,
      electrons: o2.scf.settings.electrons!,
      occupations: 'smearing',
      fermiEnergyEv: o2.scf.fermiEnergyEv!,
    });
    const [up, down] = gap.channels!;
    assert.ok(up && !up.metallic && down && !down.metallic);
    // majority: 7 bands below E_F (π*↑ filled), minority: 5 (π*↓ empty); 2 μB
    assert.equal(up.occupiedBands, 7);
    assert.equal(down.occupiedBands, 5);
    assert.equal(up.gapEv.toFixed(3), '5.662');
    assert.equal(down.gapEv.toFixed(3), '6.687');
    // the crystal's gap: the highest occupied state (majority) to the lowest empty one (minority), smaller than either channel's
    assert.equal(gap.gapEv.toFixed(3), '2.265');
    assert.equal(gap.vbm.energyEv, up.vbm.energyEv);
    assert.equal(gap.cbm.energyEv, down.cbm.energyEv);
    assert.equal(gap.occupiedBands, 12);
  });

  it('refuses a gap of bcc Fe, naming the band of each channel that crosses the Fermi level', () => {
    const fe = read('fe');
    const ef = fe.scf.fermiEnergyEv!;
    assert.throws(
      () =>
        bandGap({
          energiesEv: fe.up,
          energiesDownEv: fe.down,
          nspin: 2,
          electrons: fe.scf.settings.electrons!,
          occupations: 'smearing',
          fermiEnergyEv: ef,
        }),
      (e: unknown) =>
        e instanceof DftScienceError &&
        /the Fermi level \(12\.783 eV\) lies inside a band/.test(e.message) &&
        /majority \(spin-up\) channel/.test(e.message) &&
        /minority \(spin-down\) channel/.test(e.message) &&
        /a metal in both spin channels/.test(e.message),
    );
    assert.equal(spinChannelGap('up', fe.up, ef).metallic, true);
    assert.equal(spinChannelGap('down', fe.down, ef).metallic, true);
  });

  it('refuses a gap of zincblende CaN, a half-metal: names the gapped majority channel and its gap, and the minority band at E_F', () => {
    // pw.x 6.7 and bands.x: 1.00 μB/cell, the majority N 2p bands full, the minority ones cross E_F
    const can = read('can-zb');
    const ef = can.scf.fermiEnergyEv!;
    assert.equal(ef, 5.24);
    assert.throws(
      () =>
        bandGap({
          energiesEv: can.up,
          energiesDownEv: can.down,
          nspin: 2,
          electrons: can.scf.settings.electrons!,
          occupations: 'smearing',
          fermiEnergyEv: ef,
        }),
      (e: unknown) =>
        e instanceof DftScienceError &&
        /band 7 of the minority \(spin-down\) channel spans 4\.787 to 5\.631 eV/.test(e.message) &&
        /a half-metal in this calculation: only the majority \(spin-up\) channel has a gap \(3\.606 eV\)/.test(e.message) &&
        /Report instead that the crystal is a half-metal/.test(e.message),
    );
    const up = spinChannelGap('up', can.up, ef);
    assert.equal(up.metallic, false);
    assert.equal(up.occupiedBands, 8);
    assert.equal(spinChannelGap('down', can.down, ef).metallic, true);
  });

  it('asks for the second channel when a spin-polarised band structure holds one', () => {
    const o2 = read('o2');
    assert.throws(
      () => bandGap({ energiesEv: o2.up, nspin: 2, electrons: 12, occupations: 'smearing', fermiEnergyEv: o2.scf.fermiEnergyEv! }),
      /needs the bands of both spin channels .*spin_component 1 and 2/,
    );
  });
});
