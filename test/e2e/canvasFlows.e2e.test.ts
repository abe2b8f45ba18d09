import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, quickOpen, visibleNotebook } from '../harness/workbench';
import { continueRun, runAwaitingApproval, waitForAnswer } from './support/runScript';
import { leanAlObjective } from '../fixtures/agents/scriptedLattice';

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/** The provenance webview's page: the frame that holds the graph canvas. */
async function provenanceFrame(page: Page, ms = 60_000): Promise<Frame> {
  const end = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      const ok = await f.evaluate(() => !!document.querySelector('canvas.graph') && /^\d+ nodes · /.test(document.querySelector('.status')?.textContent ?? '')).catch(() => false);
      if (ok) return f;
    }
    if (Date.now() > end) throw new Error('no rendered provenance graph webview found');
    await page.waitForTimeout(250);
  }
}

describe('canvas, approvals and provenance in the workbench (e2e)', function () {
  let host: VsCodeHost;
  let run: { runDir: string; logPath: string; approval: string };
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-flows');

  before(async () => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
    fs.copyFileSync(path.join(PROJECT_ROOT, 'test/fixtures/qe/al-fcc-scf.in'), path.join(workspace, 'al.pwi'));
    run = await runAwaitingApproval(workspace, 'copt');
    const o = leanAlObjective();
    const yaml = ['workflow: lattice-constant', `objective: ${o.text}`, 'inputs:', ...Object.entries(o.inputs!).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)].join('\n');
    fs.writeFileSync(path.join(workspace, 'al-offline.dreams'), JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text: yaml }] }) + '\n');
    host = await startVsCodeHost({ workspace, extension: 'installed', label: 'e2e-flows', viewport: { width: 1600, height: 1000 },
      settings: { 'dreams.provider': 'offline', 'dreams.approvalPolicy': 'continue' } });
  });
  after(async () => host?.stop());

  it('shows the approval card; Approve is recorded in the run log and the run continues in the notebook', async () => {
    const { page } = host;
    await quickOpen(page, 'copt.dreams');
    const nb = visibleNotebook(page);
    await nb.locator('.cell-list-container').waitFor({ timeout: 60_000 });
    const out = notebookOutputFrame(page);
    const card = out.locator(`[data-approval="${run.approval}"]`);
    await card.waitFor({ timeout: 60_000 });
    await card.getByText('25 Ry is below the 30 Ry').waitFor();
    await scrollTo(page, card.locator('button.approve'));
    await host.screenshot('e2e-approval-card');

    await card.locator('button.comment').click();
    await card.locator('textarea').fill('accepted for the site comparison; both sites use the same cutoff');
    await card.locator('button.approve').click();
    await scrollTo(page, out.getByText('Approved by user@vscode'));
    const answer = await waitForAnswer(run.logPath, run.approval, 30_000);
    assert.equal(answer.decision, 'approve');
    assert.equal(answer.by, 'user@vscode');
    assert.equal(answer.comment, 'accepted for the site comparison; both sites use the same cutoff');

    await continueRun(run.runDir);
    await scrollTo(page, out.locator('[data-artifact="a-9"]'));
    await nb.getByText('ecutwfc_used = 25 Ry').waitFor({ timeout: 30_000 });
    await host.screenshot('e2e-approval-answered-run-continues');
  });

  it('opens the provenance graph, and a click on a node reveals its cell', async () => {
    const { page } = host;
    await runCommand(page, 'DREAMS: Show Provenance Graph');
    const frame = await provenanceFrame(page);
    const status = await frame.locator('.status').innerText();
    assert.match(status, /^\d+ nodes · \d+ edges$/);
    const centre = await frame.evaluate(() => (window as unknown as { dreamsGraph: { centreOf(id: string): { x: number; y: number } | undefined } }).dreamsGraph.centreOf('a-1'));
    assert.ok(centre, 'a-1 is not in the graph');
    await frame.locator('canvas.graph').click({ position: centre });
    await frame.locator('aside.details').getByText('slab_with_adsorbate').waitFor({ timeout: 10_000 });
    // the host revealed the artifact's cell in the notebook
    await page.locator('.notebook-editor:visible .monaco-list-row.focused', { hasText: 'slab_with_adsorbate' }).waitFor({ timeout: 15_000 });
    await host.screenshot('e2e-provenance-click');
  });

  it('runs an objective from its cell with the offline agents on real pw.x, and shows the run as it goes', async function () {
    this.timeout(600_000);
    const { page } = host;
    await runCommand(page, 'View: Close All Editors');
    await quickOpen(page, 'al-offline.dreams');
    const nb = visibleNotebook(page);
    await nb.getByText('workflow: lattice-constant').waitFor({ timeout: 60_000 });
    await nb.getByText('workflow: lattice-constant').hover();
    await nb.locator('.codicon-notebook-execute:visible').first().click();
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'DREAMS agents' }).first();
    if (await pick.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await pick.click();
    // live: the run's state and its jobs show while it goes on
    await page.locator('.statusbar-item', { hasText: /running · .* tokens · .* jobs?/ }).waitFor({ timeout: 120_000 });
    await host.screenshot('e2e-objective-running');
    await notebookOutputFrame(page).getByText(/Run \S+-lattice-constant\S*: completed/).waitFor({ timeout: 540_000 });
    await page.locator('.statusbar-item', { hasText: /completed · .* tokens · \$0\.00 · \d+ jobs/ }).waitFor({ timeout: 30_000 });
    await host.screenshot('e2e-objective-completed');
    // The canvas file follows the log (saved after each batch of projected cells).
    type Saved = { run?: { log: string }; cells: { id: string; text: string }[] };
    const read = () => JSON.parse(fs.readFileSync(path.join(workspace, 'al-offline.dreams'), 'utf8')) as Saved;
    const end = Date.now() + 30_000;
    while (!read().cells.some((c) => /^lattice_constant = \d\.\d+ Å$/.test(c.text)) && Date.now() < end) await page.waitForTimeout(250);
    const saved = read();
    assert.ok(saved.run?.log, 'the canvas is linked to its run');
    assert.ok(saved.cells.some((c) => /^lattice_constant = \d\.\d+ Å$/.test(c.text)), 'no lattice constant cell in the canvas');
  });

  it('shows a diagnostic as soon as a wrong value is typed into a .pwi file', async () => {
    const { page } = host;
    await quickOpen(page, 'al.pwi');
    const editor = page.locator('.editor-instance:visible .monaco-editor').first();
    await editor.waitFor();
    await page.keyboard.press('Control+G');
    await page.keyboard.type('16');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('vx');
    await page.keyboard.press('Escape');
    await editor.locator('.squiggly-error').first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Control+Shift+M');
    const problems = page.locator('.markers-panel');
    await problems.getByText("smearing = 'mvvx' is not a value pw.x").first().waitFor({ timeout: 15_000 });
    await host.screenshot('e2e-qe-diagnostic');
  });
});

/** Scroll the notebook down, as a user would, until the element is on screen. */
async function scrollTo(page: Page, target: Locator, ms = 60_000): Promise<void> {
  const list = visibleNotebook(page).locator('.cell-list-container');
  const end = Date.now() + ms;
  const view = page.viewportSize()!;
  for (;;) {
    const box = await target.boundingBox().catch(() => null);
    if (box && box.y >= 0 && box.y + box.height <= view.height && (await target.isVisible().catch(() => false))) return;
    if (Date.now() > end) throw new Error(`not on screen after ${ms} ms of scrolling: ${target}`);
    const lb = await list.boundingBox();
    if (lb) await page.mouse.move(lb.x + 40, lb.y + lb.height / 2);
    await page.mouse.wheel(0, box && box.y < 0 ? -400 : 400);
    await page.waitForTimeout(150);
  }
}

