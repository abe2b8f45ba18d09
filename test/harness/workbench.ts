/** Workbench gestures shared by e2e tests: open a file, run a command or a cell, reach a notebook's output frame. */
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** Quick Open (Ctrl+P): opens a notebook with its serializer, like a user would. */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await page.locator('.monaco-workbench .part.editor').waitFor();
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(fileName);
  // the row of that file, clicked: Enter takes the focused row, which on a loaded machine can still
  // be the best match of the letters typed so far (copt.dreams for "co-search.dreams")
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor();
  await row.click();
}

export function visibleNotebook(page: Page): Locator {
  return page.locator('.notebook-editor:visible');
}

/**
 * Notebook outputs live two iframes deep: the webview, then its active frame. The notebook's
 * webview sits inside its editor's cell list, so scoping to the visible notebook editor keeps
 * other webviews (the provenance graph, a notebook in another group) out of the match.
 */
export function notebookOutputFrame(page: Page): FrameLocator {
  return visibleNotebook(page).locator('iframe.webview.ready').first().contentFrame().frameLocator('iframe#active-frame');
}

/**
 * A command from the palette, as a user runs it. Right after start-up the palette does not list
 * an extension's commands until the extension host has registered them ("Activating
 * Extensions…"): the palette is closed and asked again until the command is there.
 */
export async function runCommand(page: Page, title: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    await page.keyboard.press('Control+Shift+P');
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    await page.keyboard.type(title);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    if (
      await row.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await row.click();
      return;
    }
    await page.keyboard.press('Escape');
    if (Date.now() > end) throw new Error(`the command palette has no "${title}" after ${ms / 1000} s`);
    await page.waitForTimeout(1_000);
  }
}

/** Open a canvas alone and run its objective cell with the DREAMS agents kernel, as a user would. */
export async function runObjectiveCell(page: Page, file: string, cellText: string): Promise<Locator> {
  await runCommand(page, 'View: Close All Editors');
  await quickOpen(page, file);
  const nb = visibleNotebook(page);
  await nb.getByText(cellText).waitFor({ timeout: 60_000 });
  await nb.getByText(cellText).hover();
  await nb.locator('.codicon-notebook-execute:visible').first().click();
  const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'DREAMS agents' }).first();
  if (
    await pick.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    )
  )
    await pick.click();
  return nb;
}

/**
 * Bring the visible notebook's last cell into view, as a user does with a click at the bottom of
 * its scrollbar (Monaco moves the list so the slider centres on the click: the end), until
 * `drawn` (an element of the last cell's output) is present in the output frame. Presence, not
 * visibility: the webview may keep an output out of view hidden, and a last cell taller than the
 * editor puts the element above the screen. The click is repeated because the list's height
 * grows as rows are measured. Not the wheel: each wheel event moves the list by a step of its
 * own whatever the delta (1.5 px of a 760 px track per event, measured on a 20-cell canvas), so
 * on a loaded machine a minute of wheel events does not reach the end of a long canvas.
 * On failure it says where the list got to.
 */
export async function scrollNotebookToEnd(page: Page, drawn: Locator, ms = 120_000): Promise<void> {
  const editor = visibleNotebook(page);
  const track = editor.locator(LIST_SCROLLBAR).first();
  const end = Date.now() + ms;
  for (;;) {
    if (await drawn.count()) return;
    if (Date.now() > end) {
      const where = await editor
        .evaluate((e, sel) => {
          const t = e.querySelector(sel) as HTMLElement | null;
          const slider = t?.querySelector('.slider') as HTMLElement | null;
          const rows = [...e.querySelectorAll('.monaco-list-row')].map((r) => Number(r.getAttribute('data-index')));
          return `the scrollbar's slider at ${slider?.style.top ?? '?'} of ${t?.style.height ?? '?'} (its height ${slider?.style.height ?? '?'}); rows built: ${rows.sort((x, y) => x - y).join(', ') || 'none'}`;
        }, LIST_SCROLLBAR)
        .catch((e: Error) => `(the notebook could not be read: ${e.message})`);
      throw new Error(`not drawn after ${ms} ms of scrolling the notebook to its end: ${drawn}; ${where}`);
    }
    const box = await track.boundingBox().catch(() => null);
    // a little above the track's foot, where the sash of the panel below lies over it (a slider
    // already there is within a few rows of the end, where the last cell is built)
    if (box) await clickTrack(page, box, box.height - TRACK_FOOT_PX);
    await page.waitForTimeout(350);
  }
}

