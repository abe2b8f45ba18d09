// bench:sol27's tight reference (also bench:crystals', given a crystal's cell) is five pw.x runs that can take hours (Ir). Given a working
// directory, a reference stopped part-way goes on from the points that finished; a point whose
// run did not finish, or whose input differs, runs again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tightReference, type ReferenceSpec } from '../../scripts/bench/sol27/reference';
import type { PwInputOptions } from '../../src/core/dft/qe/pwInput';
import { meshFromSpacing } from '../../src/core/dft/kpoints';
import type { Structure } from '../../src/core/dft/types';

const PSEUDO = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

describe('bench:sol27 tight reference, stopped and run again', function () {
  this.timeout(120_000);
  let work: string;
  let logged: string[];
  const spec = (over: Partial<ReferenceSpec> = {}): ReferenceSpec => ({
    element: 'Al',
    structure: 'fcc',
    aStartAngstrom: 4.0,
    pseudoDir: PSEUDO,
    pseudopotential: 'Al.pz-vbc.UPF',
    ecutwfcRy: 12,
    ecutrhoRy: 48,
    kSpacingPerAngstrom: 0.6,
    degaussRy: 0.02,
    eosPoints: 5,
    eosRangePercent: 5,
    jobs: 2,
    workDir: work,
    log: (line) => logged.push(line),
    ...over,
  });
  const points = () =>
    fs
      .readdirSync(work)
      .filter((d) => d.startsWith('scale-'))
      .sort();

  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-ref-'));
    logged = [];
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it('reads the finished points, runs the unfinished one, and fits the same lattice constant', async () => {
    const first = await tightReference(spec());
    assert.equal(first.pwRuns, 5);
    assert.equal(first.resumedRuns, undefined);
    assert.equal(points().length, 5, 'the working directory is kept');
    assert.ok(first.aAngstrom > 3.8 && first.aAngstrom < 4.2, `a = ${first.aAngstrom}`);

    // one point as a stop leaves it: pw.x's output cut before JOB DONE
    const cut = path.join(work, points()[2]!, 'pw.out');
    const whole = fs.readFileSync(cut, 'utf8');
    fs.writeFileSync(cut, whole.slice(0, whole.indexOf('End of self-consistent calculation')));
    const again = await tightReference(spec());
    assert.equal(again.resumedRuns, 4, 'four points read, one run');
    assert.equal(logged.length, 4);
    assert.ok(
      logged.every((l) => /^Al: reference point at scale [\d.]+ read from the finished run in /.test(l)),
      logged.join('\n'),
    );
    assert.ok(!logged.some((l) => l.endsWith(path.dirname(cut))), 'the cut point is not among those read');
    assert.equal(again.aAngstrom, first.aAngstrom);
    assert.match(fs.readFileSync(cut, 'utf8'), /JOB DONE/, 'the cut point ran again');
    assert.ok(again.pwCpuSeconds > 0);
  });

  it('takes a pseudopotential directory relative to where it was started, and reads points run with it spelled absolute', async () => {
    const absolute = await tightReference(spec({ pseudoDir: path.resolve(PSEUDO) }));
    const relative = await tightReference(spec({ pseudoDir: path.relative(process.cwd(), PSEUDO) }));
    assert.equal(relative.resumedRuns, 5);
    assert.equal(relative.aAngstrom, absolute.aAngstrom);
  });

  it('runs a point again when its input differs (another cutoff in the same directory)', async () => {
    await tightReference(spec());
    const other = await tightReference(spec({ ecutwfcRy: 14, ecutrhoRy: 56 }));
    assert.equal(other.resumedRuns, undefined, 'no point of another cutoff is read');
    assert.match(fs.readFileSync(path.join(work, points()[0]!, 'pw.in'), 'utf8'), /ecutwfc\s*=\s*14/);
  });

  it('without a working directory, leaves nothing behind', async () => {
    const before = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('sol27-ref-Al-'));
    const r = await tightReference(spec({ workDir: undefined }));
    assert.equal(r.pwRuns, 5);
    assert.deepEqual(
      fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('sol27-ref-Al-')),
      before,
    );
  });
});

describe('bench:crystals tight reference of any crystal (the sol27 machinery given a cell)', function () {
  this.timeout(180_000);

  it('fits the EOS of a non-cubic cell with its pw.x options and reads a, c, c/a through its symmetry', async () => {
    // hcp Mg (P6_3/mmc) at toy settings: 2 atoms, 12 Ry, k 0.6 1/Å, five points of about a second each
    const a = 3.2;
    const c = 1.62 * a;
    const mg: Structure = {
      symbols: ['Mg', 'Mg'],
      pbc: [true, true, true],
      cell: [
        [a, 0, 0],
        [-a / 2, (a * Math.sqrt(3)) / 2, 0],
        [0, 0, c],
      ],
      positions: [
        [0, a / Math.sqrt(3), c / 4],
        [a / 2, a / (2 * Math.sqrt(3)), (3 * c) / 4],
      ],
    };
    const options: PwInputOptions = {
      purpose: 'production',
      calculation: 'scf',
      ecutwfcRy: 99,
      ecutrhoRy: 999,
      occupations: 'smearing',
      smearing: 'mv',
      degaussRy: 0.05,
      nspin: 1,
      kMesh: [1, 1, 1],
    };
    const r = await tightReference({
      element: 'Mg',
      structure: 'fcc',
      aStartAngstrom: a,
      pseudoDir: PSEUDO,
      pseudopotential: '',
      ecutwfcRy: 12,
      ecutrhoRy: 48,
      kSpacingPerAngstrom: 0.6,
      degaussRy: 0.05,
      eosPoints: 5,
      eosRangePercent: 5,
      jobs: 2,
      input: { structure: mg, options, pseudos: { Mg: { file: 'Mg.pz-n-vbc.UPF', sha256: '' } } },
    });
    assert.equal(r.pwRuns, 5);
    assert.equal(r.ecutwfcRy, 12, "the reference settings replace the input's cutoffs");
    assert.deepEqual(r.kMesh, meshFromSpacing(mg.cell, 0.6), 'and its mesh (one for the series, from the spacing)');
    const l = r.lattice!;
    assert.equal(l.spaceGroup.number, 194);
    assert.equal(l.cubic, false);
    assert.ok(Math.abs(l.cOverA - 1.62) < 1e-6, `the shape is kept: c/a = ${l.cOverA}`);
    assert.ok(Math.abs(l.conventionalVolumeAngstrom3 - r.v0Angstrom3) < 1e-9, 'the hexagonal cell is the computed cell');
    assert.equal(r.aAngstrom, l.aAngstrom);
    assert.ok(l.aAngstrom > 2.9 && l.aAngstrom < 3.4, `a = ${l.aAngstrom}`);
  });
});
