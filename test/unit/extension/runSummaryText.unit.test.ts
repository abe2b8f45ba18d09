// The status bar's run summary, from the core's run progress fold: an unknown cost is shown as
// unknown, never as $0.
import assert from 'node:assert/strict';
import type { CanvasEvent } from '../../../src/core/canvas/types';
import { runProgress } from '../../../src/core/run/progress';
import { runSummaryText } from '../../../src/extension/runSummaryText';

let seq = 0;
const ev = (e: Pick<CanvasEvent, 'kind' | 'payload'>): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: 't', actor: { kind: 'framework', id: 't' }, crc: '', ...e }) as CanvasEvent;
const usage = (costUsd: number | null): CanvasEvent =>
  ev({
    kind: 'llm.usage',
    payload: {
      role: 'dft',
      category: 'act',
      model: 'm',
      usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd,
      at: 't',
    },
  });
const start = ev({ kind: 'run.start', payload: { runId: 'r1', objective: 'Al', settings: {}, software: {} } });
const running = ev({ kind: 'run.state', payload: { state: 'running' } });

describe('the status bar run summary', () => {
  it('shows state, tokens, cost and jobs', () => {
    const { text } = runSummaryText(runProgress([start, running, usage(0.25), usage(0.5)]));
    assert.equal(text, '$(sync~spin) running · 2.4k tokens · $0.75 · 0 jobs');
  });

  it('shows the cost as unknown once a response came from a model without a price, not as $0', () => {
    const { text, tooltip } = runSummaryText(runProgress([start, running, usage(0.25), usage(null)]));
    assert.match(text, / · cost unknown · /);
    assert.doesNotMatch(text, /\$0/);
    assert.match(tooltip, /Cost: unknown/);
  });
});
