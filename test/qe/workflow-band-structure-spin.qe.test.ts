// The band-structure workflow offline through the built `dreams` command with real pw.x and
// bands.x on a spin-polarised crystal: bcc Fe (PBE, Fe.pbe-nd-rrkjus.UPF) at toy settings
// (25 Ry, 0.6 1/Å SCF: 6×6×6, 3 k-points per 1/Å of path). The SCF is spin-polarised (nspin 2,
// a starting moment on Fe, smeared), bands.x runs once per spin channel, the band structure holds
// both, the plot draws both with a legend, and the report says so; no gap is claimed of a metal.
// Then triplet O2 in a 4.763 Å box (test/fixtures/dft/qe-postprocessing/spin-bands/o2/O2-box.vasp,
// O.pbe-rrkjus.UPF, 25 Ry, Γ only, 1 k-point per 1/Å: 21 k-points), spin asked for: both spin channels
// hold a gap at the Fermi level, each reported, and the crystal's gap (π*↑ to π*↓) claimed.
// Then zincblende CaN (a = 5.36 Å, PBE; Ca generated with ld1.x from scripts/pseudo, Debian's N;
// 46 Ry, 4×4×4, 3 k-points per 1/Å, 12 bands): a half-metal (1 μB/cell, the majority channel gapped,
// a minority band across E_F), whose gap step the guard refuses; the offline planner drops it and the
// report says half-metal (~20 s of pw.x CPU, 2 min wall at load 20).
// Last the DOS template on bcc Fe at the same settings (the nscf on the SCF's 6×6×6 mesh, 0.2 eV grid):
// dos.x's and projwfc.x's two channels kept apart, drawn up and down, and the moment they integrate to.
// Cost: per crystal one SCF, one bands run, two bands.x; Fe ~10 s wall (4 s CPU), O2 ~25 s (9 s CPU);
// the Fe DOS ~8 s (4 s CPU); after one build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ArtifactRecord } from '../../src/core/provenance/types';
import type { BandGapValue, BandPathValue, BandStructureValue, DosValue, NscfMeta, PdosValue } from '../../src/core/artifacts/electronic';
import type { JobRecord } from '../../src/core/hpc/types';
import { generatePseudopotentials } from '../../scripts/pseudo/generate';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');
const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

/** Runs one objective file through the built CLI; returns its output, exit status, run directory and events. */
function runObjective(yaml: string[], files: Record<string, string> = {}, pseudoDir = PSEUDO_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bands-spin-'));
  for (const [name, from] of Object.entries(files)) fs.copyFileSync(from, path.join(dir, name));
  fs.writeFileSync(path.join(dir, 'study.yaml'), [...yaml, ''].join('\n'));
  const r = spawnSync(
    process.execPath,
    [cli, 'run', 'study.yaml', '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', pseudoDir],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } },
  );
  const runDir = path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0]!);
  const events = fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CanvasEvent);
  return { dir, runDir, stdout: r.stdout + r.stderr, status: r.status, events };
}

