/**
 * pw.x runs of an adsorption search as jobs of the run's job service, local or on a
 * cluster: each SCF or relaxation is a recorded job (input, staged pseudopotentials with
 * their sha256, output in the run directory), counted by the run's job budget and
 * cancelled with the run. Job ids carry the tool call's, so they are traceable to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CalculatorError } from '../../calculators/types';
import type { PwRunner } from '../../calculators/pwx';
import { parsePwInput, readAtomicSpecies } from '../../dft/qe/input';
import { parsePwOutput } from '../../dft/qe/output';
import { outputNameFor } from '../../hpc/localRunner';
import { suggestResources } from '../../hpc/resources';
import { describePwInputSize } from '../../dft/qe/jobFacts';
import type { PseudopotentialTableValue } from '../../artifacts/shapes';
import { jobIdForCall } from '../runPw';
import { backendsOf, clusterProfileOf, service, type CatalogueContext } from '../services';

export interface PwJobLog {
  /** Job ids in the order they ran. */
  jobs: string[];
  /** The pw.x version the last output stated. */
  codeVersion?: string;
}

export function pwJobRunner(
  ctx: CatalogueContext,
  tool: string,
  backend: string,
  table: PseudopotentialTableValue,
  log: PwJobLog,
): PwRunner {
  const jobs = service(ctx, 'jobs', tool, 'the host opens the job service of the run');
  const pseudoDir = table.directory || service(ctx, 'pseudoDir', tool, 'set the pseudopotential directory (dreams.pseudoDir)');
  const backends = backendsOf(ctx);
  if (!backends.includes(backend)) throw new Error(`${tool}: backend "${backend}" is not configured; use one of ${backends.join(', ')}.`);
  const profile = clusterProfileOf(ctx, backend, tool);
  const base = jobIdForCall(ctx.runId, ctx.callId);
  return async (input, job) => {
    const named = (readAtomicSpecies(parsePwInput(input))?.value ?? []).map((s) => s.pseudopotential);
    const files = Object.values(table.byElement).filter((e) => named.includes(e.file));
    const record = await jobs.create({
      backend,
      id: `${base}-${log.jobs.length + 1}`,
      input: { name: 'pw.in', text: input },
      pseudopotentials: files.map((e) => ({ name: e.file, path: path.join(pseudoDir, e.file) })),
      resources: suggestResources(describePwInputSize(input), profile),
      call: ctx.callId,
    });
    log.jobs.push(record.id);
    ctx.progress(`job ${record.id} (${job.label}) on ${backend}`);
    await jobs.validate(record.id);
    await jobs.submit(record.id);
    const done = await jobs.waitFor(record.id);
    const outFile = path.join(jobs.jobDir(done.id), outputNameFor(done.input));
    const text = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
    const out = parsePwOutput(text);
    if (out.codeVersion) log.codeVersion = out.codeVersion;
    // pw.x exits with status 3 when a relaxation reaches nstep: the output is complete and the
    // calculator reports the relaxation as not converged (provisional), not as a failure.
    if (done.state !== 'completed' && !out.jobDone) {
      throw new CalculatorError(
        'pw.x',
        `${job.label}: job ${done.id} ${done.state}${done.error ? `: ${done.error}` : ''}. Its input and output are in ${jobs.jobDir(done.id)}.\n${text.slice(-1500)}`,
      );
    }
    return text;
  };
}
