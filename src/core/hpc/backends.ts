/**
 * The backends a job service uses: 'local' and one remote runner per cluster profile,
 * each cluster with its one long-lived SSH connection (opened on first use).
 */
import type { JobBackend, JobUpdates } from './backend';
import { LocalRunner, type LocalRunnerOptions } from './localRunner';
import { RemoteRunner } from './remoteRunner';
import { ClusterConnection, type ConnectionOptions } from './ssh/connection';
import { loadSshConfig, resolveSshTarget, type SshConfigSource } from './ssh/sshConfig';
import type { Logger } from '../logger';
import type { ClusterProfile } from './types';

export interface JobBackendsOptions {
  local: LocalRunnerOptions;
  profiles: ClusterProfile[];
  sshConfig?: SshConfigSource;
  connection?: ConnectionOptions;
  /** Overrides every profile's pollSeconds (tests, benchmarks). */
  pollSeconds?: number;
  /** Each cluster's connection logs through it (logins, commands, reconnects). */
  logger?: Logger;
}

export class JobBackends {
  readonly connections = new Map<string, ClusterConnection>();
  readonly runners = new Map<string, RemoteRunner>();

  constructor(private readonly options: JobBackendsOptions) {}

  /** For JobServiceOptions.backend. */
  readonly create = (name: string, updates: JobUpdates): JobBackend => {
    if (name === 'local') return new LocalRunner(updates, this.options.local);
    const profile = this.options.profiles.find((p) => p.name === name);
    if (!profile) {
      const known = ['local', ...this.options.profiles.map((p) => p.name)];
      throw new Error(
        `no cluster profile named "${name}"; jobs can run on: ${known.join(', ')}. Add the cluster to the profiles file, or pick one of these.`,
      );
    }
    const runner = new RemoteRunner(updates, {
      profile,
      connection: this.connection(profile),
      ...(this.options.pollSeconds ? { pollSeconds: this.options.pollSeconds } : {}),
      ...(this.options.logger ? { logger: this.options.logger } : {}),
    });
    this.runners.set(name, runner);
    return runner;
  };

  connection(profile: ClusterProfile): ClusterConnection {
    let c = this.connections.get(profile.name);
    if (!c) {
      const target = resolveSshTarget(
        {
          sshHost: profile.sshHost,
          ...(profile.port ? { port: profile.port } : {}),
          ...(profile.user ? { user: profile.user } : {}),
          ...(profile.identityFile ? { identityFile: profile.identityFile } : {}),
        },
        this.options.sshConfig ?? loadSshConfig(),
      );
      c = new ClusterConnection(profile.name, target, {
        ...(this.options.logger ? { logger: this.options.logger } : {}),
        ...this.options.connection,
      });
      this.connections.set(profile.name, c);
    }
    return c;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}
