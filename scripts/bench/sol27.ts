/**
 * bench:sol27 — the Sol27LC lattice constants through the lattice-constant workflow,
 * offline, with local pw.x: per element the pseudopotential, the chosen ecutwfc and
 * k-spacing, the lattice constant, its error against experiment and against a tight
 * reference with the same pseudopotential, the pw.x runs and their CPU time, and the
 * orchestration overhead (run wall time with no pw.x running). Writes bench/results/sol27.json
 * and, beside it, the same results as a Markdown table in the Sol27LC order (sol27.md).
 *
 *   npm run bench:sol27 -- [--pseudo-dir DIR] [--elements Al,Cu,Si] [--jobs 2] [--no-reference]
 *                          [--ref-kspacing 0.1] [--ref-k-factor 0.7] [--ref-extra-cutoff 30] [--runs-dir DIR] [--out FILE] [--merge] [--resume]
 *   npm run bench:sol27 -- --elements Ir --reference-only --merge  (only the tight reference of an element whose
 *                          workflow an earlier --no-reference --merge measured: an element too long for one sitting)
 *   npm run bench:sol27 -- --table-only [--out FILE]    (rewrite sol27.md from the JSON; runs nothing)
 *   npm run bench:sol27 -- --table-only --forget Mo,Pb  (drop rows spoiled by the machine, e.g. a full disk)
 *   npm run bench:sol27 -- --table-only --merge-from /tmp/other.json  (take the finished elements a bench
 *                          run with --out /tmp/other.json measured, replacing their rows)
 *
 * --merge keeps the elements already in the output file that this run does not repeat (each
 * keeps the command that measured it), so elements can be measured a few at a time.
 *
 * --resume (with --runs-dir) takes an element's latest run there of the same objective and
 * pseudopotential directory: a finished one is read, an unfinished one continued (as `dreams
 * resume` would); only what is missing runs. Its wall time counts only while a DREAMS process
 * drove it (measure.ts: activeIntervals).
 *
 * A tight reference already in the output file for the same element, pseudopotential and
 * reference settings (cutoffs, k-spacing; EOS and smearing are fixed here) is taken from it
 * rather than computed again, and says so (reference.reusedFrom); --fresh-references computes
 * every reference anew. A reference runs in --runs-dir (reference-<element>-<cutoff>Ry-k<spacing>/);
 * stopped part-way and run again with the same --runs-dir, it reads the EOS points that finished
 * (identical pw.in, a pw.out with JOB DONE) and runs only the rest (reference.resumedRuns).
 *
 * The reference uses k-spacing min(ref-kspacing, ref-k-factor × chosen) and ecutwfc
 * max(chosen + ref-extra-cutoff, highest tested) with the workflow's dual. A reference measured
 * earlier (the output file, or --baseline) at least as tight — the same file and dual, a cutoff at
 * least that high and a k spacing at least that fine — is taken instead: the same yardstick for a
 * workflow that now chooses coarser settings.
 *
 * --baseline FILE (default bench/results/sol27-baseline.json, the 27 elements measured with the
 * energy criterion of 1 meV/atom and the earlier sweeps) is set beside the results in sol27.md,
 * element by element: CPU, runs, chosen settings and error then and now.
 *
 * --criterion energy|pressure|both (default: the workflow's own, pressure) and --tolerance-mev /
 * --tolerance-percent pass the criterion to the objective, to measure the others.
 *
 * The pseudopotential directory defaults to ../shared/data/pseudo when present (scalar-
 * relativistic PBE ultrasoft files for all 27 elements), else $DREAMS_PSEUDO_DIR or
 * Debian's /usr/share/espresso/pseudo. Elements without a PBE file there are skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunController } from '../../src/core/run/controller';
import { openRun } from '../../src/core/run/directory';
import type { RunSettings } from '../../src/core/run/session';
import { finestTested, type ConvergenceSelectionValue, type EosFitValue } from '../../src/core/artifacts/shapes';
import { latticeShiftFromPressure } from '../../src/core/dft/convergence';
import { findPseudopotential } from '../../src/core/workflows/environment';
import { DEFAULT_K_SPACINGS } from '../../src/core/workflows/latticeConstantInputs';
import { readSol27, pbePseudopotential, type Sol27Element } from './sol27/elements';
import { runCost, type RunCost } from './sol27/measure';
import { tightReference, type ReferenceResult } from './sol27/reference';
import { commandLine } from '../commandLine';

const ROOT = path.resolve(__dirname, '../..');
const SHARED_PSEUDO = path.resolve(ROOT, '../shared/data/pseudo');

const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const pseudoDir =
  option('pseudo-dir') ??
  [SHARED_PSEUDO, process.env.DREAMS_PSEUDO_DIR, '/usr/share/espresso/pseudo'].find((d): d is string => !!d && fs.existsSync(d))!;
const jobs = Number(option('jobs') ?? 2);
const withReference = !flag('no-reference');
const refKSpacing = Number(option('ref-kspacing') ?? 0.1);
const refKFactor = Number(option('ref-k-factor') ?? 0.7);
const refExtraCutoff = Number(option('ref-extra-cutoff') ?? 30);
const runsDir = option('runs-dir') ?? (flag('table-only') ? '' : fs.mkdtempSync(path.join(os.tmpdir(), 'sol27-runs-')));
const outFile = option('out') ?? path.join(ROOT, 'bench/results/sol27.json');
const freshReferences = flag('fresh-references');
const baselineFile = option('baseline') ?? path.join(ROOT, 'bench/results/sol27-baseline.json');
const criterionOption = option('criterion');
const toleranceMev = option('tolerance-mev');
const tolerancePercent = option('tolerance-percent');
const referenceOnlyMode = flag('reference-only');

/** References measured earlier (the output file as it was when the bench started), by element. */
const earlierReferences = new Map<string, { pseudopotential: string; reference: ReferenceResult; date?: string; command?: string }>();

