/**
 * bench:moments — the magnetic moments of bcc Fe, hcp Co and fcc Ni through the magnetic-ordering
 * workflow (ferromagnet alone, primitive cell), offline, with local pw.x: the moment per atom
 * (total magnetization per cell over the atoms), pw.x's site moment, the absolute magnetization,
 * the cutoff and k-spacing the workflow's sweeps chose (by the template's criterion: the moment within
 * 0.02 μB/atom and the energy within 5 meV/atom), the pw.x CPU time of the study's runs, the wall time,
 * and the experimental and typical published values. Writes bench/results/moments.json and prints a table.
 *
 *   npm run bench:moments -- [--pseudo-dir DIR] [--materials Fe,Co,Ni] [--runs-dir DIR] [--out FILE] [--reuse] [--merge] [--reuse-from DIR]
 *
 * --reuse (with the --runs-dir of an earlier invocation) reads a material's finished run there (same
 * objective, a magnetization in its log) instead of running it again; its wall time is then the run's
 * own, from its log.
 *
 * pw.x CPU: the sum of the "PWSCF : … CPU" times of the study's distinct pw.x outputs (an output taken
 * over from an earlier run by --reuse-from counts with the CPU time it was computed in).
 *
 * --merge keeps the rows of the elements not run from the existing output file. --reuse-from names the
 * --runs-dir of an earlier invocation: each element's last run there is handed to `dreams run
 * --reuse-from`, which takes the pw.x results of identical inputs (same text, same file contents).
 *
 * Pseudopotentials from Debian's quantum-espresso-data (/usr/share/espresso/pseudo, or
 * $DREAMS_PSEUDO_DIR): Ni.pbe-nd-rrkjus (PBE). Fe and Co are pslibrary 1.0.0's
 * Fe.pbe-n-rrkjus_psl.1.0.0 and Co.pbe-n-rrkjus_psl.1.0.0, generated with ld1.x from scripts/pseudo
 * into <runs-dir>/pseudo, beside links to the directory's files, when the directory lacks them:
 * Debian has no PBE Co file, and its Fe.pbe-nd-rrkjus gives 2.44 μB at a = 2.87 Å (0.2 above the
 * pslibrary file and typical PBE) with a moment four times as sensitive to a (see
 * docs/notes/workflows-everyday.md). Crystals at the experimental lattice constants (Kittel, 8th ed.;
 * Co c/a 1.623).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConvergenceSelectionValue } from '../../src/core/artifacts/shapes';
import type { MagnetizationValue } from '../../src/core/artifacts/relaxation';
import type { ArtifactRecord } from '../../src/core/provenance/types';
import { availableInputs, generatePseudopotentials } from '../pseudo/generate';

const root = path.resolve(__dirname, '../..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const libraryDir = arg('pseudo-dir') ?? process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const runsDir = arg('runs-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-bench-moments-'));
const out = arg('out') ?? path.join(root, 'bench/results/moments.json');
const reuse = process.argv.includes('--reuse');
const reuseFrom = arg('reuse-from');

interface Material {
  element: string;
  bravais: 'bcc' | 'hcp' | 'fcc';
  a: number;
  cOverA?: number;
  functional: 'PBE' | 'PBEsol';
  pseudopotential: string;
  /**
   * Moment per atom, μB: experiment's saturation magnetization (spin and orbital together) and its
   * spin part (the orbital part, from g-factor measurements, removed; approximate), which is what
   * a collinear calculation without spin–orbit coupling gives; and typical PBE.
   */
  experiment: number;
  experimentSpin: number;
  published: { low: number; high: number; note: string };
  /**
   * The sweeps' energy tolerance, meV/atom, when not the template's (5, beside 0.02 μB/atom on the
   * moment). pslibrary 1.0.0's Fe and Co files (hard core charges, ecutrho 8× ecutwfc) leave the
   * energy moving 1–3 meV/atom per 10 Ry from 60 to 80 Ry while the moment stays within 0.01 μB from
   * 30 Ry: judged by energy alone at 1 meV/atom, the cutoff sweep ran past 90 Ry.
   */
  toleranceMevPerAtom?: number;
}

