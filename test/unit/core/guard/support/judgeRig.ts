/** The real Anthropic provider against the scripted fake Messages API, configured as the guard's judges. */
import { FakeAnthropicApi } from '../../../../fixtures/fake-anthropic/server';
import type { FakeScript } from '../../../../fixtures/fake-anthropic/script';
import { AnthropicProvider } from '../../../../../src/core/llm/anthropic';
import { DEFAULT_ROLE_MODELS } from '../../../../../src/core/llm/models';
import type { JudgeConfig } from '../../../../../src/core/guard/judges/askJudge';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';

const KEY = 'sk-ant-test-guard-000000000000';

export interface JudgeRig {
  api: FakeAnthropicApi;
  judge: JudgeConfig;
  stop(): Promise<void>;
}

export async function startJudgeRig(script: FakeScript): Promise<JudgeRig> {
  const api = await FakeAnthropicApi.start({ apiKey: KEY, script });
  const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { maxAttempts: 1 } });
  const judge: JudgeConfig = {
    provider,
    models: {
      'param-judge': DEFAULT_ROLE_MODELS['param-judge'],
      'cross-judge': DEFAULT_ROLE_MODELS['cross-judge'],
      'report-judge': DEFAULT_ROLE_MODELS['report-judge'],
    },
    catalogue: new ToolRegistry().judgeCatalogue(),
  };
  return { api, judge, stop: () => api.stop() };
}

/** A scripted judge answer: verdicts for the named parameters. */
export function paramVerdicts(
  verdicts: { parameter: string; level: 'pass' | 'warn' | 'fail'; reasons?: string[] }[],
  match: { lastUser?: string } = {},
  times: number | 'always' = 1,
) {
  return {
    name: `param-judge ${verdicts.map((v) => `${v.parameter}:${v.level}`).join(',')}`,
    times,
    match: { toolChoice: 'record_parameter_verdicts', ...match },
    reply: {
      content: [
        {
          type: 'tool_use' as const,
          name: 'record_parameter_verdicts',
          input: { verdicts: verdicts.map((v) => ({ reasons: [`${v.parameter} looks ${v.level}`], ...v })) },
        },
      ],
    },
  };
}

export function crossVerdict(level: 'pass' | 'warn' | 'fail', reasons: string[], times: number | 'always' = 1) {
  return {
    name: `cross-judge ${level}`,
    times,
    match: { system: 'Cross-parameter judge', lastUser: 'Judge how these parameters fit together' },
    reply: { content: [{ type: 'tool_use' as const, name: 'record_cross_verdict', input: { level, reasons } }] },
  };
}