/**
 * A fixed protocol in the manner of DREAMS: every cutoff among the values the DREAMS agent
 * chose from (30–70 Ry by 10), every k-mesh among its choices (6–18 points per direction by
 * 2), then a 5-point EOS. The count the adaptive sweep is compared with.
 */
const FIXED_SWEEP = { cutoffsRy: [30, 40, 50, 60, 70], kPerDirection: [6, 8, 10, 12, 14, 16, 18], eosPoints: 5 };
const FIXED_SWEEP_RUNS = FIXED_SWEEP.cutoffsRy.length + FIXED_SWEEP.kPerDirection.length + FIXED_SWEEP.eosPoints;

interface ElementResult {
  element: string;
  /** The bench command that measured this element. */
  command?: string;
  structure: string;
  pseudopotential: string;
  state: string;
  reason?: string;
  ecutwfcRy?: number;
  ecutrhoRy?: number;
  kSpacingPerAngstrom?: number;
  aAngstrom?: number;
  aExpAngstrom: number;
  errorVsExpPercent?: number;
  aDreamsAngstrom: number;
  aExpertAngstrom: number;
  reference?: ReferenceResult;
  errorVsReferencePercent?: number;
  /**
   * The report's pressure check: the shift of a each convergence choice implies, |ΔP|/(3·B0)
   * against the finest value of its sweep, and their sum, to set against the measured error
   * against the tight reference.
   */
  pressureEstimate?: { cutoffPercent?: number; kPercent?: number; sumPercent: number };
  workflow?: RunCost;
  runDir: string;
  /** When the workflow finished. */
  measuredAt?: string;
  /** The values the sweeps tested (extensions included). */
  tested?: { ecutwfcRy: number[]; kSpacingPerAngstrom: number[] };
  /** What the sweeps were judged by, and the bulk modulus the probe gave (pressure, both). */
  criterion?: ConvergenceSelectionValue['criterion'];
  probeBulkModulusGPa?: number;
  /**
   * The energy criterion (1 meV/atom) replayed on the same recorded sweeps: the value it would choose, or
   * "finer" where it would have had to extend them. How the criteria compare on one element's numbers.
   */
  energyReplay?: { ecutwfcRy: number | 'finer'; kSpacingPerAngstrom: number | 'finer' };
}

function settingsFor(e: Sol27Element, file: string): RunSettings {
  return {
    objective: {
      text: `Lattice constant of ${e.structure} ${e.element} with PBE (${file})`,
      workflow: 'lattice-constant',
      inputs: {
        element: e.element,
        structure: e.structure,
        latticeConstantAngstrom: e.aExpAngstrom,
        functional: 'PBE',
        pseudopotential: file,
        ...(criterionOption ? { criterion: criterionOption } : {}),
        ...(toleranceMev ? { toleranceMevPerAtom: Number(toleranceMev) } : {}),
        ...(tolerancePercent ? { toleranceLatticePercent: Number(tolerancePercent) } : {}),
      },
    },
    offline: true,
    backend: 'local',
    approval: 'auto-approve',
    pseudoDir,
    pwCommand: 'pw.x',
    localConcurrency: jobs,
    models: {},
    judges: false,
    budget: {},
    qeVersion: '6.7',
    limits: { maxParallelJobs: Math.max(1, jobs) },
  };
}

/**
 * --resume: the latest run in --runs-dir of the same objective with the same pseudopotential
 * directory (the objective names the element, structure and file), if any.
 */
function earlierRunOf(e: Sol27Element, file: string): string | undefined {
  if (!fs.existsSync(runsDir)) return undefined;
  const want = JSON.stringify(settingsFor(e, file).objective);
  return fs
    .readdirSync(runsDir)
    .sort()
    .reverse()
    .map((d) => path.join(runsDir, d))
    .find((dir) => {
      const log = path.join(dir, 'events.jsonl');
      if (!fs.existsSync(log)) return false;
      const first = fs.readFileSync(log, 'utf8').split('\n', 1)[0]!;
      try {
        const start = JSON.parse(first) as { kind?: string; payload?: { settings?: { objective?: unknown; pseudoDir?: string } } };
        return (
          start.kind === 'run.start' &&
          JSON.stringify(start.payload?.settings?.objective) === want &&
          // however the directory was spelled (relative or absolute) when each run started
          path.resolve(start.payload?.settings?.pseudoDir ?? '') === path.resolve(pseudoDir)
        );
      } catch {
        return false;
      }
    });
}

