// Series members are real pw.x inputs: pw.x 6.7 reads each one and reports the cutoff,
// k-point count and cell volume the member claims. One SCF iteration each.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { cutoffSeries, eosSeries, kMeshSeries } from '../../src/core/dft/qe/series';
import { physicalSettingsOf } from '../../src/core/dft/qe/settings';
import { BOHR_IN_ANGSTROM } from '../../src/core/units';

const PSEUDO = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const TEMPLATE = `&CONTROL
  calculation = 'scf'
  pseudo_dir = '${PSEUDO}'
  outdir = './tmp'
/
&SYSTEM
  ibrav = 0
  nat = 2
  ntyp = 1
  ecutwfc = 14.0
  ecutrho = 112.0
/
&ELECTRONS
  electron_maxstep = 1
/
ATOMIC_SPECIES
  Si 28.086 Si.pz-vbc.UPF
CELL_PARAMETERS {angstrom}
  -2.715  0.000  2.715
   0.000  2.715  2.715
  -2.715  2.715  0.000
ATOMIC_POSITIONS {angstrom}
  Si 0.0000 0.0000 0.0000
  Si 1.3575 1.3575 1.3575
K_POINTS {automatic}
  2 2 2 0 0 0
`;

function run(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-series-'));
  try {
    fs.writeFileSync(path.join(dir, 'pw.in'), text);
    const r = spawnSync('pw.x', ['-in', 'pw.in'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    });
    const out = parsePwOutput(r.stdout ?? '');
    assert.equal(out.error, undefined, out.error?.message);
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('series members as pw.x reads them', function () {
  this.timeout(300_000);

  it("cutoff series: pw.x uses each ecutwfc and the template's dual for ecutrho", () => {
    for (const m of cutoffSeries(TEMPLATE, { ecutwfcRy: [12, 16] })) {
      const out = run(m.text);
      assert.equal(out.settings.ecutwfcRy, m.value);
      assert.equal(out.settings.ecutrhoRy, 8 * m.value);
      const s = physicalSettingsOf(m.text);
      assert.equal(s.ecutwfcRy, out.settings.ecutwfcRy);
      assert.equal(s.ecutrhoRy, out.settings.ecutrhoRy);
    }
  });

  it("EOS series: pw.x computes the member's volume and the atoms move with the cell", () => {
    for (const m of eosSeries(TEMPLATE, { linearScales: [0.97, 1.03] })) {
      const out = run(m.text);
      const volume = out.settings.cellVolumeBohr3! * BOHR_IN_ANGSTROM ** 3;
      assert.ok(Math.abs(volume / m.volumeAngstrom3! - 1) < 1e-5, `pw.x ${volume} Å^3, series ${m.volumeAngstrom3} Å^3`);
      // Cartesian positions scale with the cell: the second atom moves from 1.3575(1,1,1) Å to s·1.3575(1,1,1) Å
      const p = out.ionicSteps[0]!.positionsAngstrom[1]!;
      p.forEach((x) => assert.ok(Math.abs(x - m.value * 1.3575) < 1e-5, `atom 2 at ${p.join(', ')} Å`));
    }
  });

  it("k-mesh series: pw.x generates its k-points from the member's mesh", () => {
    const counts = kMeshSeries(TEMPLATE, [
      [1, 1, 1],
      [3, 3, 3],
    ]).map((m) => run(m.text).settings.kPoints);
    assert.equal(counts[0], 1);
    assert.ok(counts[1]! > 1);
  });
});
