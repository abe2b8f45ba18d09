/**
 * The keyed canvas: the shared memory agents, tools and the user read and write, as a
 * fold over the event log. Every event that carries a `key` is a version of that key
 * (`key.write` and `user.edit` hold the value in `payload.value`; any other kind, e.g.
 * `job.transition` on `jobs/<id>`, is its own value). Keys under a derived view's
 * prefix (`artifacts/`, `calls/`: the provenance registry) are answered by that view.
 *
 * The three agent operations, each answering in words an agent can act on:
 *   inspect(prefix?)              keys with mode, version count and a one-line summary
 *   read(key, version?)           the latest (or a given) version; an unknown key answers
 *                                 with the closest existing keys
 *   write(key, value, reason, a)  checked against the key's space (KeySpec: mode,
 *                                 ajv schema, named protecting condition); says whether
 *                                 it made a new version, replaced a value, or why not
 * and one framework operation: markVerified(key, reason, actor) (the report judge), after
 * which a `reports/*` key refuses writes.
 *
 * State is rebuilt identically from the log on every open: snapshot() is the state as
 * plain data, so two folds of one log compare deep-equal.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { distance } from 'fastest-levenshtein';
import canonicalize from 'canonicalize';
import type { EventLog } from './eventLog';
import { jsonValueProblem } from './jsonValue';
import { DEFAULT_CONDITIONS, DEFAULT_KEY_SPECS, KEY_SYNTAX, specFor, type KeyCondition, type KeyState } from './keySpaces';
import { oneLine, summarizeValue } from './summarize';
import type { Actor, CanvasEvent, KeyMode, KeySpec, KeySummary, KeyWritePayload, ReadResult, WriteResult } from './types';

export { REPORT_NOT_VERIFIED, DEFAULT_KEY_SPECS, type KeyCondition, type KeyState } from './keySpaces';

/** Keys another module answers for (the provenance registry: artifacts/, calls/). */
export interface DerivedKeys {
  /** Key prefix including the slash: "artifacts/". */
  prefix: string;
  keys(): Omit<KeySummary, 'mode'>[];
  read(key: string): { value: unknown; versions: number; seq: number } | undefined;
}

export interface CanvasOptions {
  /** Key spaces; default DEFAULT_KEY_SPECS. Pass [...DEFAULT_KEY_SPECS, extra] to extend. */
  specs?: readonly KeySpec[];
  /** Named conditions a spec's protectedBy may name, added to the defaults. */
  conditions?: Record<string, KeyCondition>;
  views?: DerivedKeys[];
}

export interface CanvasSnapshot {
  keys: [string, KeyState][];
}

const WRITERS_OF_FRAMEWORK_KEYS: ReadonlySet<Actor['kind']> = new Set(['framework', 'tool']);

export class Canvas {
  private readonly state = new Map<string, KeyState>();
  private readonly specs: readonly KeySpec[];
  private readonly conditions: Record<string, KeyCondition>;
  private readonly validators = new Map<KeySpec, ValidateFunction>();
  private readonly views: DerivedKeys[];
  private readonly stopObserving: () => void;

