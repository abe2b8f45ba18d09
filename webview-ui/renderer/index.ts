// Notebook renderer for DREAMS canvas outputs. Browser code: no Node modules.
import type { ActivationFunction, OutputItem } from 'vscode-notebook-renderer';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export const activate: ActivationFunction = () => ({
  renderOutputItem(item: OutputItem, element: HTMLElement) {
    const value = item.json() as unknown;
    element.innerHTML = `<pre class="dreams-raw">${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
  },
});