const MATERIALS: Material[] = [
  {
    element: 'Fe',
    bravais: 'bcc',
    a: 2.87,
    functional: 'PBE',
    pseudopotential: 'Fe.pbe-n-rrkjus_psl.1.0.0.UPF',
    experiment: 2.22,
    experimentSpin: 2.13,
    published: { low: 2.15, high: 2.35, note: 'PBE at the experimental a' },
  },
  {
    element: 'Co',
    bravais: 'hcp',
    a: 2.507,
    cOverA: 1.623,
    functional: 'PBE',
    pseudopotential: 'Co.pbe-n-rrkjus_psl.1.0.0.UPF',
    experiment: 1.72,
    experimentSpin: 1.57,
    published: { low: 1.55, high: 1.7, note: 'PBE at the experimental a' },
  },
  {
    element: 'Ni',
    bravais: 'fcc',
    a: 3.52,
    functional: 'PBE',
    pseudopotential: 'Ni.pbe-nd-rrkjus.UPF',
    experiment: 0.61,
    experimentSpin: 0.56,
    published: { low: 0.6, high: 0.68, note: 'PBE at the experimental a' },
  },
];

interface Row {
  element: string;
  functional: string;
  pseudopotential: string;
  ok: boolean;
  message: string;
  wallSeconds: number;
  momentPerAtom?: number;
  siteMoment?: number;
  absolutePerAtom?: number;
  ecutwfcRy?: number;
  kSpacingPerAngstrom?: number;
  kpointCount?: number;
  experiment: number;
  experimentSpin: number;
  published: Material['published'];
  runDir?: string;
  toleranceMevPerAtom?: number;
  /** The sweeps' criterion as the selections recorded it, e.g. "5 meV/atom and 0.02 μB/atom". */
  criterion?: string;
  /** pw.x CPU time of the study's distinct runs, s, and how many there were. */
  pwCpuSeconds?: number;
  pwRuns?: number;
  /** ld1.x's transferability tests of a file generated for this run, mRy. */
  generatedMaxTestErrorMRy?: number;
}

/**
 * The directory the run reads: the library when it holds the file, else <runs-dir>/pseudo with links
 * to the library's files and the file generated from scripts/pseudo (undefined when it has no input).
 */
function pseudoDirFor(m: Material): { dir: string; maxTestErrorMRy?: number } | undefined {
  if (fs.existsSync(path.join(libraryDir, m.pseudopotential))) return { dir: libraryDir };
  if (availableInputs()[m.element] !== m.pseudopotential) return undefined;
  const dir = path.join(runsDir, 'pseudo');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(libraryDir).filter((x) => /\.upf$/i.test(x))) {
    if (!fs.existsSync(path.join(dir, f))) fs.symlinkSync(path.join(libraryDir, f), path.join(dir, f));
  }
  const [g] = generatePseudopotentials(dir, [m.element]);
  return { dir, ...(g?.maxTestErrorMRy !== undefined ? { maxTestErrorMRy: g.maxTestErrorMRy } : {}) };
}

