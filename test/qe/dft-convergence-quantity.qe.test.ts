// Sweeps judged by the quantity a study reports, with the real pw.x 6.7 at toy settings: the moment of
// bcc Fe (Debian's Fe.pbe-nd-rrkjus, PBE, spin-polarised, 6³ k-points; four SCFs of a few seconds) and
// the gap of diamond Si (Si.pz-vbc, LDA, fixed occupations with empty bands, 4³ k-points; five SCFs
// under a second). Each selection stops where its quantity has settled, where 1 meV/atom of total energy
// asks for a higher cutoff still.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selectConvergedValue, type ConvergenceRun } from '../../src/core/dft/convergence';
import { bulk } from '../../src/core/dft/structure/bulk';
import { PwRunner, type Material, type PwPoint } from './dft-support';

const FE: Material = {
  element: 'Fe',
  massAmu: 55.845,
  pseudopotential: 'Fe.pbe-nd-rrkjus.UPF',
  functional: 'PBE',
  system: { occupations: 'smearing', smearing: 'mv', degauss: 0.02, nspin: 2, 'starting_magnetization(1)': 0.5 },
  dual: 8,
};
const SI: Material = {
  element: 'Si',
  massAmu: 28.086,
  pseudopotential: 'Si.pz-vbc.UPF',
  functional: 'PZ',
  // 4 occupied bands for 8 electrons and 4 empty ones: pw.x prints the highest occupied and lowest unoccupied level
  system: { occupations: 'fixed', nbnd: 8 },
};

const asRun = (p: PwPoint): ConvergenceRun => ({
  energyEv: p.energyEv,
  natoms: p.natoms,
  settings: p.settings,
  ...(p.magnetization ? { magnetizationMuB: p.magnetization.total, absoluteMagnetizationMuB: p.magnetization.absolute } : {}),
  ...(p.gapEv !== undefined ? { gapEv: p.gapEv } : {}),
});
const chosen = (s: ReturnType<typeof selectConvergedValue>): number | undefined =>
  s.outcome.status === 'converged' ? s.outcome.chosenValue : undefined;

describe('convergence on the reported quantity with pw.x: the moment of Fe and the gap of Si', function () {
  this.timeout(600_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-quantity-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("bcc Fe: the moment criterion stops at the cheapest cutoff whose moment is the finest's, where 1 meV/atom does not", () => {
    const pw = new PwRunner(dir, FE);
    const fe = bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'primitive' });
    const sweep = [25, 30, 35, 40].map((ec) => pw.run(fe, ec, 0.4));
    for (const p of sweep)
      assert.ok(p.magnetization && p.magnetization.total > 1.8, `a ferromagnet at ${p.ecutwfcRy} Ry: ${JSON.stringify(p.magnetization)}`);
    const byMoment = selectConvergedValue('ecutwfc', sweep.map(asRun), { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 });
    const byEnergy = selectConvergedValue('ecutwfc', sweep.map(asRun), 1);
    const cut = chosen(byMoment);
    assert.ok(cut !== undefined && cut < 40, byMoment.outcome.status === 'needs-finer-sweep' ? byMoment.outcome.message : '');
    const finest = sweep.at(-1)!.magnetization!.total;
    const at = sweep.find((p) => p.ecutwfcRy === cut)!;
    assert.ok(Math.abs(at.magnetization!.total - finest) < 0.02, `moment ${at.magnetization!.total} at ${cut} Ry, ${finest} at 40 Ry`);
    // the total energy is still moving by more than 1 meV/atom there: by energy the cutoff would be higher, or not shown at all
    const energyCut = chosen(byEnergy);
    assert.ok(energyCut === undefined || energyCut > cut, `energy ${energyCut ?? 'not converged'} Ry, moment ${cut} Ry`);
    assert.ok(byMoment.table.find((r) => r.value === cut)!.errorMevPerAtom > 1);
    console.log(
      `      Fe: moment ${cut} Ry (${sweep.map((p) => `${p.ecutwfcRy}: ${p.magnetization!.total}/${p.magnetization!.absolute} μB, ${(1000 * (p.energyEv - sweep.at(-1)!.energyEv)).toFixed(1)} meV`).join('; ')}); ` +
        `energy ${energyCut ?? 'not converged'}; ${pw.runs} pw.x runs, ${pw.seconds.toFixed(1)} s`,
    );
  });

  it('diamond Si: the gap criterion stops at the cheapest cutoff whose gap is within 0.01 eV of the finest, where 1 meV/atom does not', () => {
    const pw = new PwRunner(dir, SI);
    const si = bulk({ kind: 'diamond', symbols: ['Si'], aAngstrom: 5.43, cell: 'primitive' });
    const sweep = [10, 14, 18, 22, 30].map((ec) => pw.run(si, ec, 0.3));
    for (const p of sweep) assert.ok(p.gapEv !== undefined && p.gapEv > 0.3 && p.gapEv < 1.2, `a gap at ${p.ecutwfcRy} Ry: ${p.gapEv}`);
    const byGap = selectConvergedValue('ecutwfc', sweep.map(asRun), { kind: 'gap', toleranceGapEv: 0.01 });
    const cut = chosen(byGap);
    assert.ok(cut !== undefined && cut < 30, byGap.outcome.status === 'needs-finer-sweep' ? byGap.outcome.message : '');
    const finest = sweep.at(-1)!.gapEv!;
    for (const p of sweep.filter((x) => x.ecutwfcRy >= cut))
      assert.ok(Math.abs(p.gapEv! - finest) < 0.01, `gap ${p.gapEv} at ${p.ecutwfcRy} Ry`);
    const energyCut = chosen(selectConvergedValue('ecutwfc', sweep.map(asRun), 1));
    assert.ok(energyCut === undefined || energyCut > cut, `energy ${energyCut ?? 'not converged'} Ry, gap ${cut} Ry`);
    console.log(
      `      Si: gap ${cut} Ry (${sweep.map((p) => `${p.ecutwfcRy}: ${p.gapEv!.toFixed(4)} eV`).join('; ')}); energy ${energyCut ?? 'not converged'}; ${pw.runs} pw.x runs, ${pw.seconds.toFixed(1)} s`,
    );
  });
});