describe('spin-polarised band structures through dreams run --offline, with real pw.x and bands.x', function () {
  this.timeout(600_000);
  before(() => {
    assert.equal(spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }).status, 0, 'build');
  });

  describe('bcc Fe: both spin channels', () => {
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
    const jobs = () => {
      const m = new Map<string, JobRecord>();
      for (const e of events.filter((x) => x.kind === 'job.transition')) m.set((e.payload as JobRecord).id, e.payload as JobRecord);
      return m;
    };

    before(() => {
      ({ dir, runDir, stdout, status, events } = runObjective([
        'workflow: band-structure',
        'objective: band structure of bcc Fe with PBE',
        'inputs:',
        '  element: Fe',
        '  functional: PBE',
        '  pseudopotentials: { Fe: Fe.pbe-nd-rrkjus.UPF }',
        '  ecutwfcRy: 25',
        '  kSpacingPerAngstrom: 0.6',
        '  pointsPerInverseAngstrom: 3',
      ]));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('completes with the report accepted, spin-polarised from a starting moment on Fe', () => {
      assert.equal(status, 0, stdout);
      assert.match(stdout, /COMPLETED/);
      assert.match(stdout, /report judge accepted/);
      const scfInput = fs.readFileSync(path.join(runDir, 'jobs', String(named('total_energy').meta!.job), 'pw.in'), 'utf8');
      assert.match(scfInput, /nspin\s*=\s*2/);
      assert.match(scfInput, /starting_magnetization\(1\)\s*=\s*0\.5/);
      assert.match(scfInput, /occupations\s*=\s*'smearing'/);
    });

    it('runs bands.x once per spin channel, each on a copy of the bands run, and keeps both channels in one band structure', () => {
      const meta = named('nscf_output').meta as NscfMeta;
      assert.equal(meta.nspin, 2);
      const bandsX = [...jobs().values()].filter((j) => j.program === 'bands.x');
      assert.equal(bandsX.length, 2, 'one bands.x per spin channel');
      const inputs = bandsX.map((j) => fs.readFileSync(path.join(runDir, 'jobs', j.id, j.input), 'utf8'));
      assert.deepEqual(inputs.map((t) => /spin_component = (\d)/.exec(t)?.[1]).sort(), ['1', '2']);
      for (const j of bandsX) assert.equal(j.parent?.job, meta.job);
      const bs = named('band_structure').value as BandStructureValue;
      const p = named('band_path').value as BandPathValue;
      assert.equal(bs.nspin, 2);
      assert.equal(bs.bandsDownEv?.length, bs.bandsEv.length);
      for (const channel of [bs.bandsEv, bs.bandsDownEv!]) for (const band of channel) assert.equal(band.length, p.kpointCount);
      assert.equal(bs.reference.kind, 'fermi');
    });

    it("splits the channels as iron's exchange does: the minority d bands lie above the majority ones, across E_F", () => {
      const bs = named('band_structure').value as BandStructureValue;
      const ef = bs.reference.energyEv;
      // states below E_F per k-point, averaged over the path: more in the majority channel (Fe's moment)
      const below = (bands: number[][]) => bands.reduce((n, band) => n + band.filter((e) => e < ef).length, 0) / bs.x.length;
      const up = below(bs.bandsEv);
      const down = below(bs.bandsDownEv!);
      assert.ok(up - down > 1 && up - down < 3.5, `majority ${up.toFixed(2)}, minority ${down.toFixed(2)} occupied bands per k`);
      // both channels cross the Fermi level: a ferromagnetic metal
      for (const channel of [bs.bandsEv, bs.bandsDownEv!])
        assert.ok(channel.some((band) => Math.min(...band) < ef && Math.max(...band) > ef));
      assert.equal(
        artifacts().some((a) => a.name === 'band_gap'),
        false,
        'no gap step for a metal',
      );
    });

    it('draws both channels in two colours with a legend, and the report says both were computed', () => {
      const bs = named('band_structure').value as BandStructureValue;
      const svg = fs.readFileSync(path.join(runDir, 'plots', 'band-structure.svg'), 'utf8');
      assert.equal(svg.match(/class="spin-up"/g)?.length, bs.bandsEv.length);
      assert.equal(svg.match(/class="spin-down"/g)?.length, bs.bandsDownEv!.length);
      assert.match(svg, />spin up \(majority\)</);
      assert.match(svg, />spin down \(minority\)</);
      const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
      assert.match(report, /bands of both spin channels cross the Fermi level/);
      assert.match(report, /once for the majority \(spin up, spin_component 1\) and once for the minority \(spin down, spin_component 2\)/);
      assert.match(report, /spin-polarised \(nspin 2, starting moments \{"Fe":0\.5\}\)/);
    });
  });

  describe("triplet O2 in a box: a gap in each spin channel, and the crystal's between them", () => {
    let o2: ReturnType<typeof runObjective>;
    const named = (name: string) =>
      o2.events
        .filter((e) => e.kind === 'provenance.artifact')
        .map((e) => e.payload as ArtifactRecord)
        .filter((a) => a.name === name)
        .at(-1)!;
    before(() => {
      o2 = runObjective(
        [
          'workflow: band-structure',
          'objective: band structure of O2-box.vasp with PBE',
          'inputs:',
          '  structureFile: O2-box.vasp',
          '  functional: PBE',
          '  pseudopotentials: { O: O.pbe-rrkjus.UPF }',
          '  ecutwfcRy: 25',
          '  kSpacingPerAngstrom: 1.5',
          '  pointsPerInverseAngstrom: 1',
          '  spinPolarized: true',
          '  startingMagnetization: { O: 0.5 }',
        ],
        { 'O2-box.vasp': path.join(root, 'test/fixtures/dft/qe-postprocessing/spin-bands/o2/O2-box.vasp') },
      );
    });
    after(() => fs.rmSync(o2.dir, { recursive: true, force: true }));

    it("claims the gap of the crystal from both channels and reports each channel's own", () => {
      assert.equal(o2.status, 0, o2.stdout);
      assert.match(o2.stdout, /report judge accepted/);
      const g = named('band_gap').value as BandGapValue;
      const [up, down] = g.channels!;
      assert.equal(up!.spin, 'up');
      assert.equal(down!.spin, 'down');
      // majority π*↑ filled, minority π*↓ empty: each channel's gap is wide, the crystal's runs from π*↑ to π*↓
      assert.ok(up!.gapEv > 5 && up!.gapEv < 6.5, `majority ${up!.gapEv} eV`);
      assert.ok(down!.gapEv > 6 && down!.gapEv < 7.5, `minority ${down!.gapEv} eV`);
      assert.ok(g.gapEv > 1.8 && g.gapEv < 2.8, `crystal ${g.gapEv} eV`);
      assert.equal(up!.occupiedBands + down!.occupiedBands, g.occupiedBands);
      assert.equal(up!.occupiedBands - down!.occupiedBands, 2, 'two unpaired electrons: the triplet');
      assert.match(o2.stdout, /E_g = \d\.\d{3} eV \((in)?direct\) \(a-\d+\.gapEv\)/);
      const report = fs.readFileSync(path.join(o2.runDir, 'report.md'), 'utf8');
      assert.match(report, /Each spin channel's own gap: majority \(spin up\) \d\.\d{3} eV, .*; minority \(spin down\) \d\.\d{3} eV/);
      assert.match(report, /Per spin channel: up \d\.\d{3} eV/);
    });
  });

  describe('zincblende CaN: a half-metal, its band structure reported without a gap of the crystal', () => {
    let can: ReturnType<typeof runObjective>;
    let pseudoDir: string;
    const named = (name: string) =>
      can.events
        .filter((e) => e.kind === 'provenance.artifact')
        .map((e) => e.payload as ArtifactRecord)
        .filter((a) => a.name === name)
        .at(-1);
    before(() => {
      // Ca: pslibrary 1.0.0's spn file made with ld1.x (scripts/pseudo, about 1 s); N: Debian's pslibrary file
      pseudoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-can-pseudo-'));
      generatePseudopotentials(pseudoDir, ['Ca']);
      fs.copyFileSync(path.join(PSEUDO_DIR, 'N.pbe-n-rrkjus_psl.1.0.0.UPF'), path.join(pseudoDir, 'N.pbe-n-rrkjus_psl.1.0.0.UPF'));
      can = runObjective(
        [
          'workflow: band-structure',
          'objective: band structure of zincblende CaN with PBE',
          'inputs:',
          '  elements: [Ca, N]',
          '  structure: zincblende',
          '  latticeConstantAngstrom: 5.36',
          '  functional: PBE',
          '  pseudopotentials: { Ca: Ca.pbe-spn-rrkjus_psl.1.0.0.UPF, N: N.pbe-n-rrkjus_psl.1.0.0.UPF }',
          '  spinPolarized: true',
          '  startingMagnetization: { N: 0.5 }',
          '  ecutwfcRy: 46',
          '  kSpacingPerAngstrom: 0.6',
          '  pointsPerInverseAngstrom: 3',
          '  nbnd: 12',
        ],
        {},
        pseudoDir,
      );
    });
    after(() => {
      fs.rmSync(can.dir, { recursive: true, force: true });
      fs.rmSync(pseudoDir, { recursive: true, force: true });
    });

    it('refuses the gap as a half-metal on the real bands, drops the gap step and completes with the report accepted', () => {
      assert.equal(can.status, 0, can.stdout);
      assert.match(can.stdout, /COMPLETED/);
      assert.match(can.stdout, /report judge accepted/);
      const bs = named('band_structure')!.value as BandStructureValue;
      assert.equal(bs.nspin, 2);
      assert.ok(Math.abs(bs.magnetizationMuBPerCell! - 1) < 0.02, `${bs.magnetizationMuBPerCell} μB/cell`);
      // the refusal, recorded on the band_gap call: the majority channel gapped, a minority band across E_F
      const refused = can.events
        .filter((e) => e.kind === 'provenance.call')
        .map((e) => e.payload as { id: string; tool: string })
        .find((c) => c.tool === 'band_gap');
      assert.ok(refused, 'a band_gap call was made');
      const log = can.events.map((e) => JSON.stringify(e.payload)).join('\n');
      assert.match(log, /a half-metal in this calculation: only the majority \(spin-up\) channel has a gap \(\d\.\d{3} eV\)/);
      assert.equal(named('band_gap'), undefined, 'no gap of the crystal registered');
      const plan = [...can.events].reverse().find((e) => e.kind === 'key.write' && e.key === 'plan')!.payload as {
        value: { steps: { id: string; status: string; title: string; reportQuantities?: string[] }[] };
      };
      assert.equal(
        plan.value.steps.some((s) => s.id === 'gap'),
        false,
      );
      const report = plan.value.steps.find((s) => s.id === 'report')!;
      assert.equal(report.status, 'done');
      assert.match(report.title, /no gap of the crystal to claim/);
      assert.equal(report.reportQuantities?.includes('band_gap'), false);
    });

    it("says in the report that it is a half-metal, with the gapped channel's gap as that channel's", () => {
      const report = fs.readFileSync(path.join(can.runDir, 'report.md'), 'utf8');
      const m =
        /A half-metal in this calculation \(a-\d+\): the majority \(spin-up\) channel has a gap of (\d\.\d{3}) eV at the Fermi level/.exec(
          report,
        );
      assert.ok(m, report);
      // the N 2p majority bands full, the gap up to the Ca 3d bands: about 3.6 eV at these settings
      assert.ok(Number(m[1]) > 3 && Number(m[1]) < 4.2, `${m[1]} eV`);
      assert.match(report, /band \d+ of the minority \(spin-down\) channel crosses it/);
      assert.match(report, /The crystal has no gap to claim/);
      assert.doesNotMatch(report, /E_g =/);
    });
  });

  describe('bcc Fe: the DOS of both spin channels', () => {
    let fe: ReturnType<typeof runObjective>;
    const named = (name: string) =>
      fe.events
        .filter((e) => e.kind === 'provenance.artifact')
        .map((e) => e.payload as ArtifactRecord)
        .filter((a) => a.name === name)
        .at(-1)!;
    before(() => {
      fe = runObjective([
        'workflow: dos',
        'objective: DOS of bcc Fe with PBE',
        'inputs:',
        '  element: Fe',
        '  functional: PBE',
        '  pseudopotentials: { Fe: Fe.pbe-nd-rrkjus.UPF }',
        '  ecutwfcRy: 25',
        '  kSpacingPerAngstrom: 0.6',
        '  dosMeshFactor: 1',
        '  deltaEEv: 0.2',
      ]);
    });
    after(() => fs.rmSync(fe.dir, { recursive: true, force: true }));

    it("keeps dos.x's and projwfc.x's spin channels apart, and they hold iron's moment below E_F", () => {
      assert.equal(fe.status, 0, fe.stdout);
      const dos = named('dos').value as DosValue;
      assert.equal(dos.spin!.up.length, dos.energiesEv.length);
      assert.equal(dos.spin!.down.length, dos.energiesEv.length);
      // ∫ (up − down) dE up to E_F: the moment per cell, as the SCF's 2.3 μB (toy mesh and grid)
      let moment = 0;
      for (let i = 1; i < dos.energiesEv.length && dos.energiesEv[i]! <= dos.fermiEnergyEv!; i++) {
        const d = (j: number) => dos.spin!.up[j]! - dos.spin!.down[j]!;
        moment += ((d(i) + d(i - 1)) / 2) * (dos.energiesEv[i]! - dos.energiesEv[i - 1]!);
      }
      assert.ok(moment > 1.8 && moment < 2.8, `moment from the DOS ${moment.toFixed(2)} μB`);
      const pdos = named('pdos').value as PdosValue;
      const d = pdos.projections!.find((p) => p.label === 'Fe d')!;
      assert.equal(d.spin!.up.length, pdos.energiesEv.length);
      assert.ok(pdos.lowdin[0]!.polarization! > 1.8, `Löwdin polarization ${pdos.lowdin[0]!.polarization}`);
    });

    it('draws both channels, down below the axis, and the report says so with the Löwdin polarization', () => {
      const svg = fs.readFileSync(path.join(fe.runDir, 'plots', 'dos.svg'), 'utf8');
      for (const t of ['total, spin up', 'total, spin down (drawn negative)', 'PDOS Fe d, up', 'PDOS Fe d, down', 'spin down &lt; 0'])
        assert.ok(svg.includes(t), t);
      const report = fs.readFileSync(path.join(fe.runDir, 'report.md'), 'utf8');
      assert.match(report, /spin-polarised: the spin-up and spin-down DOS apart \(up drawn above the axis, down below\)/);
      assert.match(report, /atom 1 \d\.\d{3} e \(polarization \d\.\d{2} μB\)/);
    });
  });
});