function run(m: Material): Row {
  const pseudo = pseudoDirFor(m);
  const base = {
    element: m.element,
    functional: m.functional,
    pseudopotential: m.pseudopotential,
    experiment: m.experiment,
    experimentSpin: m.experimentSpin,
    published: m.published,
    ...(pseudo?.maxTestErrorMRy !== undefined ? { generatedMaxTestErrorMRy: pseudo.maxTestErrorMRy } : {}),
    ...(m.toleranceMevPerAtom ? { toleranceMevPerAtom: m.toleranceMevPerAtom } : {}),
  };
  if (!pseudo)
    return {
      ...base,
      ok: false,
      message: `${m.pseudopotential} is not in ${libraryDir}, and scripts/pseudo has no ld1.x input for it`,
      wallSeconds: 0,
    };
  const pseudoDir = pseudo.dir;
  if (pseudoDir !== libraryDir) Object.assign(base, { pseudoDir });
  const dir = path.join(runsDir, m.element);
  fs.mkdirSync(dir, { recursive: true });
  const objective = path.join(dir, 'objective.yaml');
  const text = [
    'workflow: magnetic-ordering',
    `objective: ${m.functional} moment of ${m.bravais} ${m.element}`,
    'inputs:',
    `  element: ${m.element}`,
    `  bravais: ${m.bravais}`,
    `  latticeConstantAngstrom: ${m.a}`,
    ...(m.cOverA ? [`  cOverA: ${m.cOverA}`] : []),
    `  functional: ${m.functional}`,
    `  pseudopotentials: { ${m.element}: ${m.pseudopotential} }`,
    '  orders: [ferromagnetic]',
    '  dual: 8',
    '  cutoffsRy: [30, 40, 50, 60]',
    '  kSpacingsPerAngstrom: [0.3, 0.25, 0.2, 0.15]',
    ...(m.toleranceMevPerAtom ? [`  toleranceMevPerAtom: ${m.toleranceMevPerAtom}`] : []),
    '',
  ].join('\n');
  const finished = (): string | undefined => {
    if (!reuse || !fs.existsSync(path.join(dir, 'runs')) || !fs.existsSync(objective) || fs.readFileSync(objective, 'utf8') !== text)
      return undefined;
    const run = fs.readdirSync(path.join(dir, 'runs')).sort().at(-1);
    const log = run ? path.join(dir, 'runs', run, 'events.jsonl') : undefined;
    return log && fs.existsSync(log) && /"name":"magnetization"/.test(fs.readFileSync(log, 'utf8'))
      ? path.join(dir, 'runs', run!)
      : undefined;
  };
  let runDir = finished();
  let wallSeconds: number;
  if (runDir) {
    const ts = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => Date.parse((JSON.parse(l) as { ts: string }).ts));
    wallSeconds = (ts.at(-1)! - ts[0]!) / 1000;
    process.stdout.write(`(read from ${runDir}) `);
  } else {
    fs.writeFileSync(objective, text);
    const t0 = Date.now();
    const earlier =
      reuseFrom && fs.existsSync(path.join(reuseFrom, m.element, 'runs'))
        ? fs
            .readdirSync(path.join(reuseFrom, m.element, 'runs'))
            .sort()
            .at(-1)
        : undefined;
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, 'dist/cli.js'),
        'run',
        objective,
        '--offline',
        '--runs-dir',
        path.join(dir, 'runs'),
        '--pseudo-dir',
        pseudoDir,
        ...(earlier ? ['--reuse-from', path.join(reuseFrom!, m.element, 'runs', earlier)] : []),
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' }, maxBuffer: 64 * 1024 * 1024 },
    );
    wallSeconds = (Date.now() - t0) / 1000;
    runDir = fs.existsSync(path.join(dir, 'runs'))
      ? path.join(dir, 'runs', fs.readdirSync(path.join(dir, 'runs')).sort().at(-1) ?? '')
      : undefined;
    if (r.status !== 0 || !runDir)
      return {
        ...base,
        ok: false,
        message: `dreams run exited ${r.status}: ${(r.stdout + r.stderr).trim().split('\n').slice(-3).join(' ')}`,
        wallSeconds,
      };
  }
  const artifacts = fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; payload: unknown })
    .filter((e) => e.kind === 'provenance.artifact')
    .map((e) => e.payload as ArtifactRecord);
  const last = (name: string) => artifacts.filter((a) => a.name === name && a.status === 'final').at(-1);
  const mag = last('magnetization')?.value as MagnetizationValue | undefined;
  // every distinct pw.x output of the study (an output reused within the run is the same file), with its CPU time
  const outputs = new Map(
    artifacts.filter((a) => a.name === 'pw_output' && a.location).map((a) => [a.contentHash ?? a.location!, a.location!]),
  );
  const cpu = [...outputs.values()].map((loc) => {
    const f = path.join(runDir!, loc);
    const m = fs.existsSync(f) ? /PWSCF\s*:\s*(?:(\d+)h\s*)?(?:(\d+)m\s*)?([\d.]+)s CPU/.exec(fs.readFileSync(f, 'utf8')) : null;
    return m ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3]) : NaN;
  });
  const judged = artifacts
    .filter((a) => a.name === 'converged_settings' && a.status === 'final')
    .map((a) => (a.value as ConvergenceSelectionValue).criterion)
    .find(Boolean);
  const selections = artifacts
    .filter((a) => a.name === 'converged_settings' && a.status === 'final')
    .map((a) => a.value as ConvergenceSelectionValue);
  if (!mag) return { ...base, ok: false, message: 'no magnetization in the run', wallSeconds, runDir };
  return {
    ...base,
    ok: true,
    message: 'ok',
    wallSeconds,
    runDir,
    momentPerAtom: mag.totalBohrMagnetonPerAtom,
    absolutePerAtom: mag.absoluteBohrMagnetonPerCell / mag.natoms,
    pwRuns: cpu.length,
    ...(cpu.every(Number.isFinite) ? { pwCpuSeconds: Number(cpu.reduce((x, y) => x + y, 0).toFixed(1)) } : {}),
    ...(judged
      ? {
          criterion: [
            judged.toleranceMevPerAtom !== undefined ? `${judged.toleranceMevPerAtom} meV/atom` : '',
            judged.toleranceMomentMuBPerAtom !== undefined ? `${judged.toleranceMomentMuBPerAtom} μB/atom` : '',
          ]
            .filter(Boolean)
            .join(' and '),
        }
      : {}),
    ...(mag.sites[0] ? { siteMoment: mag.sites[0].momentBohrMagneton } : {}),
    ...(mag.kpointCount !== undefined ? { kpointCount: mag.kpointCount } : {}),
    ...(selections.find((s) => s.parameter === 'ecutwfc')
      ? { ecutwfcRy: selections.find((s) => s.parameter === 'ecutwfc')!.chosenValue }
      : {}),
    ...(selections.find((s) => s.parameter === 'kspacing')
      ? { kSpacingPerAngstrom: selections.find((s) => s.parameter === 'kspacing')!.chosenValue }
      : {}),
  };
}

