/**
 * How the extension launches `dreams mcp` for VS Code's MCP support: for each local workspace
 * folder, the CLI shipped in the extension (dist/cli.js) under the extension host's own runtime,
 * bound to <folder>/runs and started from the folder, as the README's `.vscode/mcp.json` entry
 * does; read-only (the reading tools only) unless the workspace is trusted. No `vscode` import, so
 * the unit tier checks it.
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

export function mcpServerLaunches(extensionPath: string, extensionVersion: string, folders: readonly { name: string; fsPath: string }[], trusted: boolean, runtime = process.execPath): McpServerLaunch[] {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  return folders.map((f) => ({
    label: `DREAMS (${f.name})${trusted ? '' : ' (read-only)'}`,
    command: runtime,
    args: [cli, 'mcp', '--runs-dir', path.join(f.fsPath, 'runs'), '--workspace', f.fsPath, ...(trusted ? [] : ['--read-only'])],
    // In desktop VS Code the runtime is the Electron binary: run it as Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    cwd: f.fsPath,
    version: `${extensionVersion}${trusted ? '' : '-read-only'}`,
  }));
}
