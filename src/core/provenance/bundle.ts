/**
 * A self-contained reproducibility bundle of a run: a directory someone without DREAMS's
 * run directory (or this machine) can audit and rerun from.
 *
 *   <out>/manifest.json     what is in it (BundleManifest), with sha256 of every file
 *   <out>/events.jsonl      the event log up to its last durable event
 *   <out>/provenance.json   PROV-JSON of the run (export.ts)
 *   <out>/files/<sha256>/<name>   file-backed artifacts (QE inputs, outputs, structures)
 *   <out>/pseudo/<file>     the pseudopotentials the run's inputs name
 *
 * Pseudopotentials are looked up where pw.x would: the input's pseudo_dir, the run's
 * settings.pseudoDir, the caller's pseudoDirs, $ESPRESSO_PSEUDO, ~/espresso/pseudo. One
 * that cannot be found, or whose bytes differ from the hash the run recorded, is listed
 * under `problems` rather than silently left out. verifyBundle re-hashes everything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventLog } from '../canvas/eventLog';
import { scanLog } from '../canvas/logScan';
import type { RunStartPayload } from '../canvas/types';
import { sha256Hex } from './contentHash';
import { toProvJson } from './export';
import { safeFileName } from './fileStore';
import { pseudopotentialsUsed } from './pseudopotentials';
import { upstream, type LiteralInput } from './queries';
import type { ProvenanceRegistry } from './registry';
import type { ArtifactKind, ArtifactRecord } from './types';

export const BUNDLE_FORMAT = 1;

/** Artifacts a rerun starts from; everything else is an output. */
const INPUT_KINDS: ReadonlySet<ArtifactKind> = new Set(['qe-input', 'structure']);

export interface BundledFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface BundleManifest {
  bundle: number;
  runId: string;
  objective: string;
  workflow?: string;
  createdAt: string;
  software: Record<string, string>;
  settings: Record<string, unknown>;
  eventLog: BundledFile & { events: number };
  provenance: BundledFile;
  inputs: {
    /** Argument values chosen (not derived) and the reasons given for them. */
    literals: LiteralInput[];
    artifacts: BundleArtifact[];
  };
  outputs: BundleArtifact[];
  /** `path` is set when the file was copied into the bundle. */
  pseudopotentials: { element: string; file: string; source: string; sha256: string; bytes: number; path?: string }[];
  files: BundledFile[];
  /** What could not be bundled faithfully, each with what to do. */
  problems: string[];
}

export interface BundleArtifact {
  id: string;
  kind: ArtifactKind;
  name: string;
  status: ArtifactRecord['status'];
  contentHash: string;
  creator: string;
  value?: unknown;
  unit?: string;
  path?: string;
}

export interface BundleSource {
  dir: string;
  runId: string;
  log: EventLog;
  registry: ProvenanceRegistry;
}

export interface BundleOptions {
  pseudoDirs?: string[];
  /** Copy pseudopotential files into the bundle (default true; hashes are listed either way). */
  includePseudopotentials?: boolean;
  /** Bundle only what this artifact depends on (e.g. a report's claim); default the whole run. */
  artifact?: string;
}

