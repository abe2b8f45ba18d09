/**
 * Keep a hand-answered session as a transcript fixture (test/fixtures/live/<session>.json): its
 * request/answer pairs keyed by role and turn, trimmed, with the objective, the options that matter
 * and what the live run ended with (read from its run directory).
 *   node --import tsx scripts/bench/live/import.ts <hand dir> <session> --objective "..." --run <run dir>
 *        [--pseudo debian|workflows-fixture|workflows-fixture-nc] [--parallel-jobs 1] [--approval continue]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FIXTURE_DIR, transcriptFromHandSession, type LiveTranscript } from '../../../test/fixtures/live/replay';

function outcomeOf(runDir: string): LiveTranscript['outcome'] {
  const events = fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; key?: string; payload: Record<string, unknown> });
  const state = [...events].reverse().find((e) => e.kind === 'run.state')?.payload.state;
  const judged = [...events].reverse().find((e) => e.kind === 'report.judged')?.payload;
  const response = [...events].reverse().find((e) => e.kind === 'key.write' && e.key === 'notes/response')?.payload.value;
  return { state: String(state ?? 'unknown'), reportAccepted: judged ? Boolean(judged.accepted) : null, response: String(response ?? '') };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    objective: { type: 'string' },
    run: { type: 'string' },
    pseudo: { type: 'string' },
    'parallel-jobs': { type: 'string' },
    approval: { type: 'string' },
  },
});
const [handDir, session] = positionals;
if (!handDir || !session || !values.objective || !values.run) {
  console.error(
    'usage: import.ts <hand dir> <session> --objective "..." --run <run dir> [--pseudo debian|workflows-fixture|workflows-fixture-nc] [--parallel-jobs 1] [--approval continue]',
  );
  process.exit(2);
}
const t = transcriptFromHandSession(handDir, {
  session,
  objective: values.objective,
  recordedAt: new Date().toISOString(),
  options: {
    pseudoDir: values.pseudo === 'workflows-fixture' || values.pseudo === 'workflows-fixture-nc' ? values.pseudo : 'debian',
    parallelJobs: Number(values['parallel-jobs'] ?? 1),
    approval: values.approval ?? 'continue',
  },
  outcome: outcomeOf(values.run),
});
const file = path.join(FIXTURE_DIR, `${session}.json`);
fs.writeFileSync(file, `${JSON.stringify(t, null, 1)}\n`);
const roles = new Map<string, number>();
for (const e of t.exchanges) roles.set(e.key.split('|')[0]!, (roles.get(e.key.split('|')[0]!) ?? 0) + 1);
console.log(
  `${file}: ${t.exchanges.length} exchanges (${[...roles].map(([r, n]) => `${r} ${n}`).join(', ')}); outcome ${JSON.stringify(t.outcome)}`,
);
