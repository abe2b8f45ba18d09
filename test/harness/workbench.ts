/** Workbench gestures shared by e2e tests: open a file, reach a notebook's output frame. */
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
