import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseBandFile, renderBandsxInput } from '../../../../../../src/core/dft/qe/postprocessing/bandsx';
import { parseDosFile, renderDosxInput } from '../../../../../../src/core/dft/qe/postprocessing/dosx';
import { parseLowdinCharges, parsePdosFiles, renderProjwfcxInput } from '../../../../../../src/core/dft/qe/postprocessing/projwfcx';
import { checkRelativeOutdir } from '../../../../../../src/core/dft/qe/postprocessing/namelist';

// Written by Quantum ESPRESSO 6.7 (Debian) on this project's inputs (the .in files beside them).
const FIX = path.join(__dirname, '../../../../../fixtures/dft/qe-postprocessing');
const read = (...p: string[]) => fs.readFileSync(path.join(FIX, ...p), 'utf8');
const filesOf = (dir: string, prefix: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(FIX, dir))
      .filter((f) => f.startsWith(`${prefix}.pdos`))
      .map((f) => [f, read(dir, f)]),
  );

describe('bands.x files', () => {
  it('reads the band file of diamond Si: 8 bands at 61 k-points, Γ first with the triply degenerate top of the valence band', () => {
    const b = parseBandFile(read('si', 'si.bands.dat'));
    assert.equal(b.nbnd, 8);
    assert.equal(b.energiesEv.length, 61);
    assert.deepEqual(b.kCartesianTwoPiOverAlat[0], [0, 0, 0]);
    assert.deepEqual(b.energiesEv[0], [-5.743, 6.018, 6.018, 6.018, 8.579, 8.579, 8.579, 9.243]);
    assert.deepEqual(b.kCartesianTwoPiOverAlat[1], [0, 0.035355, 0]);
  });

  it('says a band file cut short holds fewer k-points than it announces', () => {
    const text = read('si', 'si.bands.dat');
    const cut = text.slice(0, Math.floor(text.length / 2));
    assert.throws(() => parseBandFile(cut), /cut short: it announces 61 k-points of 8 bands but holds \d+ complete ones/);
  });

  it('refuses a file that is not a band file', () => {
    assert.throws(() => parseBandFile(read('al', 'al.dos')), /not a bands.x band file/);
  });

  it('writes an input with quoted names and energy-sorted bands', () => {
    const text = renderBandsxInput({ prefix: "si'x", outdir: './out', filband: 'bands.dat' });
    assert.match(text, /prefix = 'si''x'/);
    assert.match(text, /lsym = \.false\./);
  });
});

describe('dos.x files', () => {
  it('reads the DOS of fcc Al with its Fermi energy and three electrons integrated up to it', () => {
    const d = parseDosFile(read('al', 'al.dos'));
    assert.equal(d.fermiEnergyEv, 7.69);
    assert.equal(d.energiesEv[0], -3.391);
    assert.equal(d.dos.length, d.energiesEv.length);
    const i = d.energiesEv.findIndex((e) => e >= 7.69);
    assert.ok(Math.abs(d.integrated[i]! - 3) < 0.05, `integrated DOS at E_F = ${d.integrated[i]}`);
    assert.equal(d.integrated.at(-1), 16);
  });

  it('reads both spin channels of bcc Fe and adds them for the total', () => {
    const d = parseDosFile(read('fe', 'fe.dos'));
    assert.ok(d.spin);
    assert.equal(d.fermiEnergyEv, 13.374);
    d.dos.forEach((v, i) => assert.equal(v, d.spin!.up[i]! + d.spin!.down[i]!));
  });

  it('writes degauss in Ry, as dos.x reads it', () => {
    assert.match(
      renderDosxInput({ prefix: 'al', outdir: './out', fildos: 'al.dos', deltaEEv: 0.05, degaussEv: 0.13605693122994 }),
      /degauss = 0\.01\b/,
    );
  });

  it('refuses an outdir outside the job directory', () => {
    assert.throws(() => checkRelativeOutdir('../other/out', 'dos.x'), /relative path inside the job directory/);
    assert.throws(() => checkRelativeOutdir('/scratch/out', 'dos.x'), /relative path/);
  });
});

describe('projwfc.x files', () => {
  it("reads the s and p channels of Al whose sum is pdos_tot's projected column", () => {
    const p = parsePdosFiles(filesOf('al', 'al'));
    assert.deepEqual(
      p.channels.map((c) => `${c.atom}${c.species}${c.wavefunction}${c.l}`),
      ['1Al1s', '1Al2p'],
    );
    p.energiesEv.forEach((_, i) => {
      const sum = p.channels.reduce((s, c) => s + c.ldos[i]!, 0);
      assert.ok(
        Math.abs(sum - p.projectedSum[i]!) <= 2e-3 * Math.max(1, p.projectedSum[i]!) + 2e-3,
        `E=${p.energiesEv[i]}: ${sum} vs ${p.projectedSum[i]}`,
      );
    });
  });

  it('reads spin-polarised channels of Fe (up and down columns)', () => {
    const p = parsePdosFiles(filesOf('fe', 'fe'));
    const d = p.channels.find((c) => c.l === 'd')!;
    assert.ok(d.spin && p.spinTotal);
    d.ldos.forEach((v, i) => assert.equal(v, d.spin!.up[i]! + d.spin!.down[i]!));
  });

  it('reads the Löwdin charges by l, and the polarisation of a spin-polarised atom', () => {
    const al = parseLowdinCharges(read('al', 'projwfc.lowdin.out'));
    assert.deepEqual(al.atoms, [{ atom: 1, total: 2.9545, byL: { s: 0.9337, p: 2.0208 } }]);
    assert.equal(al.spilling, 0.0152);
    const fe = parseLowdinCharges(read('fe', 'projwfc.lowdin.out'));
    assert.deepEqual(fe.atoms, [{ atom: 1, total: 7.9162, byL: { s: 0.8589, p: 0, d: 7.0573 }, polarization: 2.698 }]);
  });

  it('says which file is missing when pdos_tot is absent', () => {
    assert.throws(
      () => parsePdosFiles({ 'al.pdos_atm#1(Al)_wfc#1(s)': read('al', 'al.pdos_atm#1(Al)_wfc#1(s)') }),
      /no \.pdos_tot among the files/,
    );
  });

  it('writes filpdos quoted', () => {
    assert.match(renderProjwfcxInput({ prefix: 'al', outdir: './out', filpdos: 'al', deltaEEv: 0.05 }), /filpdos = 'al'/);
  });
});
