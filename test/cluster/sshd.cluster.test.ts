// The cluster tier talks to a real sshd + SLURM on 127.0.0.1 (scripts/cluster/setup-cluster.sh).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'ssh2';

const dir = process.env.DREAMS_TEST_CLUSTER_DIR ?? '/tmp/dreams-test-cluster';
const knownKey = () => Buffer.from(fs.readFileSync(path.join(dir, 'ssh/known_hosts'), 'utf8').trim().split(/\s+/)[2]!, 'base64');

function connect(verify: (key: Buffer) => boolean): Promise<Client> {
  return new Promise((resolve, reject) => {
    const c = new Client();
    c.on('ready', () => resolve(c))
      .on('error', reject)
      .connect({
        host: '127.0.0.1',
        port: 2222,
        username: 'testuser',
        privateKey: fs.readFileSync(path.join(dir, 'ssh/id_ed25519')),
        hostVerifier: (key: Buffer) => verify(key),
        readyTimeout: 10_000,
      });
  });
}

function exec(c: Client, cmd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    c.exec(cmd, (err, stream) => {
      if (err) return reject(err);
      let out = '';
      stream.on('data', (d: Buffer) => (out += d)).on('close', (code: number) => resolve({ code, out }));
      stream.stderr.on('data', (d: Buffer) => (out += d));
    });
  });
}

describe('test cluster over SSH', () => {
  it('accepts a session whose host key matches known_hosts and runs sinfo', async () => {
    const c = await connect((key) => key.equals(knownKey()));
    try {
      const r = await exec(c, 'sinfo -h -o "%P %a"');
      assert.equal(r.code, 0);
      assert.match(r.out, /debug\* up/);
    } finally {
      c.end();
    }
  });

  it('a client that checks the host key refuses a server whose key differs', async () => {
    const wrong = crypto.randomBytes(51);
    await assert.rejects(
      connect((key) => key.equals(wrong)),
      /verification failed|Host denied/i,
    );
  });
});
