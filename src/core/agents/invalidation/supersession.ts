/**
 * When a step runs again and comes to a different answer — a cutoff selection that now
 * chooses 40 Ry instead of 30, a slab sweep that now chooses 4 layers — its earlier
 * answer is superseded: it, and everything computed from it, becomes stale in the
 * provenance, with the change as the reason. A step that comes to the same answer
 * supersedes nothing, so the calculations built on it stay valid.
 *
 * Only steps of one call are compared; results of per-item steps go stale through the
 * inputs they were computed from.
 */
import { ARTIFACT, type ConvergenceSelectionValue } from '../../artifacts/shapes';
import { RUNNER_ACTOR } from '../../plan/store';
import type { AgentRuntime } from '../runtime';
import { callSucceeded } from '../../plan/stepArguments';
import { STEP_END_EVENT, STEP_START_EVENT } from '../../plan/stepRecords';
import type { CanvasEvent } from '../../canvas/types';
import { downstreamArtifacts } from '../../provenance/upstream';
import type { ArtifactRecord, ToolCallRecord } from '../../provenance/types';
import type { SlabSelection } from '../../dft/slabSelection';

export const SUPERSEDED_EVENT = 'workflow.superseded';

export interface Supersession {
  step: string;
  replaced: { old: string; new: string; name: string; change: string }[];
  /** Every artifact the change made stale: the old results and everything computed from them (some may have been stale already). */
  stale: string[];
}

interface Attempt {
  attempt: number;
  callIds: string[];
  ok: boolean;
}

/** Every attempt of a step with its calls and outcome, oldest first. */
function attemptsOf(events: readonly CanvasEvent[], stepId: string): Attempt[] {
  const out: Attempt[] = [];
  for (const e of events) {
    if (e.kind === STEP_START_EVENT && e.payload.id === stepId) out.push({ attempt: e.payload.attempt, callIds: [], ok: false });
    const current = out.at(-1);
    if (!current) continue;
    if (e.kind === 'provenance.call' && e.payload.step === stepId) current.callIds.push(e.payload.id);
    if (e.kind === STEP_END_EVENT && e.payload.id === stepId) current.ok = e.payload.ok;
  }
  return out;
}

/** What makes two results of a name the same answer, and the change in words when they differ. */
function answer(a: ArtifactRecord): { key: string; words: string } {
  if (a.name === ARTIFACT.convergedSettings) {
    const v = a.value as ConvergenceSelectionValue;
    const words = v.parameter === 'ecutwfc' ? `ecutwfc ${v.chosen.ecutwfcRy} Ry` : `k-spacing ${v.chosen.kSpacingPerAngstrom} 1/Å`;
    return { key: JSON.stringify(v.chosen), words };
  }
  if (a.name === ARTIFACT.convergedSlab) {
    const c = (a.value as SlabSelection).chosen;
    return { key: JSON.stringify([c.layers, c.vacuumAngstrom, c.fixedLayers]), words: `${c.layers} layers, ${c.vacuumAngstrom} Å vacuum` };
  }
  return {
    key: a.contentHash,
    words: typeof a.value === 'number' ? `${a.value}${a.unit ? ` ${a.unit}` : ''}` : `content ${a.contentHash.slice(0, 12)}`,
  };
}

/** The results of an attempt's one call; an earlier attempt's results count even if they went stale since. */
function outputsOf(rt: AgentRuntime, attempt: Attempt, tool: string, current: boolean): ArtifactRecord[] {
  const calls = attempt.callIds
    .map((id) => rt.provenance.call(id))
    .filter((c): c is ToolCallRecord => !!c && c.tool === tool && (current ? callSucceeded(c, rt.provenance) : c.status === 'ok'));
  if (calls.length !== 1) return [];
  return calls[0]!.outputs.map((id) => rt.provenance.artifact(id)).filter((a): a is ArtifactRecord => !!a);
}

/**
 * After `stepId` finished: compare its results with those of its previous successful
 * attempt; results that changed supersede the old ones. Returns what became stale.
 */
export async function supersedeChangedResults(rt: AgentRuntime, stepId: string, tool: string): Promise<Supersession | undefined> {
  const attempts = attemptsOf(rt.log.events(), stepId);
  const latest = attempts.at(-1);
  const previous = attempts
    .slice(0, -1)
    .reverse()
    .find((a) => a.ok);
  if (!latest?.ok || !previous) return undefined;
  const now = outputsOf(rt, latest, tool, true);
  const before = outputsOf(rt, previous, tool, false);
  const replaced: Supersession['replaced'] = [];
  for (const old of before) {
    const peers = before.filter((b) => b.name === old.name);
    const fresh = now.filter((n) => n.name === old.name)[peers.indexOf(old)];
    if (!fresh) continue;
    const [a, b] = [answer(old), answer(fresh)];
    if (a.key !== b.key) replaced.push({ old: old.id, new: fresh.id, name: old.name, change: `${a.words} → ${b.words}` });
  }
  if (!replaced.length) return undefined;
  const roots = replaced.map((r) => r.old);
  const stale = [...roots, ...downstreamArtifacts(rt.provenance, roots)];
  const why = replaced.map((r) => `${r.name} of step ${stepId} superseded (${r.old} → ${r.new}: ${r.change})`).join('; ');
  // Some may be stale already (the guard marks k tests at an old cutoff as soon as a new cutoff is chosen).
  const fresh = stale.filter((id) => rt.provenance.artifact(id)?.status !== 'stale');
  if (fresh.length) await rt.provenance.markStatus(fresh, 'stale', why);
  const record: Supersession = { step: stepId, replaced, stale };
  await rt.log.append({ kind: SUPERSEDED_EVENT, key: 'run/workflow', actor: RUNNER_ACTOR, payload: record });
  return record;
}
