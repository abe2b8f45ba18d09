// A test-only SSH server (ssh2's Server class) on loopback. It plays two peers the real
// sshd here cannot: a login that needs a second factor after the key (OpenSSH does
// keyboard-interactive on Linux only through PAM, and the test cluster runs without
// PAM), and a jump host that records the forwards it is asked for.
import fs from 'node:fs';
import net from 'node:net';
import { Server, utils, type Connection, type KeyboardAuthContext, type PublicKeyAuthContext } from 'ssh2';

export interface TestSshServerOptions {
  /** Public key (OpenSSH text) allowed to log in. */
  authorizedKey: string;
  /** When set, a correct key only half-authenticates: this code must follow by keyboard-interactive. */
  oneTimeCode?: string;
}

export class TestSshServer {
  readonly hostKey = utils.generateKeyPairSync('ed25519');
  readonly prompts: string[] = [];
  readonly forwards: { host: string; port: number }[] = [];
  execs = 0;
  private server!: Server;
  private readonly clients = new Set<Connection>();

  static async start(options: TestSshServerOptions): Promise<TestSshServer> {
    const s = new TestSshServer();
    const allowed = utils.parseKey(options.authorizedKey);
    if (allowed instanceof Error) throw allowed;
    s.server = new Server({ hostKeys: [s.hostKey.private] }, (client) => {
      s.clients.add(client);
      client.on('close', () => s.clients.delete(client));
      client.on('error', () => undefined);
      let keyOk = false;
      client.on('authentication', (ctx) => {
        if (ctx.method === 'publickey') {
          const c = ctx as PublicKeyAuthContext;
          const same = c.key.algo === allowed.type && c.key.data.equals(allowed.getPublicSSH());
          if (!same) return ctx.reject(['publickey']);
          if (c.signature && c.blob && !allowed.verify(c.blob, c.signature, c.hashAlgo)) return ctx.reject(['publickey']);
          if (!c.signature) return ctx.accept(); // key query: "would you accept this key?"
          keyOk = true;
          if (options.oneTimeCode === undefined) return ctx.accept();
          return ctx.reject(['keyboard-interactive'], true);
        }
        if (ctx.method === 'keyboard-interactive' && keyOk && options.oneTimeCode !== undefined) {
          const k = ctx as KeyboardAuthContext;
          s.prompts.push('Verification code: ');
          return k.prompt([{ prompt: 'Verification code: ', echo: false }], 'Two-factor login', (answers) =>
            answers[0] === options.oneTimeCode ? k.accept() : k.reject(),
          );
        }
        ctx.reject(keyOk ? ['keyboard-interactive'] : ['publickey']);
      });
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept();
          session.on('exec', (acceptExec, _reject, info) => {
            s.execs++;
            const stream = acceptExec();
            stream.write(`ran: ${info.command}\n`);
            stream.exit(0);
            stream.end();
          });
          session.on('sftp', (acceptSftp) => acceptSftp());
        });
        client.on('tcpip', (accept, _reject, info) => {
          s.forwards.push({ host: info.destIP, port: info.destPort });
          const channel = accept();
          const upstream = net.connect(info.destPort, info.destIP);
          upstream.on('error', () => channel.close());
          channel.pipe(upstream).pipe(channel);
        });
      });
    });
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** "ssh-ed25519 AAAA..." as in known_hosts. */
  publicKeyLine(): string {
    return this.hostKey.public.trim().split(/\s+/).slice(0, 2).join(' ');
  }

  async stop(): Promise<void> {
    for (const c of this.clients) c.end();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const testUserPublicKey = (clusterDir: string): string => fs.readFileSync(`${clusterDir}/ssh/id_ed25519.pub`, 'utf8');