/** The element's workflow run: a new one, or with --resume the earlier one read (finished) or continued (not finished). */
async function workflowRun(e: Sol27Element, file: string) {
  const earlier = flag('resume') ? earlierRunOf(e, file) : undefined;
  if (earlier) {
    const run = await openRun(earlier, { mode: 'reader' });
    const state = run.log
      .events()
      .filter((x) => x.kind === 'run.state')
      .at(-1)?.payload as { state?: string; reason?: string } | undefined;
    if (state?.state === 'completed') {
      console.log(`${e.element}: --resume: the workflow run ${earlier} finished; its results are read, not run again`);
      return {
        state: 'completed' as const,
        reason: undefined,
        runDir: earlier,
        events: run.log.events(),
        artifacts: run.registry.artifacts(),
        close: () => run.close(),
      };
    }
    await run.close();
    console.log(`${e.element}: --resume: continuing the workflow run ${earlier} (${state?.state ?? 'no state'})`);
  }
  const controller = earlier ? await RunController.resume(earlier) : await RunController.start({ runsDir, settings: settingsFor(e, file) });
  const result = await controller.run();
  const rt = controller.session.runtime;
  return {
    state: result.state,
    reason: result.reason,
    runDir: controller.runDir,
    events: rt.log.events(),
    artifacts: rt.provenance.artifacts(),
    close: () => controller.close(),
  };
}

async function runElement(e: Sol27Element, file: string): Promise<ElementResult> {
  const wf = await workflowRun(e, file);
  const result = { state: wf.state, reason: wf.reason };
  const events = wf.events;
  const finals = wf.artifacts.filter((a) => a.status === 'final');
  const selection = (p: string) =>
    finals.filter((a) => a.name === 'converged_settings' && (a.value as ConvergenceSelectionValue).parameter === p).at(-1)?.value as
      | ConvergenceSelectionValue
      | undefined;
  const a = finals.filter((x) => x.name === 'lattice_constant').at(-1)?.value as number | undefined;
  const cut = selection('ecutwfc');
  const k = selection('kspacing');
  const b0 = (finals.filter((x) => x.name === 'eos_fit').at(-1)?.value as EosFitValue | undefined)?.b0GPa;
  const shift = (s: ConvergenceSelectionValue | undefined) =>
    s && b0 ? latticeShiftFromPressure(s.tested, s.chosenValue, finestTested(s), b0)?.shiftPercent : undefined;
  const [cutShift, kShift] = [shift(cut), shift(k)];
  const out: ElementResult = {
    element: e.element,
    structure: e.structure,
    pseudopotential: file,
    state: result.state,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(cut ? { ecutwfcRy: cut.chosen.ecutwfcRy, ecutrhoRy: cut.chosen.ecutrhoRy } : {}),
    ...(k ? { kSpacingPerAngstrom: k.chosen.kSpacingPerAngstrom } : {}),
    ...(a !== undefined ? { aAngstrom: a, errorVsExpPercent: (100 * (a - e.aExpAngstrom)) / e.aExpAngstrom } : {}),
    aExpAngstrom: e.aExpAngstrom,
    aDreamsAngstrom: e.aDreamsAngstrom,
    aExpertAngstrom: e.aExpertAngstrom,
    ...(cutShift !== undefined || kShift !== undefined
      ? {
          pressureEstimate: {
            ...(cutShift !== undefined ? { cutoffPercent: cutShift } : {}),
            ...(kShift !== undefined ? { kPercent: kShift } : {}),
            sumPercent: (cutShift ?? 0) + (kShift ?? 0),
          },
        }
      : {}),
    ...(cut && k ? { tested: { ecutwfcRy: cut.tested.map((t) => t.value), kSpacingPerAngstrom: k.tested.map((t) => t.value) } } : {}),
    ...(cut?.criterion ? { criterion: cut.criterion } : {}),
    ...(cut?.bulkModulus ? { probeBulkModulusGPa: cut.bulkModulus.valueGPa } : {}),
    ...(cut && k ? { energyReplay: { ecutwfcRy: energyReplay(cut), kSpacingPerAngstrom: energyReplay(k) } } : {}),
    workflow: runCost(wf.runDir, events),
    runDir: wf.runDir,
    measuredAt: events.at(-1)?.ts ?? new Date().toISOString(),
  };
  await wf.close();
  if (withReference && a !== undefined && cut?.chosen.ecutwfcRy && cut.chosen.ecutrhoRy && k?.chosen.kSpacingPerAngstrom) {
    out.reference = await referenceFor(
      e,
      file,
      { ecutwfcRy: cut.chosen.ecutwfcRy, ecutrhoRy: cut.chosen.ecutrhoRy, kSpacingPerAngstrom: k.chosen.kSpacingPerAngstrom },
      Math.max(...cut.tested.map((t) => t.value)),
    );
    out.errorVsReferencePercent = (100 * (a - out.reference.aAngstrom)) / out.reference.aAngstrom;
  }
  return out;
}

