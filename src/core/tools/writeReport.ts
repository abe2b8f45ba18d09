/**
 * write_report: the report's text and its claims, each citing the artifact its number
 * comes from. The report judge audits it afterwards; its verdict decides acceptance.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { CLAIM_QUANTITIES } from '../guard/claimSources';
import { enumSchema, REF_REGEX_SOURCE } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';

export const writeReportTool = defineTool({
  name: 'write_report',
  description:
    'Write the final report: a title, Markdown text, and one claim per reported number, each citing the artifact (or field) ' +
    'it comes from, e.g. {quantity: "lattice_constant", value: 4.04, unit: "Å", cites: "a-31"}. Each claim is checked ' +
    'against its cited artifact and the provenance upstream of it before the report is accepted. Numbers the study computed ' +
    'are stated as claims; the text may repeat them and may quote outside values (an experimental lattice constant) as context, ' +
    'which are not claims and are not checked.',
  roles: ['supervisor', 'dft'],
  input: {
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
            quantity: enumSchema(CLAIM_QUANTITIES),
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
  outputs: [ARTIFACTS.report, ARTIFACTS.reportClaim],
  parameterJudge: false,
  async run(args) {
    return {
      artifacts: [
        {
          kind: 'file',
          name: ARTIFACT.report,
          value: { title: args.title, claims: args.claims },
          file: { name: 'report.md', bytes: `# ${args.title}\n\n${args.text}\n` },
          inputs: args.claims.map((c) => c.cites),
        },
        ...args.claims.map((c) => ({
          kind: 'report-claim' as const,
          name: ARTIFACT.reportClaim,
          value: c.value,
          unit: c.unit,
          inputs: [c.cites],
          meta: { quantity: c.quantity, cites: c.cites, ...(c.statement ? { statement: c.statement } : {}) },
        })),
      ],
      summary: `report "${args.title}" with ${args.claims.length} claim(s) written; the report judge audits it next`,
    };
  },
});
