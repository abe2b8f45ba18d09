/**
 * What an MCP client reads back from a guarded call: the text a worker reads (the tool's
 * summary, the guard's refusal, the report judge's verdict), plus each concern of a warned
 * call with its approval, and the same as structured content. A refused, rejected, failed or
 * malformed call is a tool error the client can act on.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RegistryCallResult } from '../core/agents/toolRegistry';
import type { ApprovalRequest, Verdict } from '../core/guard/types';

const verdictLine = (v: Pick<Verdict, 'rule' | 'parameter' | 'reasons'>): string =>
  `- [${v.rule}${v.parameter ? ` · ${v.parameter}` : ''}] ${v.reasons.join(' ')}`;

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/** A guarded call's result for the client; `approval` is the request a warned call raised, `next` what the run waits for now. */
export function guardedResult(
  r: RegistryCallResult,
  approval: ApprovalRequest | undefined,
  answered: string | undefined,
  next: string,
): CallToolResult {
  const o = r.outcome;
  const verdicts = 'verdicts' in o ? o.verdicts : [];
  const warned = verdicts.filter((v) => v.level === 'warn');
  let text = r.toolResult.content;
  if (o.status === 'ok' && warned.length) {
    const state =
      answered ??
      'open: answer it with dreams_answer_approval (approve, or reject with a comment); the result counts only once it is approved';
    text += `\n\nThe guard warned${approval ? ` (approval ${approval.id}, ${state})` : ''}:\n${warned.map(verdictLine).join('\n')}`;
  }
  if (next) text += `\n\n${next}`;
  const structured: Record<string, unknown> = {
    status: o.status,
    ...('call' in o && o.call ? { call: o.call } : {}),
    ...(o.status === 'ok' ? { outputs: o.outputs } : {}),
    verdicts: verdicts.map((v) => ({
      tier: v.tier,
      rule: v.rule,
      level: v.level,
      judged: v.judged,
      ...(v.parameter ? { parameter: v.parameter } : {}),
      reasons: v.reasons,
    })),
    ...(approval ? { approval: { id: approval.id, state: answered ?? 'open' } } : {}),
    ...(r.report ? { report: { accepted: r.report.accepted, level: r.report.level, summary: r.report.summary } } : {}),
  };
  return { content: [{ type: 'text', text }], structuredContent: structured, ...(o.status === 'ok' ? {} : { isError: true }) };
}