  constructor(
    private readonly log: EventLog,
    options: CanvasOptions = {},
  ) {
    this.specs = options.specs ?? DEFAULT_KEY_SPECS;
    this.conditions = { ...DEFAULT_CONDITIONS, ...options.conditions };
    this.views = options.views ?? [];
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const spec of this.specs) {
      if (spec.protectedBy && !this.conditions[spec.protectedBy]) {
        throw new Error(
          `key space ${spec.pattern} is protected by "${spec.protectedBy}", a condition this canvas does not define. Pass it in CanvasOptions.conditions (defined: ${Object.keys(this.conditions).join(', ')}).`,
        );
      }
      if (spec.schema) this.validators.set(spec, ajv.compile(spec.schema));
    }
    this.stopObserving = log.observe((e) => this.fold(e));
  }

  /** Keys (optionally under a prefix), sorted, each with its mode, versions and a one-line summary. */
  inspect(prefix = ''): KeySummary[] {
    const out: KeySummary[] = [];
    for (const [key, s] of this.state) {
      if (!key.startsWith(prefix) || this.viewFor(key)) continue;
      const last = s.versions[s.versions.length - 1]!;
      const verified = s.verified ? ` [verified v${s.verified.version}]` : '';
      out.push({
        key,
        mode: this.modeOf(key),
        versions: s.versions.length,
        summary: oneLine(summarizeValue(last.value) + (last.reason ? ` — ${last.reason}` : '') + verified),
        lastSeq: last.seq,
      });
    }
    for (const view of this.views) {
      if (!view.prefix.startsWith(prefix) && !prefix.startsWith(view.prefix)) continue;
      for (const k of view.keys()) if (k.key.startsWith(prefix)) out.push({ ...k, mode: this.modeOf(k.key) });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  read(key: string, version?: number): ReadResult {
    const view = this.viewFor(key);
    if (view) {
      const found = view.read(key);
      if (!found) return this.unknownKey(key);
      if (version !== undefined && version !== found.versions) {
        return {
          ok: false,
          key,
          message: `${key} has ${found.versions} version${found.versions === 1 ? '' : 's'}; ask for version ${found.versions} or leave the version out.`,
          closest: [],
        };
      }
      return { ok: true, key, version: found.versions, versions: found.versions, value: found.value, seq: found.seq };
    }
    const s = this.state.get(key);
    if (!s) return this.unknownKey(key);
    const n = s.versions.length;
    const v = version ?? n;
    if (!Number.isInteger(v) || v < 1 || v > n) {
      return {
        ok: false,
        key,
        message: `${key} has ${n} version${n === 1 ? '' : 's'}; ask for a version from 1 to ${n}, or leave the version out for the latest.`,
        closest: [],
      };
    }
    const chosen = s.versions[v - 1]!;
    return { ok: true, key, version: v, versions: n, value: chosen.value, seq: chosen.seq };
  }

  async write(key: string, value: unknown, reason: string, actor: Actor): Promise<WriteResult> {
    const refused = (message: string): WriteResult => ({ ok: false, key, message });
    if (this.log.mode === 'reader')
      return refused(`this canvas is open read-only (another process is running this run); ${key} was not written.`);
    if (typeof key !== 'string' || !KEY_SYNTAX.test(key)) {
      return refused(
        `${JSON.stringify(key)} is not a key: use names of letters, digits and . _ - separated by "/", e.g. notes/cutoff-choice.`,
      );
    }
    const view = this.viewFor(key);
    if (view) {
      return refused(
        `${key} is created only by tool calls, through the provenance registry, and never changes. Run the tool that produces it, or write what you want to record about it to a note, e.g. notes/${key.slice(view.prefix.length)}-remarks.`,
      );
    }
    const spec = specFor(this.specs, key);
    if (!spec) return refused(`no key space holds ${key}. You can write: ${this.writableSpaces().join(', ')}.`);
    if (spec.mode === 'framework' && !WRITERS_OF_FRAMEWORK_KEYS.has(actor.kind)) {
      return refused(
        `${key} is in ${spec.pattern} (${spec.description}), which only the framework writes; you can read it. To record your own observation, write a note, e.g. notes/${key.replace(/\//g, '-')}-remarks.`,
      );
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      return refused(`give a reason for writing ${key}: it is stored with the value so that a reviewer knows why it was written.`);
    }
    const problem = jsonValueProblem(value);
    if (problem) return refused(`${key} was not written: ${problem}.`);
    const validate = this.validators.get(spec);
    if (validate && !validate(value)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '(the value)'} ${e.message}`)
        .join('; ');
      return refused(`the value does not have the format ${spec.pattern} requires: ${errors}. Fix the value and write again.`);
    }
    const current = this.state.get(key);
    const n = current?.versions.length ?? 0;
    if (spec.mode === 'immutable' && current) {
      return refused(
        `${key} already exists (written at seq ${current.versions[0]!.seq}) and is immutable: read it, or write under a new key such as ${key}-2.`,
      );
    }
    if (spec.protectedBy) {
      const why = this.conditions[spec.protectedBy]!({ key, current, value, actor });
      if (why) return refused(why);
    }
    if (current && canonicalize(current.versions[n - 1]!.value) === canonicalize(value)) {
      const last = current.versions[n - 1]!;
      return { ok: true, key, version: n, seq: last.seq, message: `${key} already holds this value (version ${n}); nothing was written.` };
    }
    const payload: KeyWritePayload = { value, reason, version: n + 1 };
    const e = await this.log.append({ kind: 'key.write', key, payload, actor });
    return { ok: true, key, version: n + 1, seq: e.seq, message: this.explainWrite(key, spec.mode, n) };
  }

  /** The report judge (or the framework) marks the current version of a key verified. */
  async markVerified(key: string, reason: string, actor: Actor): Promise<WriteResult> {
    const s = this.state.get(key);
    if (!s) return { ok: false, key, message: `cannot verify ${key}: no such key.` };
    if (actor.kind !== 'judge' && actor.kind !== 'framework') {
      return { ok: false, key, message: `only the report judge or the framework verifies ${key}; ask for a review instead.` };
    }
    const version = s.versions.length;
    const e = await this.log.append({ kind: 'key.verified', key, payload: { version, reason }, actor });
    return { ok: true, key, version, seq: e.seq, message: `${key} version ${version} is verified and now immutable.` };
  }

  /** The state as plain data (keys sorted): equal for two folds of the same log. */
  snapshot(): CanvasSnapshot {
    return { keys: [...this.state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, s]) => [k, structuredClone(s)]) };
  }

  /** Stop following the log (the canvas keeps the state it has). */
  detach(): void {
    this.stopObserving();
  }

  private fold(e: CanvasEvent): void {
    const key = e.key ?? (e.kind === 'user.edit' ? e.payload.key : undefined);
    if (key === undefined || this.viewFor(key)) return;
    if (e.kind === 'key.verified') {
      const s = this.state.get(key);
      if (s) s.verified = { version: e.payload.version, seq: e.seq, reason: e.payload.reason };
      return;
    }
    // A key write or a notebook edit carries a value and its reason; any other event under a key is its own value.
    const write = e.kind === 'key.write' || e.kind === 'user.edit' ? e.payload : undefined;
    const version = {
      value: write ? write.value : e.payload,
      seq: e.seq,
      ts: e.ts,
      actor: e.actor,
      kind: e.kind,
      ...(write ? { reason: write.reason } : {}),
    };
    const s = this.state.get(key);
    if (s) s.versions.push(version);
    else this.state.set(key, { versions: [version] });
  }

  private explainWrite(key: string, mode: KeyMode, before: number): string {
    if (before === 0) return `created ${key} (version 1).`;
    if (mode === 'overwrite')
      return `${key} existed; this value replaces version ${before} and is now version ${before + 1} (earlier values stay in the log).`;
    return `${key} existed with ${before} version${before === 1 ? '' : 's'}; this write is version ${before + 1}. Earlier versions stay readable: read ${key} version ${before}.`;
  }

  private unknownKey(key: string): ReadResult {
    const all = [...this.state.keys(), ...this.views.flatMap((v) => v.keys().map((k) => k.key))];
    if (all.length === 0) return { ok: false, key, message: `no key ${key}: the canvas has no keys yet.`, closest: [] };
    const closest = all
      .map((k) => ({ k, d: distance(key, k) - (k.startsWith(key) || key.startsWith(k) ? 2 : 0) }))
      .sort((a, b) => a.d - b.d || (a.k < b.k ? -1 : 1))
      .slice(0, 5)
      .map((x) => x.k);
    return { ok: false, key, message: `no key ${key}. Closest: ${closest.join(', ')}. Use inspect to list keys.`, closest };
  }

  private viewFor(key: string): DerivedKeys | undefined {
    return this.views.find((v) => key.startsWith(v.prefix));
  }

  private modeOf(key: string): KeyMode {
    return specFor(this.specs, key)?.mode ?? 'framework';
  }

  private writableSpaces(): string[] {
    return this.specs.filter((s) => s.mode !== 'framework').map((s) => s.pattern);
  }
}
