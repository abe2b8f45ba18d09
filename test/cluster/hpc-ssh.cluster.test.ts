// SSH trust and login: known_hosts (plain and hashed) with a clear refusal on a mismatch
// and an explicit first-use confirmation; ssh-agent; keyboard-interactive second factor
// handed to a callback; a two-hop ProxyJump chain through ~/.ssh/config.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ClusterConnection, SshRefusedError, type HostKeyQuestion } from '../../src/core/hpc/ssh/connection';
import { resolveSshTarget } from '../../src/core/hpc/ssh/sshConfig';
import { clusterDir, hostKey, sshPort, until } from './hpc/clusterFixture';
import { TestSshServer, testUserPublicKey } from './hpc/testSshServer';

const identity = path.join(clusterDir, 'ssh/id_ed25519');
let dir: string;

function connectionFor(config: string, alias: string, callbacks = {}, extra = {}): ClusterConnection {
  const target = resolveSshTarget({ sshHost: alias }, { text: config, file: 'test ssh config', home: dir });
  return new ClusterConnection('testcluster', target, { callbacks, agentSocket: '', ...extra });
}

const hostBlock = (alias: string, port: number, knownHosts: string, extra = '') =>
  `Host ${alias}\n  HostName 127.0.0.1\n  Port ${port}\n  User testuser\n  IdentityFile ${identity}\n  UserKnownHostsFile ${knownHosts}\n${extra}`;

/** OpenSSH's own fingerprint of the cluster's host key, to compare with what the callback is shown. */
const sshKeygenFingerprint = () =>
  execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', path.join(clusterDir, 'ssh/ssh_host_ed25519_key.pub')], {
    encoding: 'utf8',
  }).split(/\s+/)[1];