/**
 * The energy criterion (1 meV/atom against the finest) on a sweep's recorded energies: the cheapest value
 * from which every finer one is within it, or 'finer' when only the finest is (the sweep would be extended).
 */
function energyReplay(sel: ConvergenceSelectionValue, toleranceMev = 1): number | 'finer' {
  const rows = [...sel.tested].sort((a, b) => (sel.parameter === 'ecutwfc' ? a.value - b.value : b.value - a.value));
  let first = rows.length - 1;
  while (first > 0 && rows[first - 1]!.deltaMevPerAtom < toleranceMev) first--;
  return first === rows.length - 1 ? 'finer' : rows[first]!.value;
}

/**
 * The tight reference for the chosen settings: k-spacing min(ref-kspacing, ref-k-factor × chosen),
 * ecutwfc max(chosen + ref-extra-cutoff, highest tested) at the chosen dual; taken from the output
 * file when an earlier measurement used the same settings.
 */
async function referenceFor(
  e: Sol27Element,
  file: string,
  chosen: { ecutwfcRy: number; ecutrhoRy: number; kSpacingPerAngstrom: number },
  highestTestedRy: number,
): Promise<ReferenceResult> {
  const ecut = Math.max(chosen.ecutwfcRy + refExtraCutoff, highestTestedRy);
  const dual = chosen.ecutrhoRy / chosen.ecutwfcRy;
  const spec = {
    element: e.element,
    structure: e.structure,
    aStartAngstrom: e.aExpAngstrom,
    pseudoDir,
    pseudopotential: file,
    ecutwfcRy: ecut,
    ecutrhoRy: Math.round(dual * ecut),
    kSpacingPerAngstrom: Number(Math.min(refKSpacing, refKFactor * chosen.kSpacingPerAngstrom).toFixed(4)),
    degaussRy: 0.02,
    eosPoints: 5,
    eosRangePercent: 5,
    jobs,
  };
  // in the runs directory, so that a reference stopped part-way goes on from its finished points when run again with the same --runs-dir
  const workDir = path.join(runsDir, `reference-${e.element}-${spec.ecutwfcRy}Ry-k${spec.kSpacingPerAngstrom}`);
  const earlier = earlierReferences.get(e.element);
  const r = earlier?.reference;
  // the same file and dual, at least this cutoff and at least this k density: at least as tight a yardstick
  const same =
    !freshReferences &&
    r &&
    earlier.pseudopotential === file &&
    Math.abs(r.ecutrhoRy / r.ecutwfcRy - spec.ecutrhoRy / spec.ecutwfcRy) < 1e-6 &&
    r.ecutwfcRy >= spec.ecutwfcRy &&
    r.kSpacingPerAngstrom <= spec.kSpacingPerAngstrom + 1e-9;
  if (same) {
    console.log(
      `${e.element}: tight reference (${r.ecutwfcRy} Ry, ${r.kSpacingPerAngstrom} 1/Å) taken from the earlier measurement, at least as tight as ${spec.ecutwfcRy} Ry, ${spec.kSpacingPerAngstrom} 1/Å`,
    );
    return {
      ...earlier.reference,
      reusedFrom: earlier.reference.reusedFrom ?? {
        ...(earlier.date ? { date: earlier.date } : {}),
        ...(earlier.command ? { command: earlier.command } : {}),
      },
    };
  }
  console.log(`${e.element}: tight reference at ${spec.ecutwfcRy} Ry, ${spec.kSpacingPerAngstrom} 1/Å (5 pw.x runs) in ${workDir}`);
  return tightReference({ ...spec, workDir });
}

/**
 * --reference-only: the tight reference of an element whose workflow an earlier invocation
 * measured with --no-reference (its row in the output file), so that an element too long for one
 * sitting (Ir: the workflow and its reference each take hours of both cores here) is measured in
 * two. The row keeps its workflow figures and command; the reference records its own.
 */
async function referenceOnly(e: Sol27Element, row: ElementResult | undefined): Promise<ElementResult> {
  if (!row)
    throw new Error(
      `--reference-only: ${outFile} has no row for ${e.element}; measure its workflow first (npm run bench:sol27 -- --elements ${e.element} --no-reference --merge).`,
    );
  const { aAngstrom: a, ecutwfcRy, ecutrhoRy, kSpacingPerAngstrom, tested } = row;
  if (a === undefined || !ecutwfcRy || !ecutrhoRy || !kSpacingPerAngstrom || !tested) {
    throw new Error(
      `--reference-only: the ${e.element} row of ${outFile} has no finished workflow (state ${row.state}${row.reason ? `: ${row.reason}` : ''}); run its workflow again first.`,
    );
  }
  const reference = await referenceFor(
    e,
    row.pseudopotential,
    { ecutwfcRy, ecutrhoRy, kSpacingPerAngstrom },
    Math.max(...tested.ecutwfcRy),
  );
  return {
    ...row,
    reference: reference.reusedFrom
      ? reference
      : { ...reference, measuredAt: new Date().toISOString(), command: commandLine('npm run bench:sol27 --') },
    errorVsReferencePercent: (100 * (a - reference.aAngstrom)) / reference.aAngstrom,
  };
}

