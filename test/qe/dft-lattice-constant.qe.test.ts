// The lattice-constant protocol end to end with the real pw.x 6.7: a cutoff sweep at the
// finest k spacing, a k sweep at the chosen cutoff, the selection, a 5-point EOS centred on
// the minimum, and a lattice constant checked against pw.x's own stress and against ev.x.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selectConvergedSettings, type ConvergedSettings } from '../../src/core/dft/convergence';
import { fitEos, type EosFit } from '../../src/core/dft/eos';
import { latticeConstantFromVolume } from '../../src/core/dft/lattice';
import { bulk, type BulkKind } from '../../src/core/dft/structure/bulk';
import { evxLatticeConstant, PwRunner, zeroPressureLatticeConstant, type Material, type PwPoint } from './dft-support';

interface Case {
  title: string;
  kind: BulkKind;
  material: Material;
  /** A starting guess; the EOS is re-centred on the first fit's minimum. */
  aGuessAngstrom: number;
  cutoffsRy: number[];
  kSpacingsPerAngstrom: number[];
}

const THRESHOLD_MEV_PER_ATOM = 1;
const SCALES = [0.985, 0.9925, 1, 1.0075, 1.015];

const cases: Case[] = [
  {
    title: 'fcc Al (Al.pz-vbc.UPF, LDA, Marzari–Vanderbilt 0.05 Ry)',
    kind: 'fcc',
    material: {
      element: 'Al',
      massAmu: 26.98,
      pseudopotential: 'Al.pz-vbc.UPF',
      functional: 'PZ',
      system: { occupations: 'smearing', smearing: 'mv', degauss: 0.05 },
    },
    aGuessAngstrom: 3.97,
    cutoffsRy: [20, 30, 40, 50, 60],
    kSpacingsPerAngstrom: [0.3, 0.25, 0.2, 0.17, 0.15, 0.12],
  },
  {
    title: 'diamond Si (Si.pbe-rrkj.UPF, PBE, fixed occupations)',
    kind: 'diamond',
    material: { element: 'Si', massAmu: 28.086, pseudopotential: 'Si.pbe-rrkj.UPF', functional: 'PBE', system: { occupations: 'fixed' } },
    aGuessAngstrom: 5.45,
    cutoffsRy: [12, 16, 20, 24, 30, 40],
    kSpacingsPerAngstrom: [0.6, 0.45, 0.35, 0.25, 0.2, 0.15],
  },
];

