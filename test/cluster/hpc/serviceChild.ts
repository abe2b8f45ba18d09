// A job service in its own process, for the restart test: it opens the run's canvas log,
// submits one job to the test cluster and keeps monitoring it until it is killed.
// Input (JSON in DREAMS_CHILD): { runDir, profile, sshConfigFile, input, pseudopotentials }.
import fs from 'node:fs';
import path from 'node:path';
import { openEventLog } from '../../../src/core/canvas/eventLog';
import { JobBackends } from '../../../src/core/hpc/backends';
import { CanvasJobStore } from '../../../src/core/hpc/canvasJobStore';
import { JobService } from '../../../src/core/hpc/jobService';
import { loadSshConfig } from '../../../src/core/hpc/ssh/sshConfig';

const spec = JSON.parse(process.env.DREAMS_CHILD!);
const say = (o: object) => process.stdout.write(JSON.stringify(o) + '\n');

async function main(): Promise<void> {
  fs.mkdirSync(spec.runDir, { recursive: true });
  const { log } = await openEventLog(path.join(spec.runDir, 'events.jsonl'), { mode: 'writer' });
  const backends = new JobBackends({
    local: { pwCommand: 'pw.x' },
    profiles: [spec.profile],
    sshConfig: loadSshConfig(spec.sshConfigFile),
    pollSeconds: 1,
  });
  const service = await JobService.open({
    store: new CanvasJobStore(log),
    runDir: spec.runDir,
    backend: backends.create,
    progressIntervalMs: 0,
  });
  service.onDidChange((j) => say({ event: 'state', id: j.id, state: j.state }));
  const job = await service.create({ backend: spec.profile.name, input: spec.input, pseudopotentials: spec.pseudopotentials });
  await service.submit(job.id);
  say({ event: 'submitted', id: job.id, submitCommands: backends.runners.get(spec.profile.name)!.stats.submitCommands });
}

main().catch((e) => {
  process.stderr.write(`service child failed: ${(e as Error).stack}\n`);
  process.exit(1);
});