describe('SSH trust and login', () => {
  beforeEach(() => (dir = fs.mkdtempSync('/tmp/dreams-hpc-ssh-')));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a host whose key differs from known_hosts, clearly, without asking', async () => {
    const kh = path.join(dir, 'known_hosts');
    const other = crypto.generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), other]);
    fs.writeFileSync(kh, `[127.0.0.1]:${sshPort} ssh-ed25519 ${blob.toString('base64')}\n`);
    let asked = 0;
    const c = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster', { confirmHostKey: async () => (asked++, true) });
    await assert.rejects(c.connect(), (e: Error) => {
      assert.ok(e instanceof SshRefusedError);
      assert.match(e.message, /HOST KEY MISMATCH for \[127\.0\.0\.1\]:2222/);
      assert.match(e.message, new RegExp(sshKeygenFingerprint()!.replace(/[+/]/g, '\\$&')));
      assert.match(e.message, /ssh-keygen -R/);
      return true;
    });
    assert.equal(asked, 0, 'a mismatch is never put to the user as a first-use question');
    assert.equal(c.status, 'refused');
    await c.close();
  });

  it('asks before trusting an unknown host; saves the key only when the user accepts', async () => {
    const kh = path.join(dir, 'known_hosts');
    const questions: HostKeyQuestion[] = [];
    const declined = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster', {
      confirmHostKey: async (q: HostKeyQuestion) => (questions.push(q), false),
    });
    await assert.rejects(declined.connect(), /was not accepted/);
    assert.equal(fs.existsSync(kh), false, 'nothing saved when declined');
    const silent = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster');
    await assert.rejects(silent.connect(), /no one to confirm its key/);

    const accepted = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster', {
      confirmHostKey: async (q: HostKeyQuestion) => (questions.push(q), true),
    });
    await accepted.connect();
    assert.equal((await accepted.exec('echo hello')).stdout, 'hello\n');
    await accepted.close();
    assert.equal(questions.length, 2);
    assert.equal(questions[1]!.host, `[127.0.0.1]:${sshPort}`);
    assert.equal(questions[1]!.fingerprint, sshKeygenFingerprint());
    assert.equal(fs.readFileSync(kh, 'utf8'), `[127.0.0.1]:${sshPort} ${hostKey()}\n`);
    // the saved key is trusted next time, with no one to ask
    const next = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster');
    await next.connect();
    await next.close();
  });

  it('accepts a host found through a hashed known_hosts entry (ssh-keygen -H)', async () => {
    const kh = path.join(dir, 'known_hosts');
    fs.writeFileSync(kh, `[127.0.0.1]:${sshPort} ${hostKey()}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', kh], { stdio: 'ignore' });
    assert.match(fs.readFileSync(kh, 'utf8'), /^\|1\|/);
    const c = connectionFor(hostBlock('cluster', sshPort, kh), 'cluster');
    await c.connect();
    assert.equal((await c.exec('whoami')).stdout.trim(), 'testuser');
    await c.close();
  });

  it('logs in through ssh-agent (SSH_AUTH_SOCK) when no key file is usable', async () => {
    const sock = path.join(dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    try {
      await until('the agent socket', () => fs.existsSync(sock), 10_000);
      execFileSync('ssh-add', [identity], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
      const kh = path.join(dir, 'known_hosts');
      fs.writeFileSync(kh, `[127.0.0.1]:${sshPort} ${hostKey()}\n`);
      const config = `Host cluster\n  HostName 127.0.0.1\n  Port ${sshPort}\n  User testuser\n  IdentityFile ${path.join(dir, 'no-such-key')}\n  UserKnownHostsFile ${kh}\n`;
      const noAgent = connectionFor(config, 'cluster');
      await assert.rejects(noAgent.connect(), /refused every way of logging in/);
      const c = connectionFor(config, 'cluster', {}, { agentSocket: sock });
      await c.connect();
      assert.equal((await c.exec('whoami')).stdout.trim(), 'testuser');
      await c.close();
    } finally {
      agent.kill();
    }
  });

  it('hands a keyboard-interactive second factor to the callback and logs in only with the right answer', async () => {
    const server = await TestSshServer.start({ authorizedKey: testUserPublicKey(clusterDir), oneTimeCode: '424242' });
    try {
      const kh = path.join(dir, 'known_hosts');
      fs.writeFileSync(kh, `[127.0.0.1]:${server.port} ${server.publicKeyLine()}\n`);
      const config = hostBlock('twofactor', server.port, kh);
      const asked: string[] = [];
      const wrong = connectionFor(config, 'twofactor', {
        keyboardInteractive: async (q: { prompts: { prompt: string }[] }) => (asked.push(q.prompts[0]!.prompt), ['000000']),
      });
      await assert.rejects(wrong.connect(), /refused every way of logging in/);
      const right = connectionFor(config, 'twofactor', {
        keyboardInteractive: async (q: { name: string; prompts: { prompt: string; echo: boolean }[] }) => {
          asked.push(q.prompts[0]!.prompt);
          assert.equal(q.name, 'Two-factor login');
          assert.equal(q.prompts[0]!.echo, false);
          return ['424242'];
        },
      });
      await right.connect();
      assert.equal((await right.exec('hostname')).stdout, 'ran: hostname\n');
      assert.deepEqual(asked, ['Verification code: ', 'Verification code: ']);
      await right.close();
      const none = connectionFor(config, 'twofactor');
      await assert.rejects(none.connect(), /refused every way of logging in/);
    } finally {
      await server.stop();
    }
  });

  it('follows a two-hop ProxyJump chain from the ssh config, forwarding through each hop', async () => {
    const jump = await TestSshServer.start({ authorizedKey: testUserPublicKey(clusterDir) });
    try {
      const kh = path.join(dir, 'known_hosts');
      // the first hop's key as a hashed entry, the cluster's as a plain one
      fs.writeFileSync(kh, `[127.0.0.1]:${jump.port} ${jump.publicKeyLine()}\n`);
      execFileSync('ssh-keygen', ['-H', '-f', kh], { stdio: 'ignore' });
      fs.appendFileSync(kh, `[127.0.0.1]:${sshPort} ${hostKey()}\n`);
      const config = [
        hostBlock('outer', jump.port, kh),
        hostBlock('inner', sshPort, kh),
        `Host behind\n  HostName 127.0.0.1\n  Port ${sshPort}\n  User testuser\n  IdentityFile ${identity}\n  UserKnownHostsFile ${kh}\n  ProxyJump outer,inner\n`,
      ].join('');
      const target = resolveSshTarget({ sshHost: 'behind' }, { text: config, home: dir });
      assert.deepEqual(
        target.jumps.map((j) => `${j.alias}:${j.port}`),
        [`outer:${jump.port}`, `inner:${sshPort}`],
      );
      const c = connectionFor(config, 'behind');
      await c.connect();
      assert.match((await c.exec('sinfo -h -o %P')).stdout, /debug/);
      assert.deepEqual(jump.forwards, [{ host: '127.0.0.1', port: sshPort }], 'the outer hop forwarded to the inner one');
      assert.equal(jump.execs, 0, 'commands ran at the end of the chain, not on the jump host');
      await c.close();
    } finally {
      await jump.stop();
    }
  });
});
