/**
 * write_report: the report's text and its claims, each citing the artifact its number
 * comes from. The report judge audits it afterwards; its verdict decides acceptance.
 */
import { CLAIM_QUANTITIES } from '../guard/claimSources';
import type { ReportClaim } from '../guard/claimChecks';
import { REF_REGEX_SOURCE } from '../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../guard/toolSpec';
import { ARTIFACT } from '../artifacts/shapes';

interface Args {
  title: string;
  text: string;
  claims: ReportClaim[];
}

export const writeReportTool: GuardedToolSpec = {
  name: 'write_report',
  description:
    'Write the final report: a title, Markdown text, and one claim per reported number, each citing the artifact (or field) ' +
    'it comes from, e.g. {quantity: "lattice_constant", value: 4.04, unit: "Å", cites: "a-31"}. Each claim is checked ' +
    'against its cited artifact and the provenance upstream of it before the report is accepted. Numbers the study computed ' +
    'are stated as claims; the text may repeat them and may quote outside values (an experimental lattice constant) as context, ' +
    'which are not claims and are not checked.',
  roles: ['supervisor', 'dft'],
  schema: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200 },
      text: { type: 'string', minLength: 1, maxLength: 20000, description: 'The report in Markdown.' },
      claims: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            quantity: { type: 'string', enum: CLAIM_QUANTITIES },
            value: { type: 'number' },
            unit: { type: 'string', minLength: 1 },
            cites: { type: 'string', pattern: REF_REGEX_SOURCE, description: 'The artifact (or field) the value comes from.' },
            statement: { type: 'string' },
          },
          required: ['quantity', 'value', 'unit', 'cites'],
          additionalProperties: false,
        },
      },
    },
    required: ['title', 'text', 'claims'],
    additionalProperties: false,
  },
  rules: [],
  parameterJudge: false,
  async run(raw) {
    const args = raw as unknown as Args;
    return {
      artifacts: [
        { kind: 'file', name: ARTIFACT.report, value: { title: args.title, claims: args.claims }, file: { name: 'report.md', bytes: `# ${args.title}\n\n${args.text}\n` }, inputs: args.claims.map((c) => c.cites) },
        ...args.claims.map((c) => ({
          kind: 'report-claim' as const, name: ARTIFACT.reportClaim, value: c.value, unit: c.unit, inputs: [c.cites],
          meta: { quantity: c.quantity, cites: c.cites, ...(c.statement ? { statement: c.statement } : {}) },
        })),
      ],
      summary: `report "${args.title}" with ${args.claims.length} claim(s) written; the report judge audits it next`,
    };
  },
};