const f = (x: number | undefined, d: number) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** The results as a Markdown table, in the Sol27LC order; reused identical runs and reused references are marked. */
function table(rows: ElementResult[]): string {
  const order = readSol27().map((e) => e.element);
  const sorted = [...rows].sort((a, b) => order.indexOf(a.element) - order.indexOf(b.element));
  const signed = (x: number | undefined, d: number) =>
    x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`;
  const head =
    '| Element | Structure | Pseudopotential | ecutwfc (Ry) | k-spacing (1/Å) | a (Å) | a exp (Å) | err vs exp (%) | a ref (Å) | err vs ref (%) | pw.x runs (reused) | CPU (s) | overhead (%) |';
  const lines = sorted.map(
    (r) =>
      `| ${r.element} | ${r.structure} | ${r.pseudopotential} | ${f(r.ecutwfcRy, 0)} | ${f(r.kSpacingPerAngstrom, 3)} | ${f(r.aAngstrom, 4)} | ${r.aExpAngstrom} | ${signed(r.errorVsExpPercent, 2)} | ` +
      `${f(r.reference?.aAngstrom, 4)}${r.reference?.reusedFrom ? '¹' : ''} | ${signed(r.errorVsReferencePercent, 3)} | ${r.workflow?.pwRuns ?? '—'} (${r.workflow?.reusedRuns ?? 0}) | ${f(r.workflow?.pwCpuSeconds, 0)} | ${f(r.workflow ? 100 * r.workflow.overheadFraction : undefined, 2)} |`,
  );
  return [head, `|${'---|'.repeat(13)}`, ...lines].join('\n');
}

/** The baseline's rows (the same elements measured before), by element; empty when there is none. */
function baselineRows(): Map<string, ElementResult> {
  if (!fs.existsSync(baselineFile) || path.resolve(baselineFile) === path.resolve(outFile)) return new Map();
  const base = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as { elements?: ElementResult[] };
  return new Map((base.elements ?? []).map((r) => [r.element, r]));
}

/** Element by element, the baseline beside this measurement: CPU, runs, chosen settings, error against the reference. */
function comparison(rows: ElementResult[]): string[] {
  const before = baselineRows();
  if (!before.size) return [];
  const order = readSol27().map((e) => e.element);
  const sorted = [...rows].filter((r) => before.has(r.element)).sort((a, b) => order.indexOf(a.element) - order.indexOf(b.element));
  if (!sorted.length) return [];
  const signed = (x: number | undefined, d: number) =>
    x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`;
  const replay = (r: ElementResult) => (r.energyReplay ? `${r.energyReplay.ecutwfcRy} / ${r.energyReplay.kSpacingPerAngstrom}` : '—');
  const lines = sorted.map((r) => {
    const b = before.get(r.element)!;
    return (
      `| ${r.element} | ${f(b.workflow?.pwCpuSeconds, 0)} | ${f(r.workflow?.pwCpuSeconds, 0)} | ${b.workflow?.pwRuns ?? '—'} | ${r.workflow?.pwRuns ?? '—'} | ` +
      `${f(b.ecutwfcRy, 0)} / ${f(b.kSpacingPerAngstrom, 3)} | ${f(r.ecutwfcRy, 0)} / ${f(r.kSpacingPerAngstrom, 3)} | ${signed(b.errorVsReferencePercent, 3)} | ${signed(r.errorVsReferencePercent, 3)} | ${f(r.probeBulkModulusGPa, 0)} | ${replay(r)} |`
    );
  });
  const sum = (xs: (number | undefined)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
  const cpuBefore = sum(sorted.map((r) => before.get(r.element)!.workflow?.pwCpuSeconds));
  const cpuNow = sum(sorted.map((r) => r.workflow?.pwCpuSeconds));
  const errs = (xs: ElementResult[]) => xs.map((r) => Math.abs(r.errorVsReferencePercent ?? NaN)).filter(Number.isFinite);
  const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
  const nowErr = errs(sorted);
  const beforeErr = errs(sorted.map((r) => before.get(r.element)!));
  return [
    `## Before and after (${sorted.length} elements)`,
    '',
    `Before: \`${path.relative(ROOT, baselineFile)}\`, the energy criterion (1 meV/atom against the finest run), the cutoff swept at the finest k, ` +
      'extensions three values at a time. After: this measurement. Settings are ecutwfc (Ry) / k-spacing (1/Å); errors against the same tight reference ' +
      '(or one at least as tight). B is the probe\'s bulk modulus the pressure tolerance was converted with; "energy would choose" replays 1 meV/atom on ' +
      'this measurement\'s own sweeps ("finer": it would have extended them).',
    '',
    '| Element | CPU before (s) | CPU now (s) | runs before | runs now | settings before | settings now | err before (%) | err now (%) | B probe (GPa) | energy would choose |',
    `|${'---|'.repeat(11)}`,
    ...lines,
    '',
    `pw.x CPU: ${cpuBefore.toFixed(0)} s before, ${cpuNow.toFixed(0)} s now (${((100 * cpuNow) / cpuBefore).toFixed(0)} %; target ≤ 15,000 s for all 27). ` +
      `Mean |error| vs reference ${meanOf(beforeErr).toFixed(3)} % before, ${meanOf(nowErr).toFixed(3)} % now; largest ${Math.max(...beforeErr).toFixed(3)} % before, ` +
      `${Math.max(...nowErr).toFixed(3)} % now (target: every element ≤ 0.2 %).`,
    '',
  ];
}

/** sol27.md: the table, the summary line and how each element was measured. */
function markdown(rows: ElementResult[], summary: ReturnType<typeof write> | undefined, date: string): string {
  const s = summary;
  const pct = (x: number | undefined, d: number) => (x === undefined || !Number.isFinite(x) ? '—' : `${x.toFixed(d)} %`);
  const commands = [...new Set(rows.map((r) => r.command).filter((c): c is string => !!c))];
  return [
    '# bench:sol27 — Sol27LC lattice constants through the lattice-constant workflow',
    '',
    `Written ${date} from \`${path.basename(outFile)}\` (each element keeps the time it was measured: \`measuredAt\`). ` +
      `Pseudopotentials: ${pseudoDir}. Errors against experiment are PBE's and these files'; errors against the reference compare ` +
      'with a tight run of the same pseudopotential (cutoff and k far beyond the chosen ones).',
    '',
    table(rows),
    '',
    '¹ tight reference taken from an earlier measurement with the same or tighter settings (`reference.reusedFrom` in the JSON). ' +
      '"reused" counts energies taken from an identical earlier pw.x input in the same run (no pw.x started); they are not in the run count.',
    '',
    ...(s
      ? [
          `${s.completed} of 27 elements; mean |error| vs reference ${pct(s.meanAbsErrorVsReferencePercent, 3)} (target ≤ ${s.targetMeanAbsErrorVsReferencePercent} %), ` +
            `vs experiment ${pct(s.meanAbsErrorVsExperimentPercent, 2)}; ${Number.isFinite(s.pwRunsPerElementMean) ? s.pwRunsPerElementMean.toFixed(1) : '—'} pw.x runs per element ` +
            `(${s.pwRunsTotal} in all, ${s.reusedRunsTotal} energies reused) vs ${s.fixedSweepRunsPerElement} for a DREAMS-style fixed sweep; ` +
            `orchestration overhead ${pct(100 * s.overheadFraction, 2)} of wall time.`,
          '',
        ]
      : []),
    ...comparison(rows),
    'Commands:',
    '',
    ...commands.map((c) => `- \`${c}\``),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (flag('table-only')) return tableOnly();
  const all = readSol27();
  const wanted = option('elements')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted?.filter((w) => !all.some((e) => e.element === w)) ?? [];
  if (unknown.length)
    throw new Error(
      `--elements: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in Sol27LC (${all.map((e) => e.element).join(', ')}).`,
    );
  const chosen = all.filter((e) => !wanted || wanted.includes(e.element));
  console.log(`bench:sol27 — ${chosen.length} element(s), pseudopotentials from ${pseudoDir}, ${jobs} pw.x at a time, runs in ${runsDir}`);
  const rows: ElementResult[] = [];
  const earlierRows: ElementResult[] = [];
  if (referenceOnlyMode && !flag('merge'))
    throw new Error('--reference-only completes rows of the output file: give --merge too, so the other elements are kept.');
  // references of the baseline first, then of the output file (which wins where both have one)
  if (fs.existsSync(baselineFile) && path.resolve(baselineFile) !== path.resolve(outFile)) {
    const base = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as { date?: string; command?: string; elements?: ElementResult[] };
    for (const r of base.elements ?? []) {
      const date = r.measuredAt ?? base.date;
      const command = r.command ?? base.command;
      if (r.reference)
        earlierReferences.set(r.element, {
          pseudopotential: r.pseudopotential,
          reference: r.reference,
          ...(date ? { date } : {}),
          ...(command ? { command } : {}),
        });
    }
  }
  if (fs.existsSync(outFile)) {
    const before = JSON.parse(fs.readFileSync(outFile, 'utf8')) as { date?: string; command?: string; elements?: ElementResult[] };
    for (const r of before.elements ?? []) {
      earlierRows.push({ command: before.command, ...r });
      // a reference that was itself reused keeps pointing at its measurement (reusedFrom is carried over where it is used)
      const date = r.measuredAt ?? before.date;
      if (r.reference)
        earlierReferences.set(r.element, {
          pseudopotential: r.pseudopotential,
          reference: r.reference,
          ...(date ? { date } : {}),
          ...(r.command ? { command: r.command } : {}),
        });
    }
  }
  if (flag('merge') && fs.existsSync(outFile)) {
    const before = JSON.parse(fs.readFileSync(outFile, 'utf8')) as { command?: string; elements?: ElementResult[] };
    for (const r of before.elements ?? []) {
      if (!chosen.some((e) => e.element === r.element)) rows.push({ command: before.command, ...r });
    }
    console.log(`--merge: keeping ${rows.map((r) => r.element).join(', ') || 'no element'} from ${outFile}`);
  }
  const kept = rows.length;
  const skipped: { element: string; reason: string }[] = [];
  const t0 = Date.now();
  for (const e of chosen) {
    if (referenceOnlyMode) {
      const t = Date.now();
      const r = await referenceOnly(
        e,
        earlierRows.find((x) => x.element === e.element),
      );
      rows.push(r);
      console.log(
        `${e.element}: reference a ${f(r.reference?.aAngstrom, 4)} Å at ${r.reference?.ecutwfcRy} Ry, k ${r.reference?.kSpacingPerAngstrom} 1/Å; ` +
          `workflow a ${f(r.aAngstrom, 4)} Å: ${f(r.errorVsReferencePercent, 3)} %, ${r.reference?.pwRuns} pw.x runs, ${f(r.reference?.pwCpuSeconds, 0)} s CPU, ${((Date.now() - t) / 60000).toFixed(1)} min`,
      );
      write(rows, skipped, (Date.now() - t0) / 1000, false);
      continue;
    }
    const file = pbePseudopotential(pseudoDir, e.element);
    if (!file || !findPseudopotential(pseudoDir, { element: e.element, functional: 'PBE', file })) {
      skipped.push({ element: e.element, reason: `no PBE pseudopotential for ${e.element} in ${pseudoDir}` });
      console.log(`${e.element}: skipped (no PBE pseudopotential in ${pseudoDir})`);
      continue;
    }
    const t = Date.now();
    const r = { ...(await runElement(e, file)), command: commandLine('npm run bench:sol27 --') };
    rows.push(r);
    console.log(
      `${e.element} (${file}): ${r.state}${r.reason ? ` — ${r.reason}` : ''}; ecutwfc ${f(r.ecutwfcRy, 0)} Ry, k ${f(r.kSpacingPerAngstrom, 2)} 1/Å, a ${f(r.aAngstrom, 4)} Å ` +
        `(exp ${f(r.errorVsExpPercent, 2)} %, ref ${f(r.errorVsReferencePercent, 3)} %), ${r.workflow?.pwRuns} pw.x runs, ${f(r.workflow?.pwCpuSeconds, 0)} s CPU, ` +
        `overhead ${f(100 * (r.workflow?.overheadFraction ?? NaN), 2)} %, ${((Date.now() - t) / 60000).toFixed(1)} min`,
    );
    write(rows, skipped, (Date.now() - t0) / 1000, false);
  }
  const summary = write(rows, skipped, (Date.now() - t0) / 1000, true);
  console.log(`\n${table(rows)}\n`);
  if (kept) console.log(`(${kept} element(s) kept from the earlier results)`);
  console.log(JSON.stringify(summary, null, 1));
}

function write(rows: ElementResult[], skipped: { element: string; reason: string }[], seconds: number, complete: boolean) {
  const done = rows.filter((r) => r.aAngstrom !== undefined);
  const vsRef = done.filter((r) => r.errorVsReferencePercent !== undefined).map((r) => Math.abs(r.errorVsReferencePercent!));
  const runs = done.map((r) => r.workflow!.pwRuns);
  const wall = rows.reduce((s, r) => s + (r.workflow?.runWallSeconds ?? 0), 0);
  const overhead = rows.reduce((s, r) => s + (r.workflow?.overheadSeconds ?? 0), 0);
  const summary = {
    elements: rows.length,
    completed: done.length,
    skipped: skipped.length,
    meanAbsErrorVsReferencePercent: mean(vsRef),
    targetMeanAbsErrorVsReferencePercent: 0.2,
    maxAbsErrorVsReferencePercent: vsRef.length ? Math.max(...vsRef) : NaN,
    targetMaxAbsErrorVsReferencePercent: 0.2,
    meanAbsErrorVsExperimentPercent: mean(done.map((r) => Math.abs(r.errorVsExpPercent!))),
    // elements measured since the report's pressure check exists: its estimate beside the measured error
    pressureEstimateVsReference: done
      .filter((r) => r.pressureEstimate && r.errorVsReferencePercent !== undefined)
      .map((r) => ({
        element: r.element,
        estimatedPercent: r.pressureEstimate!.sumPercent,
        measuredAbsPercent: Math.abs(r.errorVsReferencePercent!),
      })),
    meanAbsErrorDreamsVsExperimentPercent: mean(done.map((r) => Math.abs((100 * (r.aDreamsAngstrom - r.aExpAngstrom)) / r.aExpAngstrom))),
    pwRunsPerElementMean: mean(runs),
    pwRunsTotal: runs.reduce((s, x) => s + x, 0),
    reusedRunsTotal: done.reduce((s, r) => s + (r.workflow?.reusedRuns ?? 0), 0),
    defaultSweeps: {
      kSpacingsPerAngstrom: DEFAULT_K_SPACINGS,
      cutoffsRy: "the file's suggestion rounded up to 5 Ry, then 10, 20, 30 Ry above",
      cutoffSweepAt: 'the middle of the k sweep',
      criterion: criterionOption ?? 'pressure (0.05 % of a per sweep, B from a probe at 0.99/1/1.01 × a)',
      extension: 'one value at a time',
      identicalInputs: 'reused (run_pw), not run again',
    },
    targetWorkflowCpuSeconds: 15000,
    fixedSweepRunsPerElement: FIXED_SWEEP_RUNS,
    fixedSweep: FIXED_SWEEP,
    referenceRunsTotal: done.reduce((s, r) => s + (r.reference?.pwRuns ?? 0), 0),
    workflowCpuSeconds: rows.reduce((s, r) => s + (r.workflow?.pwCpuSeconds ?? 0), 0),
    workflowWallSeconds: wall,
    overheadSeconds: overhead,
    overheadFraction: wall > 0 ? overhead / wall : NaN,
    targetOverheadFraction: 0.05,
    benchWallSeconds: seconds,
  };
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const date = new Date().toISOString();
  fs.writeFileSync(
    outFile,
    JSON.stringify(
      {
        bench: 'sol27',
        complete,
        date,
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load: os.loadavg() },
        pseudoDir,
        jobs,
        reference:
          withReference || rows.some((r) => r.reference)
            ? {
                kSpacingPerAngstrom: `min(${refKSpacing}, ${refKFactor} × chosen)`,
                ecutwfcRy: `max(chosen + ${refExtraCutoff}, highest tested)`,
                eos: "the workflow's 5 points, ±5 % of a_exp, Birch–Murnaghan",
              }
            : 'not run',
        command: commandLine('npm run bench:sol27 --'),
        summary,
        skipped,
        elements: rows,
      },
      null,
      1,
    ) + '\n',
  );
  fs.writeFileSync(markdownFile, markdown(rows, summary, date));
  return summary;
}

const markdownFile = outFile.replace(/\.json$/, '') + '.md';

/** --table-only: sol27.md from the JSON as it stands. */
function tableOnly(): void {
  if (!fs.existsSync(outFile)) throw new Error(`--table-only: ${outFile} does not exist; run the bench first (npm run bench:sol27).`);
  const results = JSON.parse(fs.readFileSync(outFile, 'utf8')) as {
    date: string;
    complete?: boolean;
    summary?: ReturnType<typeof write>;
    elements?: ElementResult[];
    skipped?: { element: string; reason: string }[];
  };
  const forget =
    option('forget')
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean) ?? [];
  const mergeFrom = option('merge-from');
  if (forget.length || mergeFrom) {
    // rows of runs spoiled by the machine (a full disk), not by the workflow: dropped; rows measured
    // into another file (--out, e.g. two benches side by side): they replace this file's rows of the
    // same elements. The summary is recomputed either way.
    let rows = (results.elements ?? []).filter((r) => !forget.includes(r.element));
    const merged: string[] = [];
    if (mergeFrom) {
      if (!fs.existsSync(mergeFrom))
        throw new Error(`--merge-from: ${mergeFrom} does not exist; give the --out file of the bench that measured the elements.`);
      const other = JSON.parse(fs.readFileSync(mergeFrom, 'utf8')) as { command?: string; elements?: ElementResult[] };
      for (const r of other.elements ?? []) {
        if (r.aAngstrom === undefined) continue; // an element that did not finish there keeps its row here
        rows = rows.filter((x) => x.element !== r.element);
        rows.push({ command: other.command, ...r });
        merged.push(r.element);
      }
    }
    write(rows, results.skipped ?? [], results.summary?.benchWallSeconds ?? 0, results.complete ?? false);
    console.log(
      `bench:sol27: ${forget.length ? `dropped ${forget.join(', ')}; ` : ''}${mergeFrom ? `took ${merged.join(', ') || 'no element'} from ${mergeFrom}; ` : ''}${outFile} and ${markdownFile} rewritten`,
    );
    return;
  }
  fs.writeFileSync(markdownFile, markdown(results.elements ?? [], results.summary, results.date));
  console.log(`bench:sol27: wrote ${markdownFile} from ${outFile} (${results.elements?.length ?? 0} elements)`);
}

main().catch((e) => {
  console.error(`bench:sol27 failed: ${(e as Error).message}`);
  process.exit(1);
});
