/**
 * Approval answers from other processes. A run has one writer (the process running it);
 * `dreams approve` or VS Code answering while the CLI runs cannot write the log, so they
 * post the answer to <run>/inbox/ and the running process records it, then leaves the
 * outcome next to it (<name>.result.json) for the poster to read.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export const INBOX_DIR = 'inbox';

export interface PostedAnswer {
  id: string;
  decision: 'approve' | 'reject';
  by: string;
  comment?: string;
  /** Approve later requests of the same concern too (see ApprovalBook.answer). */
  standing?: boolean;
  postedAt: string;
}

export interface AnswerOutcome {
  ok: boolean;
  message: string;
}

function writeAtomic(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value));
  fs.renameSync(tmp, file);
}

/** Post an answer; returns the file name to wait on with waitForOutcome. */
export function postAnswer(runDir: string, answer: Omit<PostedAnswer, 'postedAt'>): string {
  const dir = path.join(runDir, INBOX_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const name = `${Date.now()}-${crypto.randomBytes(4).toString('hex')}-${answer.id.replace(/[^A-Za-z0-9-]/g, '_')}`;
  writeAtomic(path.join(dir, `${name}.json`), { ...answer, postedAt: new Date().toISOString() });
  return name;
}

export async function waitForOutcome(runDir: string, name: string, timeoutMs = 15_000): Promise<AnswerOutcome | undefined> {
  const file = path.join(runDir, INBOX_DIR, `${name}.result.json`);
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (fs.existsSync(file)) {
      const outcome = JSON.parse(fs.readFileSync(file, 'utf8')) as AnswerOutcome;
      fs.rmSync(file, { force: true });
      return outcome;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/** Watch the inbox; each posted answer goes to `record`, whose outcome is written back. */
export function watchInbox(runDir: string, record: (a: PostedAnswer) => Promise<AnswerOutcome>, intervalMs = 300): () => void {
  const dir = path.join(runDir, INBOX_DIR);
  fs.mkdirSync(dir, { recursive: true });
  let busy = false;
  let stopped = false;
  const drain = async (): Promise<void> => {
    if (busy || stopped) return;
    busy = true;
    try {
      fs.mkdirSync(dir, { recursive: true }); // removed by hand meanwhile: answers can still be posted
      for (const f of fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.json') && !n.endsWith('.result.json'))
        .sort()) {
        const file = path.join(dir, f);
        let outcome: AnswerOutcome;
        try {
          outcome = await record(JSON.parse(fs.readFileSync(file, 'utf8')) as PostedAnswer);
        } catch (e) {
          outcome = { ok: false, message: `the run could not record the answer: ${(e as Error).message}` };
        }
        writeAtomic(path.join(dir, f.replace(/\.json$/, '.result.json')), outcome);
        fs.rmSync(file, { force: true });
      }
    } finally {
      busy = false;
    }
  };
  // Not unref'ed: while a run is driven its process must stay alive, and a call waiting for an
  // approval holds no other handle (the answer comes through here, or the log). A drain that
  // cannot read the inbox (a file system hiccup) leaves the answers there for the next tick;
  // each answer's own failure is written back to its poster above.
  const timer = setInterval(() => void drain().catch(() => undefined), intervalMs);
  void drain().catch(() => undefined);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
