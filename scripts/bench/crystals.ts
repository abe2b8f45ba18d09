/**
 * bench:crystals — the lattice parameters of crystals read from CIF files (a compound and a
 * non-cubic crystal) through the lattice-constant workflow offline, at the settings its sweeps
 * choose, against a tight reference with the same pseudopotentials computed by bench:sol27's
 * reference machinery (scripts/bench/sol27/reference.ts, given the crystal's own cell and pw.x
 * options) and against experiment. Writes bench/results/crystals.json and prints a table.
 *
 *   npm run bench:crystals -- [--cases NaCl,Mg] [--ref-extra-cutoff 30] [--ref-kspacing 0.12]
 *                             [--ref-k-factor 0.6] [--jobs 2] [--runs-dir DIR] [--out FILE] [--reuse] [--merge]
 *
 * --reuse (with the --runs-dir of an earlier invocation) reads a case's finished workflow run there
 * instead of running it again, and the reference's finished pw.x runs (the same pw.in, JOB DONE);
 * only what is missing runs. --merge keeps the rows of the output file for the cases not measured now.
 *
 * NaCl (rocksalt, from examples/NaCl.cif): LDA, the norm-conserving Na and Cl files made with
 * ld1.x for the tests (test/fixtures/workflows/pseudo-nc; Debian ships no Na or Cl). Cubic: the
 * workflow's EOS of the primitive cell, a = (4 V0)^(1/3); the reference is the same EOS at the
 * tight settings.
 * Mg (hcp, from examples/Mg-hcp.cif): LDA, Debian's Mg.pz-n-vbc.UPF. Non-cubic: the workflow
 * vc-relaxes the cell at the chosen settings and fits the EOS of the relaxed shape; the reference
 * does the same at the tight settings (its own vc-relax, then its EOS), so a, c and c/a are
 * compared, not only the volume.
 *
 * Tight settings: ecutwfc = max(chosen + ref-extra-cutoff, highest tested) at the workflow's
 * dual, k-spacing = min(ref-kspacing, ref-k-factor × chosen) in 1/Å (2π included).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConvergenceSelectionValue, EosFitValue, LatticeParametersValue } from '../../src/core/artifacts/shapes';
import { readStructureFile } from '../../src/core/dft/io/structureFile';
import { renderPwInput, type PseudoChoice, type PwInputOptions } from '../../src/core/dft/qe/pwInput';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import type { Structure } from '../../src/core/dft/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import { commandLine } from '../commandLine';
import { pwCpuSeconds } from './sol27/measure';
import { tightReference, type ReferenceResult } from './sol27/reference';

const root = path.resolve(__dirname, '../..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const runsDir = path.resolve(arg('runs-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-crystals-')));
const out = arg('out') ?? path.join(root, 'bench/results/crystals.json');
const extraCutoff = Number(arg('ref-extra-cutoff') ?? 30);
const refKSpacing = Number(arg('ref-kspacing') ?? 0.12);
const refKFactor = Number(arg('ref-k-factor') ?? 0.6);
const jobs = Number(arg('jobs') ?? 2);
const reuse = process.argv.includes('--reuse');

interface Case {
  name: string;
  cif: string;
  pseudoDir: string;
  inputs: string[];
  /** Experiment (room temperature unless said), Å. */
  experiment: { aAngstrom: number; cAngstrom?: number; note: string };
}

const CASES: Case[] = [
  {
    name: 'NaCl',
    cif: 'NaCl.cif',
    pseudoDir: path.join(root, 'test/fixtures/workflows/pseudo-nc'),
    inputs: ['functional: PZ', 'cutoffsRy: [40, 50, 60, 70]', 'kSpacingsPerAngstrom: [0.5, 0.4, 0.3, 0.25]'],
    experiment: { aAngstrom: 5.64, note: 'rocksalt NaCl, room temperature (LDA underestimates it by 2–3 %)' },
  },
  {
    name: 'Mg',
    cif: 'Mg-hcp.cif',
    pseudoDir: '/usr/share/espresso/pseudo',
    inputs: ['functional: PZ', 'cutoffsRy: [15, 20, 25, 30]', 'kSpacingsPerAngstrom: [0.3, 0.25, 0.2, 0.15]'],
    experiment: { aAngstrom: 3.209, cAngstrom: 5.211, note: 'hcp Mg, room temperature, c/a 1.624' },
  },
];

