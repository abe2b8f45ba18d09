/** Workbench gestures shared by e2e tests: open a file, run a command or a cell, reach a notebook's output frame. */
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** Quick Open (Ctrl+P): opens a notebook with its serializer, like a user would. */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await page.locator('.monaco-workbench .part.editor').waitFor();
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(fileName);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first().waitFor();
  await page.keyboard.press('Enter');
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
