/**
 * One long-lived SSH connection per cluster, shared by every command and file transfer
 * (commands as exec channels, files over one SFTP channel). Keepalives find a dead
 * link; a dropped link is re-established with exponential backoff while callers wait.
 * A refusal (host key mismatch, unconfirmed host, authentication failure) is final:
 * retrying cannot fix it, so it is reported instead.
 */
import { DreamsError } from '../../errors';
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import { Client, type ConnectConfig } from 'ssh2';
import { commandForLog, silentLogger, type Logger, type LogLevel } from '../../logger';
import { makeAuthHandler, type AuthCallbacks } from './auth';
import { addKnownHost, fingerprintOf, keyTypeOf, knownHostName, readKnownHosts, verifyHostKey } from './knownHosts';
import type { SshHop, SshTarget } from './sshConfig';

export interface HostKeyQuestion {
  cluster: string;
  /** The name checked in known_hosts, e.g. "[login.example.org]:2222". */
  host: string;
  keyType: string;
  fingerprint: string;
  /** Where the key is saved if the user accepts it. */
  knownHostsFile: string;
}

export interface SshCallbacks extends AuthCallbacks {
  /** First connection to an unknown host: show the fingerprint and ask. Never accepted silently. */
  confirmHostKey?(q: HostKeyQuestion): Promise<boolean>;
}

export interface ConnectionOptions {
  callbacks?: SshCallbacks;
  /** ssh-agent socket; default SSH_AUTH_SOCK. */
  agentSocket?: string;
  keepaliveSeconds?: number;
  keepaliveCountMax?: number;
  readyTimeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  /** Most command channels open at once (OpenSSH's MaxSessions is 10 per connection; SFTP uses one). Default 6. */
  maxChannels?: number;
  /** Logins, host keys, drops, reconnects and every command with its exit code (never a secret). */
  logger?: Logger;
}

/** How the last login went: what `DREAMS: Test Cluster Connection` reports. */
export interface LoginReport {
  /** The name checked in known_hosts, e.g. "[127.0.0.1]:2222". */
  host: string;
  hostKeyType: string;
  fingerprint: string;
  /** Found in known_hosts, or accepted by the user now (and added). */
  hostKey: 'known' | 'accepted';
  knownHostsFile: string;
  /** The method that logged in: "ssh-agent (…)", "key ~/.ssh/id_ed25519", "keyboard-interactive". */
  auth: string;
  user: string;
  jumps: string[];
}

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'closed';

export interface ExecResult {
  code: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
}

/** The server or the user said no; reconnecting will not help. */
export class SshRefusedError extends DreamsError<'ssh-refused'> {
  constructor(message: string) {
    super('ssh-refused', message);
    this.name = 'SshRefusedError';
  }
}

/** The server would not open one more channel right now. */
class ChannelRefusedError extends DreamsError<'channel-refused'> {
  constructor(message: string) {
    super('channel-refused', message);
  }
}

/** At most `size` holders at once; the rest wait in order. */
class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  acquire(): Promise<void> {
    if (this.used < this.size) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}

/** The link dropped (or is down) while a command needed it; worth retrying. */
export class ConnectionLostError extends DreamsError<'connection-lost'> {
  constructor(message: string) {
    super('connection-lost', message);
    this.name = 'ConnectionLostError';
  }
}

interface Live {
  sftp: SftpClient;
  client: Client;
  hops: Client[];
}

export class ClusterConnection extends EventEmitter {
  readonly stats = { connects: 0, execs: 0, drops: 0 };
  private live: Live | undefined;
  private state: ConnectionState = 'idle';
  private refusal: SshRefusedError | undefined;
  private waiters: { resolve: (l: Live) => void; reject: (e: Error) => void }[] = [];
  private connecting: Promise<void> | undefined;
  private readonly channels: Slots;
  // ssh2-sftp-client adds listeners per transfer; a handful at once keeps it well-behaved
  private readonly transfers = new Slots(4);
  private readonly log: Logger;
  /** How the current (or last) connection logged in. */
  lastLogin: LoginReport | undefined;

  constructor(
    readonly cluster: string,
    private readonly target: SshTarget,
    private readonly options: ConnectionOptions = {},
  ) {
    super();
    this.channels = new Slots(options.maxChannels ?? 6);
    this.log = (options.logger ?? silentLogger).scoped(`ssh ${cluster}`);
  }

  get status(): ConnectionState {
    return this.state;
  }

