import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { BandStructureValue, DosValue } from '../../../../../src/core/artifacts/electronic';
import { dosZero, ZERO_SOURCE } from '../../../../../src/core/dft/electronic/energyZero';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output/parse';
import { parseDosFile } from '../../../../../src/core/dft/qe/postprocessing/dosx';
import { parseBandFile } from '../../../../../src/core/dft/qe/postprocessing/bandsx';
import {
  bandStructureSvg,
  dosSvg,
  electronicStructureReportSection,
  SPIN_COLOURS,
} from '../../../../../src/core/report/sections/electronicStructure';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';

// QE 6.7 on diamond Si: the SCF (fixed occupations) and dos.x after a tetrahedra nscf (test/fixtures/dft/qe-postprocessing/si/dos-tetrahedra)
const DIR = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/si/dos-tetrahedra');
const file = parseDosFile(fs.readFileSync(path.join(DIR, 'dreams.dos'), 'utf8'));
const scf = parsePwOutput(fs.readFileSync(path.join(DIR, 'scf.out'), 'utf8'));
const value = (withZero: boolean): DosValue => ({
  energiesEv: file.energiesEv,
  total: file.dos,
  integrated: file.integrated,
  occupations: 'tetrahedra_opt',
  fermiEnergyEv: file.fermiEnergyEv!,
  ...(withZero
    ? {
        reference: dosZero(
          { scfOccupations: 'fixed', scfHighestOccupiedEv: scf.highestOccupiedEv! },
          { energyEv: file.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi },
        )!,
      }
    : {}),
});

describe("the report's DOS of an insulator", () => {
  it('draws it against the valence-band maximum, as the band structure, and marks E_VBM, not E_F', () => {
    const svg = dosSvg(value(true), 'a-8');
    assert.match(svg, /E − E_VBM \(eV\)/);
    assert.match(svg, /E_VBM = 6\.270 eV/);
    assert.doesNotMatch(svg, /E − E_F/);
  });

  it('says the zero and what printed it in the line under the plot', () => {
    const a = { id: 'a-8', name: 'dos', kind: 'table', status: 'final', value: value(true) } as unknown as ArtifactRecord;
    const md = electronicStructureReportSection([a])!.markdown.join('\n');
    assert.match(md, /zero at the valence-band maximum \(6\.270 eV, highest occupied level of the SCF, pw\.x\)/);
    assert.match(md, /Fermi energy \*\*6\.738 eV\*\*/);
  });

  it('keeps a DOS recorded before the zero existed against its E_F', () => {
    assert.match(dosSvg(value(false), 'a-8'), /E − E_F \(eV\)/);
  });
});

