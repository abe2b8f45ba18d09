// Canvas events as a run records them, for tests that fold or write a log of their own: each maker
// numbers its events from 1; a tool call (ok, by the dft worker) and an artifact (final, a table
// unless told) carry every field the catalogue asks for, so a test names only what it is about.
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';

export function canvasEvents() {
  let seq = 0;
  const ev = (kind: string, payload: unknown, key?: string): CanvasEvent =>
    ({ v: 1, seq: ++seq, ts: '', crc: '', actor: { kind: 'framework', id: 't' }, kind, payload, ...(key ? { key } : {}) }) as CanvasEvent;
  /** A provenance.call event of `tool`, ended ok. */
  const call = (id: string, tool: string, over: Partial<ToolCallRecord> = {}): CanvasEvent =>
    ev('provenance.call', {
      id,
      tool,
      args: {},
      reasons: {},
      context: '',
      verdicts: [],
      agent: { role: 'dft' },
      startedAt: '',
      status: 'ok',
      outputs: [],
      ...over,
    });
  /** A provenance.artifact event: `name` made by call `creator`, final, its content hash its id. */
  const artifact = (id: string, creator: string, name: string, over: Partial<ArtifactRecord> = {}): CanvasEvent =>
    ev('provenance.artifact', {
      id,
      kind: 'table',
      name,
      creator,
      inputs: [],
      concerns: [],
      status: 'final',
      contentHash: id,
      createdAt: '',
      ...over,
    });
  return { ev, call, artifact };
}
