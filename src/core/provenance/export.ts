/**
 * A run's provenance as W3C PROV-JSON (the PROV-JSON serialization, W3C Member Submission
 * 2013): artifacts and literal arguments are entities, tool calls are activities, agent
 * roles (with their model) are agents; relations wasGeneratedBy, used, wasDerivedFrom and
 * wasAssociatedWith link them. Identifiers are qualified names: `run:a-12`, `run:c-3`,
 * `run:c-3.arg.degauss` (a literal), `run:agent.dft`; domain attributes use `dreams:`.
 * Structured values are typed literals of type `dreams:json` holding canonical JSON.
 */
import type { RunStartPayload } from '../canvas/types';
import { canonicalJson } from './contentHash';
import { artifactIdOf } from './references';
import type { ArtifactRecord, ToolCallRecord } from './types';

export type ProvLiteral = string | number | boolean | { $: string; type: string };
export type ProvRecord = Record<string, ProvLiteral>;

export interface ProvDocument {
  prefix: Record<string, string>;
  entity: Record<string, ProvRecord>;
  activity: Record<string, ProvRecord>;
  agent: Record<string, ProvRecord>;
  wasGeneratedBy: Record<string, ProvRecord>;
  used: Record<string, ProvRecord>;
  wasDerivedFrom: Record<string, ProvRecord>;
  wasAssociatedWith: Record<string, ProvRecord>;
}

export interface ProvSource {
  artifacts(): readonly ArtifactRecord[];
  calls(): readonly ToolCallRecord[];
}

export const DREAMS_NAMESPACE = 'urn:dreams:vocabulary#';

const qname = (local: string): ProvLiteral => ({ $: local, type: 'xsd:QName' });

/** A JSON value as a PROV attribute value. */
export function provValue(value: unknown): ProvLiteral {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return { $: canonicalJson(value ?? null), type: 'dreams:json' };
}

export function toProvJson(source: ProvSource, runId: string, start?: RunStartPayload): ProvDocument {
  const doc: ProvDocument = {
    prefix: { dreams: DREAMS_NAMESPACE, run: `urn:dreams:run:${encodeURIComponent(runId)}:` },
    entity: {},
    activity: {},
    agent: {},
    wasGeneratedBy: {},
    used: {},
    wasDerivedFrom: {},
    wasAssociatedWith: {},
  };
  let n = 0;
  const relation = (
    kind: keyof Pick<ProvDocument, 'wasGeneratedBy' | 'used' | 'wasDerivedFrom' | 'wasAssociatedWith'>,
    record: ProvRecord,
  ): void => {
    doc[kind][`_:${kind}${++n}`] = record;
  };

  if (start) {
    doc.agent['run:dreams'] = {
      'prov:type': qname('prov:SoftwareAgent'),
      'prov:label': 'DREAMS',
      'dreams:software': provValue(start.software),
      'dreams:objective': start.objective,
      'dreams:settings': provValue(start.settings),
    };
  }

  for (const c of source.calls()) {
    const id = `run:${c.id}`;
    doc.activity[id] = {
      'prov:type': qname('dreams:ToolCall'),
      'prov:label': c.tool,
      'prov:startTime': c.startedAt,
      ...(c.endedAt ? { 'prov:endTime': c.endedAt } : {}),
      'dreams:status': c.status,
      'dreams:context': c.context,
      ...(c.step ? { 'dreams:step': c.step } : {}),
      ...(c.error ? { 'dreams:error': c.error } : {}),
      ...(c.verdicts.length ? { 'dreams:verdicts': provValue(c.verdicts) } : {}),
    };
    const agentId = `run:agent.${c.agent.role}${c.agent.model ? `.${c.agent.model.replace(/[^A-Za-z0-9._-]/g, '_')}` : ''}`;
    doc.agent[agentId] ??= {
      'prov:type': qname(c.agent.role === 'user' ? 'prov:Person' : 'prov:SoftwareAgent'),
      'dreams:role': c.agent.role,
      ...(c.agent.model ? { 'dreams:model': c.agent.model } : {}),
    };
    relation('wasAssociatedWith', { 'prov:activity': id, 'prov:agent': agentId });
    for (const [parameter, arg] of Object.entries(c.args)) {
      const reason = c.reasons[parameter];
      if (arg.ref === undefined) {
        const literal = `run:${c.id}.arg.${parameter}`;
        doc.entity[literal] = {
          'prov:type': qname('dreams:LiteralArgument'),
          'prov:label': parameter,
          'prov:value': provValue(arg.value),
          ...(reason ? { 'dreams:reason': reason } : {}),
        };
        relation('used', { 'prov:activity': id, 'prov:entity': literal, 'dreams:parameter': parameter });
      } else {
        relation('used', {
          'prov:activity': id,
          'prov:entity': `run:${artifactIdOf(arg.ref)}`,
          'dreams:parameter': parameter,
          'dreams:reference': arg.ref,
          'dreams:value': provValue(arg.value),
          ...(reason ? { 'dreams:reason': reason } : {}),
        });
      }
    }
  }

  for (const a of source.artifacts()) {
    const id = `run:${a.id}`;
    doc.entity[id] = {
      'prov:type': qname('dreams:Artifact'),
      'prov:label': a.name,
      'dreams:kind': a.kind,
      ...(a.value !== undefined ? { 'prov:value': provValue(a.value) } : {}),
      ...(a.unit ? { 'dreams:unit': a.unit } : {}),
      'dreams:contentHash': a.contentHash,
      ...(a.location ? { 'prov:atLocation': a.location } : {}),
      'dreams:status': a.status,
      ...(a.concerns.length ? { 'dreams:concerns': provValue(a.concerns) } : {}),
      ...(a.tolerance ? { 'dreams:tolerance': provValue(a.tolerance) } : {}),
      ...(a.meta ? { 'dreams:meta': provValue(a.meta) } : {}),
    };
    relation('wasGeneratedBy', { 'prov:entity': id, 'prov:activity': `run:${a.creator}`, 'prov:time': a.createdAt });
    for (const input of new Set(a.inputs.map(artifactIdOf))) {
      relation('wasDerivedFrom', { 'prov:generatedEntity': id, 'prov:usedEntity': `run:${input}`, 'prov:activity': `run:${a.creator}` });
    }
  }
  return doc;
}