interface Lattice {
  aAngstrom: number;
  cAngstrom: number;
  cOverA: number;
  conventionalVolumeAngstrom3: number;
  spaceGroup: string;
}
interface Row {
  name: string;
  ok: boolean;
  message: string;
  wallSeconds: number;
  workflow?: Lattice & {
    ecutwfcRy: number;
    ecutrhoRy: number;
    kSpacingPerAngstrom: number;
    kMesh?: number[];
    method: string;
    pwRuns: number;
    pwCpuSeconds: number;
    wallSeconds: number;
  };
  reference?: Lattice & Omit<ReferenceResult, 'lattice'> & { relaxPwCpuSeconds?: number };
  errorPercent?: { a: number; c: number; cOverA: number; volume: number };
  experiment: Case['experiment'];
  vsExperimentPercent?: { a: number; c?: number };
  runDir?: string;
}

const pct = (x: number, ref: number) => (100 * (x - ref)) / ref;

function events(runDir: string): { kind: string; payload: unknown }[] {
  return fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; payload: unknown });
}

interface PwInputValue {
  structure: Structure;
  options: PwInputOptions;
  pseudos: Record<string, PseudoChoice>;
  calculation: string;
}

/** pw.x on one input in dir (serial), its output text. */
function runPw(dir: string, input: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pw.in'), input);
  return new Promise((resolve, reject) => {
    const child = spawn('pw.x', ['-in', 'pw.in'], {
      cwd: dir,
      env: { ...process.env, OMP_NUM_THREADS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', () => {
      fs.writeFileSync(path.join(dir, 'pw.out'), text);
      resolve(text);
    });
  });
}

async function measure(c: Case): Promise<Row> {
  const t0 = Date.now();
  const base: Row = { name: c.name, ok: false, message: '', wallSeconds: 0, experiment: c.experiment };
  const dir = path.join(runsDir, c.name);
  const objective = ['workflow: lattice-constant', 'inputs:', `  structure: { file: ${c.cif} }`, ...c.inputs.map((l) => `  ${l}`), ''].join(
    '\n',
  );
  const earlierRun = (): string | undefined => {
    if (!reuse || !fs.existsSync(path.join(dir, 'runs')) || fs.readFileSync(path.join(dir, 'objective.yaml'), 'utf8') !== objective)
      return undefined;
    const run = fs.readdirSync(path.join(dir, 'runs')).sort().at(-1);
    const log = run ? path.join(dir, 'runs', run, 'events.jsonl') : undefined;
    return log && fs.existsSync(log) && /"name":"lattice_parameters"/.test(fs.readFileSync(log, 'utf8'))
      ? path.join(dir, 'runs', run!)
      : undefined;
  };
  let runDir = earlierRun();
  let status: number | null = 0;
  let said = '';
  if (runDir) console.log(`${c.name}: the finished run ${runDir} is read, not run again (--reuse)`);
  else {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(root, 'examples', c.cif), path.join(dir, c.cif));
    fs.writeFileSync(path.join(dir, 'objective.yaml'), objective);
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'dist/cli.js'), 'run', 'objective.yaml', '--offline', '--runs-dir', 'runs', '--pseudo-dir', c.pseudoDir],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' }, maxBuffer: 64 * 1024 * 1024 },
    );
    status = r.status;
    said = r.stdout + r.stderr;
    runDir = fs.existsSync(path.join(dir, 'runs')) ? path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs'))[0] ?? '') : undefined;
  }
  if (status !== 0 || !runDir)
    return {
      ...base,
      message: `dreams run exited ${status}: ${said.trim().split('\n').slice(-3).join(' ')}`,
      wallSeconds: (Date.now() - t0) / 1000,
    };
  const ev = events(runDir) as { kind: string; payload: unknown; ts?: string }[];
  const workflowWallSeconds = (Date.parse(ev.at(-1)?.ts ?? '') - Date.parse(ev[0]?.ts ?? '')) / 1000;
  const artifacts = ev.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
  const calls = ev.filter((e) => e.kind === 'provenance.call').map((e) => e.payload as ToolCallRecord);
  const final = (name: string) => artifacts.filter((a) => a.name === name && a.status === 'final').at(-1);
  const lp = final('lattice_parameters')?.value as LatticeParametersValue | undefined;
  const fit = final('eos_fit')?.value as EosFitValue | undefined;
  if (!lp || !fit)
    return { ...base, message: 'the run has no final lattice_parameters or eos_fit', wallSeconds: (Date.now() - t0) / 1000, runDir };
  const selections = artifacts
    .filter((a) => a.name === 'converged_settings' && a.status === 'final')
    .map((a) => a.value as ConvergenceSelectionValue);
  const chosen = (p: string) => selections.find((s) => s.parameter === p)?.chosenValue;
  const eosCall = calls.filter((x) => x.step === 'eos-input').at(-1);
  const eosInput = artifacts.find((a) => a.name === 'pw_input' && a.creator === eosCall?.id)?.value as PwInputValue | undefined;
  const relaxInput = artifacts.filter((a) => a.name === 'pw_input' && (a.value as PwInputValue).calculation === 'vc-relax').at(-1)?.value as
    | PwInputValue
    | undefined;
  if (!eosInput) return { ...base, message: 'no EOS input in the run', wallSeconds: (Date.now() - t0) / 1000, runDir };
  const jobOutputs = fs
    .readdirSync(path.join(runDir, 'jobs'))
    .map((j) => path.join(runDir, 'jobs', j, 'pw.out'))
    .filter((f) => fs.existsSync(f));
  const workflowCpu = jobOutputs.reduce((t, f) => t + (pwCpuSeconds(fs.readFileSync(f, 'utf8')) ?? 0), 0);
  const ecut = eosInput.options.ecutwfcRy;
  const dual = eosInput.options.ecutrhoRy / ecut;
  const kChosen = eosInput.options.kSpacingPerAngstrom ?? chosen('kspacing') ?? 0.2;
  const tested = selections.filter((s) => s.parameter === 'ecutwfc').flatMap((s) => s.tested.map((t) => t.value));
  const refEcut = Math.max(ecut + extraCutoff, ...tested);
  const refK = Math.min(refKSpacing, refKFactor * kChosen);
  console.log(
    `${c.name}: workflow ${lp.aAngstrom.toFixed(4)} Å at ${ecut} Ry, k ${kChosen} 1/Å; reference at ${refEcut} Ry, k ${refK.toFixed(3)} 1/Å`,
  );

  // non-cubic: the reference relaxes the cell itself at the tight settings, then fits the EOS of its shape
  let refStructure = eosInput.structure;
  let relaxCpu: number | undefined;
  if (relaxInput) {
    const { kMesh: _m, ...o } = relaxInput.options;
    const { text } = renderPwInput(
      relaxInput.structure,
      { ...o, ecutwfcRy: refEcut, ecutrhoRy: Math.round(dual * refEcut), kSpacingPerAngstrom: refK },
      relaxInput.pseudos,
    );
    const relaxDir = path.join(dir, 'reference-vc-relax');
    const input = text.replace('&CONTROL', `&CONTROL\n  pseudo_dir = '${path.resolve(c.pseudoDir)}'`);
    const earlier = (() => {
      try {
        const o = fs.readFileSync(path.join(relaxDir, 'pw.out'), 'utf8');
        return reuse && fs.readFileSync(path.join(relaxDir, 'pw.in'), 'utf8') === input && /JOB DONE/.test(o) ? o : undefined;
      } catch {
        return undefined;
      }
    })();
    const output = earlier ?? (await runPw(relaxDir, input));
    const parsed = parsePwOutput(output);
    if (!/JOB DONE/.test(output) || parsed.error)
      return { ...base, message: `the reference vc-relax failed: see ${relaxDir}/pw.out`, wallSeconds: (Date.now() - t0) / 1000, runDir };
    refStructure = readStructureFile(path.join(relaxDir, 'pw.out'), { format: 'pwx-out' });
    relaxCpu = pwCpuSeconds(output);
    console.log(`${c.name}: reference vc-relax done (${relaxCpu?.toFixed(0)} CPU s)`);
  }
  const ref = await tightReference({
    element: c.name,
    structure: 'fcc',
    aStartAngstrom: c.experiment.aAngstrom,
    pseudoDir: c.pseudoDir,
    pseudopotential: '',
    ecutwfcRy: refEcut,
    ecutrhoRy: Math.round(dual * refEcut),
    kSpacingPerAngstrom: refK,
    degaussRy: eosInput.options.degaussRy ?? 0,
    eosPoints: fit.points.length,
    eosRangePercent: 5,
    jobs,
    workDir: path.join(dir, 'reference-eos'),
    input: { structure: { ...refStructure, symbols: refStructure.symbols }, options: eosInput.options, pseudos: eosInput.pseudos },
  });
  const l = ref.lattice!;
  const { lattice: _l, ...refRest } = ref;
  const workflow = {
    aAngstrom: lp.aAngstrom,
    cAngstrom: lp.cAngstrom,
    cOverA: lp.cOverA,
    conventionalVolumeAngstrom3: lp.conventionalVolumeAngstrom3,
    spaceGroup: `${lp.spaceGroup.symbol} (${lp.spaceGroup.number})`,
    ecutwfcRy: ecut,
    ecutrhoRy: eosInput.options.ecutrhoRy,
    kSpacingPerAngstrom: kChosen,
    ...(eosInput.options.kMesh ? { kMesh: eosInput.options.kMesh } : {}),
    method: relaxInput ? 'vc-relax, then the EOS of the relaxed cell' : 'EOS of the primitive cell',
    pwRuns: jobOutputs.length,
    pwCpuSeconds: workflowCpu,
    wallSeconds: workflowWallSeconds,
  };
  const reference = {
    ...refRest,
    aAngstrom: l.aAngstrom,
    cAngstrom: l.cAngstrom,
    cOverA: l.cOverA,
    conventionalVolumeAngstrom3: l.conventionalVolumeAngstrom3,
    spaceGroup: `${l.spaceGroup.symbol} (${l.spaceGroup.number})`,
    ...(relaxCpu !== undefined ? { relaxPwCpuSeconds: relaxCpu } : {}),
  };
  return {
    ...base,
    ok: true,
    message: 'ok',
    wallSeconds: (Date.now() - t0) / 1000,
    runDir,
    workflow,
    reference,
    errorPercent: {
      a: pct(workflow.aAngstrom, reference.aAngstrom),
      c: pct(workflow.cAngstrom, reference.cAngstrom),
      cOverA: pct(workflow.cOverA, reference.cOverA),
      volume: pct(workflow.conventionalVolumeAngstrom3, reference.conventionalVolumeAngstrom3),
    },
    vsExperimentPercent: {
      a: pct(workflow.aAngstrom, c.experiment.aAngstrom),
      ...(c.experiment.cAngstrom ? { c: pct(workflow.cAngstrom, c.experiment.cAngstrom) } : {}),
    },
  };
}

