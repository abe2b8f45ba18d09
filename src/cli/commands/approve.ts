/**
 * `dreams approve <run> <request> [--reject] [--comment ...]`: answer a guard warning. A
 * request already answered is refused, saying who answered and when. While the run's own
 * process is running it (and holds the log), the answer goes through the run's inbox and
 * that process records it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postAnswer, waitForOutcome } from '../../core/run/answerInbox';
import { EventLogError } from '../../core/canvas/eventLogError';
import { answerApproval, ApprovalBook, standingNote } from '../../core/guard/approvals';
import { registerCliCommand } from '../cli';
import { DAMAGED_LOG_ADVICE, openRunLog, partialReadNote } from './runLog';
import { resolveRunDir, UsageError } from './runOptions';

const USAGE = `Usage: dreams approve <run> <request> [--reject] [--all-like-this] [--comment TEXT] [--runs-dir DIR]
       dreams approve <run> --list

Answers an approval request the guard raised (e.g. ap-3): approve it, or --reject it with a
--comment saying why. A rejected result becomes provisional and cannot back a report. Each
request is answered once; a second answer is refused with who answered first and when.
--all-like-this approves, with this one, every open and later request of the run with the
same concern (same parameter and value, warned by the same rules), recorded as such.
--list shows the run's requests and their answers, and those closed without one because a
rerun superseded the result they were raised on.`;

export async function approveCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        reject: { type: 'boolean' },
        comment: { type: 'string' },
        'runs-dir': { type: 'string' },
        list: { type: 'boolean' },
        'all-like-this': { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`dreams approve: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const runDir = resolveRunDir(positionals[0], path.resolve((values['runs-dir'] as string | undefined) ?? 'runs'));
    if (values.list) return await listRequests(runDir);
    const id = positionals[1];
    if (!id) throw new UsageError('name the request to answer, e.g. ap-3 (dreams approve <run> --list shows them).');
    const decision = values.reject ? 'reject' : 'approve';
    const comment = values.comment as string | undefined;
    const standing = values['all-like-this'] === true;
    if (standing && decision === 'reject') throw new UsageError('--all-like-this approves; a rejection answers one request only.');
    let run;
    try {
      // An answer only adds to the run: only a crash's torn last line is cut here (with a backup);
      // other damage leaves the log untouched, so an answer can never empty it.
      ({ run } = await openRunLog('approve', runDir, { mode: 'writer', onDamage: 'cut-last-line' }));
    } catch (e) {
      if (e instanceof EventLogError && e.code === 'damaged') {
        console.error(`dreams approve: ${e.message} ${id} was not answered. ${DAMAGED_LOG_ADVICE}`);
        return 1;
      }
      if (!(e instanceof EventLogError) || e.code !== 'locked') throw e;
      // The run is live in another process: it records the answer for us.
      const name = postAnswer(runDir, { id, decision, by: 'user@cli', ...(comment ? { comment } : {}), ...(standing ? { standing } : {}) });
      const outcome = await waitForOutcome(runDir, name);
      if (!outcome) {
        console.error(
          `dreams approve: the process running ${path.basename(runDir)} did not pick up the answer within 15 s (${e.message}). The answer waits in its inbox and is recorded when the run next looks.`,
        );
        return 1;
      }
      console.log(outcome.message);
      return outcome.ok ? 0 : 1;
    }
    try {
      const r = await answerApproval(new ApprovalBook(run.log), run.registry, id, decision, 'user@cli', comment, { standing });
      if (!r.ok) {
        console.error(`dreams approve: ${r.message}`);
        return 1;
      }
      console.log(
        `${id} ${decision === 'approve' ? 'approved' : 'rejected'}${standingNote(r)}${r.madeProvisional?.length ? `; now provisional: ${r.madeProvisional.join(', ')}` : ''}. Rewrite the report with: dreams report ${positionals[0]}`,
      );
      return 0;
    } finally {
      await run.close();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dreams approve: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

async function listRequests(runDir: string): Promise<number> {
  const { run, health } = await openRunLog('approve', runDir, { mode: 'reader' });
  try {
    if (health.damaged) console.error(`dreams approve: ${partialReadNote(health)}`);
    const book = new ApprovalBook(run.log);
    const requests = book.requests();
    if (!requests.length) console.log('no approval requests in this run');
    for (const r of requests) {
      const a = book.answerOf(r.id);
      const closed = a ? undefined : book.closedOf(r.id);
      const state = a
        ? `${a.decision === 'approve' ? 'approved' : 'rejected'} by ${a.by} at ${a.at}${a.standing ? ' (standing: also for later requests of this concern)' : ''}${a.under ? ` (standing approval of ${a.under})` : ''}`
        : closed
          ? `closed at ${closed.at}, ${closed.reason}`
          : 'OPEN';
      console.log(
        `${r.id}  ${r.call} ${r.tool}${r.parameter ? `.${r.parameter}` : ''}  ${state}\n    ${r.verdicts.map((v) => `[${v.rule}] ${v.reasons.join(' ')}`).join('\n    ')}`,
      );
    }
    return health.damaged ? 1 : 0;
  } finally {
    await run.close();
  }
}

registerCliCommand({ name: 'approve', summary: 'approve or reject a guard warning of a run', usage: USAGE, run: approveCommand });
