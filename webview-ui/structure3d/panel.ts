/**
 * The structure panel around the 3-D view: repeat, cell and bond switches, views along the
 * lattice vectors, a relaxation trajectory played step by step (energy and largest force of each
 * step), the atom under the pointer, and keyboard control. Used by the notebook renderer (inside a
 * structure card) and by the "Show structure" editor. Styles go in through a constructed style
 * sheet, which a strict CSP (no inline styles) allows.
 */
import type { StructureFrameData } from '../../src/shared/canvasOutputs';
import { defaultRepeat, formulaOf, type Cell3, type SceneInput, type V3 } from './scene';
import { StructureViewer, type HoverInfo } from './viewer';

export interface PanelStructure extends SceneInput {
  /** Relaxation steps, oldest first; the structure itself is shown when absent. */
  frames?: StructureFrameData[];
}

export interface PanelOptions {
  /** Height of the view in CSS pixels; the panel fills its parent when absent. */
  height?: number;
  repeat?: V3;
  /** Called after each draw (tests and the host read it). */
  onRendered?: (info: { atoms: number; frame: number; frames: number; repeat: V3 }) => void;
}

const CSS = `
.dreams-structure3d { display: flex; flex-direction: column; gap: 4px; min-height: 0; }
.dreams-structure3d [hidden] { display: none !important; }
.dreams-structure3d .toolbar, .dreams-structure3d .trajectory { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; font-size: 0.9em; }
.dreams-structure3d .toolbar label { display: inline-flex; gap: 3px; align-items: center; }
.dreams-structure3d select, .dreams-structure3d button { font: inherit; color: var(--vscode-button-secondaryForeground, inherit);
  background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--vscode-button-border, #8886); border-radius: 2px; padding: 1px 8px; cursor: pointer; }
.dreams-structure3d select { color: var(--vscode-dropdown-foreground, inherit); background: var(--vscode-dropdown-background, transparent); }
.dreams-structure3d button:hover { background: var(--vscode-button-secondaryHoverBackground, #8883); }
.dreams-structure3d .viewport { position: relative; border: 1px solid var(--vscode-panel-border, #8884); border-radius: 3px; outline: none; min-height: 160px; flex: 1 1 auto; }
.dreams-structure3d .viewport:focus-visible, .dreams-structure3d .viewport.focused { border-color: var(--vscode-focusBorder, #007fd4); }
.dreams-structure3d .trajectory input[type=range] { flex: 1 1 160px; accent-color: var(--vscode-focusBorder, #007fd4); }
.dreams-structure3d .status { font-size: 0.85em; color: var(--vscode-descriptionForeground); min-height: 1.3em; font-family: var(--vscode-editor-font-family); }
.dreams-structure3d .step { font-family: var(--vscode-editor-font-family); }
`;

const sheets = new WeakMap<Document | ShadowRoot, true>();

function adoptStyles(element: HTMLElement): void {
  const root = element.getRootNode() as Document | ShadowRoot;
  const host = root instanceof ShadowRoot || root instanceof Document ? root : document;
  if (sheets.has(host)) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  host.adoptedStyleSheets = [...host.adoptedStyleSheets, sheet];
  sheets.set(host, true);
}

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

const fmt = (x: number, digits = 4) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));
const REPEATS: V3[] = [
  [1, 1, 1],
  [2, 2, 1],
  [2, 2, 2],
  [3, 3, 1],
  [3, 3, 3],
];
export const KEY_HELP =
  'Keys: arrows turn (Shift: 90°), + − zoom, 0 reset, a b c look along a lattice vector, r repeat, u cell, k bonds' +
  '; trajectory: space play/pause, , . step, Home End first/last.';

export class StructurePanel {
  readonly root: HTMLElement;
  private readonly viewer: StructureViewer;
  private readonly viewport: HTMLElement;
  private readonly status: HTMLElement;
  private readonly stepLabel: HTMLElement;
  private readonly slider: HTMLInputElement;
  private readonly trajectoryBar: HTMLElement;
  private readonly repeatSelect: HTMLSelectElement;
  private readonly cellBox: HTMLInputElement;
  private readonly bondBox: HTMLInputElement;
  private readonly playButton: HTMLButtonElement;
  private frames: StructureFrameData[] = [];
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly resizeObserver: ResizeObserver;
  private readonly themeObserver: MutationObserver;

