// A local job whose pseudopotential directory pw.x cannot read: pw.x keeps a directory name in
// 256 characters with its final "/" (trimcheck: "input name too long"), and a run under a deep
// folder (a canvas's run in VS Code, a run the MCP server starts) reaches that without passing
// the CLI's runs-directory check. The local runner refuses such a job at submit, with the reason,
// before any program starts. The program here is a stand-in that only records that it ran.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobService } from '../../../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../../../src/core/hpc/jobStore';
import { LocalRunner } from '../../../../src/core/hpc/localRunner';

const input = { name: 'al.in', text: fs.readFileSync(path.resolve(__dirname, '../../../fixtures/hpc/al-fcc-scf.in'), 'utf8') };

describe('local runner: directories too long for pw.x', () => {
  let dir: string;
  let program: string;
  const started = () => fs.existsSync(path.join(dir, 'started'));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-longdir-'));
    program = path.join(dir, 'pw-stand-in');
    fs.writeFileSync(program, `#!/bin/sh\ntouch '${path.join(dir, 'started')}'\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'Al.pz-vbc.UPF'), '<UPF version="2.0.1"> test </UPF>\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function submitUnder(runDir: string) {
    const service = await JobService.open({
      store: new MemoryJobStore(),
      runDir,
      backend: (_n, u) => new LocalRunner(u, { pwCommand: program }),
    });
    const job = await service.create({
      backend: 'local',
      input,
      pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: path.join(dir, 'Al.pz-vbc.UPF') }],
    });
    return { service, job, pseudo: path.join(service.jobDir(job.id), 'pseudo') };
  }

  it('refuses at submit a job whose pseudopotential directory is over 255 bytes, saying why, and starts nothing', async () => {
    // <runDir>/jobs/<job>/pseudo: 40 bytes after the run directory
    const runDir = path.join(dir, 'r'.repeat(230 - dir.length));
    const { service, job, pseudo } = await submitUnder(runDir);
    try {
      assert.ok(Buffer.byteLength(pseudo) > 255, `${Buffer.byteLength(pseudo)} bytes`);
      await assert.rejects(service.submit(job.id), (e: Error) => {
        assert.match(e.message, new RegExp(`pseudopotential directory .* is ${Buffer.byteLength(pseudo)} bytes long`));
        assert.match(e.message, /over the 255 characters pw\.x reads for a directory name/);
        assert.match(e.message, /nothing was started/);
        assert.match(e.message, /shorter/);
        return true;
      });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(started(), false, 'the program never ran');
      assert.equal(service.get(job.id)?.state, 'validated', 'not submitted');
    } finally {
      await service.dispose();
    }
  });

  it('runs a job whose pseudopotential directory is 255 bytes', async () => {
    const { service, job, pseudo } = await submitUnder(path.join(dir, 'r'.repeat(255 - 40 - dir.length - 1)));
    try {
      assert.equal(Buffer.byteLength(pseudo), 255);
      await service.submit(job.id);
      await service.waitFor(job.id);
      assert.equal(started(), true);
    } finally {
      await service.dispose();
    }
  });
});
