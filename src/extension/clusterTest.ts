/**
 * Cluster profiles from the editor: "DREAMS: Add Cluster Profile" asks for the fields a profile
 * needs and writes it to the user's `dreams.clusters`; "DREAMS: Test Cluster Connection" logs in
 * the way a run would (the core's SSH connection: ~/.ssh/config, known_hosts, agent or key, a
 * prompt for a second factor) and reports the host key, how it logged in, and the scheduler.
 * Nothing is submitted and nothing is written on the cluster.
 */
import * as vscode from 'vscode';
import { checkClusterProfile } from '../core/hpc/clusterProfile';
import { schedulerFor } from '../core/hpc/schedulers';
import { ClusterConnection, type LoginReport, type SshCallbacks } from '../core/hpc/ssh/connection';
import { loadSshConfig, resolveSshTarget } from '../core/hpc/ssh/sshConfig';
import type { ClusterProfile } from '../core/hpc/types';
import type { Logger } from '../core/logger';
import { requireTrust } from './trust';

/** What each scheduler prints its version with (the first line is reported). */
const VERSION_COMMAND: Record<ClusterProfile['scheduler'], string> = { slurm: 'sinfo --version', pbs: 'qstat --version', lsf: 'lsid' };

export interface ClusterTestReport {
  profile: string;
  login: LoginReport;
  scheduler: string;
  partitions: string[];
  ms: number;
}

/** Host key, second factor and key passphrase asked of the user, never answered silently. */
export function sshPrompts(): SshCallbacks {
  return {
    confirmHostKey: async (q) => {
      const trust = 'Trust and Connect';
      const pick = await vscode.window.showWarningMessage(
        `${q.host} (${q.cluster}) is not in your known_hosts. Connect only if this fingerprint is the one the cluster's administrators publish.`,
        { modal: true, detail: `${q.keyType} ${q.fingerprint}\n\nIf you trust it, it is added to ${q.knownHostsFile}.` },
        trust,
      );
      return pick === trust;
    },
    keyboardInteractive: async (q) => {
      const answers: string[] = [];
      for (const p of q.prompts) {
        const a = await vscode.window.showInputBox({
          title: `${q.user}@${q.host} (${q.cluster})${q.name ? `: ${q.name}` : ''}`,
          prompt: `${q.instructions ? `${q.instructions} ` : ''}${p.prompt}`,
          password: !p.echo,
          ignoreFocusOut: true,
        });
        if (a === undefined) return undefined;
        answers.push(a);
      }
      return answers;
    },
    passphrase: (q) =>
      Promise.resolve(
        vscode.window.showInputBox({
          title: `Passphrase of ${q.keyFile}`,
          prompt: `To log in to ${q.cluster}. It is not stored.`,
          password: true,
          ignoreFocusOut: true,
        }),
      ),
  };
}

export async function testClusterConnection(
  profile: ClusterProfile,
  log: Logger,
  callbacks: SshCallbacks = sshPrompts(),
): Promise<ClusterTestReport> {
  const t0 = Date.now();
  const target = resolveSshTarget(
    {
      sshHost: profile.sshHost,
      ...(profile.port ? { port: profile.port } : {}),
      ...(profile.user ? { user: profile.user } : {}),
      ...(profile.identityFile ? { identityFile: profile.identityFile } : {}),
    },
    loadSshConfig(),
  );
  const connection = new ClusterConnection(profile.name, target, { logger: log, callbacks });
  try {
    await connection.connect();
    const version = await connection.exec(VERSION_COMMAND[profile.scheduler], 30_000);
    const scheduler =
      version.code === 0
        ? version.stdout.trim().split('\n')[0]!
        : `${profile.scheduler}, but "${VERSION_COMMAND[profile.scheduler]}" failed (exit ${version.code}: ${version.stderr.trim().split('\n')[0] ?? ''}); is it on the login shell's PATH?`;
    let partitions: string[] = [];
    const adapter = (() => {
      try {
        return schedulerFor(profile.scheduler);
      } catch {
        return undefined;
      }
    })();
    if (adapter?.partitionsCommand && adapter.parsePartitions) {
      const r = await connection.exec(adapter.partitionsCommand(), 30_000);
      if (r.code === 0) {
        try {
          partitions = adapter.parsePartitions(r.stdout).map((p) => `${p.name}${p.isDefault ? ' (default)' : ''}`);
        } catch {
          partitions = [];
        }
      }
    }
    return { profile: profile.name, login: connection.lastLogin!, scheduler, partitions, ms: Date.now() - t0 };
  } finally {
    await connection.close();
  }
}

export function describeReport(r: ClusterTestReport): string {
  const l = r.login;
  return (
    `${r.profile}: connected in ${(r.ms / 1000).toFixed(1)} s. Host key ${l.hostKeyType} ${l.fingerprint} (${l.hostKey === 'known' ? `matches ${l.knownHostsFile}` : `accepted now, added to ${l.knownHostsFile}`}). ` +
    `Logged in as ${l.user}${l.jumps.length ? ` via ${l.jumps.join(' → ')}` : ''} with ${l.auth}. Scheduler: ${r.scheduler}${r.partitions.length ? `; partitions: ${r.partitions.join(', ')}` : ''}.`
  );
}

