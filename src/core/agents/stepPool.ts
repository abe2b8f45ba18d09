/**
 * Plan steps side by side as a pool: the supervisor starts the ready pw.x steps it may, and
 * each time one ends it starts the next ready one at once, rather than waiting for the
 * slowest step of a fixed batch (the fcc relaxation of a site-preference study no longer
 * waits for the ontop one when the clean slab's has ended). A failed step stops the
 * filling; the supervisor replans once every step in flight has ended, as before. Every
 * start passes the run's checkpoint (a pause holds the next start back; a stop lets the
 * steps in flight end, then ends the pool with the stop).
 */
export type StepResult = { ok: true } | { ok: false; reason: string };

export interface StepPool<S extends { id: string }> {
  /** The steps to start first (already chosen within the limit). */
  first: readonly S[];
  run: (step: S) => Promise<StepResult>;
  /** Called as each step ends, before anything else starts (e.g. to supersede what it changed). */
  ended: (step: S, result: StepResult) => Promise<void>;
  /** After a step ended well: further steps to start now, given those in flight. */
  more: (inFlight: ReadonlySet<string>) => S[];
  checkpoint: () => Promise<void>;
}

/** Runs the pool to its end; returns every step with its result, in the order they ended. */
export async function runStepPool<S extends { id: string }>(pool: StepPool<S>): Promise<{ step: S; result: StepResult }[]> {
  const inFlight = new Map<string, Promise<void>>();
  const done: { step: S; result: StepResult }[] = [];
  let failed = false;
  let error: { error: unknown } | undefined;
  // Ends are handled one at a time, in the order they happen.
  let handling: Promise<void> = Promise.resolve();

  const start = async (steps: readonly S[]): Promise<void> => {
    for (const step of steps) {
      if (failed || error || inFlight.has(step.id)) return;
      try {
        await pool.checkpoint();
      } catch (e) {
        error ??= { error: e };
        return;
      }
      const p = pool
        .run(step)
        .then(
          (result) => {
            handling = handling.then(() => onEnd(step, result));
            return handling;
          },
          (e: unknown) => {
            error ??= { error: e };
          },
        )
        .finally(() => void inFlight.delete(step.id));
      inFlight.set(step.id, p);
    }
  };

  const onEnd = async (step: S, result: StepResult): Promise<void> => {
    done.push({ step, result });
    try {
      await pool.ended(step, result);
    } catch (e) {
      error ??= { error: e };
    }
    if (!result.ok) failed = true;
    if (failed || error) return;
    const running = new Set([...inFlight.keys()].filter((id) => id !== step.id));
    await start(pool.more(running));
  };

  await start(pool.first);
  while (inFlight.size > 0) await Promise.race(inFlight.values());
  await handling;
  if (error) throw error.error;
  return done;
}