  /** Connect now (first use); rejects with the reason when the cluster cannot be reached. */
  async connect(): Promise<void> {
    if (this.live) return;
    if (this.refusal) throw this.refusal;
    if (!this.connecting) {
      this.setState('connecting');
      this.connecting = this.establish().then(
        (live) => this.onLive(live),
        (e) => {
          this.connecting = undefined;
          if (e instanceof SshRefusedError) this.refuse(e);
          else this.setState('idle');
          throw e;
        },
      );
    }
    await this.connecting;
  }

  /** Run a command; waits (up to timeoutMs) for the link to come back if it is down. */
  async exec(command: string, timeoutMs = 120_000, logLevel: LogLevel = 'info'): Promise<ExecResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const t0 = Date.now();
        const r = await this.execOnce(command, timeoutMs);
        const said = r.code === 0 ? '' : `: ${commandForLog((r.stderr.trim() || r.stdout.trim()).split('\n')[0] ?? '', 200)}`;
        this.log[r.code === 0 ? logLevel : 'warn'](
          `$ ${commandForLog(command)} → exit ${r.code ?? r.signal ?? '?'} (${Date.now() - t0} ms)${said}`,
        );
        return r;
      } catch (e) {
        this.log.warn(`$ ${commandForLog(command)} → ${(e as Error).message}`);
        // the server refused a channel (its session limit counts channels still closing): try again shortly
        if (!(e instanceof ChannelRefusedError) || attempt >= 5) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  private async execOnce(command: string, timeoutMs: number): Promise<ExecResult> {
    const live = await this.whenLive(timeoutMs);
    await this.acquireChannel();
    try {
      this.stats.execs++;
      return await new Promise<ExecResult>((resolve, reject) => {
        const lost = () =>
          reject(new ConnectionLostError(`the connection to ${this.cluster} dropped while running: ${command.slice(0, 200)}`));
        live.client.exec(command, (err, stream) => {
          if (err) {
            if (this.live !== live)
              return reject(
                new ConnectionLostError(`the connection to ${this.cluster} dropped before the command started (${err.message}).`),
              );
            return reject(
              /open failed/i.test(err.message)
                ? new ChannelRefusedError(
                    `${this.cluster} refused a new channel (${err.message}); it may limit sessions per connection (MaxSessions).`,
                  )
                : err,
            );
          }
          let stdout = '';
          let stderr = '';
          let exitCode: number | null = null;
          let exitSignal: string | undefined;
          stream.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
          stream.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
          stream.on('exit', (code: number | null, signal?: string) => {
            exitCode = code;
            exitSignal = signal;
          });
          stream.on('close', () => {
            if (exitCode === null && exitSignal === undefined) return lost();
            resolve({ code: exitCode, ...(exitSignal ? { signal: exitSignal } : {}), stdout, stderr });
          });
        });
      });
    } finally {
      this.releaseChannel();
    }
  }

  /** Use the SFTP channel of the live connection (a few transfers at a time). */
  async sftp<T>(fn: (sftp: SftpClient) => Promise<T>, timeoutMs = 120_000): Promise<T> {
    const live = await this.whenLive(timeoutMs);
    await this.transfers.acquire();
    try {
      return await fn(live.sftp);
    } catch (e) {
      if (this.live !== live)
        throw new ConnectionLostError(`the connection to ${this.cluster} dropped during a file transfer (${(e as Error).message}).`);
      throw e;
    } finally {
      this.transfers.release();
    }
  }

  /** End the connection for good. */
  async close(): Promise<void> {
    this.setState('closed');
    const live = this.live;
    this.live = undefined;
    for (const w of this.waiters.splice(0)) w.reject(new ConnectionLostError(`the connection to ${this.cluster} was closed.`));
    if (live) endLive(live);
  }

  private setState(s: ConnectionState): void {
    if (this.state === 'closed' && s !== 'closed') return;
    if (s !== this.state) {
      const where = `${this.target.user}@${this.target.host}:${this.target.port}${this.target.jumps.length ? ` via ${this.target.jumps.map((j) => j.alias).join(' → ')}` : ''}`;
      if (s === 'connecting') this.log.info(`connecting to ${where}`);
      else if (s === 'reconnecting') this.log.warn(`the connection to ${where} dropped; reconnecting`);
      else if (s === 'closed') this.log.debug('connection closed');
    }
    this.state = s;
    this.emit('state', s);
  }

  private refuse(e: SshRefusedError): void {
    this.log.error(`refused: ${e.message}`);
    this.refusal = e;
    this.setState('refused');
    for (const w of this.waiters.splice(0)) w.reject(e);
  }

  private onLive(live: Live): void {
    this.connecting = undefined;
    if (this.state === 'closed') {
      endLive(live);
      return;
    }
    this.live = live;
    this.stats.connects++;
    const l = this.lastLogin;
    this.log.info(
      `connected${this.stats.connects > 1 ? ` again (connection ${this.stats.connects})` : ''}: logged in as ${this.target.user} with ${l?.auth ?? 'an unknown method'}; host key ${l ? `${l.hostKeyType} ${l.fingerprint} (${l.hostKey === 'known' ? `matches ${l.knownHostsFile}` : `accepted now, added to ${l.knownHostsFile}`})` : 'checked'}`,
    );
    live.client.once('close', () => this.onDropped(live));
    this.setState('connected');
    for (const w of this.waiters.splice(0)) w.resolve(live);
  }

  private onDropped(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    endLive(live);
    if (this.state === 'closed') return;
    this.stats.drops++;
    this.setState('reconnecting');
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 500, maxMs: 30_000 };
    for (let attempt = 0; this.state === 'reconnecting'; attempt++) {
      const delay = Math.min(maxMs, initialMs * 2 ** attempt);
      await new Promise((r) => setTimeout(r, delay * (0.75 + Math.random() * 0.25)));
      if (this.state !== 'reconnecting') return;
      try {
        this.onLive(await this.establish());
        return;
      } catch (e) {
        if (e instanceof SshRefusedError) return this.refuse(e);
        this.log.warn(`reconnect attempt ${attempt + 1} failed: ${(e as Error).message}`);
        this.emit('retry', { attempt: attempt + 1, error: (e as Error).message });
      }
    }
  }

  private whenLive(timeoutMs: number): Promise<Live> {
    if (this.live) return Promise.resolve(this.live);
    if (this.refusal) return Promise.reject(this.refusal);
    if (this.state === 'closed') return Promise.reject(new ConnectionLostError(`the connection to ${this.cluster} is closed.`));
    if (this.state === 'idle') void this.connect().catch(() => undefined);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (l: Live) => {
          clearTimeout(timer);
          resolve(l);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new ConnectionLostError(
            `no connection to ${this.cluster} for ${Math.round(timeoutMs / 1000)} s (state: ${this.state}); it keeps retrying in the background.`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
      if (this.state === 'idle' && !this.connecting) this.connect().catch((e) => waiter.reject(e));
    });
  }

  private acquireChannel(): Promise<void> {
    return this.channels.acquire();
  }

  private releaseChannel(): void {
    this.channels.release();
  }

  /** Connect through every jump host in turn, then to the cluster, and open SFTP. */
  private async establish(): Promise<Live> {
    const hops: Client[] = [];
    try {
      let sock: Duplex | undefined;
      for (const [i, hop] of this.target.jumps.entries()) {
        const c = new Client();
        hops.push(c);
        await this.open(c, hop, sock);
        const nextHop = this.target.jumps[i + 1] ?? this.target;
        sock = await forward(c, nextHop, hop);
      }
      const sftp = new SftpClient(`dreams-${this.cluster}`, { error: () => undefined, end: () => undefined, close: () => undefined });
      const client = (sftp as unknown as { client: Client }).client;
      await this.open(client, this.target, sock, (config) => sftp.connect(config));
      // a jump host going away takes the cluster's connection with it
      for (const h of hops) h.once('close', () => client.end());
      return { sftp, client, hops };
    } catch (e) {
      for (const h of hops) h.end();
      throw e;
    }
  }

  private open(client: Client, hop: SshHop, sock: Duplex | undefined, start?: (c: ConnectConfig) => Promise<unknown>): Promise<void> {
    const tried: string[] = [];
    let refusal: SshRefusedError | undefined;
    const name = knownHostName(hop.hostKeyName, hop.port);
    const config: ConnectConfig = {
      host: hop.host,
      port: hop.port,
      username: hop.user,
      ...(sock ? { sock } : {}),
      readyTimeout: this.options.readyTimeoutMs ?? 20_000,
      keepaliveInterval: (this.options.keepaliveSeconds ?? hop.keepaliveSeconds ?? 15) * 1000,
      keepaliveCountMax: this.options.keepaliveCountMax ?? 3,
      authHandler: makeAuthHandler(
        this.cluster,
        hop,
        this.options.callbacks ?? {},
        this.options.agentSocket ?? process.env.SSH_AUTH_SOCK,
        tried,
      ),
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        this.checkHostKey(hop, name, key).then(
          () => verify(true),
          (e: SshRefusedError) => {
            refusal = e;
            verify(false);
          },
        );
      },
    } as ConnectConfig;
    return new Promise<void>((resolve, reject) => {
      const fail = (e: Error) => {
        client.removeListener('ready', ready);
        client.removeListener('error', fail);
        if (refusal) return reject(refusal);
        if (/authentication methods failed/i.test(e.message)) {
          return reject(
            new SshRefusedError(
              `${hop.user}@${hop.alias} refused every way of logging in (tried: ${tried.join(', ') || 'nothing: no ssh-agent, no key file and no prompt handler'}). ` +
                "Check the user name, load the key into ssh-agent or set IdentityFile in ~/.ssh/config, and that the public key is in the cluster's authorized_keys.",
            ),
          );
        }
        reject(new ConnectionLostError(`could not connect to ${hop.alias} (${hop.host}:${hop.port}): ${e.message}`));
      };
      const ready = () => {
        client.removeListener('error', fail);
        // the method tried last is the one the server accepted
        if (hop === this.target && this.lastLogin) this.lastLogin.auth = tried.at(-1) ?? 'none (the server asked for nothing)';
        else this.log.debug(`jump host ${hop.alias}: logged in with ${tried.at(-1) ?? 'none'}`);
        client.on('error', () => undefined); // once up, 'close' is what tells us the link went
        resolve();
      };
      client.once('error', fail);
      if (start) {
        // SFTP is usable only once its channel is open, after 'ready'
        start(config).then(ready, fail);
      } else {
        client.once('ready', ready);
        client.connect(config);
      }
    });
  }

  private async checkHostKey(hop: SshHop, name: string, key: Buffer): Promise<void> {
    const verdict = verifyHostKey(readKnownHosts(hop.knownHostsFiles), name, key);
    const fingerprint = fingerprintOf(key);
    const report = (hostKey: LoginReport['hostKey'], knownHostsFile: string) => {
      if (hop !== this.target) return;
      this.lastLogin = {
        host: name,
        hostKeyType: keyTypeOf(key),
        fingerprint,
        hostKey,
        knownHostsFile,
        auth: '',
        user: hop.user,
        jumps: this.target.jumps.map((j) => j.alias),
      };
    };
    if (verdict.kind === 'match') {
      report('known', verdict.file);
      return;
    }
    if (verdict.kind === 'mismatch') {
      throw new SshRefusedError(
        `HOST KEY MISMATCH for ${name} (${this.cluster}): the server offered ${keyTypeOf(key)} ${fingerprint}, but ${verdict.file} line ${verdict.line} records ${verdict.knownFingerprint}. ` +
          "Someone may be intercepting the connection, or the host key was changed. Refusing to connect. If the cluster's administrators confirm a new key, " +
          `remove the old entry (ssh-keygen -R '${name}' -f ${verdict.file}) and connect again.`,
      );
    }
    if (verdict.kind === 'revoked') {
      throw new SshRefusedError(
        `the host key of ${name} (${fingerprint}) is marked @revoked in ${verdict.file} line ${verdict.line}; refusing to connect. Ask the cluster's administrators for the current key.`,
      );
    }
    const file = hop.knownHostsFiles[0]!;
    const confirm = this.options.callbacks?.confirmHostKey;
    if (!confirm) {
      throw new SshRefusedError(
        `${name} (${this.cluster}) is not in ${hop.knownHostsFiles.join(', ')} and there is no one to confirm its key (${keyTypeOf(key)} ${fingerprint}). Connect once with ssh in a terminal, check the fingerprint and accept it, then try again.`,
      );
    }
    const ok = await confirm({ cluster: this.cluster, host: name, keyType: keyTypeOf(key), fingerprint, knownHostsFile: file });
    if (!ok)
      throw new SshRefusedError(
        `the host key of ${name} (${keyTypeOf(key)} ${fingerprint}) was not accepted; not connecting to ${this.cluster}.`,
      );
    addKnownHost(file, name, key);
    report('accepted', file);
  }
}

function forward(via: Client, to: SshHop, from: SshHop): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    via.forwardOut('127.0.0.1', 0, to.host, to.port, (err, stream) => {
      if (err)
        reject(
          new ConnectionLostError(
            `jump host ${from.alias} could not open a connection to ${to.host}:${to.port} (${err.message}); check that it may forward TCP (AllowTcpForwarding) and can reach that address.`,
          ),
        );
      else resolve(stream);
    });
  });
}

function endLive(live: Live): void {
  try {
    live.client.end();
  } catch {
    // already closed
  }
  for (const h of live.hops) h.end();
}
