/**
 * The pw.x version each backend runs in this session, for run_pw's reuse of earlier results
 * (a result of another pw.x is run again rather than mixed into the study).
 *
 * Local: the configured command's banner, probed once and only when asked. A cluster: its
 * pw.x cannot be started from here, so the version is read off the output of the newest job
 * that ran there since the session opened; before one has, it is not known (undefined: no check).
 */
import fs from 'node:fs';
import path from 'node:path';
import { outputNameFor } from '../hpc/localRunner';
import { pwBannerVersion } from '../dft/qe/output';
import { probeLocalPwVersion } from '../hpc/pwCommand';
import type { JobRecord } from '../hpc/types';

export interface JobsSeen {
  list(): JobRecord[];
  jobDir(id: string): string;
}

export function pwVersionsOfSession(
  pwCommand: string,
  jobs: JobsSeen,
  openedAt: string,
  probeLocal: (command: string) => Promise<string | undefined> = probeLocalPwVersion,
): (backend: string) => Promise<string | undefined> {
  let local: Promise<string | undefined> | undefined;
  const clusters = new Map<string, string>();
  return async (backend) => {
    if (backend === 'local') return (local ??= probeLocal(pwCommand));
    const known = clusters.get(backend);
    if (known) return known;
    const ran = jobs
      .list()
      .filter((j) => j.backend === backend && j.state === 'completed' && (j.startedAt ?? j.submittedAt ?? j.createdAt) >= openedAt)
      .sort((a, b) => (b.endedAt ?? b.updatedAt).localeCompare(a.endedAt ?? a.updatedAt));
    for (const job of ran) {
      const version = bannerVersionOf(path.join(jobs.jobDir(job.id), outputNameFor(job.input)));
      if (version) {
        clusters.set(backend, version);
        return version;
      }
    }
    return undefined;
  };
}

/** The banner is in pw.x's first lines: read only the head of a possibly long output. */
function bannerVersionOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(8192);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return pwBannerVersion(head.subarray(0, n).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