async function main(): Promise<void> {
  const wanted = (arg('cases') ?? CASES.map((c) => c.name).join(',')).split(',');
  if (!fs.existsSync(path.join(root, 'dist/cli.js')) || process.argv.includes('--build')) {
    const b = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  }
  const rows: Row[] = [];
  for (const c of CASES.filter((x) => wanted.includes(x.name))) {
    const row = await measure(c);
    rows.push(row);
    console.log(
      row.ok
        ? `${c.name}: a ${row.workflow!.aAngstrom.toFixed(4)} Å vs reference ${row.reference!.aAngstrom.toFixed(4)} Å (${row.errorPercent!.a.toFixed(3)} %) in ${row.wallSeconds.toFixed(0)} s`
        : `${c.name}: failed: ${row.message}`,
    );
  }
  const f = (x: number | undefined, d = 4) => (x === undefined ? '—' : x.toFixed(d));
  console.log(
    '\n| crystal | method | settings (Ry, 1/Å) | a (Å) | c (Å) | c/a | reference a, c, c/a (settings) | Δa, Δc, Δ(c/a) vs reference (%) | vs experiment a (%) | pw.x CPU (s) workflow / reference | workflow wall (s) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows.filter((x) => x.ok)) {
    const w = r.workflow!;
    const ref = r.reference!;
    console.log(
      `| ${r.name} ${w.spaceGroup} | ${w.method} | ${w.ecutwfcRy}, ${w.kSpacingPerAngstrom} | ${f(w.aAngstrom)} | ${f(w.cAngstrom)} | ${f(w.cOverA)} | ${f(ref.aAngstrom)}, ${f(ref.cAngstrom)}, ${f(ref.cOverA)} (${ref.ecutwfcRy}, ${f(ref.kSpacingPerAngstrom, 3)}) | ` +
        `${f(r.errorPercent!.a, 3)}, ${f(r.errorPercent!.c, 3)}, ${f(r.errorPercent!.cOverA, 3)} | ${f(r.vsExperimentPercent!.a, 2)} | ${w.pwCpuSeconds.toFixed(0)} / ${(ref.pwCpuSeconds + (ref.relaxPwCpuSeconds ?? 0)).toFixed(0)} | ${w.wallSeconds.toFixed(0)} |`,
    );
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const command = commandLine('npm run bench:crystals --');
  const kept =
    process.argv.includes('--merge') && fs.existsSync(out)
      ? (JSON.parse(fs.readFileSync(out, 'utf8')) as { rows: (Row & { command?: string })[]; command?: string }).rows
          .filter((r) => !rows.some((x) => x.name === r.name))
          .map((r) => ({ ...r, command: r.command }))
      : [];
  const all = [...kept, ...rows.map((r) => ({ ...r, command, measuredAt: new Date().toISOString() }))].sort(
    (a, b) => CASES.findIndex((c) => c.name === a.name) - CASES.findIndex((c) => c.name === b.name),
  );
  fs.writeFileSync(
    out,
    `${JSON.stringify({ bench: 'crystals', date: new Date().toISOString(), command, host: os.hostname(), cpus: os.cpus().length, rows: all }, null, 2)}\n`,
  );
  console.log(`\nwritten: ${path.relative(process.cwd(), out)}`);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((e: Error) => {
  console.error(`bench:crystals: ${e.message}`);
  process.exit(1);
});
