/**
 * What a judge request is told: its own role's rule text and the documentation of the tools
 * it judges (one tool for a call; the tools of the audited calls for a report), as a cached
 * system prefix, and its own verdict tool. A judge of a run_pw call is not sent the rules of
 * the report judge or the documentation of twenty other tools.
 */
import type { JudgeRole } from '../../canvas/types';
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

export type JudgeRoleName = JudgeRole;

export const VERDICT_TOOLS: LlmToolDef[] = [
  {
    name: PARAM_VERDICT_TOOL,
    description: 'Record one verdict for every parameter of the call under review.',
    inputSchema: {
      type: 'object',
      properties: {
        verdicts: {
          type: 'array',
          items: {
            type: 'object',
            properties: { parameter: { type: 'string' }, level: LEVEL, reasons: REASONS },
            required: ['parameter', 'level', 'reasons'],
          },
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
    description:
      'Record one verdict per listed call (parameter "*" stands for every parameter of the call), and a verdict for a single parameter only where it differs from its call\'s.',
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

export function renderCatalogue(tools: JudgeToolInfo[], parameters?: readonly string[]): string {
  const lines = ['# Tools the agents call'];
  for (const t of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push('', `## ${t.name}`, t.description);
    for (const [p, { description, note }] of Object.entries(t.parameters)) {
      if (parameters && !parameters.includes(p)) continue;
      lines.push(`- ${p}: ${description ?? ''}${note ? ` Good value: ${note}` : ''}`.trimEnd());
    }
  }
  return lines.join('\n');
}

/** The verdict tool each judge answers with. */
export const VERDICT_TOOL_OF: Record<JudgeRoleName, string> = {
  'param-judge': PARAM_VERDICT_TOOL,
  'cross-judge': CROSS_VERDICT_TOOL,
  'report-judge': REPORT_VERDICT_TOOL,
};

/**
 * The cached system prefix of one judge: its rule text and the documentation of the named
 * tools (all of the catalogue when none is named), of the parameters under review when they are
 * named. The same for every request of that judge on calls of one shape, so a series of calls
 * reads it from the cache.
 */
export function judgeSystem(
  role: JudgeRoleName,
  catalogue: JudgeToolInfo[],
  tools?: readonly string[],
  parameters?: readonly string[],
): SystemPart[] {
  const shown = tools ? catalogue.filter((t) => tools.includes(t.name)) : catalogue;
  return [{ text: `${latestRuleText(role).text}\n\n${renderCatalogue(shown, parameters)}`, cache: true }];
}

/** A value shown to a judge: JSON, cut short so one large artifact cannot swamp the request. */
export function shown(value: unknown, max = 300): string {
  const s = JSON.stringify(value) ?? 'undefined';
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`;
}
