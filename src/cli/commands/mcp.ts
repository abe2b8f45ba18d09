/**
 * `dreams mcp`: serve DREAMS to any MCP client (Claude Code, VS Code's agent mode, ...) over
 * stdio, bound to one runs directory. Standard output carries the protocol only: everything
 * the core or the CLI would print goes to standard error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../../package.json';
import { DreamsMcpServer } from '../../mcp/server';
import { registerCliCommand } from '../cli';
import {
  defaultPseudoDir,
  loadClusters,
  localPwVersion,
  parseLocalJobs,
  pwCommandArgv,
  pwProgramMissing,
  qeVersionFor,
  runsDirProblem,
  sshConfigOption,
  UsageError,
} from './runOptions';

export const MCP_USAGE = `Usage: dreams mcp [options]

Serves DREAMS over the Model Context Protocol on stdin/stdout, for an agent outside DREAMS
(VS Code's agent mode through .vscode/mcp.json, Claude Code, any MCP client). The agent lists
the workflows, starts or resumes a run and makes each step's calls itself; every call passes
the same schema check, tier-1 rules and (with ANTHROPIC_API_KEY set) LLM judges as a DREAMS
worker's, and is recorded with the client's name and version. The server acts only inside
its runs directory, reads objective files only inside the workspace, and runs no shell.

  --runs-dir DIR         the runs directory it is bound to (default ./runs; created if missing)
  --workspace DIR        objective and structure files are read only inside it
                         (default: the runs directory's parent)
  --read-only            offer only the reading tools (workflows, runs, status, canvas,
                         approvals, jobs, report): for an untrusted workspace
  --cluster-profiles FILE  cluster profiles (default $DREAMS_CLUSTERS or ~/.config/dreams/clusters.json)
  --ssh-config FILE      ssh config for the clusters' hosts (default ~/.ssh/config)
  --pseudo-dir DIR       pseudopotential (UPF) library (default $DREAMS_PSEUDO_DIR, $ESPRESSO_PSEUDO,
                         /usr/share/espresso/pseudo)
  --pw-command CMD       how to run pw.x here (default "pw.x"; e.g. "mpirun -np 2 pw.x")
  --local-jobs N|auto    pw.x runs at a time on this machine (default 1; auto: one per core)

An objective an outside agent sends may name an i-PI calculator ({kind: ipi, command: [...]})
only when that exact command is listed in your calculators file ($DREAMS_CALCULATORS or
~/.config/dreams/calculators.json): {"ipi": [{"command": ["python3", "/path/to/client.py", "..."]}]}.

The judges' API key is read from ANTHROPIC_API_KEY (without it tier 2 and 3 are recorded as
"not judged", never as passes). Exit status: 0 when the client closes the connection.`;

export async function mcpCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        'runs-dir': { type: 'string' },
        workspace: { type: 'string' },
        'read-only': { type: 'boolean' },
        'cluster-profiles': { type: 'string' },
        'ssh-config': { type: 'string' },
        'pseudo-dir': { type: 'string' },
        'pw-command': { type: 'string' },
        'local-jobs': { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`dreams mcp: ${(e as Error).message}\n\n${MCP_USAGE}`);
    return 2;
  }
  try {
    const runsDir = path.resolve((values['runs-dir'] as string | undefined) ?? 'runs');
    const workspace = path.resolve((values.workspace as string | undefined) ?? path.dirname(runsDir));
    if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory())
      throw new UsageError(`--workspace ${workspace} is not a directory.`);
    const tooLong = runsDirProblem(runsDir);
    if (tooLong) throw new UsageError(tooLong);
    const readOnly = !!values['read-only'];
    if (!readOnly) fs.mkdirSync(runsDir, { recursive: true });
    const localJobs = parseLocalJobs(values['local-jobs'] as string | undefined);
    const pwCommand = (values['pw-command'] as string | undefined) ?? 'pw.x';
    // A pw.x that is not there is said when a run needs it (a cluster or an EMT-only search does not).
    // A read-only server starts no run, so it does not run pw.x (up to 20 s) to ask its version.
    const pwVersion = readOnly || pwProgramMissing(pwCommand, pwCommandArgv(pwCommand)[0]!) ? undefined : localPwVersion(pwCommand);
    const qeVersion = qeVersionFor(pwVersion);
    const apiKey = process.env.ANTHROPIC_API_KEY;
    const clusters = loadClusters(values['cluster-profiles'] as string | undefined);
    // stdout is the protocol: nothing else may write there.
    console.log = console.error;
    console.info = console.error;
    const server = new DreamsMcpServer({
      runsDir,
      workspace,
      readOnly,
      version,
      session: {
        ...(apiKey ? { apiKey } : {}),
        ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        clusters,
        ...sshConfigOption(values['ssh-config'] as string | undefined),
        onWarning: (m) => console.error(`warning: ${m}`),
      },
      defaults: {
        pseudoDir: path.resolve((values['pseudo-dir'] as string | undefined) ?? defaultPseudoDir()),
        pwCommand,
        localConcurrency: localJobs,
        ...(qeVersion ? { qeVersion } : {}),
        ...(pwVersion ? { pwVersion } : {}),
      },
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    console.error(`dreams mcp ${version}: serving ${runsDir}${readOnly ? ' (read-only)' : ''} on stdio`);
    await closed;
    await server.close().catch(() => undefined);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dreams mcp: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

registerCliCommand({ name: 'mcp', summary: 'serve guarded DREAMS tools to any agent over MCP (stdio)', usage: MCP_USAGE, run: mcpCommand });
