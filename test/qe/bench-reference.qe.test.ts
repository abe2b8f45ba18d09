// bench:sol27's tight reference is five pw.x runs that can take hours (Ir). Given a working
// directory, a reference stopped part-way goes on from the points that finished; a point whose
// run did not finish, or whose input differs, runs again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tightReference, type ReferenceSpec } from '../../scripts/bench/sol27/reference';

const PSEUDO = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

describe('bench:sol27 tight reference, stopped and run again', function () {
  this.timeout(120_000);
  let work: string;
  let logged: string[];
  const spec = (over: Partial<ReferenceSpec> = {}): ReferenceSpec => ({
    element: 'Al', structure: 'fcc', aStartAngstrom: 4.0, pseudoDir: PSEUDO, pseudopotential: 'Al.pz-vbc.UPF',
    ecutwfcRy: 12, ecutrhoRy: 48, kSpacingPerAngstrom: 0.6, degaussRy: 0.02, eosPoints: 5, eosRangePercent: 5, jobs: 2,
    workDir: work, log: (line) => logged.push(line), ...over,
  });
  const points = () => fs.readdirSync(work).filter((d) => d.startsWith('scale-')).sort();

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
    assert.ok(logged.every((l) => /^Al: reference point at scale [\d.]+ read from the finished run in /.test(l)), logged.join('\n'));
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
    assert.deepEqual(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('sol27-ref-Al-')), before);
  });
});
