import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, visibleNotebook } from '../harness/workbench';

describe('an untrusted workspace (e2e)', function () {
  let host: VsCodeHost;
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-untrusted');

  before(async () => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
    host = await startVsCodeHost({ workspace, extension: 'installed', label: 'e2e-untrusted', workspaceTrust: true });
  });
  after(async () => host?.stop());

  it('shows canvases read-only, runs no objective, and says why', async () => {
    const { page } = host;
    // VS Code asks whether to trust the folder: the user declines.
    const dontTrust = page.getByRole('button', { name: /No, I don't trust the authors/ });
    await dontTrust.waitFor({ timeout: 30_000 });
    await dontTrust.click();
    await quickOpen(page, 'al-lattice.dreams');
    const nb = visibleNotebook(page);
    await nb.getByText('Compute the lattice constant of fcc Al with PBE.').waitFor({ timeout: 60_000 });
    await page.locator('.statusbar-item', { hasText: 'DREAMS: read-only' }).waitFor({ timeout: 30_000 });

    // The artifact output renders even in restricted mode.
    await notebookOutputFrame(page).getByText('4.04').first().waitFor({ timeout: 30_000 });
    // Run the objective cell as a user would: its run button.
    await nb.getByText('Compute the lattice constant of fcc Al with PBE.').hover();
    await nb.locator('.codicon-notebook-execute:visible').first().click();
    // VS Code may first ask which controller to use; pick DREAMS agents.
    // VS Code asks for trust before any notebook execution; the user cancels, and nothing runs.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Executing a notebook cell will run code from this workspace' });
    await dialog.waitFor({ timeout: 30_000 });
    await host.screenshot('e2e-untrusted');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(2000);
    assert.equal(fs.readdirSync(workspace).filter((f) => f.endsWith('.run')).length, 0, 'a run directory was created');
    const tooltip = await page.locator('.statusbar-item', { hasText: 'DREAMS: read-only' }).getAttribute('aria-label');
    assert.match(tooltip ?? '', /DREAMS: read-only/);
    // The status-bar item says why on hover.
    await page.locator('.statusbar-item', { hasText: 'DREAMS: read-only' }).hover();
    await page.getByText('This workspace is not trusted, so DREAMS runs nothing here').first().waitFor({ timeout: 10_000 });
    await host.screenshot('e2e-untrusted-why');
  });
});
