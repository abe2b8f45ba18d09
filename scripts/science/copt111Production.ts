/**
 * The CO/Pt(111) site preference at production settings, once per functional (PBE, LDA),
 * and optionally the BEEF-vdW ensemble: each study runs through `dreams run --offline`
 * (locally, or on a cluster profile), an interrupted study is resumed with `dreams resume`,
 * and the ΔBE of each is printed with the settings behind it and compared with the
 * published values. Writes bench/results/copt111-production.json.
 *
 *   npx tsx scripts/science/copt111Production.ts [--functionals PBE,LDA] [--beef]
 *       [--pbe FILE] [--lda FILE] [--beef-objective FILE] [--pseudo-dir DIR] [--runs-dir DIR]
 *       [--local-jobs 2] [--pw-command "mpirun -np 2 pw.x -nk 2"] [--cluster NAME --clusters FILE --ssh-config FILE] [--summary-only]
 *
 * Objectives default to examples/copt111-pbe.yaml, examples/copt111-lda.yaml and
 * examples/beef-copt111.yaml; pseudopotentials to the pslibrary files in
 * test/fixtures/workflows/pseudo. Build first (node scripts/build.mjs): it runs dist/cli.js.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { foldJobEvents } from '../../src/core/hpc/jobStore';
import type { ArtifactRecord } from '../../src/core/provenance/types';
import { mergeProductionResults, studySummary, type ProductionFile, type StudySummary } from './copt111Summary';
import { commandLine } from '../commandLine';

const ROOT = path.resolve(__dirname, '../..');
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const flag = (name: string) => process.argv.includes(`--${name}`);

// `--functionals none --beef` runs the ensemble alone
const functionals = (option('functionals') ?? 'PBE,LDA')
  .split(',')
  .map((s) => s.trim().toUpperCase())
  .filter((s) => s && s !== 'NONE');
const objectives: Record<string, string> = {
  PBE: option('pbe') ?? path.join(ROOT, 'examples/copt111-pbe.yaml'),
  LDA: option('lda') ?? path.join(ROOT, 'examples/copt111-lda.yaml'),
  BEEF: option('beef-objective') ?? path.join(ROOT, 'examples/beef-copt111.yaml'),
};
const studies = [...functionals, ...(flag('beef') ? ['BEEF'] : [])];
const pseudoDir = option('pseudo-dir') ?? path.join(ROOT, 'test/fixtures/workflows/pseudo');
const runsRoot = path.resolve(option('runs-dir') ?? path.join(ROOT, 'runs/copt111-production'));
const forward = (names: string[]) => names.flatMap((o) => (option(o) ? [`--${o}`, option(o)!] : []));
// A resumed run keeps the pw.x command and backend it was started with.
const passthrough = forward(['cluster', 'clusters', 'ssh-config']);
const runOnly = forward(['pw-command']);
const localJobs = option('local-jobs') ?? '2';
const cli = path.join(ROOT, 'dist/cli.js');

function dreams(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ANTHROPIC_API_KEY: '' } });
    child.on('exit', (code) => resolve(code));
  });
}

const readEvents = (runDir: string): CanvasEvent[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as CanvasEvent);

function runOf(study: string): string | undefined {
  const dir = path.join(runsRoot, study.toLowerCase());
  if (!fs.existsSync(dir)) return undefined;
  const runs = fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, 'events.jsonl')))
    .sort();
  return runs.length ? path.join(dir, runs.at(-1)!) : undefined;
}

function stateOf(events: readonly CanvasEvent[]): string {
  return (events.filter((e) => e.kind === 'run.state').at(-1)?.payload as { state?: string } | undefined)?.state ?? 'created';
}

async function runStudy(study: string): Promise<void> {
  const existing = runOf(study);
  if (existing && stateOf(readEvents(existing)) === 'completed') {
    console.log(`${study}: completed earlier in ${existing}`);
    return;
  }
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build first with "node scripts/build.mjs".`);
  const code = existing
    ? await dreams(['resume', existing, ...passthrough])
    : await dreams([
        'run',
        objectives[study]!,
        '--offline',
        '--approval',
        'auto-approve',
        '--runs-dir',
        path.join(runsRoot, study.toLowerCase()),
        '--pseudo-dir',
        pseudoDir,
        '--local-jobs',
        localJobs,
        ...runOnly,
        ...passthrough,
      ]);
  console.log(`${study}: dreams exited with ${code}`);
}

async function main(): Promise<void> {
  const unknown = studies.filter((s) => !objectives[s]);
  if (unknown.length) throw new Error(`--functionals: ${unknown.join(', ')} unknown; use PBE and/or LDA (and --beef for the ensemble).`);
  if (!flag('summary-only')) for (const s of studies) await runStudy(s);
  const results: Record<string, StudySummary | { state: string; runDir?: string }> = {};
  for (const s of studies) {
    const runDir = runOf(s);
    if (!runDir) {
      results[s] = { state: 'not started' };
      continue;
    }
    const events = readEvents(runDir);
    const artifacts = new Map<string, ArtifactRecord>();
    for (const e of events)
      if (e.kind === 'provenance.artifact') artifacts.set((e.payload as ArtifactRecord).id, e.payload as ArtifactRecord);
    for (const e of events) {
      if (e.kind !== 'provenance.status') continue;
      const p = e.payload as { ids: string[]; status: ArtifactRecord['status'] };
      for (const id of p.ids) artifacts.set(id, { ...artifacts.get(id)!, status: p.status });
    }
    results[s] = studySummary(s, runDir, stateOf(events), [...artifacts.values()], foldJobEvents(events), events);
    console.log(JSON.stringify(results[s], null, 1));
  }
  const out = path.join(ROOT, 'bench/results/copt111-production.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Studies measured by an earlier invocation stay, each with the command and date that made it.
  const command = commandLine('npx tsx scripts/science/copt111Production.ts');
  const earlier = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as ProductionFile) : {};
  fs.writeFileSync(
    out,
    JSON.stringify(mergeProductionResults(earlier, results, { command, pseudoDir, date: new Date().toISOString() }), null, 1) + '\n',
  );
  console.log(`written ${out}`);
}

main().catch((e) => {
  console.error(`copt111 production: ${(e as Error).message}`);
  process.exit(1);
});