export async function writeBundle(run: BundleSource, outDir: string, options: BundleOptions = {}): Promise<BundleManifest> {
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0) {
    throw new Error(`bundle directory ${outDir} is not empty: choose a new directory, so that no earlier bundle is mixed into this one.`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const events = run.log.events();
  const start = events.find((e) => e.kind === 'run.start')?.payload;
  const problems: string[] = [];

  const selected = options.artifact ? upstream(run.registry, options.artifact) : undefined;
  const artifacts = selected ? selected.artifacts : [...run.registry.artifacts()];
  const calls = selected ? selected.calls : [...run.registry.calls()];

  const files: BundledFile[] = [];
  for (const a of artifacts) {
    if (!a.location) continue;
    const source = path.join(run.dir, a.location);
    if (!fs.existsSync(source)) {
      problems.push(`${a.id} (${a.name}): its file ${a.location} is missing from the run directory; restore it from a backup of the run.`);
      continue;
    }
    files.push(writeInto(outDir, a.location, fs.readFileSync(source)));
  }

  const logBytes = durablePrefix(run.log.path, events.length);
  const eventLog = { ...writeInto(outDir, 'events.jsonl', logBytes), events: events.length };
  const provJson = Buffer.from(
    JSON.stringify(toProvJson({ artifacts: () => artifacts, calls: () => calls }, run.runId, start), null, 1) + '\n',
  );
  const provenance = writeInto(outDir, 'provenance.json', provJson);

  const pseudopotentials = collectPseudopotentials(run, artifacts, start, options, outDir, problems);

  const literals: LiteralInput[] = calls.flatMap((c) =>
    Object.entries(c.args)
      .filter(([, arg]) => arg.ref === undefined)
      .map(([parameter, arg]) => ({
        call: c.id,
        tool: c.tool,
        parameter,
        value: arg.value,
        ...(c.reasons[parameter] ? { reason: c.reasons[parameter] } : {}),
      })),
  );
  const describe = (a: ArtifactRecord): BundleArtifact => ({
    id: a.id,
    kind: a.kind,
    name: a.name,
    status: a.status,
    contentHash: a.contentHash,
    creator: a.creator,
    ...(a.value !== undefined && !a.location ? { value: a.value } : {}),
    ...(a.unit ? { unit: a.unit } : {}),
    ...(a.location ? { path: a.location } : {}),
  });

  const manifest: BundleManifest = {
    bundle: BUNDLE_FORMAT,
    runId: run.runId,
    objective: start?.objective ?? '',
    ...(start?.workflow ? { workflow: start.workflow } : {}),
    createdAt: new Date().toISOString(),
    software: start?.software ?? {},
    settings: start?.settings ?? {},
    eventLog,
    provenance,
    inputs: { literals, artifacts: artifacts.filter((a) => INPUT_KINDS.has(a.kind)).map(describe) },
    outputs: artifacts.filter((a) => !INPUT_KINDS.has(a.kind)).map(describe),
    pseudopotentials,
    files,
    problems,
  };
  if (!start) problems.push('the event log has no run.start record, so software versions and settings are unknown.');
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}

/** Re-hash every file a bundle lists and re-check its event log. */
export function verifyBundle(dir: string): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
  } catch (err) {
    return { ok: false, problems: [`${dir} has no readable manifest.json (${(err as Error).message}): it is not a DREAMS bundle.`] };
  }
  const listed = [manifest.eventLog, manifest.provenance, ...manifest.files, ...manifest.pseudopotentials];
  for (const f of listed) {
    if (f.path === undefined) continue;
    const p = path.join(dir, f.path);
    if (!fs.existsSync(p)) problems.push(`${f.path} is listed but missing.`);
    else if (sha256Hex(fs.readFileSync(p)) !== f.sha256)
      problems.push(`${f.path} differs from the manifest (sha256 ${f.sha256}): it was changed after bundling.`);
  }
  const scan = scanLog(path.join(dir, manifest.eventLog.path), { offset: 0, line: 1, seq: 1 }, Number.MAX_SAFE_INTEGER);
  if (scan.damage) problems.push(`events.jsonl line ${scan.damage.line}: ${scan.damage.problem} (${scan.damage.detail}).`);
  if (scan.events.length !== manifest.eventLog.events)
    problems.push(`events.jsonl holds ${scan.events.length} good events; the manifest says ${manifest.eventLog.events}.`);
  return { ok: problems.length === 0, problems };
}

function collectPseudopotentials(
  run: BundleSource,
  artifacts: readonly ArtifactRecord[],
  start: RunStartPayload | undefined,
  options: BundleOptions,
  outDir: string,
  problems: string[],
): BundleManifest['pseudopotentials'] {
  const readText = (a: ArtifactRecord): string | undefined => {
    const v = a.value as { text?: unknown } | string | undefined;
    if (typeof v === 'string') return v;
    if (v && typeof v.text === 'string') return v.text;
    return a.location ? readIfExists(path.join(run.dir, a.location))?.toString('utf8') : undefined;
  };
  const settingsDir = typeof start?.settings?.pseudoDir === 'string' ? start.settings.pseudoDir : undefined;
  const out: BundleManifest['pseudopotentials'] = [];
  for (const use of pseudopotentialsUsed(artifacts, readText)) {
    const dirs = [
      use.pseudoDir,
      settingsDir,
      ...(options.pseudoDirs ?? []),
      process.env.ESPRESSO_PSEUDO,
      path.join(os.homedir(), 'espresso', 'pseudo'),
    ].filter((d): d is string => typeof d === 'string' && d !== '');
    const found = dirs.map((d) => path.join(d, use.file)).find((p) => fs.existsSync(p));
    if (!found) {
      problems.push(
        `pseudopotential ${use.file} (${use.element}, named by ${use.artifact}) was not found in ${dirs.join(', ') || 'any pseudo directory'}; pass its directory in pseudoDirs.`,
      );
      continue;
    }
    const bytes = fs.readFileSync(found);
    const sha256 = sha256Hex(bytes);
    if (use.recordedSha256 && use.recordedSha256 !== sha256) {
      problems.push(
        `pseudopotential ${found} now has sha256 ${sha256}, but the run recorded ${use.recordedSha256} (${use.artifact}): the file changed since the run; find the original before rerunning.`,
      );
    }
    if (out.some((p) => p.source === found)) continue;
    const copied = options.includePseudopotentials === false ? undefined : writeInto(outDir, `pseudo/${safeFileName(use.file)}`, bytes);
    out.push({
      element: use.element,
      file: use.file,
      source: found,
      sha256,
      bytes: bytes.length,
      ...(copied ? { path: copied.path } : {}),
    });
  }
  return out;
}

/** The log's bytes up to the end of its `count`-th line (appends still in flight excluded). */
function durablePrefix(logPath: string, count: number): Buffer {
  const bytes = fs.readFileSync(logPath);
  let end = 0;
  for (let i = 0; i < count; i++) end = bytes.indexOf(10, end) + 1;
  return bytes.subarray(0, end);
}

function writeInto(outDir: string, rel: string, bytes: Buffer): BundledFile {
  const target = path.join(outDir, rel);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, bytes);
  return { path: rel, sha256: sha256Hex(bytes), bytes: bytes.length };
}

function readIfExists(p: string): Buffer | undefined {
  try {
    return fs.readFileSync(p);
  } catch {
    return undefined;
  }
}
