/**
 * The 3-D structure view over 3Dmol.js (bundled, no CDN; WebGL): atoms as spheres coloured and
 * sized from the project's element table, bonds as sticks, the unit cell as lines, fixed atoms in
 * a wireframe box, any repeat, and the view kept while the structure changes under it (a
 * trajectory frame). Browser code; the geometry comes from scene.ts.
 */
import { createViewer, GLViewer } from '3dmol';
import { buildScene, fractional, type Cell3, type Scene, type SceneInput, type V3 } from './scene';

export interface ViewSettings {
  repeat: V3;
  showCell: boolean;
  showBonds: boolean;
  boundaryImages: boolean;
}

/**
 * The wheel zooms only a view that has keyboard focus (a click gives it); otherwise the event goes
 * on as if the view were not there, so the page around it (a notebook) scrolls. 3Dmol.js binds its
 * wheel handler when a viewer is made, so the method is wrapped once, before any viewer exists.
 */
let wheelWrapped = false;
function zoomOnlyWhenFocused(): void {
  if (wheelWrapped) return;
  wheelWrapped = true;
  const proto = GLViewer.prototype as unknown as { _handleMouseScroll(this: { container?: HTMLElement }, ev: WheelEvent): void };
  const original = proto._handleMouseScroll;
  proto._handleMouseScroll = function (ev: WheelEvent) {
    const c = this.container;
    if (c && document.activeElement !== c && !c.contains(document.activeElement)) return;
    original.call(this, ev);
  };
}

export const DEFAULT_VIEW: ViewSettings = { repeat: [1, 1, 1], showCell: true, showBonds: true, boundaryImages: true };

/** Whether this page can draw WebGL at all (headless browsers without a software renderer cannot). */
export function webglAvailable(): boolean {
  try {
    const c = document.createElement('canvas');
    return Boolean(c.getContext('webgl2') ?? c.getContext('webgl'));
  } catch {
    return false;
  }
}

/** The theme's colour for a CSS variable, as #rrggbb, or the fallback. */
function themeColour(element: HTMLElement, variable: string, fallback: string): string {
  const v = getComputedStyle(element).getPropertyValue(variable).trim();
  return /^#[0-9a-f]{6}$/i.test(v) ? v : /^#[0-9a-f]{3}$/i.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : fallback;
}

/** Shortest rotation (as a quaternion x, y, z, w) turning unit vector u onto unit vector w. */
export function rotationOnto(u: V3, w: V3): [number, number, number, number] {
  const dot = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
  if (dot < -1 + 1e-9) {
    // Opposite: half a turn about any axis perpendicular to u.
    const axis: V3 = Math.abs(u[0]) < 0.9 ? [0, -u[2], u[1]] : [-u[2], 0, u[0]];
    const n = Math.hypot(...axis);
    return [axis[0] / n, axis[1] / n, axis[2] / n, 0];
  }
  const c: V3 = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  const q: [number, number, number, number] = [c[0], c[1], c[2], 1 + dot];
  const n = Math.hypot(...q);
  return q.map((x) => x / n) as [number, number, number, number];
}

export interface HoverInfo {
  index: number;
  symbol: string;
  position: V3;
  fixed: boolean;
  fractional?: V3;
}

export class StructureViewer {
  private readonly viewer: GLViewer;
  private scene: Scene | undefined;
  private input: SceneInput | undefined;
  private settings: ViewSettings = { ...DEFAULT_VIEW };
  private framed = false;
  onHover: ((atom: HoverInfo | undefined) => void) | undefined;

  constructor(private readonly container: HTMLElement) {
    zoomOnlyWhenFocused();
    // The page's background shows through, so the view follows the theme without a redraw.
    this.viewer = createViewer(container, { backgroundAlpha: 0, antialias: true, disableFog: false, orthographic: false });
  }

  get atomCount(): number {
    return this.scene?.atoms.length ?? 0;
  }

  get view(): ViewSettings {
    return { ...this.settings, repeat: [...this.settings.repeat] as V3 };
  }

  /**
   * Draw a structure; the camera is kept unless `reframe` (first structure, or a new one). `refit`
   * keeps the orientation but fits the zoom to what is drawn (another repeat of the cell).
   */
  show(input: SceneInput, settings: Partial<ViewSettings> = {}, reframe = !this.framed, refit = false): void {
    this.input = input;
    this.settings = { ...this.settings, ...settings };
    const view = this.framed && !reframe ? this.viewer.getView() : undefined;
    this.draw();
    if (view) {
      this.viewer.setView(view);
      if (refit) {
        this.viewer.zoomTo();
        this.viewer.zoom(0.9);
      }
    } else {
      this.obliqueView();
      this.framed = true;
    }
    this.viewer.render();
  }

