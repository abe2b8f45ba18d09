/** Record a finished call and what it made, for calls whose body cannot run in a unit test (pw.x, say). */
import type { ArtifactDraft, ArtifactRecord } from '../../../../../src/core/provenance/types';
import type { ProvenanceWriter } from '../../../../../src/core/provenance/view';

export async function seedCall(
  p: ProvenanceWriter,
  tool: string,
  args: Record<string, unknown>,
  drafts: ArtifactDraft[],
  refs: Record<string, string> = {},
): Promise<ArtifactRecord[]> {
  const rec = await p.recordCall({
    tool,
    reasons: {},
    context: 'seeded',
    verdicts: [],
    agent: { role: 'dft' },
    args: Object.fromEntries(Object.entries(args).map(([k, value]) => [k, { value, ...(refs[k] ? { ref: refs[k] } : {}) }])),
  });
  const read = Object.values(args)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string => typeof v === 'string' && /^a-\d+/.test(v));
  const made = await p.registerArtifacts(
    rec.id,
    drafts.map((d) => ({ ...d, inputs: [...new Set([...read, ...(d.inputs ?? [])])] })),
    [],
  );
  await p.endCall(rec.id, { status: 'ok' });
  return made;
}
