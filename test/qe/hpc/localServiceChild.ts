// A job service in its own process for the local restart test: it opens the run's canvas
// log, starts one local pw.x job and keeps watching it until it is killed.
// Input (JSON in DREAMS_CHILD): { runDir, input, pseudopotentials, killBeforeRunning? }.
// killBeforeRunning: the process SIGKILLs itself the instant pw.x has started, before its
// 'running' transition reaches the log (a kill at the spawn, made exact).
import fs from 'node:fs';
import path from 'node:path';
import { openEventLog } from '../../../src/core/canvas/eventLog';
import { CanvasJobStore } from '../../../src/core/hpc/canvasJobStore';
import { JobService } from '../../../src/core/hpc/jobService';
import { LocalRunner } from '../../../src/core/hpc/localRunner';

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.DREAMS_CHILD!);
  fs.mkdirSync(spec.runDir, { recursive: true });
  const { log } = await openEventLog(path.join(spec.runDir, 'events.jsonl'), { mode: 'writer' });
  const store = new CanvasJobStore(log);
  if (spec.killBeforeRunning) {
    const record = store.recordTransition.bind(store);
    store.recordTransition = async (job) => {
      if (job.state === 'running') {
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => undefined);
      }
      return record(job);
    };
  }
  const service = await JobService.open({
    store,
    runDir: spec.runDir,
    progressIntervalMs: 0,
    backend: (_name, updates) => new LocalRunner(updates, { pwCommand: 'pw.x', watchIntervalMs: 100 }),
  });
  service.onDidChange((j) =>
    process.stdout.write(JSON.stringify({ id: j.id, state: j.state, pid: j.pid, scf: j.progress?.scfIteration }) + '\n'),
  );
  const job = await service.create({ backend: 'local', input: spec.input, pseudopotentials: spec.pseudopotentials });
  await service.submit(job.id);
}

main().catch((e) => {
  process.stderr.write(`local service child failed: ${(e as Error).stack}\n`);
  process.exit(1);
});
