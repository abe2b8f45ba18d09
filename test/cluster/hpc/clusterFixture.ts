// Shared set-up for the hpc cluster tests: a per-run id so parallel runs on the shared
// test cluster never collide, an ssh config and known_hosts of our own, a job service on the
// local runner and a cluster profile, a loopback TCP relay whose sockets a test can cut, and
// clean-up of everything a run left remotely.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { JobBackends } from '../../../src/core/hpc/backends';
import { JobService } from '../../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../../src/core/hpc/ssh/sshConfig';
import type { ClusterProfile } from '../../../src/core/hpc/types';
import type { Logger } from '../../../src/core/logger';

export const clusterDir = process.env.DREAMS_TEST_CLUSTER_DIR ?? '/tmp/dreams-test-cluster';
export const sshPort = 2222;
export const fixtures = path.resolve(__dirname, '../../fixtures/hpc');
export const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
export const alPseudo = [{ name: 'Al.pz-vbc.UPF', path: path.join(pseudoDir, 'Al.pz-vbc.UPF') }];
export const readInput = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');
/** A one-task job's resources, given where sizing cannot read the input (al-fcc-bad.in's misspelt ecutwfc). */
export const oneTask = { ntasks: 1, nodes: 1, walltimeMinutes: 10, reason: 'test: a one-task job' };

/** The cluster's host key line body ("ssh-ed25519 AAAA..."). */
export const hostKey = (): string =>
  fs.readFileSync(path.join(clusterDir, 'ssh/known_hosts'), 'utf8').trim().split(/\s+/).slice(1, 3).join(' ');

export interface TestCluster {
  runId: string;
  dir: string;
  sshConfigFile: string;
  knownHosts: string;
  profile(overrides?: Partial<ClusterProfile>): ClusterProfile;
  /** Run a command on the cluster with the system ssh (for checks the code under test must not do itself). */
  ssh(command: string): string;
  cleanup(): void;
}

export function makeTestCluster(extraPorts: number[] = []): TestCluster {
  const runId = `t${crypto.randomBytes(4).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-hpc-${runId}-`));
  const knownHosts = path.join(dir, 'known_hosts');
  fs.writeFileSync(knownHosts, [sshPort, ...extraPorts].map((p) => `[127.0.0.1]:${p} ${hostKey()}\n`).join(''));
  const sshConfigFile = path.join(dir, 'ssh_config');
  const identity = path.join(clusterDir, 'ssh/id_ed25519');
  fs.writeFileSync(
    sshConfigFile,
    `Host cluster\n  HostName 127.0.0.1\n  Port ${sshPort}\n  User testuser\n  IdentityFile ${identity}\n  UserKnownHostsFile ${knownHosts}\n` +
      extraPorts
        .map(
          (p) =>
            `Host relay${p}\n  HostName 127.0.0.1\n  Port ${p}\n  User testuser\n  IdentityFile ${identity}\n  UserKnownHostsFile ${knownHosts}\n`,
        )
        .join(''),
  );
  const workRoot = `dreams-test/${runId}`;
  const ssh = (command: string) =>
    execFileSync('ssh', ['-F', path.join(clusterDir, 'ssh/ssh_config'), 'cluster', command], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  return {
    runId,
    dir,
    sshConfigFile,
    knownHosts,
    profile: (o = {}) => ({
      name: 'testcluster',
      sshHost: 'cluster',
      scheduler: 'slurm',
      workRoot: `~/${workRoot}`,
      pwCommand: 'pw.x',
      pollSeconds: 1,
      limits: { maxNtasks: 2, maxNodes: 1, coresPerNode: 2, maxMemoryMb: 1500, maxWalltimeMinutes: 60 },
      ...o,
    }),
    ssh,
    cleanup() {
      try {
        // cancel whatever this run left in the queue (jobs are named after ids made in this run's directory)
        ssh(
          `for d in ~/${workRoot}/*/; do [ -s "$d/.dreams-scheduler-id" ] && scancel "$(cat "$d/.dreams-scheduler-id")"; done 2>/dev/null; rm -rf ~/${workRoot}; true`,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A job service over two backends, pw.x locally and `profile` (default the cluster's own), as `dreams` opens them; `close` ends both. */
export async function openClusterService(
  cluster: TestCluster,
  profile: ClusterProfile = cluster.profile(),
  runDir = path.join(cluster.dir, 'run'),
  store = new MemoryJobStore(),
  logger?: Logger,
) {
  const backends = new JobBackends({
    local: { pwCommand: 'pw.x', watchIntervalMs: 100 },
    profiles: [profile],
    sshConfig: loadSshConfig(cluster.sshConfigFile),
    pollSeconds: 1,
    connection: { backoff: { initialMs: 200, maxMs: 2000 } },
    ...(logger ? { logger } : {}),
  });
  const service = await JobService.open({ store, runDir, backend: backends.create, progressIntervalMs: 0 });
  return { service, backends, store, close: async () => (await service.dispose(), await backends.close()) };
}

/** A TCP relay to the cluster's sshd whose live connections a test can cut. */
export class LinkRelay {
  private readonly sockets = new Set<net.Socket>();
  private server!: net.Server;
  connections = 0;

  static async start(): Promise<LinkRelay> {
    const r = new LinkRelay();
    r.server = net.createServer((client) => {
      r.connections++;
      const upstream = net.connect(sshPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        r.sockets.add(s);
        s.on('close', () => r.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Destroy every live connection, as a dropped network link would. */
  cut(): number {
    const n = this.sockets.size;
    for (const s of this.sockets) s.destroy();
    return n;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
