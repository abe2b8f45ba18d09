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
 */
import * as vscode from 'vscode';
import { mcpServerLaunches } from './mcpServerLaunch';

/** The provider id; package.json's contributes.mcpServerDefinitionProviders declares it. */
export const MCP_PROVIDER_ID = 'dreams.mcpServers';

/** What this module uses of VS Code's MCP API (not in the 1.100 typings the extension builds against). */
interface McpStdioServerDefinitionLike {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: vscode.Uri;
  version?: string;
}
type McpStdioServerDefinitionCtor = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => McpStdioServerDefinitionLike;
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: {
    onDidChangeMcpServerDefinitions?: vscode.Event<void>;
    provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpStdioServerDefinitionLike[]>;
  }): vscode.Disposable;
}

/** The servers to offer: one per local workspace folder, read-only unless the workspace is trusted. */
function dreamsMcpServers(extensionPath: string, version: string, ctor: McpStdioServerDefinitionCtor): McpStdioServerDefinitionLike[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  return mcpServerLaunches(extensionPath, version, folders.map((f) => ({ name: f.name, fsPath: f.uri.fsPath })), vscode.workspace.isTrusted).map((l) => {
    const def = new ctor(l.label, l.command, l.args, l.env, l.version);
    def.cwd = vscode.Uri.file(l.cwd);
    return def;
  });
}

/**
 * Registers the provider when VS Code has the API; returns what it registered (nothing on an
 * older VS Code) so the caller can say which route applies.
 */
export function registerDreamsMcpServers(context: vscode.ExtensionContext, host: unknown = vscode): vscode.Disposable[] {
  const v = host as { lm?: Partial<McpApi>; McpStdioServerDefinition?: McpStdioServerDefinitionCtor };
  if (typeof v.lm?.registerMcpServerDefinitionProvider !== 'function' || typeof v.McpStdioServerDefinition !== 'function') return [];
  const ctor = v.McpStdioServerDefinition;
  const version = String((context.extension?.packageJSON as { version?: string } | undefined)?.version ?? '0');
  const changed = new vscode.EventEmitter<void>();
  let registration: vscode.Disposable;
  try {
    registration = v.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => dreamsMcpServers(context.extensionPath, version, ctor),
    });
  } catch (e) {
    // A VS Code whose MCP API differs (1.100 names the contribution modelContextServerCollections) must not stop activation.
    console.warn(`DREAMS: the MCP server is not registered with this VS Code (${(e as Error).message}); .vscode/mcp.json still works.`);
    changed.dispose();
    return [];
  }
  return [changed, registration, vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()), vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire())];
}