  constructor(
    parent: HTMLElement,
    private structure: PanelStructure,
    private readonly options: PanelOptions = {},
  ) {
    adoptStyles(parent);
    const repeat = options.repeat ?? defaultRepeat(structure);
    this.repeatSelect = el(
      'select',
      { 'aria-label': 'Repeat the cell', title: 'Repeat the cell (r)' },
      ...REPEATS.map((r) => el('option', { value: r.join('x') }, r.join('×'))),
    );
    this.repeatSelect.value = REPEATS.some((r) => r.join('x') === repeat.join('x')) ? repeat.join('x') : '1x1x1';
    this.cellBox = el('input', { type: 'checkbox', 'aria-label': 'Show the unit cell' });
    this.cellBox.checked = true;
    this.bondBox = el('input', { type: 'checkbox', 'aria-label': 'Show bonds' });
    this.bondBox.checked = true;
    const axisButton = (k: 0 | 1 | 2) => {
      const b = el('button', { type: 'button', title: `Look along ${'abc'[k]} (${'abc'[k]})` }, `‖${'abc'[k]}`);
      b.addEventListener('click', () => this.viewer.lookAlong(k));
      return b;
    };
    const reset = el('button', { type: 'button', title: 'Reset the view (0)' }, 'Reset');
    reset.addEventListener('click', () => this.viewer.resetView());
    const toolbar = el(
      'div',
      { class: 'toolbar' },
      el('label', {}, 'Repeat ', this.repeatSelect),
      el('label', {}, this.cellBox, 'cell'),
      el('label', {}, this.bondBox, 'bonds'),
      axisButton(0),
      axisButton(1),
      axisButton(2),
      reset,
    );
    const formula = formulaOf(structure.symbols);
    this.viewport = el('div', {
      class: 'viewport',
      tabindex: '0',
      role: 'img',
      'aria-label': `3-D view of ${formula}, ${structure.symbols.length} atoms. ${KEY_HELP}`,
      title: KEY_HELP,
    });
    if (options.height) this.viewport.style.height = `${options.height}px`;
    this.playButton = el('button', { type: 'button', title: 'Play the relaxation (space)', 'aria-label': 'Play' }, '▶');
    const first = el('button', { type: 'button', title: 'First step (Home)', 'aria-label': 'First step' }, '⇤');
    const prev = el('button', { type: 'button', title: 'Previous step (,)', 'aria-label': 'Previous step' }, '‹');
    const next = el('button', { type: 'button', title: 'Next step (.)', 'aria-label': 'Next step' }, '›');
    const last = el('button', { type: 'button', title: 'Last step (End)', 'aria-label': 'Last step' }, '⇥');
    this.slider = el('input', { type: 'range', min: '0', max: '0', step: '1', 'aria-label': 'Relaxation step' });
    this.stepLabel = el('span', { class: 'step', 'aria-live': 'polite' });
    this.trajectoryBar = el('div', { class: 'trajectory' }, first, prev, this.playButton, next, last, this.slider, this.stepLabel);
    this.trajectoryBar.hidden = true;
    this.status = el('div', { class: 'status', 'aria-live': 'polite' });
    this.root = el('div', { class: 'dreams-structure3d' }, toolbar, this.viewport, this.trajectoryBar, this.status);
    parent.append(this.root);

    this.viewer = new StructureViewer(this.viewport);
    this.viewer.onHover = (a) => this.showHover(a);
    this.repeatSelect.addEventListener('change', () => this.redraw(false, true));
    this.cellBox.addEventListener('change', () => this.redraw());
    this.bondBox.addEventListener('change', () => this.redraw());
    first.addEventListener('click', () => this.goTo(0));
    prev.addEventListener('click', () => this.goTo(this.frame - 1));
    next.addEventListener('click', () => this.goTo(this.frame + 1));
    last.addEventListener('click', () => this.goTo(this.frames.length - 1));
    this.playButton.addEventListener('click', () => this.togglePlay());
    this.slider.addEventListener('input', () => this.goTo(Number(this.slider.value)));
    this.viewport.addEventListener('keydown', (e) => this.onKey(e));
    this.viewport.addEventListener('focus', () => this.viewport.classList.add('focused'));
    this.viewport.addEventListener('blur', () => this.viewport.classList.remove('focused'));
    this.viewport.addEventListener('pointerdown', () => this.viewport.focus({ preventScroll: true }));
    this.resizeObserver = new ResizeObserver(() => this.viewer.resize());
    this.resizeObserver.observe(this.viewport);
    // VS Code switches the theme by changing the body's class: redraw the colours taken from it.
    this.themeObserver = new MutationObserver(() => this.viewer.themeChanged());
    this.themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    this.setFrames(structure.frames ?? []);
    this.status.textContent = `${formula} · ${structure.symbols.length} atoms${structure.fixed?.some(Boolean) ? ` · ${structure.fixed.filter(Boolean).length} fixed (boxed)` : ''}`;
  }

  get atomCount(): number {
    return this.viewer.atomCount;
  }

  /** Relaxation steps to play; the last step is shown. */
  setFrames(frames: StructureFrameData[]): void {
    this.frames = frames.filter((f) => f.positions.length === this.structure.symbols.length);
    this.trajectoryBar.hidden = this.frames.length < 2;
    this.slider.max = String(Math.max(0, this.frames.length - 1));
    this.frame = Math.max(0, this.frames.length - 1);
    this.redraw(true);
  }

