// What `dreams` prints when an error reaches the top of a command, and its exit status: a
// coded error says what was wrong and what to do without a stack trace; a bug says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportCliError } from '../../../src/cli/errors';
import { UsageError } from '../../../src/cli/commands/runOptions';
import { EventLogError } from '../../../src/core/canvas/eventLogError';
import { encodeEventLine } from '../../../src/core/canvas/eventLine';
import { IllegalJobTransitionError } from '../../../src/core/hpc/jobModel';
import { DreamsError } from '../../../src/core/errors';

const ROOT = path.resolve(__dirname, '../../..');
const STACK_LINE = /^\s+at /m;

function report(e: unknown, env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = [];
  const exit = reportCliError(e, (l) => lines.push(l), env);
  return { exit, text: lines.join('\n') };
}

describe('dreams: errors that reach the top of a command', () => {
  it("prints a coded error's message with its code's exit status, and no stack trace", () => {
    const r = report(new EventLogError('locked', 'this run is open for writing by pid 4242 on host a. Close the other window.'));
    assert.equal(r.exit, 5);
    assert.equal(r.text, 'dreams: this run is open for writing by pid 4242 on host a. Close the other window.');
    assert.doesNotMatch(r.text, STACK_LINE);
    assert.equal(report(new UsageError('give one objective.')).exit, 2);
  });

  it('prints an action given apart from the message after it, once', () => {
    const r = report(new DreamsError('setup', 'pw.x was not found on PATH.', { action: 'Install Quantum ESPRESSO or pass --pw-command.' }));
    assert.equal(r.exit, 4);
    assert.equal(r.text, 'dreams: pw.x was not found on PATH.\n  Install Quantum ESPRESSO or pass --pw-command.');
    const inside = report(new DreamsError('setup', 'pw.x was not found. Install it.', { action: 'Install it.' }));
    assert.equal(inside.text, 'dreams: pw.x was not found. Install it.');
  });

  it('exits 1 for an error without a code, with its stack only under DREAMS_DEBUG', () => {
    const plain = report(new Error('the pw.x command is empty'));
    assert.equal(plain.exit, 1);
    assert.equal(plain.text, 'dreams: the pw.x command is empty');
    assert.match(report(new Error('x'), { DREAMS_DEBUG: '1' }).text, STACK_LINE);
  });

  it('reports a bug with its stack so it can be reported, exit 70', () => {
    const r = report(new IllegalJobTransitionError('j-1', 'completed', 'running'));
    assert.equal(r.exit, 70);
    assert.match(r.text, /please report it/);
    assert.match(r.text, STACK_LINE);
  });

  it('exits 5 without a stack trace when `dreams report` meets a run written by a newer DREAMS', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cli-errors-'));
    try {
      const { line } = encodeEventLine({
        v: 99,
        seq: 1,
        ts: new Date().toISOString(),
        actor: { kind: 'framework', id: 'run' },
        kind: 'run.state',
        payload: { state: 'created' },
      });
      fs.writeFileSync(path.join(dir, 'events.jsonl'), line);
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'report', dir], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 5, r.stderr);
      assert.match(r.stderr, /^dreams: .*newer/m);
      assert.match(r.stderr, /Update the DREAMS extension or CLI to open this run/);
      assert.doesNotMatch(r.stderr, STACK_LINE);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
