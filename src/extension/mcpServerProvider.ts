/**
 * Offers `dreams mcp` to VS Code's own MCP support (agent mode) through
 * `vscode.lm.registerMcpServerDefinitionProvider`: one stdio server per workspace folder, the CLI
 * shipped inside the extension (dist/cli.js) bound to `<folder>/runs` and started from the folder,
 * as the README's `.vscode/mcp.json` entry does. VS Code 1.101+ reads the provider from the
 * contribution mcpServerDefinitionProviders, 1.100 from modelContextServerCollections; package.json
 * declares both. In an untrusted workspace the server is offered read-only (`--read-only`: the
 * reading tools only), and again with the acting tools once the user trusts the workspace. Where
 * VS Code has no such API, or refuses the registration, nothing is registered and activation goes
 * on; `.vscode/mcp.json` is then the route.
 *
 * In a trusted workspace the server gets what a canvas run gets: dreams.pwCommand, dreams.pseudoDir
 * and dreams.clusters (machine-scoped: VS Code takes them from the user's or remote settings, never
 * a workspace's), and the API key from SecretStorage as ANTHROPIC_API_KEY in its environment
 * (unless dreams.provider is "offline"). The key is added in resolveMcpServerDefinition, when VS
 * Code starts the server, never in the definitions VS Code keeps in its workspace storage, and
 * never on the command line. A change of a dreams.* setting or of the key offers the definitions
 * anew. No runtime `vscode` import: activation passes the API (`host`), so the unit tier can too.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { API_KEY_SECRET } from './apiKeySecret';
import { type McpLaunchSettings, mcpServerLaunches } from './mcpServerLaunch';

/** The provider id; package.json's contributes.mcpServerDefinitionProviders declares it. */
export const MCP_PROVIDER_ID = 'dreams.mcpServers';

/** What this module uses of VS Code's MCP API (not in the 1.100 typings the extension builds against). */
export interface McpStdioServerDefinitionLike {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: vscode.Uri;
  version?: string;
}
type McpStdioServerDefinitionCtor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpStdioServerDefinitionLike;
export interface McpServerDefinitionProviderLike {
  onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpStdioServerDefinitionLike[]>;
  resolveMcpServerDefinition?(
    server: McpStdioServerDefinitionLike,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<McpStdioServerDefinitionLike>;
}
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProviderLike): vscode.Disposable;
}

/** The part of the VS Code API this module uses (activation passes `vscode` itself). */
export interface McpHost {
  /** `vscode.lm`: registerMcpServerDefinitionProvider is looked for on it (1.100 typings lack it). */
  lm?: object;
  McpStdioServerDefinition?: unknown;
  EventEmitter: new () => vscode.EventEmitter<void>;
  Uri: { file(fsPath: string): vscode.Uri };
  workspace: Pick<
    typeof vscode.workspace,
    | 'workspaceFolders'
    | 'isTrusted'
    | 'getConfiguration'
    | 'onDidGrantWorkspaceTrust'
    | 'onDidChangeWorkspaceFolders'
    | 'onDidChangeConfiguration'
  >;
}

export type McpContext = Pick<vscode.ExtensionContext, 'extensionPath' | 'secrets' | 'globalStorageUri'> & {
  extension?: { packageJSON: unknown };
};

/**
 * The user's settings for a trusted workspace's server; dreams.clusters is written to a file in
 * the extension's own storage, which `--cluster-profiles` reads.
 */
async function launchSettings(context: McpContext, host: McpHost): Promise<McpLaunchSettings> {
  const c = host.workspace.getConfiguration('dreams');
  const clusters = c.get<unknown[]>('clusters', []);
  const out: McpLaunchSettings = { pwCommand: c.get<string>('pwCommand', 'pw.x') || 'pw.x' };
  const pseudoDir = c.get<string>('pseudoDir', '');
  if (pseudoDir) out.pseudoDir = pseudoDir;
  if (Array.isArray(clusters) && clusters.length) {
    const file = path.join(context.globalStorageUri.fsPath, 'mcp-cluster-profiles.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ clusters }, null, 2), { mode: 0o600 });
    out.clusterProfiles = file;
  }
  return out;
}

/** The servers to offer: one per local workspace folder, read-only unless the workspace is trusted. */
async function dreamsMcpServers(
  context: McpContext,
  host: McpHost,
  version: string,
  ctor: McpStdioServerDefinitionCtor,
): Promise<McpStdioServerDefinitionLike[]> {
  const folders = (host.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const trusted = host.workspace.isTrusted;
  const settings = trusted && folders.length ? await launchSettings(context, host) : {};
  return mcpServerLaunches(
    context.extensionPath,
    version,
    folders.map((f) => ({ name: f.name, fsPath: f.uri.fsPath })),
    trusted,
    process.execPath,
    settings,
  ).map((l) => {
    const def = new ctor(l.label, l.command, l.args, l.env, l.version);
    def.cwd = host.Uri.file(l.cwd);
    return def;
  });
}

/** As VS Code starts a trusted workspace's server: the stored API key into its environment. */
async function withApiKey(context: McpContext, host: McpHost, server: McpStdioServerDefinitionLike): Promise<McpStdioServerDefinitionLike> {
  if (!host.workspace.isTrusted || server.args.includes('--read-only')) return server;
  if (host.workspace.getConfiguration('dreams').get<string>('provider', 'anthropic') === 'offline') return server;
  const key = await context.secrets.get(API_KEY_SECRET);
  if (key) server.env = { ...server.env, ANTHROPIC_API_KEY: key };
  return server;
}

/**
 * Registers the provider when VS Code has the API; returns what it registered (nothing on an
 * older VS Code) so the caller can say which route applies.
 */
export function registerDreamsMcpServers(context: McpContext, host: McpHost): vscode.Disposable[] {
  const lm = host.lm as Partial<McpApi> | undefined;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof host.McpStdioServerDefinition !== 'function') return [];
  const ctor = host.McpStdioServerDefinition as McpStdioServerDefinitionCtor;
  const version = String((context.extension?.packageJSON as { version?: string } | undefined)?.version ?? '0');
  const changed = new host.EventEmitter();
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => dreamsMcpServers(context, host, version, ctor),
      resolveMcpServerDefinition: (server) => withApiKey(context, host, server),
    });
  } catch (e) {
    // A VS Code whose MCP API differs (1.100 names the contribution modelContextServerCollections) must not stop activation.
    console.warn(`DREAMS: the MCP server is not registered with this VS Code (${(e as Error).message}); .vscode/mcp.json still works.`);
    changed.dispose();
    return [];
  }
  const fire = () => changed.fire();
  return [
    changed,
    registration,
    host.workspace.onDidGrantWorkspaceTrust(fire),
    host.workspace.onDidChangeWorkspaceFolders(fire),
    host.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('dreams')) fire();
    }),
    context.secrets.onDidChange((e) => {
      if (e.key === API_KEY_SECRET) fire();
    }),
  ];
}
