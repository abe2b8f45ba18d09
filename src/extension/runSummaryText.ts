/**
 * The status bar's words for a run, from the core's run progress fold (core/run/progress.ts,
 * the same the CLI's status line reads): state, tokens, cost (unknown when a model has no
 * price, never $0), jobs. No VS Code API here, so it is tested in Node.
 */
import type { RunProgress } from '../core/run/progress';

const compact = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export function runSummaryText(p: RunProgress): { icon: string; text: string; tooltip: string } {
  const icon = p.state === 'running' ? '$(sync~spin)' : p.state === 'waiting-approval' ? '$(shield)' : '$(beaker)';
  const active = p.jobs.running + p.jobs.queued;
  const cost = p.costUsd === null ? 'cost unknown' : `$${p.costUsd.toFixed(2)}`;
  return {
    icon,
    text: `${icon} ${p.state} · ${compact(p.tokens)} tokens · ${cost} · ${p.jobs.total} job${p.jobs.total === 1 ? '' : 's'}`,
    tooltip:
      `DREAMS run: ${p.state}${p.reason ? ` (${p.reason})` : ''}\nTokens: ${p.tokens.toLocaleString()}\n` +
      `Cost: ${p.costUsd === null ? 'unknown (a model without a price on file answered)' : `$${p.costUsd.toFixed(4)}`}\n` +
      `Jobs: ${p.jobs.total} (${active} active, ${p.jobs.failed} failed)`,
  };
}