/**
 * Scroll the visible notebook until `target` (a cell row, or an element of the output frame) is
 * wholly on screen, clear of the status bar (`bottomMarginPx`), so it can be clicked; outputs
 * render as they come into view. A target more than a screen away, or not yet in the list (VS
 * Code builds rows near the screen only; it is looked for in `direction`), is approached a page
 * at a time by a click on the list's scrollbar track beside the slider (Monaco centres the slider
 * on the click: the list moves about 0.6 of a screen, so no row is passed by unbuilt). Near it,
 * the wheel turns over the scrollbar, which no output covers (over an output the webview takes
 * the wheel, and a 3-D view or a plot may keep it). Not the wheel all the way: each wheel event
 * moves the list by a step of its own whatever the delta, and on a loaded machine a minute of
 * turns does not cross a long canvas.
 */
export async function scrollNotebookTo(
  page: Page,
  target: Locator,
  opts: { ms?: number; direction?: 'up' | 'down'; bottomMarginPx?: number } = {},
): Promise<void> {
  const ms = opts.ms ?? 60_000;
  const editor = visibleNotebook(page);
  const end = Date.now() + ms;
  const view = page.viewportSize()!;
  const bottom = view.height - (opts.bottomMarginPx ?? 40);
  for (;;) {
    const eb = await editor.boundingBox();
    const top = eb?.y ?? 0;
    // (boundingBox waits for an element that is not there: ask whether it is first)
    const box = (await target.count()) ? await target.boundingBox({ timeout: 1_000 }).catch(() => null) : null;
    if (box && box.y >= top && box.y + box.height <= bottom && (await target.isVisible().catch(() => false))) return;
    if (Date.now() > end) throw new Error(`not on screen after ${ms} ms of scrolling: ${target}`);
    const up = box ? box.y < top : opts.direction === 'up';
    const screen = eb?.height ?? view.height;
    const far = !box || (up ? top - box.y > screen : box.y + box.height - bottom > screen);
    if (far && (await pageOnce(page, editor, up ? 'up' : 'down'))) continue;
    if (eb) await page.mouse.move(eb.x + eb.width - 6, eb.y + eb.height / 2);
    await page.mouse.wheel(0, up ? -800 : 800);
    await page.waitForTimeout(150);
  }
}

/**
 * Move the notebook's list about 0.6 of a screen with a click on its scrollbar's track; false at
 * that end, or when the click would have to land on the slider (Monaco keeps a slider at least
 * 20 px tall, so on a very long list 0.6 of a screen is less than half a slider): the caller turns
 * the wheel instead.
 */
async function pageOnce(page: Page, editor: Locator, direction: 'up' | 'down'): Promise<boolean> {
  const track = editor.locator(LIST_SCROLLBAR).first();
  const box = await track.boundingBox().catch(() => null);
  if (!box) return false;
  const g = await editor
    .evaluate((e) => {
      const scrollable = e.querySelector('.monaco-list > .monaco-scrollable-element') as HTMLElement | null;
      const rows = scrollable?.querySelector(':scope > .monaco-list-rows') as HTMLElement | null;
      const s = scrollable?.querySelector(':scope > .scrollbar.vertical > .slider') as HTMLElement | null;
      if (!scrollable || !rows || !s) return undefined;
      return {
        view: scrollable.clientHeight,
        content: Number.parseFloat(rows.style.height) || 0,
        top: Number.parseFloat(s.style.top) || 0,
        height: Number.parseFloat(s.style.height) || 0,
      };
    })
    .catch(() => undefined);
  if (!g || g.height <= 0 || g.content <= g.view) return false;
  // where the slider's centre goes for the list to move 0.6 of a screen
  const step = (0.6 * g.view * (box.height - g.height)) / (g.content - g.view);
  if (step <= g.height / 2 + 1) return false;
  const centre = g.top + g.height / 2;
  const y = direction === 'down' ? Math.min(centre + step, box.height - TRACK_FOOT_PX) : Math.max(centre - step, 1);
  if (y >= g.top - 1 && y <= g.top + g.height + 1) return false; // at that end already
  await clickTrack(page, box, y);
  return true;
}

/** The notebook list's vertical scrollbar (its track; the slider is inside). */
const LIST_SCROLLBAR = '.monaco-list > .monaco-scrollable-element > .scrollbar.vertical';
/** The foot of the track lies under the sash of the panel below: clicks keep this far above it. */
const TRACK_FOOT_PX = 6;

/**
 * A click on the scrollbar's track `y` px from its top. The pointer goes there first: the
 * scrollbar fades in, and takes clicks, once hovered. Monaco centres the slider on the click.
 */
async function clickTrack(page: Page, track: { x: number; y: number; width: number }, y: number): Promise<void> {
  await page.mouse.move(track.x + track.width / 2, track.y + y);
  await page.waitForTimeout(150);
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForTimeout(150);
}
