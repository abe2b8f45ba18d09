/** Runs for the vscode tier: a real run directory and event log, and a canvas pointing at it. */
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createRun, type Run } from '../../../src/core/run/directory';
import type { DreamsApi } from '../../../src/extension/extension';
import type { DreamsWorkbench } from '../../../src/extension/workbench';

export const EXTENSION_ID = 'dreams-dft.dreams-vscode';

export function workspaceDir(): string {
  const ws = process.env.DREAMS_TEST_WORKSPACE ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!ws) throw new Error('no workspace folder: the vscode tier opens test-results/vscode-tier-workspace');
  return ws;
}

export async function workbench(): Promise<DreamsWorkbench> {
  const ext = vscode.extensions.getExtension<DreamsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  return api.workbench;
}

/** A new run under the workspace and a `<name>.dreams` canvas linked to its log. */
export async function runWithCanvas(name: string, objective: string): Promise<{ run: Run; canvas: vscode.Uri; logPath: string }> {
  const ws = workspaceDir();
  const run = await createRun(path.join(ws, `${name}.run`), { objective, slug: name });
  const logPath = path.join(run.dir, 'events.jsonl');
  const canvasPath = path.join(ws, `${name}.dreams`);
  fs.writeFileSync(
    canvasPath,
    JSON.stringify(
      {
        dreams: 1,
        run: { id: run.runId, log: path.relative(ws, logPath) },
        cells: [{ kind: 'objective', id: 'objective-1', text: objective }],
      },
      null,
      1,
    ) + '\n',
  );
  return { run, canvas: vscode.Uri.file(canvasPath), logPath };
}

export async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const cellIds = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => (c.metadata?.dreams as { id?: string } | undefined)?.id);

/** One tool call creating one scalar artifact through the real provenance registry. */
export async function recordScalar(run: Run, tool: string, name: string, value: number, unit: string): Promise<string> {
  const call = await run.registry.recordCall({ tool, args: {}, reasons: {}, context: 'test', verdicts: [], agent: { role: 'dft' } });
  const [a] = await run.registry.registerArtifacts(call.id, [{ kind: 'scalar', name, value, unit }]);
  await run.registry.endCall(call.id, { status: 'ok' });
  return a!.id;
}
