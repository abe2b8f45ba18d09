// Jobs that continue an earlier job on the local runner, with the real QE programs: an fcc Al
// SCF, an NSCF (tetrahedra, denser mesh) on a copy of its charge density, then dos.x and
// projwfc.x side by side on copies of the NSCF's files, through the JobService.
// Cost: four short runs, about 5 s of CPU (pw.x 15 Ry, 6×6×6 SCF and 8×8×8 NSCF).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { LocalRunner } from '../../src/core/hpc/localRunner';
import { parseDosFile, renderDosxInput } from '../../src/core/dft/qe/postprocessing/dosx';
import { parsePdosFiles, renderProjwfcxInput } from '../../src/core/dft/qe/postprocessing/projwfcx';
import { integrateUpTo } from '../../src/core/dft/electronic/dos';

const fixtures = path.resolve(__dirname, '../fixtures/hpc');
const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const alPseudo = [{ name: 'Al.pz-vbc.UPF', path: path.join(pseudoDir, 'Al.pz-vbc.UPF') }];
const scfText = fs.readFileSync(path.join(fixtures, 'al-fcc-scf.in'), 'utf8');
const nscfText = scfText
  .replace("calculation = 'scf'", "calculation = 'nscf'")
  .replace(/occupations = 'smearing'\n\s*smearing = 'mv'\n\s*degauss = 0.02/, "occupations = 'tetrahedra_opt'\n  nbnd = 8")
  .replace('6 6 6 0 0 0', '8 8 8 0 0 0');
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('local jobs continuing an SCF: NSCF, dos.x, projwfc.x', function () {
  let runDir: string;
  let service: JobService;
  beforeEach(async () => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cont-'));
    service = await JobService.open({
      store: new MemoryJobStore(),
      runDir,
      progressIntervalMs: 0,
      backend: (_name, updates) => new LocalRunner(updates, { pwCommand: 'pw.x', maxConcurrent: 2, watchIntervalMs: 100 }),
    });
  });
  afterEach(async () => {
    await service.dispose();
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  const run = async (spec: Parameters<JobService['create']>[0]) => {
    const job = await service.create(spec);
    await service.submit(job.id);
    const done = await service.waitFor(job.id);
    assert.equal(done.state, 'completed', done.error);
    return done;
  };

  it("runs the chain on copies of each parent's files, leaves the SCF's own files as they were, and brings back the DOS and PDOS", async () => {
    const scf = await run({ backend: 'local', input: { name: 'pw.in', text: scfText }, pseudopotentials: alPseudo });
    const scfXml = path.join(service.jobDir(scf.id), 'tmp', 'al.save', 'data-file-schema.xml');
    const before = sha(scfXml);
    assert.equal(scf.program, 'pw.x');

    const nscf = await run({
      backend: 'local',
      input: { name: 'pw.in', text: nscfText },
      pseudopotentials: alPseudo,
      parent: { job: scf.id },
    });
    assert.deepEqual(nscf.parent, { job: scf.id, save: 'tmp/al.save', into: 'tmp/al.save', workDir: service.jobDir(scf.id) });
    assert.equal(sha(scfXml), before, "the NSCF wrote into its own copy, not the SCF's");
    assert.notEqual(sha(path.join(service.jobDir(nscf.id), 'tmp', 'al.save', 'data-file-schema.xml')), before);

    const [dos, pdos] = await Promise.all([
      run({
        backend: 'local',
        program: 'dos.x',
        input: { name: 'dos.in', text: renderDosxInput({ prefix: 'al', outdir: './tmp', fildos: 'al.dos', deltaEEv: 0.05 }) },
        parent: { job: nscf.id },
        collect: ['al.dos'],
      }),
      run({
        backend: 'local',
        program: 'projwfc.x',
        input: { name: 'projwfc.in', text: renderProjwfcxInput({ prefix: 'al', outdir: './tmp', filpdos: 'al', deltaEEv: 0.05 }) },
        parent: { job: nscf.id },
        collect: ['al.pdos_*'],
      }),
    ]);
    assert.deepEqual(
      dos.outputs.map((o) => o.name),
      ['dos.out', 'al.dos'],
    );
    assert.deepEqual(
      pdos.outputs.map((o) => o.name).filter((n) => n.startsWith('al.pdos')),
      ['al.pdos_atm#1(Al)_wfc#1(s)', 'al.pdos_atm#1(Al)_wfc#2(p)', 'al.pdos_tot'],
    );
    const d = parseDosFile(fs.readFileSync(path.join(service.jobDir(dos.id), 'al.dos'), 'utf8'));
    assert.ok(Math.abs(integrateUpTo(d.energiesEv, d.dos, d.fermiEnergyEv!) - 3) < 0.1, 'three electrons below the Fermi level');
    const p = parsePdosFiles(
      Object.fromEntries(
        pdos.outputs
          .filter((o) => o.name.startsWith('al.pdos'))
          .map((o) => [o.name, fs.readFileSync(path.join(service.jobDir(pdos.id), o.name), 'utf8')]),
      ),
    );
    assert.deepEqual(
      p.channels.map((c) => c.l),
      ['s', 'p'],
    );
  });

  it("fails a dos.x job before it starts, saying so, when the SCF's saved files are gone", async () => {
    const scf = await run({ backend: 'local', input: { name: 'pw.in', text: scfText }, pseudopotentials: alPseudo });
    fs.rmSync(path.join(service.jobDir(scf.id), 'tmp', 'al.save'), { recursive: true });
    const job = await service.create({
      backend: 'local',
      program: 'dos.x',
      input: { name: 'dos.in', text: renderDosxInput({ prefix: 'al', outdir: './tmp', fildos: 'al.dos', deltaEEv: 0.05 }) },
      parent: { job: scf.id },
    });
    await service.submit(job.id);
    const done = await service.waitFor(job.id);
    assert.equal(done.state, 'failed');
    assert.match(done.error!, /saved files .*tmp\/al\.save are gone .*run that job again/);
  });
});
