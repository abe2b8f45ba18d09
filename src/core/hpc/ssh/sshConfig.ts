/**
 * Where and how to reach a cluster: a profile's sshHost read through ~/.ssh/config (the
 * ssh-config package), the way OpenSSH would: Host aliases, HostName, Port, User,
 * IdentityFile, UserKnownHostsFile, HostKeyAlias, ServerAliveInterval and ProxyJump
 * chains (each jump host resolved through the same config). `Match exec` blocks are not
 * evaluated: reading a config never runs a command.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SSHConfig from 'ssh-config';

export interface SshHop {
  /** The name as written (alias or address), for messages. */
  alias: string;
  host: string;
  port: number;
  user: string;
  identityFiles: string[];
  /** Name known_hosts is searched under (HostKeyAlias, else the host). */
  hostKeyName: string;
  knownHostsFiles: string[];
  keepaliveSeconds?: number;
}

export interface SshTarget extends SshHop {
  /** Jump hosts, outermost first: connect to jumps[0], then through it to jumps[1], ... */
  jumps: SshHop[];
}

export interface SshTargetRequest {
  sshHost: string;
  port?: number;
  user?: string;
  identityFile?: string;
}

export interface SshConfigSource {
  /** Text of the ssh config; default: ~/.ssh/config when it exists. */
  text?: string;
  /** Path the text came from, for messages. */
  file?: string;
  home?: string;
  localUser?: string;
}

const DEFAULT_IDENTITIES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

export function loadSshConfig(file = path.join(os.homedir(), '.ssh', 'config')): SshConfigSource {
  return fs.existsSync(file) ? { text: fs.readFileSync(file, 'utf8'), file } : { file };
}

export function resolveSshTarget(req: SshTargetRequest, source: SshConfigSource = loadSshConfig()): SshTarget {
  let config: SSHConfig;
  try {
    config = SSHConfig.parse(source.text ?? '');
  } catch (e) {
    throw new Error(
      `could not read the ssh config ${source.file ?? ''}: ${(e as Error).message}. Fix the file, or give the cluster's host, port and user in the profile.`,
    );
  }
  const home = source.home ?? os.homedir();
  const localUser = source.localUser ?? os.userInfo().username;
  const hop = resolveHop(config, req.sshHost, { home, localUser }, { port: req.port, user: req.user, identityFile: req.identityFile });
  const jumps = resolveJumps(config, req.sshHost, { home, localUser }, new Set([req.sshHost]));
  return { ...hop, jumps };
}

interface Env {
  home: string;
  localUser: string;
}

function resolveHop(
  config: SSHConfig,
  spec: string,
  env: Env,
  override: { port?: number; user?: string; identityFile?: string } = {},
): SshHop {
  const parsed = parseHopSpec(spec);
  const c = config.compute(parsed.host, { ignoreCase: true, matchExec: false }) as Record<string, string | string[] | undefined>;
  const one = (k: string): string | undefined => {
    const v = c[k];
    return Array.isArray(v) ? v[0] : v;
  };
  const host = one('hostname')?.replace(/%h/g, parsed.host) ?? parsed.host;
  const portText = override.port ?? parsed.port ?? one('port') ?? 22;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `ssh port ${JSON.stringify(portText)} for "${spec}" is not a port number (1-65535); fix Port in the ssh config or the profile.`,
    );
  }
  const user = override.user ?? parsed.user ?? one('user') ?? env.localUser;
  const expand = (p: string) => expandPath(p, { ...env, host, user });
  const configured = override.identityFile ? [override.identityFile] : ([] as string[]).concat(c.identityfile ?? []);
  const identityFiles =
    configured.length > 0
      ? configured.map(expand)
      : DEFAULT_IDENTITIES.map((n) => path.join(env.home, '.ssh', n)).filter((f) => fs.existsSync(f));
  const knownConfigured = ([] as string[])
    .concat(c.userknownhostsfile ?? [])
    .flatMap((v) => v.split(/\s+/))
    .filter(Boolean);
  const knownHostsFiles = knownConfigured.length > 0 ? knownConfigured.map(expand) : [path.join(env.home, '.ssh', 'known_hosts')];
  const alive = one('serveraliveinterval');
  return {
    alias: spec,
    host,
    port,
    user,
    identityFiles,
    hostKeyName: one('hostkeyalias') ?? host,
    knownHostsFiles,
    ...(alive && Number(alive) > 0 ? { keepaliveSeconds: Number(alive) } : {}),
  };
}

/** The jump chain for `alias`, outermost first; a jump host's own ProxyJump comes before it. */
function resolveJumps(config: SSHConfig, alias: string, env: Env, seen: Set<string>): SshHop[] {
  const c = config.compute(parseHopSpec(alias).host, { ignoreCase: true, matchExec: false }) as Record<
    string,
    string | string[] | undefined
  >;
  const raw = c.proxyjump;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || value.toLowerCase() === 'none') return [];
  const chain: SshHop[] = [];
  for (const spec of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (spec.startsWith('ssh://'))
      throw new Error(`ProxyJump "${spec}" (for ${alias}): ssh:// URIs are not supported; write it as [user@]host[:port].`);
    const key = parseHopSpec(spec).host;
    if (seen.has(key)) throw new Error(`ProxyJump for ${alias} loops back to ${key}; fix the ProxyJump lines in the ssh config.`);
    const outer = chain.length === 0 ? resolveJumps(config, spec, env, new Set([...seen, key])) : [];
    chain.push(...outer, resolveHop(config, spec, env));
  }
  return chain;
}

/** `[user@]host[:port]`, with `[v6addr]:port` accepted. */
export function parseHopSpec(spec: string): { host: string; user?: string; port?: number } {
  const m = /^(?:([^@]+)@)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(spec.trim());
  if (!m) throw new Error(`cannot read the ssh host "${spec}"; write it as [user@]host[:port].`);
  return {
    host: m[2]!.replace(/^\[|\]$/g, ''),
    ...(m[1] ? { user: m[1] } : {}),
    ...(m[3] ? { port: Number(m[3]) } : {}),
  };
}

function expandPath(p: string, t: { home: string; localUser: string; host: string; user: string }): string {
  const s = p.replace(
    /%(.)/g,
    (all, c: string) => (({ d: t.home, u: t.localUser, h: t.host, r: t.user, '%': '%' }) as Record<string, string>)[c] ?? all,
  );
  if (s === '~') return t.home;
  if (s.startsWith('~/')) return path.join(t.home, s.slice(2));
  return s;
}
