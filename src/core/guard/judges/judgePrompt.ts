/**
 * What every judge request shares: one system prefix (the three rule texts and the tool
 * catalogue) and one set of verdict tools, so the prefix is cached once and read by
 * every judge request of a run, whichever judge asks.
 */
import type { LlmToolDef, SystemPart } from '../../llm/types';
import { latestRuleText } from '../rule-texts';

/** A tool as the judges see it: what it does and what good values look like. */
export interface JudgeToolInfo {
  name: string;
  description: string;
  /** Parameter name -> what it is (from the schema) and, when given, what a good value looks like. */
  parameters: Record<string, { description?: string; note?: string }>;
}

const LEVEL = { type: 'string', enum: ['pass', 'warn', 'fail'] };
const REASONS = { type: 'array', items: { type: 'string' }, minItems: 1 };

export const PARAM_VERDICT_TOOL = 'record_parameter_verdicts';
export const CROSS_VERDICT_TOOL = 'record_cross_verdict';
export const REPORT_VERDICT_TOOL = 'record_report_verdicts';

export const VERDICT_TOOLS: LlmToolDef[] = [
  {
    name: PARAM_VERDICT_TOOL,
    description: 'Record one verdict for every parameter of the call under review.',
    inputSchema: {
      type: 'object',
      properties: {
        verdicts: {
          type: 'array',
          items: { type: 'object', properties: { parameter: { type: 'string' }, level: LEVEL, reasons: REASONS }, required: ['parameter', 'level', 'reasons'] },
        },
      },
      required: ['verdicts'],
    },
  },
  {
    name: CROSS_VERDICT_TOOL,
    description: 'Record one verdict on how the parameters of the call fit together.',
    inputSchema: { type: 'object', properties: { level: LEVEL, reasons: REASONS }, required: ['level', 'reasons'] },
  },
  {
    name: REPORT_VERDICT_TOOL,
    description: 'Record one verdict for every listed parameter of every call that contributed to the report.',
    inputSchema: {
      type: 'object',
      properties: {
        verdicts: {
          type: 'array',
          items: {
            type: 'object',
            properties: { call: { type: 'string' }, parameter: { type: 'string' }, level: LEVEL, reasons: REASONS },
            required: ['call', 'parameter', 'level', 'reasons'],
          },
        },
      },
      required: ['verdicts'],
    },
  },
];

export function renderCatalogue(tools: JudgeToolInfo[]): string {
  const lines = ['# Tools the agents call'];
  for (const t of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push('', `## ${t.name}`, t.description);
    for (const [p, { description, note }] of Object.entries(t.parameters)) {
      lines.push(`- ${p}: ${description ?? ''}${note ? ` Good value: ${note}` : ''}`.trimEnd());
    }
  }
  return lines.join('\n');
}

/** The shared, cached system prefix. */
export function judgeSystem(tools: JudgeToolInfo[]): SystemPart[] {
  const rules = (['param-judge', 'cross-judge', 'report-judge'] as const).map((j) => latestRuleText(j).text).join('\n\n');
  return [{ text: `${rules}\n\n${renderCatalogue(tools)}`, cache: true }];
}

/** A value shown to a judge: JSON, cut short so one large artifact cannot swamp the request. */
export function shown(value: unknown, max = 300): string {
  const s = JSON.stringify(value) ?? 'undefined';
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`;
}