  private current(): SceneInput {
    const f = this.frames[this.frame];
    if (!f) return this.structure;
    return { ...this.structure, positions: f.positions as V3[], cell: (f.cell ?? this.structure.cell) as Cell3 };
  }

  /** Draw the current step; `refit` (another repeat) fits the zoom to it, keeping the orientation. */
  private redraw(reframe = false, refit = false): void {
    const repeat = this.repeatSelect.value.split('x').map(Number) as V3;
    this.viewer.show(
      this.current(),
      { repeat, showCell: this.cellBox.checked, showBonds: this.bondBox.checked },
      reframe || undefined,
      refit,
    );
    this.slider.value = String(this.frame);
    const f = this.frames[this.frame];
    if (f && this.frames.length > 1) {
      const e0 = this.frames[0]!.energyEv;
      const parts = [`step ${this.frame + 1}/${this.frames.length}`];
      if (f.energyEv !== undefined)
        parts.push(`E = ${fmt(f.energyEv, 5)} eV` + (e0 !== undefined && this.frame > 0 ? ` (ΔE ${fmt(f.energyEv - e0, 5)} eV)` : ''));
      if (f.maxForceEvPerAngstrom !== undefined) parts.push(`max force ${fmt(f.maxForceEvPerAngstrom, 4)} eV/Å`);
      this.stepLabel.textContent = parts.join(' · ');
    }
    this.options.onRendered?.({ atoms: this.viewer.atomCount, frame: this.frame, frames: this.frames.length, repeat });
  }

  goTo(i: number): void {
    if (!this.frames.length) return;
    this.frame = Math.min(this.frames.length - 1, Math.max(0, i));
    this.redraw();
  }

  togglePlay(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.playButton.textContent = '▶';
      this.playButton.setAttribute('aria-label', 'Play');
      return;
    }
    if (this.frames.length < 2) return;
    if (this.frame >= this.frames.length - 1) this.goTo(0);
    this.playButton.textContent = '❚❚';
    this.playButton.setAttribute('aria-label', 'Pause');
    this.timer = setInterval(() => {
      if (this.frame >= this.frames.length - 1) this.togglePlay();
      else this.goTo(this.frame + 1);
    }, 400);
  }

  private showHover(a: HoverInfo | undefined): void {
    if (!a) return;
    const label = (this.structure as { labels?: string[] }).labels?.[a.index];
    this.status.textContent =
      `${a.symbol}${label && label !== a.symbol ? ` (${label})` : ''} #${a.index + 1}${a.fixed ? ' · fixed' : ''} · ` +
      `${a.position.map((x) => fmt(x)).join(', ')} Å` +
      (a.fractional ? ` · frac ${a.fractional.map((x) => fmt(x)).join(', ')}` : '');
  }

  private cycleRepeat(): void {
    const i = REPEATS.findIndex((r) => r.join('x') === this.repeatSelect.value);
    this.repeatSelect.value = REPEATS[(i + 1) % REPEATS.length]!.join('x');
    this.redraw(false, true);
  }

  private onKey(e: KeyboardEvent): void {
    const step = e.shiftKey ? 90 : 10;
    const handled = (() => {
      switch (e.key) {
        case 'ArrowLeft':
          this.viewer.rotate(-step, 'vy');
          return true;
        case 'ArrowRight':
          this.viewer.rotate(step, 'vy');
          return true;
        case 'ArrowUp':
          this.viewer.rotate(-step, 'vx');
          return true;
        case 'ArrowDown':
          this.viewer.rotate(step, 'vx');
          return true;
        case '+':
        case '=':
          this.viewer.zoom(1.2);
          return true;
        case '-':
        case '_':
          this.viewer.zoom(1 / 1.2);
          return true;
        case '0':
          this.viewer.resetView();
          return true;
        case 'a':
        case 'b':
        case 'c':
          this.viewer.lookAlong('abc'.indexOf(e.key) as 0 | 1 | 2);
          return true;
        case 'r':
          this.cycleRepeat();
          return true;
        case 'u':
          this.cellBox.checked = !this.cellBox.checked;
          this.redraw();
          return true;
        case 'k':
          this.bondBox.checked = !this.bondBox.checked;
          this.redraw();
          return true;
        case ' ':
          if (this.frames.length > 1) {
            this.togglePlay();
            return true;
          }
          return false;
        case ',':
          this.goTo(this.frame - 1);
          return this.frames.length > 1;
        case '.':
          this.goTo(this.frame + 1);
          return this.frames.length > 1;
        case 'Home':
          this.goTo(0);
          return this.frames.length > 1;
        case 'End':
          this.goTo(this.frames.length - 1);
          return this.frames.length > 1;
        default:
          return false;
      }
    })();
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  png(): string {
    return this.viewer.png();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.resizeObserver.disconnect();
    this.themeObserver.disconnect();
    this.viewer.dispose();
    this.root.remove();
  }
}
