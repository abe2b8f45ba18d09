/**
 * How the extension launches `dreams mcp` for VS Code's MCP support: for each local workspace
 * folder, the CLI shipped in the extension (dist/cli.js) under the extension host's own runtime,
 * bound to <folder>/runs and started from the folder, as the README's `.vscode/mcp.json` entry
 * does; read-only (the reading tools only) unless the workspace is trusted. In a trusted workspace
 * the user's pw.x command, pseudopotential directory and cluster profiles (machine-scoped settings,
 * so never a workspace's) are passed as flags; the API key is not here (it goes into the
 * environment only when VS Code starts the server). Two folders of one name get labels told apart
 * by their parent folder (VS Code uses the label as the server's id). No `vscode` import, so the
 * unit tier checks it.
 */
import * as path from 'node:path';

export interface McpServerLaunch {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Changes when what is offered changes (VS Code then lists the server's tools again). */
  version: string;
}

/** What of the user's settings a trusted workspace's server gets (unset: the CLI's own defaults). */
export interface McpLaunchSettings {
  /** dreams.pwCommand */
  pwCommand?: string;
  /** dreams.pseudoDir */
  pseudoDir?: string;
  /** A file holding dreams.clusters, as `--cluster-profiles` reads it. */
  clusterProfiles?: string;
}

/** "DREAMS (<name>)", or "DREAMS (<parent>/<name>)" when another folder has the same name (and a number if that is shared too). */
function labels(folders: readonly { name: string; fsPath: string }[]): string[] {
  const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;
  const names = folders.map((f) => f.name);
  const first = folders.map((f, i) => (count(names, f.name) > 1 ? `${path.basename(path.dirname(f.fsPath))}/${f.name}` : names[i]!));
  return first.map((l, i) => (count(first, l) > 1 ? `${l} ${first.slice(0, i + 1).filter((x) => x === l).length}` : l));
}

export function mcpServerLaunches(
  extensionPath: string,
  extensionVersion: string,
  folders: readonly { name: string; fsPath: string }[],
  trusted: boolean,
  runtime = process.execPath,
  settings: McpLaunchSettings = {},
): McpServerLaunch[] {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  const names = labels(folders);
  // Commands and paths of this machine: only for a trusted workspace (an untrusted one runs nothing).
  const user = trusted
    ? [
        ...(settings.pwCommand ? ['--pw-command', settings.pwCommand] : []),
        ...(settings.pseudoDir ? ['--pseudo-dir', settings.pseudoDir] : []),
        ...(settings.clusterProfiles ? ['--cluster-profiles', settings.clusterProfiles] : []),
      ]
    : [];
  return folders.map((f, i) => ({
    label: `DREAMS (${names[i]})${trusted ? '' : ' (read-only)'}`,
    command: runtime,
    args: [cli, 'mcp', '--runs-dir', path.join(f.fsPath, 'runs'), '--workspace', f.fsPath, ...(trusted ? user : ['--read-only'])],
    // In desktop VS Code the runtime is the Electron binary: run it as Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    cwd: f.fsPath,
    version: `${extensionVersion}${trusted ? '' : '-read-only'}`,
  }));
}