for (const c of cases) {
  describe(`lattice constant of ${c.title} with pw.x`, function () {
    this.timeout(600_000);
    let dir: string;
    let pw: PwRunner;
    let converged: ConvergedSettings;
    let eos: EosFit;
    let centred: PwPoint[];
    let cutoffRuns: PwPoint[];
    let aEos: number;
    const crystal = (a: number) => bulk({ kind: c.kind, symbols: [c.material.element], aAngstrom: a, cell: 'primitive' });
    const aOf = (p: PwPoint) => latticeConstantFromVolume(p.volumeA3, { bravais: c.kind, cell: 'primitive' }).aAngstrom;

    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-dft-${c.material.element}-`));
      pw = new PwRunner(dir, c.material);
      const finestK = Math.min(...c.kSpacingsPerAngstrom);
      cutoffRuns = c.cutoffsRy.map((e) => pw.run(crystal(c.aGuessAngstrom), e, finestK));
      const chosen = selectConvergedSettings({ cutoffRuns, thresholdMevPerAtom: THRESHOLD_MEV_PER_ATOM });
      if (chosen.cutoff.outcome.status !== 'converged') throw new Error(`cutoff sweep did not converge: ${chosen.cutoff.outcome.message}`);
      const ecut = chosen.cutoff.outcome.chosenValue;
      const kspacingRuns = c.kSpacingsPerAngstrom.map((k) =>
        k === finestK ? cutoffRuns[c.cutoffsRy.indexOf(ecut)] : pw.run(crystal(c.aGuessAngstrom), ecut, k),
      );
      converged = selectConvergedSettings({ cutoffRuns, kspacingRuns, thresholdMevPerAtom: THRESHOLD_MEV_PER_ATOM });
    });

    after(() => {
      console.log(`      ${c.material.element}: ${pw.runs} pw.x runs, ${pw.seconds.toFixed(1)} s`);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('chooses the cutoff from a sweep at the finest k spacing, under 1 meV/atom with every finer cutoff', () => {
      const table = converged.cutoff.table;
      // settings read back from each generated input and its pseudopotential header
      assert.equal(cutoffRuns[0].settings.functional, c.material.functional);
      assert.match(String(cutoffRuns[0].settings.codeVersion), /^6\.7/);
      assert.deepEqual(
        cutoffRuns.map((r) => r.settings.ecutwfcRy),
        c.cutoffsRy,
      );
      assert.equal(converged.cutoff.outcome.status, 'converged', JSON.stringify(converged.cutoff.outcome));
      const chosen = table.findIndex((r) => r.isChosen);
      assert.ok(chosen >= 0 && chosen < table.length - 1, 'the chosen cutoff is not the finest tested');
      assert.ok(table.slice(chosen).every((r) => r.errorMevPerAtom < THRESHOLD_MEV_PER_ATOM));
      assert.ok(chosen === 0 || table[chosen - 1].errorMevPerAtom >= THRESHOLD_MEV_PER_ATOM, 'nothing cheaper qualifies');
      // energies fall as the cutoff rises (variational), so the table is physically ordered
      for (let i = 1; i < table.length; i++) assert.ok(table[i].energyEv < table[i - 1].energyEv + 1e-6, `E(${table[i].value} Ry) rises`);
      console.log(`      cutoff table (meV/atom): ${table.map((r) => `${r.value}: ${r.errorMevPerAtom.toFixed(3)}`).join(', ')}`);
    });

    it('chooses the k spacing from a sweep at the chosen cutoff', () => {
      assert.ok(converged.kspacing, 'k sweep selected');
      assert.equal(converged.kspacing!.outcome.status, 'converged', JSON.stringify(converged.kspacing!.outcome));
      assert.ok(converged.chosen, 'both settings chosen');
      console.log(
        `      k table (meV/atom): ${converged.kspacing!.table.map((r) => `${r.value}: ${r.errorMevPerAtom.toFixed(3)}`).join(', ')}`,
      );
      console.log(`      chosen: ecutwfc ${converged.chosen!.ecutwfcRy} Ry, k spacing ${converged.chosen!.kSpacingPerAngstrom} 1/Å`);
    });

    it('fits a 5-point Birch–Murnaghan EOS centred on its own minimum', () => {
      const { ecutwfcRy, kSpacingPerAngstrom } = converged.chosen!;
      // one k-mesh per series, made for its central cell
      const first = SCALES.map((s) =>
        pw.run(crystal(c.aGuessAngstrom * s), ecutwfcRy, kSpacingPerAngstrom, crystal(c.aGuessAngstrom).cell),
      );
      const firstFit = fitEos(first, 'birch-murnaghan');
      const aFirst = latticeConstantFromVolume(firstFit.v0A3, { bravais: c.kind, cell: 'primitive' }).aAngstrom;
      centred = SCALES.map((s) => pw.run(crystal(aFirst * s), ecutwfcRy, kSpacingPerAngstrom, crystal(aFirst).cell));
      assert.equal(new Set(centred.map((p) => p.settings.kMesh!.join('x'))).size, 1, 'one mesh for the whole series');
      eos = fitEos(centred, 'birch-murnaghan');
      aEos = latticeConstantFromVolume(eos.v0A3, { bravais: c.kind, cell: 'primitive' }).aAngstrom;
      assert.deepEqual(eos.warnings, []);
      assert.ok(eos.v0A3 > eos.sampledVolumesA3[0] && eos.v0A3 < eos.sampledVolumesA3[1]);
      // the middle point is the lowest once centred
      const lowest = centred.reduce((m, p, i) => (p.energyEv < centred[m].energyEv ? i : m), 0);
      assert.equal(lowest, 2);
      // the fit's scatter stays well inside the tolerance the settings were converged to
      const rmsMevPerAtom = (eos.rmsResidualEv * 1000) / centred[0].natoms;
      assert.ok(rmsMevPerAtom < THRESHOLD_MEV_PER_ATOM / 2, `rms residual ${rmsMevPerAtom} meV/atom`);
      console.log(
        `      EOS: a0 ${aEos.toFixed(5)} Å, V0 ${eos.v0A3.toFixed(4)} Å^3, B0 ${eos.b0Gpa.toFixed(1)} GPa, B0' ${eos.b0Prime.toFixed(2)}, rms ${(eos.rmsResidualEv * 1000).toFixed(4)} meV`,
      );
    });

    it("agrees within 0.05 % with the zero-stress lattice constant from pw.x's own pressure", () => {
      const aZero = zeroPressureLatticeConstant(centred.map((p) => ({ aAngstrom: aOf(p), pressureKbar: p.pressureKbar })));
      const rel = Math.abs(aEos - aZero) / aZero;
      console.log(`      zero-stress a ${aZero.toFixed(5)} Å: EOS − stress = ${(rel * 100).toFixed(4)} %`);
      assert.ok(rel < 5e-4, `EOS a0 ${aEos} vs zero-stress a ${aZero}: ${(rel * 100).toFixed(3)} %`);
    });

    it('agrees with ev.x (Birch 1st order, type 1) on the centred points', () => {
      const aEvx = evxLatticeConstant(
        dir,
        'fcc',
        centred.map((p) => ({ aAngstrom: aOf(p), energyEv: p.energyEv })),
      );
      const rel = Math.abs(aEos - aEvx) / aEvx;
      console.log(`      ev.x a0 ${aEvx.toFixed(5)} Å: difference ${(rel * 100).toFixed(4)} %`);
      assert.ok(rel < 5e-4, `EOS a0 ${aEos} vs ev.x ${aEvx}`);
    });
  });
}
