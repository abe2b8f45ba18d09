// Opens a log as its writer in a separate process and holds it until stdin closes, so
// tests can meet a second writer process for real.
import { openEventLog } from '../../../../src/core/canvas/eventLog';

const logPath = process.argv[2]!;
void openEventLog(logPath, { mode: 'writer' }).then(
  async ({ log }) => {
    const appendCount = Number(process.argv[3] ?? 0);
    for (let i = 0; i < appendCount; i++) {
      await log.append({
        kind: 'user.edit',
        payload: { key: 'notes/tick', value: { i }, reason: 'tick' },
        actor: { kind: 'framework', id: 'hold-writer' },
      });
    }
    process.stdout.write('ready\n');
    process.stdin.resume();
    process.stdin.on('end', () => void log.close().then(() => process.exit(0)));
  },
  (err: Error) => {
    process.stdout.write(`refused: ${err.message}\n`);
    process.exit(3);
  },
);