  update(settings: Partial<ViewSettings>): void {
    if (this.input) this.show(this.input, settings, false);
  }

  private draw(): void {
    const v = this.viewer;
    const input = this.input!;
    v.removeAllModels();
    v.removeAllShapes();
    const scene = buildScene(input, { repeat: this.settings.repeat, boundaryImages: this.settings.boundaryImages });
    this.scene = scene;
    const bondsOf: number[][] = scene.atoms.map(() => []);
    if (this.settings.showBonds) {
      for (const [i, j] of scene.bonds) {
        bondsOf[i]!.push(j);
        bondsOf[j]!.push(i);
      }
    }
    const model = v.addModel();
    model.addAtoms(
      scene.atoms.map((a, i) => ({
        elem: a.symbol,
        x: a.position[0],
        y: a.position[1],
        z: a.position[2],
        serial: i,
        index: i,
        bonds: bondsOf[i],
        bondOrder: bondsOf[i]!.map(() => 1),
        properties: { scene: i },
      })) as never,
    );
    for (const symbol of new Set(scene.atoms.map((a) => a.symbol))) {
      const a = scene.atoms.find((x) => x.symbol === symbol)!;
      const style: Record<string, unknown> = { sphere: { radius: a.radius, color: a.colour } };
      if (this.settings.showBonds) style['stick'] = { radius: 0.1, color: a.colour };
      model.setStyle({ elem: symbol } as never, style as never);
    }
    const fg = themeColour(this.container, '--vscode-editor-foreground', '#888888');
    for (const a of scene.atoms) {
      if (!a.fixed) continue;
      const d = a.radius * 2.3;
      v.addBox({
        center: { x: a.position[0], y: a.position[1], z: a.position[2] },
        dimensions: { w: d, h: d, d },
        wireframe: true,
        color: fg,
      } as never);
    }
    if (this.settings.showCell) {
      for (const [p, q] of scene.cellEdges) {
        v.addLine({ start: { x: p[0], y: p[1], z: p[2] }, end: { x: q[0], y: q[1], z: q[2] }, color: fg, dashed: false } as never);
      }
    }
    model.setHoverable(
      {},
      true,
      (atom: { properties?: { scene?: number } }) => {
        const a = scene.atoms[atom.properties?.scene ?? -1];
        if (!a || !this.onHover) return;
        const info: HoverInfo = { index: a.index, symbol: a.symbol, position: a.position, fixed: a.fixed };
        if (input.cell) info.fractional = fractional(input.cell as Cell3, a.position);
        this.onHover(info);
      },
      () => this.onHover?.(undefined),
    );
  }

  /** Turn the view by `degrees` about the screen's horizontal or vertical axis. */
  rotate(degrees: number, axis: 'vx' | 'vy' | 'vz'): void {
    this.viewer.rotate(degrees, axis);
    this.viewer.render();
  }

  zoom(factor: number): void {
    this.viewer.zoom(factor);
    this.viewer.render();
  }

  resetView(): void {
    this.obliqueView();
    this.viewer.render();
  }

  /** Down c, turned a little about the screen's axes, so a cell reads as a box and not as a square. */
  private obliqueView(): void {
    this.viewer.setView([0, 0, 0, 0, 0, 0, 0, 1] as never);
    this.viewer.zoomTo();
    this.viewer.rotate(-25, 'vy');
    this.viewer.rotate(15, 'vx');
    this.viewer.zoom(0.9);
  }

  /** Look down a lattice vector (it points at the viewer), as "view along [100]" in a crystal viewer. */
  lookAlong(k: 0 | 1 | 2): void {
    const cell = this.input?.cell;
    if (!cell) return;
    const v = cell[k];
    const n = Math.hypot(...v);
    if (n < 1e-9) return;
    const q = rotationOnto([v[0] / n, v[1] / n, v[2] / n], [0, 0, 1]);
    const view = this.viewer.getView();
    this.viewer.setView([view[0], view[1], view[2], view[3], q[0], q[1], q[2], q[3]] as never);
    this.viewer.render();
  }

  resize(): void {
    this.viewer.resize();
    this.viewer.render();
  }

  /** The current picture, as a PNG data URL. */
  png(): string {
    this.viewer.render();
    return this.viewer.pngURI();
  }

  /** Draw colours that come from the theme again (cell lines, fixed-atom boxes). */
  themeChanged(): void {
    if (this.input) this.show(this.input, {}, false);
  }

  dispose(): void {
    this.viewer.clear();
    const canvas = this.viewer.getCanvas();
    // Give the WebGL context back now: a page holds only a few at once.
    (canvas.getContext('webgl2') ?? canvas.getContext('webgl'))?.getExtension('WEBGL_lose_context')?.loseContext();
    this.container.replaceChildren();
  }
}
