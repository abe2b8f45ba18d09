// Provenance graph webview. Browser code: no Node modules.
// The same bundle is the ELK layout worker: in a worker there is no document, and
// elkjs's bundled build then answers layout requests on its own (see layout.ts).
import type { GraphToHostMessage, ProvenancePanelState } from '../../src/shared/provenanceGraph';
import { GraphView, type HostApi } from './graphView';
import { serveLayoutsInThisWorker } from './layout';

declare function acquireVsCodeApi(): {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
};

declare global {
  interface Window {
    /** The live view, for tests and bench:ui to click and time. */
    dreamsGraph?: GraphView;
  }
}

if (typeof document !== 'undefined') {
  const script = (document.currentScript as HTMLScriptElement | null)?.src;
  const vscode = acquireVsCodeApi();
  const host: HostApi = {
    postMessage: (m: GraphToHostMessage) => vscode.postMessage(m),
    getState: () => vscode.getState() as ProvenancePanelState | undefined,
    setState: (s) => vscode.setState(s),
  };
  const start = () => {
    const root = document.getElementById('root') ?? document.body;
    window.dreamsGraph = new GraphView(root, host, script);
    host.postMessage({ type: 'ready' });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
} else {
  serveLayoutsInThisWorker();
}