const clusters = () => vscode.workspace.getConfiguration('dreams').get<ClusterProfile[]>('clusters', []);

async function pickProfile(name?: string): Promise<ClusterProfile | undefined> {
  const all = clusters();
  if (name) {
    const p = all.find((c) => c.name === name);
    if (!p)
      throw new Error(
        `There is no cluster profile named "${name}" in dreams.clusters (${all.map((c) => c.name).join(', ') || 'none yet'}).`,
      );
    return p;
  }
  if (all.length === 0) {
    const add = 'Add Cluster Profile';
    if ((await vscode.window.showInformationMessage('DREAMS: there is no cluster profile to test yet.', add)) === add)
      await vscode.commands.executeCommand('dreams.addClusterProfile');
    return undefined;
  }
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(
    all.map((c) => ({ label: c.name, description: `${c.sshHost} · ${c.scheduler}`, profile: c })),
    { title: 'Test the connection to which cluster?' },
  );
  return pick?.profile;
}

/** The command: report in a notification and in the DREAMS log; the report is returned for tests. */
export async function testConnectionCommand(log: Logger, showLog: () => void, name?: string): Promise<ClusterTestReport | undefined> {
  requireTrust('Testing a cluster connection');
  const profile = await pickProfile(name);
  if (!profile) return undefined;
  checkClusterProfile(profile, `dreams.clusters "${profile.name}"`);
  const scoped = log.scoped(`test ${profile.name}`);
  try {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DREAMS: connecting to ${profile.name}…` },
      () => testClusterConnection(profile, log),
    );
    const text = describeReport(report);
    scoped.info(text);
    void Promise.resolve(vscode.window.showInformationMessage(text, 'Show Log')).then(
      (p) => p && showLog(),
      () => undefined,
    );
    return report;
  } catch (e) {
    const text = `${profile.name}: the connection test failed: ${(e as Error).message}`;
    scoped.error(text);
    void Promise.resolve(vscode.window.showErrorMessage(text, 'Show Log')).then(
      (p) => p && showLog(),
      () => undefined,
    );
    throw e;
  }
}

/** Asks for the fields a profile needs and adds it to the user's dreams.clusters. */
export async function addClusterProfileCommand(): Promise<ClusterProfile | undefined> {
  const existing = clusters();
  const ask = (title: string, prompt: string, value: string, validate?: (v: string) => string | undefined) =>
    vscode.window.showInputBox({
      title: `New cluster profile: ${title}`,
      prompt,
      value,
      ignoreFocusOut: true,
      ...(validate ? { validateInput: validate } : {}),
    });
  const name = await ask('name', 'How jobs and the jobs view name this cluster (letters, digits, . _ -).', '', (v) =>
    !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(v)
      ? 'Start with a letter or digit; then letters, digits, ".", "_" or "-".'
      : existing.some((c) => c.name === v)
        ? `A profile named "${v}" exists already.`
        : undefined,
  );
  if (!name) return undefined;
  const sshHost = await ask(
    'SSH host',
    'A Host alias from ~/.ssh/config (ProxyJump and IdentityFile are honoured), or user@host:port.',
    name,
    (v) => (v.trim() ? undefined : 'Give the host.'),
  );
  if (!sshHost) return undefined;
  const scheduler = (
    await vscode.window.showQuickPick([{ label: 'slurm', description: 'SLURM (sbatch, squeue, sacct)' }], {
      title: 'New cluster profile: scheduler',
    })
  )?.label as ClusterProfile['scheduler'] | undefined;
  if (!scheduler) return undefined;
  const workRoot = await ask('work directory', 'Remote directory for job directories; ~/ is your home on the cluster.', '~/dreams', (v) =>
    v.trim() ? undefined : 'Give a directory.',
  );
  if (!workRoot) return undefined;
  const pwCommand = await ask('pw.x command', 'How pw.x runs inside a job, e.g. "srun pw.x" or "mpirun pw.x".', 'srun pw.x', (v) =>
    v.trim() ? undefined : 'Give the command.',
  );
  if (!pwCommand) return undefined;
  const prelude = await ask(
    'prelude (optional)',
    'Commands before pw.x in the batch script, separated by ";" (e.g. "module load qe/7.2"). Leave empty for none.',
    '',
  );
  if (prelude === undefined) return undefined;
  const profile = checkClusterProfile(
    {
      name,
      sshHost: sshHost.trim(),
      scheduler,
      workRoot: workRoot.trim(),
      pwCommand: pwCommand.trim(),
      ...(prelude.trim()
        ? {
            prelude: prelude
              .split(';')
              .map((s) => s.trim())
              .filter(Boolean),
          }
        : {}),
    },
    `the new profile "${name}"`,
  );
  await vscode.workspace.getConfiguration('dreams').update('clusters', [...existing, profile], vscode.ConfigurationTarget.Global);
  const test = 'Test Connection';
  if (
    (await vscode.window.showInformationMessage(
      `DREAMS: cluster profile "${name}" added to your user settings (dreams.clusters).`,
      test,
    )) === test
  ) {
    await vscode.commands.executeCommand('dreams.testClusterConnection', name);
  }
  return profile;
}
