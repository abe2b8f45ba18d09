import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, visibleNotebook } from '../harness/workbench';

describe('canvas notebook in the workbench (e2e)', function () {
  let host: VsCodeHost;
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-open');

  before(async () => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
    host = await startVsCodeHost({ workspace, extension: 'installed', label: 'e2e-open-canvas' });
  });
  after(async () => host?.stop());

  it('opens a .dreams file from Quick Open as a notebook and renders an artifact output', async () => {
    const { page } = host;
    await quickOpen(page, 'al-lattice.dreams');
    const nb = visibleNotebook(page);
    await nb.locator('.cell-list-container').waitFor({ timeout: 60_000 });
    await nb.getByText('Compute the lattice constant of fcc Al with PBE.').waitFor({ timeout: 30_000 });
    const out = notebookOutputFrame(page);
    await out.getByText('4.04').first().waitFor({ timeout: 30_000 });
    // the unit is non-ASCII: it must survive the host -> renderer transfer
    await out.locator('[data-artifact="a-1"] .unit', { hasText: 'Å' }).first().waitFor({ timeout: 10_000 });
    const shot = await host.screenshot('e2e-open-canvas');
    assert.ok(fs.statSync(shot).size > 10_000, 'screenshot is empty');
  });
});