function main(): void {
  const wanted = (arg('materials') ?? MATERIALS.map((m) => m.element).join(',')).split(',');
  if (!fs.existsSync(path.join(root, 'dist/cli.js')) || process.argv.includes('--build')) {
    const b = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  }
  const rows: Row[] = [];
  for (const m of MATERIALS.filter((x) => wanted.includes(x.element))) {
    process.stdout.write(`${m.element} (${m.functional}, ${m.pseudopotential}) … `);
    const row = run(m);
    rows.push(row);
    console.log(row.ok ? `${row.momentPerAtom!.toFixed(3)} μB/atom in ${row.wallSeconds.toFixed(0)} s` : `failed: ${row.message}`);
  }
  if (process.argv.includes('--merge') && fs.existsSync(out)) {
    // the rows of elements not run this time stay, in the bench's order, with the date and directory they were measured with
    const old = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      date?: string;
      pseudoDir?: string;
      rows?: (Row & { measuredWith?: unknown })[];
    };
    const kept = (old.rows ?? [])
      .filter((r) => !rows.some((x) => x.element === r.element))
      .map((r) => ({ ...r, measuredWith: r.measuredWith ?? { date: old.date, pseudoDir: old.pseudoDir } }));
    const order = MATERIALS.map((x) => x.element);
    rows.splice(0, rows.length, ...[...kept, ...rows].sort((p, q) => order.indexOf(p.element) - order.indexOf(q.element)));
  }
  const f = (x: number | undefined, d = 3) => (x === undefined ? '—' : x.toFixed(d));
  console.log(
    '\n| element | functional | μ per atom (μB) | site (μB) | |μ| per atom (μB) | experiment (total / spin) | typical DFT | criterion | ecutwfc (Ry) | k (1/Å) | k-points | pw.x runs | pw.x CPU (s) | wall (s) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.element} | ${r.functional} | ${f(r.momentPerAtom)} | ${f(r.siteMoment)} | ${f(r.absolutePerAtom)} | ${r.experiment} / ${r.experimentSpin ?? '—'} | ${r.published.low}–${r.published.high} | ${r.criterion ?? '—'} | ${r.ecutwfcRy ?? '—'} | ${r.kSpacingPerAngstrom ?? '—'} | ${r.kpointCount ?? '—'} | ${r.pwRuns ?? '—'} | ${r.pwCpuSeconds?.toFixed(0) ?? '—'} | ${r.wallSeconds.toFixed(0)} |`,
    );
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify({ bench: 'moments', date: new Date().toISOString(), pseudoDir: libraryDir, host: os.hostname(), cpus: os.cpus().length, rows }, null, 2)}\n`,
  );
  console.log(`\nwritten: ${path.relative(process.cwd(), out)}`);
}

main();