// QE 6.7 on fcc Al: the SCF (mv 0.05 Ry, 8×8×8) and dos.x after a tetrahedra_opt nscf (test/fixtures/dft/qe-postprocessing/al)
describe("the report's DOS of a metal", () => {
  it("says its zero, what printed it, and the SCF's Fermi energy its band structure is drawn against", () => {
    const AL = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/al');
    const al = parseDosFile(fs.readFileSync(path.join(AL, 'al.dos'), 'utf8'));
    const alScf = parsePwOutput(fs.readFileSync(path.join(AL, 'scf.out'), 'utf8'));
    const v: DosValue = {
      energiesEv: al.energiesEv,
      total: al.dos,
      integrated: al.integrated,
      occupations: 'tetrahedra_opt',
      fermiEnergyEv: al.fermiEnergyEv!,
      reference: dosZero(
        { scfOccupations: 'smearing', scfFermiEnergyEv: alScf.fermiEnergyEv! },
        { energyEv: al.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi },
      )!,
    };
    const a = { id: 'a-8', name: 'dos', kind: 'table', status: 'final', value: v } as unknown as ArtifactRecord;
    const md = electronicStructureReportSection([a])!.markdown.join('\n');
    assert.match(
      md,
      /zero at the Fermi level \(7\.690 eV, dos\.x\) \(the band structure is drawn against the SCF's Fermi energy, 7\.568 eV \(-0\.122 eV from this zero/,
    );
  });
});

// QE 6.7 on bcc Fe, spin-polarised: dos.x's dosup and dosdw columns (test/fixtures/dft/qe-postprocessing/fe/fe.dos)
describe("the report's plots of a spin-polarised crystal", () => {
  const FE = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/fe/fe.dos');
  const fe = parseDosFile(fs.readFileSync(FE, 'utf8'));
  const feDos: DosValue = {
    energiesEv: fe.energiesEv,
    total: fe.dos,
    integrated: fe.integrated,
    spin: fe.spin!,
    occupations: 'tetrahedra_opt',
    fermiEnergyEv: fe.fermiEnergyEv!,
  };

  it('draws the DOS of each spin channel, up above the axis and down below it', () => {
    const svg = dosSvg(feDos, 'a-8');
    assert.match(svg, /total, spin up/);
    assert.match(svg, /total, spin down \(drawn negative\)/);
    assert.match(svg, /spin down &lt; 0/);
    // the DOS axis runs from the minority's largest value, negated, to the majority's
    const ticks = [...svg.matchAll(/text-anchor="end"[^>]*>(-?[\d.]+)<\/text>/g)].map((m) => Number(m[1]));
    assert.ok(Math.min(...ticks) <= -Math.max(...fe.spin!.down) * 0.5, `lowest tick ${Math.min(...ticks)}`);
    assert.ok(Math.max(...ticks) >= Math.max(...fe.spin!.up) * 0.5, `highest tick ${Math.max(...ticks)}`);
    const md = electronicStructureReportSection([
      { id: 'a-8', name: 'dos', kind: 'table', status: 'final', value: feDos } as unknown as ArtifactRecord,
    ])!.markdown.join('\n');
    assert.match(md, /spin-polarised: spin up above the axis, spin down below/);
  });

  it('draws the majority and minority bands of triplet O2 in two colours with a legend, and says each channel has its gap', () => {
    const SPIN = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/spin-bands/o2');
    const up = parseBandFile(fs.readFileSync(path.join(SPIN, 'bands.up.dat'), 'utf8')).energiesEv;
    const down = parseBandFile(fs.readFileSync(path.join(SPIN, 'bands.down.dat'), 'utf8')).energiesEv;
    const o2 = parsePwOutput(fs.readFileSync(path.join(SPIN, 'scf.out'), 'utf8'));
    const byBand = (e: number[][]) => e[0]!.map((_, b) => e.map((row) => row[b]!));
    const x = up.map((_, k) => k / (up.length - 1));
    const bs: BandStructureValue = {
      x,
      bandsEv: byBand(up),
      bandsDownEv: byBand(down),
      ticks: [
        { x: 0, label: 'Γ' },
        { x: 1, label: 'A' },
      ],
      reference: { energyEv: o2.fermiEnergyEv!, kind: 'fermi' },
      kpoints: x.map(() => [0, 0, 0]),
      electrons: 12,
      nspin: 2,
      occupations: 'smearing',
      lattice: 'TET',
      convention: 'Setyawan-Curtarolo 2010',
    };
    const svg = bandStructureSvg(bs, 'a-9');
    assert.equal(svg.match(/class="spin-up"/g)?.length, 16);
    assert.equal(svg.match(/class="spin-down"/g)?.length, 16);
    assert.match(svg, new RegExp(`stroke="${SPIN_COLOURS.up}" class="spin-up"`));
    assert.match(svg, new RegExp(`stroke="${SPIN_COLOURS.down}" stroke-dasharray="4 2" class="spin-down"`));
    assert.match(svg, />spin up \(majority\)</);
    assert.match(svg, />spin down \(minority\)</);
    const gap = {
      gapEv: 2.265,
      direct: false,
      vbm: { energyEv: -5.1, k: [0, 0, 0], x: 0.5, location: '0.50 of Γ–A', nearest: 'Γ' },
      cbm: { energyEv: -2.8, k: [0, 0, 0], x: 1, location: 'A', nearest: 'A' },
      directGapEv: 2.315,
      directGapLocation: 'A',
      occupiedBands: 12,
      channels: [
        { spin: 'up', gapEv: 5.662, direct: false, occupiedBands: 7 },
        { spin: 'down', gapEv: 6.687, direct: true, occupiedBands: 5 },
      ],
    };
    const md = electronicStructureReportSection([
      { id: 'a-9', name: 'band_structure', kind: 'table', status: 'final', value: bs } as unknown as ArtifactRecord,
      { id: 'a-10', name: 'band_gap', kind: 'table', status: 'final', value: gap } as unknown as ArtifactRecord,
    ])!.markdown.join('\n');
    assert.match(md, /16 bands in each spin channel/);
    assert.match(md, /Per spin channel: up 5\.662 eV \(indirect\), down 6\.687 eV \(direct\)/);
  });
});

// QE 6.7 outputs: dos.x on bcc Fe (fe/fe.dos, −9.5 to +24.6 eV around E_F), on fcc Al (al/al.dos, to +27 eV) and bands.x on bcc Fe (spin-bands/fe)
describe("the report's DOS in the bands' energy window", () => {
  const FIX = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing');
  const read = (f: string) => parseDosFile(fs.readFileSync(path.join(FIX, f), 'utf8'));
  const fe = read('fe/fe.dos');
  const al = read('al/al.dos');
  const valueOf = (d: typeof fe): DosValue => ({
    energiesEv: d.energiesEv,
    total: d.dos,
    integrated: d.integrated,
    ...(d.spin ? { spin: d.spin } : {}),
    occupations: 'tetrahedra_opt',
    fermiEnergyEv: d.fermiEnergyEv!,
  });
  // the energy axis's tick labels (under the plot, centred) and the y axis's (left of it, right-aligned)
  const xTicks = (svg: string) => [...svg.matchAll(/text-anchor="middle">(-?[\d.]+)<\/text>/g)].map((m) => Number(m[1]));
  const yTicks = (svg: string) => [...svg.matchAll(/y="[\d.]+" text-anchor="end">(-?[\d.]+)<\/text>/g)].map((m) => Number(m[1]));

  it('draws E − E_F from −12 to 8 eV, the axis of the band structure of the same crystal, and says what it leaves out', () => {
    const svg = dosSvg(valueOf(fe), 'a-31');
    // ticks every 5 eV; E − E_F = −12 and 8 eV at the plot's left and right edges, 78 and 620 px
    assert.deepEqual(xTicks(svg), [-10, -5, 0, 5]);
    const at = (t: number) => Number(new RegExp(`<text x="([\\d.]+)" y="[\\d.]+" text-anchor="middle">${t}</text>`).exec(svg)![1]);
    assert.ok(Math.abs(at(0) - (78 + (12 / 20) * 542)) < 0.1, `E_F at ${at(0)} px`);
    assert.ok(Math.abs(at(5) - (78 + (17 / 20) * 542)) < 0.1, `5 eV at ${at(5)} px`);
    const byBand = (e: number[][]) => e[0]!.map((_, b) => e.map((row) => row[b]!));
    const band = (f: string) => byBand(parseBandFile(fs.readFileSync(path.join(FIX, 'spin-bands/fe', f), 'utf8')).energiesEv);
    const up = band('bands.up.dat');
    const x = up[0]!.map((_, k) => k / (up[0]!.length - 1));
    const bands = bandStructureSvg(
      {
        x,
        bandsEv: up,
        bandsDownEv: band('bands.down.dat'),
        ticks: [
          { x: 0, label: 'Γ' },
          { x: 1, label: 'N' },
        ],
        reference: { energyEv: 12.783, kind: 'fermi' },
        kpoints: x.map(() => [0, 0, 0]),
        electrons: 16,
        nspin: 2,
        occupations: 'smearing',
        lattice: 'BCC',
        convention: 'Setyawan-Curtarolo 2010',
      },
      'a-30',
    );
    const bandTicks = [...bands.matchAll(/text-anchor="end">(-?[\d.]+)<\/text>/g)].map((m) => Number(m[1]));
    assert.deepEqual(xTicks(svg), bandTicks, 'the DOS and the bands share the energy range');
    assert.match(svg, /class="note"[^>]*>drawn −12 to 8 eV of −9\.5 to 24\.6 eV \(the artifact keeps all\)</);
    // every curve ends at the window's edges, 78 to 620 px across (the plot's margins)
    for (const d of [...svg.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]!)) {
      const xs = [...d.matchAll(/[ML](-?[\d.]+) /g)].map((m) => Number(m[1]));
      assert.ok(Math.min(...xs) >= 78 && Math.max(...xs) <= 620, `x from ${Math.min(...xs)} to ${Math.max(...xs)} px`);
    }
  });

  it("fits the DOS axis to the states inside the window, not to Al's free-electron states 20 eV above E_F", () => {
    const svg = dosSvg(valueOf(al), 'a-12');
    const inside = Math.max(...al.dos.filter((_, i) => al.energiesEv[i]! - al.fermiEnergyEv! <= 8));
    const top = Math.max(...yTicks(svg));
    assert.ok(Math.max(...al.dos) > 1.3 * inside, `dos.x's largest ${Math.max(...al.dos)} beyond the window, ${inside} inside`);
    assert.ok(top >= 0.9 * inside && top < Math.max(...al.dos) * 0.8, `top tick ${top} for ${inside} states/eV inside the window`);
  });

  it('says nothing of a window that leaves no data out', () => {
    const near = fe.energiesEv.map((_, i) => i).filter((i) => Math.abs(fe.energiesEv[i]! - fe.fermiEnergyEv!) < 5);
    const svg = dosSvg(
      { ...valueOf(fe), energiesEv: near.map((i) => fe.energiesEv[i]!), total: near.map((i) => fe.dos[i]!), spin: undefined },
      'a-31',
    );
    assert.doesNotMatch(svg, /class="note"/);
    assert.deepEqual(xTicks(svg), [-10, -5, 0, 5]);
  });
});
