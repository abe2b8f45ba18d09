/**
 * The "Show structure" editor page: what the file holds (formula, atoms, volume, space group,
 * conventional lattice parameters, its sha256) above the 3-D view, with "Start a canvas from
 * this structure", "Open as text" and "Save picture". Runs under a strict CSP (scripts by nonce,
 * styles through a constructed style sheet); talks to the host only by messages.
 */
import type { HostToStructureEditor, StructureEditorData, StructureEditorToHost } from '../../src/shared/structureEditor';
import { StructurePanel } from '../structure3d/panel';
import { formulaOf } from '../structure3d/scene';
import { webglAvailable } from '../structure3d/viewer';
import { renderProjections } from '../renderer/structureView';

declare function acquireVsCodeApi(): { postMessage(m: StructureEditorToHost): void; getState(): unknown; setState(s: unknown): void };

const vscodeApi = acquireVsCodeApi();
const post = (m: StructureEditorToHost) => vscodeApi.postMessage(m);

const CSS = `
html, body { height: 100%; margin: 0; }
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); }
#root { box-sizing: border-box; height: 100%; display: flex; flex-direction: column; gap: 8px; padding: 10px 14px; }
header h2 { margin: 0 0 4px; font-size: 1.3em; font-weight: 600; }
header .facts { display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--vscode-descriptionForeground); }
header .facts b { color: var(--vscode-foreground); font-weight: 600; }
header .lattice { font-family: var(--vscode-editor-font-family); margin-top: 4px; }
header .notes { color: var(--vscode-editorWarning-foreground, #cca700); margin-top: 4px; }
header .actions { display: flex; gap: 8px; margin-top: 8px; align-items: center; flex-wrap: wrap; }
header button { font: inherit; padding: 3px 12px; border-radius: 2px; cursor: pointer; border: 1px solid var(--vscode-button-border, transparent);
  color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
header button:hover { background: var(--vscode-button-hoverBackground); }
header button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
header button:disabled { opacity: 0.5; cursor: default; }
header .sha { font-family: var(--vscode-editor-font-family); font-size: 0.85em; }
.view { flex: 1 1 auto; min-height: 260px; display: flex; flex-direction: column; }
.view .dreams-structure3d { flex: 1 1 auto; }
.error { color: var(--vscode-errorForeground); white-space: pre-wrap; font-family: var(--vscode-editor-font-family); }
.muted { color: var(--vscode-descriptionForeground); }
`;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const sheet = new CSSStyleSheet();
sheet.replaceSync(CSS);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

const root = document.getElementById('root') ?? document.body;
let panel: StructurePanel | undefined;

const f = (x: number, d = 4) => x.toFixed(d);

function header(data: StructureEditorData): HTMLElement {
  const s = data.summary;
  const facts = el(
    'div',
    { class: 'facts' },
    el('span', {}, el('b', {}, String(s.natoms)), ' atoms'),
    el('span', {}, 'V = ', el('b', {}, f(s.volumeAngstrom3, 3)), ' Å³'),
    el(
      'span',
      {},
      s.spaceGroup ? `${s.spaceGroup.symbol} (${s.spaceGroup.number}), ${s.spaceGroup.crystalSystem.toLowerCase()}` : 'space group unknown',
    ),
    el('span', {}, `${s.format} · ${s.path}`),
  );
  const head = el('header', {}, el('h2', {}, formulaOf(data.structure.symbols)), facts);
  if (s.lattice) {
    const l = s.lattice;
    head.append(
      el(
        'div',
        { class: 'lattice', title: 'Standardised conventional cell' },
        `conventional: a = ${f(l.a)} Å  b = ${f(l.b)} Å  c = ${f(l.c)} Å  α = ${f(l.alpha, 2)}°  β = ${f(l.beta, 2)}°  γ = ${f(l.gamma, 2)}°  c/a = ${f(l.cOverA)}  V = ${f(l.volume, 3)} Å³`,
      ),
    );
  }
  for (const n of s.notes) head.append(el('div', { class: 'notes' }, n));
  const start = el(
    'button',
    { type: 'button', title: 'A new canvas next to this file, with an objective that starts from it' },
    'Start a canvas from this structure',
  );
  if (!data.trusted) {
    start.disabled = true;
    start.title = 'This folder is not trusted, so DREAMS runs nothing here. Trust the folder to start a canvas.';
  }
  start.addEventListener('click', () => post({ type: 'start-canvas' }));
  const text = el('button', { type: 'button', class: 'secondary' }, 'Open as text');
  text.addEventListener('click', () => post({ type: 'open-text' }));
  const picture = el('button', { type: 'button', class: 'secondary', title: 'Save the view as a PNG next to the file' }, 'Save picture');
  picture.addEventListener('click', () => {
    if (panel) post({ type: 'save-image', dataUrl: panel.png() });
  });
  head.append(
    el(
      'div',
      { class: 'actions' },
      start,
      text,
      picture,
      el('span', { class: 'sha muted', title: 'sha256 of the file' }, `sha256 ${s.sha256.slice(0, 16)}…`),
    ),
  );
  return head;
}

function show(data: StructureEditorData): void {
  panel?.dispose();
  panel = undefined;
  const view = el('div', { class: 'view' });
  root.replaceChildren(header(data), view);
  const st = data.structure;
  if (!webglAvailable()) {
    view.append(el('div', { class: 'muted' }, 'This window has no WebGL, so the structure is drawn as two projections instead of in 3-D.'));
    renderProjections(st, view);
    post({ type: 'rendered', atoms: st.symbols.length, frame: 0, frames: 0, repeat: [1, 1, 1], webgl: false });
    return;
  }
  panel = new StructurePanel(
    view,
    {
      symbols: st.symbols,
      positions: st.positions,
      cell: st.cell,
      ...(st.pbc ? { pbc: st.pbc } : {}),
      ...(st.fixed ? { fixed: st.fixed } : {}),
      ...(st.labels ? { labels: st.labels } : {}),
      ...(st.frames ? { frames: st.frames } : {}),
    },
    { onRendered: (info) => post({ type: 'rendered', ...info, webgl: true }) },
  );
}

window.addEventListener('message', (e: MessageEvent<HostToStructureEditor>) => {
  const m = e.data;
  try {
    if (m.type === 'structure') show(m.data);
    else if (m.type === 'error') {
      panel?.dispose();
      panel = undefined;
      const open = el('button', { type: 'button' }, 'Open as text');
      open.addEventListener('click', () => post({ type: 'open-text' }));
      root.replaceChildren(el('h2', {}, 'This structure cannot be shown'), el('div', { class: 'error' }, m.text), el('div', {}, open));
    }
  } catch (err) {
    post({ type: 'error', text: String((err as Error).message) });
  }
});

post({ type: 'ready' });
