// The band-structure workflow offline through the built `dreams` command with real pw.x and
// bands.x: diamond Si (PBE, Si.pbe-rrkj.UPF) at toy settings (12 Ry, 0.4 1/Å SCF, 10 k-points
// per 1/Å of path: 76 k-points). The gap must come out indirect with the valence maximum at Γ
// and the conduction minimum on Γ–X near X, every number traced to its runs.
// Cost: one SCF, one bands run, bands.x; about 10 s wall (2 s of CPU) after the build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ArtifactRecord } from '../../src/core/provenance/types';
import type { BandGapValue, BandPathValue, BandStructureValue, NscfMeta } from '../../src/core/artifacts/electronic';
import type { JobRecord } from '../../src/core/hpc/types';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

describe('dreams run --offline: the band structure of Si with real pw.x and bands.x', function () {
  this.timeout(600_000);
  let dir: string;
  let runDir: string;
  let stdout: string;
  let status: number | null;
  let events: CanvasEvent[];
  const artifacts = () => events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const named = (name: string) =>
    artifacts()
      .filter((a) => a.name === name)
      .at(-1)!;

  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bands-'));
    fs.writeFileSync(
      path.join(dir, 'si.yaml'),
      [
        'workflow: band-structure',
        'objective: band structure of Si with PBE',
        'inputs:',
        '  element: Si',
        '  functional: PBE',
        '  pseudopotentials: { Si: Si.pbe-rrkj.UPF }',
        '  ecutwfcRy: 12',
        '  kSpacingPerAngstrom: 0.4',
        '  pointsPerInverseAngstrom: 10',
        '',
      ].join('\n'),
    );
    const r = spawnSync(
      process.execPath,
      [cli, 'run', 'si.yaml', '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', PSEUDO_DIR],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } },
    );
    stdout = r.stdout + r.stderr;
    status = r.status;
    runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
    events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('completes with the report accepted and prints the gap it cites', () => {
    assert.equal(status, 0, stdout);
    assert.match(stdout, /COMPLETED/);
    assert.match(stdout, /E_g = 0\.\d{3} eV \(indirect\) \(a-\d+\.gapEv\)/);
    assert.match(stdout, /report judge accepted/);
  });

  it('follows the standard fcc path of the standardised cell (Setyawan–Curtarolo)', () => {
    const p = named('band_path').value as BandPathValue;
    assert.equal(p.lattice, 'FCC');
    assert.equal(p.segments.map((s) => s.join('-')).join('|'), 'Γ-X-W-K-Γ-L-U-W-L-K|U-X');
    const bs = named('band_structure').value as BandStructureValue;
    assert.equal(bs.x.length, p.kpointCount);
    assert.equal(bs.reference.kind, 'vbm');
  });

  it('finds the gap indirect: valence maximum at Γ, conduction minimum on Γ–X near X, PBE-small', () => {
    const g = named('band_gap').value as BandGapValue;
    assert.equal(g.direct, false);
    assert.equal(g.vbm.location, 'Γ');
    assert.match(g.cbm.location, /^0\.(7|8|9)\d of Γ–X \(near X\)$/);
    assert.ok(g.gapEv > 0.4 && g.gapEv < 0.8, `gap ${g.gapEv} eV`);
    assert.ok(g.directGapEv > 2 && g.directGapEv < 3, `direct gap at Γ ${g.directGapEv} eV`);
  });

  it("ran the bands on a copy of the SCF job's charge density, and bands.x on a copy of the bands run", () => {
    const jobs = new Map<string, JobRecord>();
    for (const e of events.filter((x) => x.kind === 'job.transition')) jobs.set((e.payload as JobRecord).id, e.payload as JobRecord);
    const meta = named('nscf_output').meta as NscfMeta;
    const bandsJob = jobs.get(meta.job)!;
    const scfJob = jobs.get(String(named('total_energy').meta!.job))!;
    assert.equal(bandsJob.parent?.job, scfJob.id);
    const bandsX = [...jobs.values()].find((j) => j.program === 'bands.x')!;
    assert.equal(bandsX.parent?.job, bandsJob.id);
    assert.ok(bandsX.outputs.some((o) => o.name === 'bands.dat'));
    // the SCF's own saved density is still there, untouched by the bands run
    assert.ok(fs.existsSync(path.join(runDir, 'jobs', scfJob.id, 'tmp', 'dreams.save', 'charge-density.dat')));
  });

  it('writes the band structure plot with the labelled points into the report', () => {
    const svg = fs.readFileSync(path.join(runDir, 'plots', 'band-structure.svg'), 'utf8');
    for (const label of ['Γ', 'X', 'W', 'K|U', 'L']) assert.ok(svg.includes(`>${label}</text>`), label);
    assert.match(svg, /indirect gap 0\.\d{3} eV/);
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    assert.match(report, /!\[Band structure\]\(plots\/band-structure\.svg\)/);
    assert.match(report, /\| band_gap \| 0\.\d{3} eV \| a-\d+\.gapEv \|.*claim-value: pass/);
  });
});
