// JobService logic with a recording backend: staging, validation refusals, idempotent
// create and submit, cancel before submission, and what a reopened service resumes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JobBackend, JobUpdates } from '../../../../src/core/hpc/backend';
import { JobService } from '../../../../src/core/hpc/jobService';
import { foldJobEvents, MemoryJobStore } from '../../../../src/core/hpc/jobStore';
import type { JobRecord } from '../../../../src/core/hpc/types';

const fixtures = path.resolve(__dirname, '../../../fixtures/hpc');
const input = { name: 'al.in', text: fs.readFileSync(path.join(fixtures, 'al-fcc-scf.in'), 'utf8') };

class RecordingBackend implements JobBackend {
  readonly name = 'rec';
  readonly calls: string[] = [];
  constructor(private readonly updates: JobUpdates) {}
  async submit(job: JobRecord) {
    this.calls.push(`submit ${job.id}`);
    await this.updates.transition(job.id, 'submitted', { schedulerId: '1' });
  }
  async resume(job: JobRecord) {
    this.calls.push(`resume ${job.id} ${job.state}`);
  }
  async cancel(job: JobRecord) {
    this.calls.push(`cancel ${job.id}`);
    await this.updates.transition(job.id, 'cancelled');
  }
  async dispose() {}
}

describe('JobService', () => {
  let dir: string;
  let pseudo: string;
  let backend: RecordingBackend | undefined;
  const open = (store = new MemoryJobStore()) =>
    JobService.open({ store, runDir: path.join(dir, 'run'), backend: (_n, u) => (backend = new RecordingBackend(u)) });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-jobsvc-'));
    pseudo = path.join(dir, 'Al.pz-vbc.UPF');
    fs.writeFileSync(pseudo, '<UPF version="2.0.1"> test </UPF>\n');
    backend = undefined;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stages the input and links the pseudopotentials under <run>/jobs/<id>/, with hashes', async () => {
    const s = await open();
    const job = await s.create({ backend: 'rec', input, pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: pseudo }], call: 'c-3' });
    assert.equal(job.state, 'draft');
    assert.equal(fs.readFileSync(path.join(s.jobDir(job.id), 'al.in'), 'utf8'), input.text);
    assert.equal(fs.realpathSync(path.join(s.jobDir(job.id), 'pseudo', 'Al.pz-vbc.UPF')), fs.realpathSync(pseudo));
    assert.match(job.files[0]!.sha256!, /^[0-9a-f]{64}$/);
    assert.match(job.pseudopotentials[0]!.sha256!, /^[0-9a-f]{64}$/);
    assert.equal(job.call, 'c-3');
  });

  it('refuses to validate what would run other files than the ones recorded', async () => {
    const s = await open();
    const pseudos = [{ name: 'Al.pz-vbc.UPF', path: pseudo }];
    const withDir = await s.create({
      backend: 'rec',
      input: { name: 'a.in', text: input.text.replace("outdir = './tmp'", "outdir = './tmp'\n  pseudo_dir = '/opt/pseudo'") },
      pseudopotentials: pseudos,
    });
    await assert.rejects(s.validate(withDir.id), /sets pseudo_dir = '\/opt\/pseudo'.*Remove pseudo_dir/s);
    const otherSpecies = await s.create({
      backend: 'rec',
      input: { name: 'b.in', text: input.text.replace('Al.pz-vbc.UPF', 'Al.pbe-n-kjpaw.UPF') },
      pseudopotentials: pseudos,
    });
    await assert.rejects(s.validate(otherSpecies.id), /ATOMIC_SPECIES names Al\.pbe-n-kjpaw\.UPF, which is not among the staged/);
    const changed = await s.create({ backend: 'rec', input, pseudopotentials: pseudos });
    fs.appendFileSync(pseudo, 'edited\n');
    await assert.rejects(s.validate(changed.id), /Al\.pz-vbc\.UPF .* changed after the job was created/);
    assert.equal(s.get(changed.id)!.state, 'draft');
    await assert.rejects(s.create({ backend: 'rec', input: { name: '../x.in', text: 'x' } }), /not a plain file name/);
  });

  it("records where a convergence test's wavefunctions go, so the backend removes them; not outside the job directory", async () => {
    const s = await open();
    const test = await s.create({ backend: 'rec', input, discardWavefunctions: true });
    assert.deepEqual(test.discardWavefunctions, { outdir: 'tmp', prefix: 'al', outdirDefaulted: false });
    assert.equal(
      (await s.create({ backend: 'rec', input: { ...input, name: 'p.in' } })).discardWavefunctions,
      undefined,
      'a production run keeps them',
    );
    const elsewhere = await s.create({
      backend: 'rec',
      input: { name: 'x.in', text: input.text.replace("outdir = './tmp'", "outdir = '/scratch/shared'") },
      discardWavefunctions: true,
    });
    assert.equal(elsewhere.discardWavefunctions, undefined);
  });

  it('creating with the same stable id returns the job; submitting twice submits once', async () => {
    const s = await open();
    const a = await s.create({ id: 'c-12-scf', backend: 'rec', input });
    const b = await s.create({ id: 'c-12-scf', backend: 'rec', input });
    assert.equal(a, b);
    await assert.rejects(
      s.create({ id: 'c-12-scf', backend: 'rec', input: { ...input, text: input.text + '\n' } }),
      /already exists with a different input/,
    );
    await assert.rejects(s.create({ id: 'bad id!', backend: 'rec', input }), /not usable as a scheduler job name/);
    await s.submit(a.id);
    await s.submit(a.id);
    assert.deepEqual(backend!.calls, [`submit ${a.id}`]);
  });

  it('cancels a draft without the backend, and a submitted job through it', async () => {
    const s = await open();
    const d = await s.create({ backend: 'rec', input });
    assert.equal((await s.cancel(d.id)).state, 'cancelled');
    const j = await s.create({ backend: 'rec', input });
    await s.submit(j.id);
    assert.equal((await s.cancel(j.id)).state, 'cancelled');
    assert.deepEqual(backend!.calls, [`submit ${j.id}`, `cancel ${j.id}`]);
    await assert.rejects(s.submit('nope'), /no job "nope" in this run/);
  });

  it('a reopened service rebuilds the jobs from the log and resumes only unfinished, submitted work', async () => {
    const store = new MemoryJobStore();
    const s = await open(store);
    const draft = await s.create({ backend: 'rec', input });
    const validatedOnly = await s.create({ backend: 'rec', input });
    await s.validate(validatedOnly.id);
    const cutShort = await s.create({ backend: 'rec', input });
    await s.validate(cutShort.id);
    await store.recordTransition({ ...s.get(cutShort.id)!, submitRequestedAt: '2026-01-01T00:00:00.000Z' });
    const inFlight = await s.create({ backend: 'rec', input });
    await s.submit(inFlight.id);
    const done = await s.create({ backend: 'rec', input });
    await s.submit(done.id);
    await s.cancel(done.id);

    const reopened = await open(store);
    assert.deepEqual(
      reopened.list().map((j) => j.state),
      ['draft', 'validated', 'validated', 'submitted', 'cancelled'],
    );
    assert.deepEqual(backend!.calls.sort(), [`resume ${cutShort.id} validated`, `resume ${inFlight.id} submitted`].sort());
    assert.equal(reopened.get(draft.id)!.state, 'draft');
    assert.deepEqual(
      foldJobEvents(store.events).map((j) => j.id),
      reopened.list().map((j) => j.id),
    );
  });

  it('a second report of the end of a job changes nothing: the first final state stands', async () => {
    const store = new MemoryJobStore();
    const s = await open(store);
    const job = await s.create({ backend: 'rec', input });
    await s.submit(job.id);
    // the user's cancel and the scheduler poll both report the end, in either order
    await s.cancel(job.id);
    const updates = (backend as unknown as { updates: JobUpdates }).updates;
    const again = await updates.transition(job.id, 'cancelled', { error: 'cancelled on the cluster' });
    assert.equal(again.state, 'cancelled');
    const late = await updates.transition(job.id, 'completed');
    assert.equal(late.state, 'cancelled');
    const finals = store.events.filter((e) => (e.payload as JobRecord).id === job.id && (e.payload as JobRecord).state === 'cancelled');
    assert.equal(finals.length, 1, 'exactly one final transition is recorded');
    assert.equal(foldJobEvents(store.events).find((j) => j.id === job.id)!.state, 'cancelled');
    // a move that is illegal from a live state is still refused
    const other = await s.create({ backend: 'rec', input: { ...input, name: 'b.in' } });
    await assert.rejects(updates.transition(other.id, 'running'), /cannot go from 'draft' to 'running'/);
  });
});
