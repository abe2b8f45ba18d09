/**
 * The LLM planner: one request per decision through the LlmProvider, with the hypothesis
 * schema as the one tool, forced where the model accepts a forced tool choice (newer
 * Opus/Sonnet models refuse it; they get tool_choice auto and the instruction to answer
 * through the tool). The loop checks the tool input against the schema and the
 * validator, so whatever the model sends, a bad proposal costs no relaxation.
 */
import { requestRulesFor } from '../llm/models';
import type { LlmProvider, LlmResponse, UsageRecord } from '../llm/types';
import { HYPOTHESIS_SCHEMA, type PlannerDecision } from '../adsorption/hypothesis';
import type { Planner, PlanningContext } from '../adsorption/planner';
import { PLANNER_SYSTEM, PLANNER_TOOL, plannerUserMessage } from './prompts/adsorptionPlanner';

export interface LlmPlannerOptions {
  provider: LlmProvider;
  model: string;
  maxTokens?: number;
  /** Called with each response's usage, for the run's accounting. */
  onUsage?: (u: Pick<UsageRecord, 'role' | 'category' | 'model' | 'usage'>) => void;
}

export class LlmPlanner implements Planner {
  readonly name: string;
  /** The last response, for provenance (which model said what). */
  lastResponse: LlmResponse | undefined;

  constructor(private readonly opts: LlmPlannerOptions) {
    this.name = `llm:${opts.model}`;
  }

  async decide(ctx: PlanningContext, signal?: AbortSignal): Promise<PlannerDecision> {
    const forced = requestRulesFor(this.opts.model).forcedToolChoice;
    const response = await this.opts.provider.complete(
      {
        role: 'planner',
        category: 'plan',
        model: this.opts.model,
        system: [
          {
            text: forced
              ? PLANNER_SYSTEM
              : `${PLANNER_SYSTEM}\nAlways answer by calling ${PLANNER_TOOL}; text outside the tool call is ignored.`,
            cache: true,
          },
        ],
        messages: [{ role: 'user', content: plannerUserMessage(ctx) }],
        tools: [
          {
            name: PLANNER_TOOL,
            description: 'Propose the next adsorption configuration to relax, or terminate the search.',
            inputSchema: HYPOTHESIS_SCHEMA,
          },
        ],
        cacheTools: true,
        toolChoice: forced ? { type: 'tool', name: PLANNER_TOOL } : { type: 'auto' },
        maxTokens: this.opts.maxTokens ?? 1024,
      },
      { signal },
    );
    this.lastResponse = response;
    this.opts.onUsage?.({ role: 'planner', category: 'plan', model: response.model, usage: response.usage });
    const call = response.content.find((b) => b.type === 'tool_use' && b.name === PLANNER_TOOL);
    if (!call || call.type !== 'tool_use') {
      // Not a decision: the loop's schema check refuses it and the model reads why.
      return {
        action: 'no tool call',
        text: response.content
          .filter((b) => b.type === 'text')
          .map((b) => (b as { text: string }).text)
          .join(' ')
          .slice(0, 500),
      } as unknown as PlannerDecision;
    }
    return call.input as PlannerDecision;
  }
}
