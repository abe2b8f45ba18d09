// The core's logger port: lines reach the host's sink with their level and scope, and never
// carry a key or a secret, whoever wrote them.
import assert from 'node:assert/strict';
import { commandForLog, createLogger, redactSecrets, type LogLevel } from '../../../src/core/logger';
import { request, startRig, TEST_KEY } from './llm/fakeApiHarness';

describe('logger port', () => {
  it('passes each line to the sink with its level and the scope as a prefix', () => {
    const lines: [LogLevel, string][] = [];
    const log = createLogger({ log: (l, m) => lines.push([l, m]) });
    log.info('plain');
    log.scoped('ssh hpc1').warn('dropped');
    log.scoped('ssh hpc1').scoped('sftp').debug('put');
    assert.deepEqual(lines, [
      ['info', 'plain'],
      ['warn', '[ssh hpc1] dropped'],
      ['debug', '[ssh hpc1/sftp] put'],
    ]);
  });

  it('removes an Anthropic key, bearer tokens, API-key headers and NAME=secret assignments', () => {
    const text =
      'retry: 401 for key sk-ant-api03-AbC_dEf-123 with Authorization: Bearer tok.en and x-api-key: abcdef; ran ANTHROPIC_API_KEY=xyz123 MY_TOKEN=s3cr3t pw.x';
    const out = redactSecrets(text);
    for (const secret of ['sk-ant-api03-AbC_dEf-123', 'tok.en', 'abcdef', 'xyz123', 's3cr3t'])
      assert.ok(!out.includes(secret), `${secret} left in: ${out}`);
    assert.match(out, /Authorization: Bearer ‹redacted›/);
    assert.match(out, /ANTHROPIC_API_KEY=‹redacted›/);
    assert.match(out, / pw\.x$/);
  });

  it('removes the secrets the host names, even when they look like nothing special', () => {
    const lines: string[] = [];
    const log = createLogger({ log: (_l, m) => lines.push(m) }, { secrets: () => ['hunter2-passphrase'] });
    log.error('could not load key: passphrase hunter2-passphrase rejected');
    assert.deepEqual(lines, ['could not load key: passphrase ‹redacted› rejected']);
  });

  it('a sink that throws does not break the caller', () => {
    const log = createLogger({
      log: () => {
        throw new Error('channel disposed');
      },
    });
    assert.doesNotThrow(() => log.warn('x'));
  });

  it('logs a multi-line shell command on one line, cut to a length', () => {
    assert.equal(commandForLog('cd /w || exit 90\nsbatch job.sh'), 'cd /w || exit 90 ⏎ sbatch job.sh');
    const long = commandForLog('x'.repeat(1000), 50);
    assert.equal(long.length, 50);
    assert.ok(long.endsWith('…'));
  });

  it('an API retry is logged with its reason and the final failure as an error, never with the key (real SDK, fake API on loopback)', async () => {
    const lines: [LogLevel, string][] = [];
    const logger = createLogger({ log: (l, m) => lines.push([l, m]) });
    const rig = await startRig(
      {
        script: {
          steps: [
            { fault: { type: 'overloaded', message: `busy; key was ${TEST_KEY}` } },
            { fault: { type: 'server_error', status: 500 } },
            { reply: { content: [{ type: 'text', text: 'ok' }] } },
          ],
        },
      },
      { logger },
    );
    try {
      await rig.provider.complete(request());
    } finally {
      await rig.api.stop();
    }
    const warned = lines.filter(([l]) => l === 'warn').map(([, m]) => m);
    assert.equal(warned.length, 2, lines.join('\n'));
    assert.match(warned[0]!, /^\[api\] dft \(claude-sonnet-5-5\): retry 2 of 4 in \d+\.\d s: overloaded/);
    assert.match(warned[1]!, /retry 3 of 4 .*server/);
    assert.ok(
      lines.some(([l, m]) => l === 'debug' && /end_turn|ok|attempt 3/.test(m)),
      'the answer is logged at debug',
    );
    for (const [, m] of lines) assert.ok(!m.includes(TEST_KEY), `the key reached the log: ${m}`);

    lines.length = 0;
    const down = await startRig(
      {
        script: {
          steps: [{ fault: { type: 'http_error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' } }],
        },
      },
      { logger },
    );
    try {
      await assert.rejects(down.provider.complete(request()));
    } finally {
      await down.api.stop();
    }
    assert.deepEqual(
      lines.map(([l]) => l),
      ['error'],
    );
    assert.match(lines[0]![1], /gave up after 1 attempt/);
  });
});
