import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CanvasSerializer, NOTEBOOK_TYPE } from './serializer';
import { registerCommands } from './commands';
import { LATE_COMMANDS } from './lateCommands';
import { registerDreamsMcpServers } from './mcpServerProvider';
import { registerStructureEditor } from './structureEditorRegistration';
import type { DreamsWorkbench } from './workbench';

/** The provenance panel's view type (kept here so activation needs no other module). */
const PROVENANCE_VIEW_TYPE = 'dreams.provenance';

declare global {
  // Set by the bundle's first line (see scripts/build.mjs) so activation time can be measured.
  var __dreamsLoadStart: number | undefined;
}

export interface DreamsApi {
  /** Milliseconds from the first line of the bundle to the end of activate(). */
  readonly activationMs: number;
  /** The runs, canvas, panels and views, once loaded (right after activation). */
  readonly workbench: Promise<DreamsWorkbench>;
}

/**
 * How long after activation the workbench bundle is loaded when nothing asked for it sooner
 * (activation by a view, say). A canvas being opened asks for it once its cells are handed over.
 */
const WORKBENCH_LOAD_FALLBACK_MS = 1000;

export function activate(context: vscode.ExtensionContext): DreamsApi {
  const enteredAt = Date.now();
  // The workbench bundle (5 MB) is read once, when first asked for: reading it blocks the extension
  // host for 0.4–1 s on a loaded 2-core machine, and VS Code's request for a canvas's cells, which
  // comes right after an activation by a notebook, would wait behind it.
  let startWorkbenchOnce!: () => Promise<DreamsWorkbench>;
  const workbench = new Promise<DreamsWorkbench>((resolve, reject) => {
    let started = false;
    startWorkbenchOnce = () => {
      if (!started) {
        started = true;
        loadWorkbench()
          .then((m) => m.startWorkbench(context))
          .then(resolve, reject);
      }
      return workbench;
    };
  });
  const fallback = setTimeout(() => void startWorkbenchOnce(), WORKBENCH_LOAD_FALLBACK_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(fallback) });
  // after the reply with the cells has gone out (VS Code sends it once deserializeNotebook returns)
  const afterCells = () => void setTimeout(() => void startWorkbenchOnce(), 0);
  context.subscriptions.push(
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new CanvasSerializer(afterCells), {
      transientOutputs: false,
      transientCellMetadata: { inputCollapsed: true, outputCollapsed: true },
    }),
  );
  registerCommands(context);
  // `dreams mcp` for VS Code's agent mode, where VS Code offers the API (1.101+); else .vscode/mcp.json is the route.
  context.subscriptions.push(...registerDreamsMcpServers(context, vscode));
  // The rest is loaded after activate() returns: a canvas opens without waiting for it.
  workbench.catch((e: Error) => void vscode.window.showErrorMessage(`DREAMS could not start its views: ${e.message}`));
  for (const id of LATE_COMMANDS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => (await startWorkbenchOnce()).commands[id](...args)),
    );
  }
  registerStructureEditor(context, () => startWorkbenchOnce().then((w) => w.structureEditor));
  // VS Code revives panels only through a serializer registered during activation.
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(PROVENANCE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => {
        try {
          await (await startWorkbenchOnce()).provenance.deserializeWebviewPanel(panel, state as never);
        } catch (e) {
          // A blank tab tells the user nothing: say what failed and what to do.
          panel.webview.html = `<!DOCTYPE html><html><body><p>The provenance graph could not be restored: ${String((e as Error).message).replace(/[<&]/g, ' ')}. Close this tab and open the graph again from its canvas.</p></body></html>`;
        }
      },
    }),
  );
  const activationMs = Date.now() - (globalThis.__dreamsLoadStart ?? Date.now());
  // bench:activation asks for the figure through the environment.
  const report = process.env.DREAMS_ACTIVATION_REPORT;
  if (report) {
    const loadStart = globalThis.__dreamsLoadStart ?? enteredAt;
    fs.writeFileSync(
      report,
      JSON.stringify({
        activationMs,
        loadToActivateCallMs: enteredAt - loadStart,
        activateBodyMs: Date.now() - enteredAt,
        at: new Date().toISOString(),
      }),
    );
  }
  return { activationMs, workbench };
}

export function deactivate(): void {}

/**
 * The agents, jobs, views and panels are a separate bundle (dist/workbench.js, see
 * scripts/build.mjs), read only after activation: VS Code parses a bundle whole when it
 * loads it, so keeping them out of this one keeps activation short.
 */
function loadWorkbench(): Promise<typeof import('./workbench')> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        // A run-time path, so the bundler leaves the module out of this bundle.
        const bundle = path.join(__dirname, 'workbench.js');
        resolve(require(bundle) as typeof import('./workbench'));
      } catch (e) {
        reject(e as Error);
      }
    }),
  );
}
