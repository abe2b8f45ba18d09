// An approval closed because a rerun superseded the result it was raised on, as the notebook
// renderer bundle draws it in Chromium (test/e2e/support/rendererPage.ts) beside an open one: the
// closed card says why and offers no answer; the open one keeps its buttons. Cost: one build and one
// Chromium page, a few seconds.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CANVAS_MIME, type ApprovalCardData } from '../../src/shared/canvasOutputs';
import { openRendererPage, type RendererPage } from './support/rendererPage';

const request = (id: string): ApprovalCardData['request'] => ({
  id,
  call: 'c-21',
  tool: 'select_converged_settings',
  parameter: 'kspacing',
  value: 0.2,
  verdicts: [
    {
      rule: 'cross-judge',
      level: 'warn',
      reasons: ['The k sweep ends at 0.15 1/Å with pressures still moving; is 0.2 converged against a finer mesh?'],
    },
  ],
  provenancePath: ['a-40', 'a-39'],
  createdAt: '2026-12-04T19:40:14.000Z',
});

const cards: ApprovalCardData[] = [
  {
    request: request('ap-1'),
    closed: {
      reason: 'a-40 was superseded: the extended k sweep chose again (c-27)',
      at: '2026-12-04T19:52:03.000Z',
      supersededBy: 'c-27',
    },
  },
  { request: request('ap-2') },
];

describe('approvals closed as superseded, in the notebook renderer (Chromium)', function () {
  this.timeout(300_000);
  let view: RendererPage;
  let page: Page;
  before(async () => {
    view = await openRendererPage(cards, { mime: CANVAS_MIME.approval });
    page = view.page;
  });
  after(async () => view?.close());

  it('shows a closed request with why, and no way to answer it; an open one keeps its buttons', async () => {
    const closed = page.locator('#out-0 .dreams-card');
    assert.equal(await closed.getAttribute('class').then((c) => c?.split(' ').includes('closed')), true);
    assert.equal(await page.locator('#out-0 h3 .heading').innerText(), 'Closed');
    assert.match(
      await page.locator('#out-0 .outcome').innerText(),
      /^Closed without an answer: a-40 was superseded: the extended k sweep chose again \(c-27\)$/,
    );
    assert.equal(await page.locator('#out-0 button').count(), 0, 'nothing to answer');
    assert.equal(await page.locator('#out-1 h3 .heading').innerText(), 'Approval needed');
    assert.deepEqual(await page.locator('#out-1 .actions button').allInnerTexts(), [
      'Approve',
      'Approve all like this',
      'Reject',
      'Comment',
    ]);
    assert.deepEqual(view.errors, []);
  });
});
