/**
 * bench:adsorption — the offline closed loop against exhaustive enumeration of every site,
 * both with EMT and the same screen-then-relax executor, on the EMT-covered AdsMind cases
 * and generated fcc(111)/(100) slabs. Reports success rate, relaxations per case, the
 * fraction of cases within 0.05 eV of enumeration's best valid energy, and slip rates.
 * Writes bench/results/adsorption.json.
 * With --ablations it also runs the loop with each AdsMind switch turned off.
 *   npm run bench:adsorption [-- --filter <regex>] [-- --patience <n>] [-- --ablations]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adsorbate as adsorbateNamed } from '../../src/core/adsorption/adsorbate';
import { enumerateSites } from '../../src/core/adsorption/enumerate';
import { ScreenAndRelaxExecutor } from '../../src/core/adsorption/executor';
import type { Ablations, IterationRecord } from '../../src/core/adsorption/loop';
import { OfflinePlanner } from '../../src/core/adsorption/offlinePlanner';
import { prepareSurface, searchAdsorption } from '../../src/core/adsorption/search';
import { EmtCalculator } from '../../src/core/calculators/emt';
import { loadCases } from './adsorptionCases';

const ROOT = path.resolve(__dirname, '../..');
const TOLERANCE_EV = 0.05;
const TARGET_WITHIN = 0.9;
const TARGET_RELAX_FRACTION = 0.15;
const filterArg = process.argv.indexOf('--filter');
const FILTER = filterArg > 0 ? new RegExp(process.argv[filterArg + 1]!) : undefined;
const patienceArg = process.argv.indexOf('--patience');
const PATIENCE = patienceArg > 0 ? Number(process.argv[patienceArg + 1]) : 2;
const ABLATIONS = process.argv.includes('--ablations');
const SWITCHES: Record<string, Partial<Ablations>> = {
  'no-slip-feedback': { slipFeedback: false },
  'no-forbid': { forbid: false },
  'no-terminate': { terminate: false },
};

interface CaseRow {
  id: string;
  source: string;
  slabAtoms: number;
  topLayerAtoms: number;
  sites: number;
  siteClasses: number;
  loop: {
    relaxations: number;
    singlePoints: number;
    bestEv: number | null;
    bestFingerprint: string | null;
    stopReason: string;
    chemicalSlips: number;
    geometricSlips: number;
    dissociated: number;
    seconds: number;
  };
  oneShot: { bestEv: number | null; valid: boolean };
  ablations?: Record<string, { relaxations: number; bestEv: number | null }>;
  enumeration: {
    relaxations: number;
    bestEv: number | null;
    bestFingerprint: string | null;
    chemicalSlips: number;
    geometricSlips: number;
    dissociated: number;
    seconds: number;
  };
  success: boolean;
  withinTolerance: boolean;
  gapEv: number | null;
}

const slips = (rs: IterationRecord[], kind: string) => rs.filter((r) => r.analysis.slip === kind).length;

async function main(): Promise<void> {
  const t0 = performance.now();
  const { cases, excluded, dataDir } = loadCases(ROOT);
  const selected = FILTER ? cases.filter((c) => FILTER.test(c.id)) : cases;
  console.log(
    `bench:adsorption — ${selected.length} cases (data: ${path.relative(ROOT, dataDir) || dataDir}); ${excluded.length} dataset cases excluded`,
  );
  const rows: CaseRow[] = [];
  for (const c of selected) {
    const emt = new EmtCalculator();
    const prepared = prepareSurface(c.slab);
    const ads = adsorbateNamed(c.adsorbate);
    const loopExecutor = new ScreenAndRelaxExecutor(emt);
    const tl = performance.now();
    const search = await searchAdsorption({
      slab: prepared,
      adsorbate: ads,
      planner: new OfflinePlanner({ screen: loopExecutor.siteScreen(prepared.slab, ads), patience: PATIENCE }),
      executor: loopExecutor,
    });
    const loopSeconds = (performance.now() - tl) / 1000;
    const oneShotExecutor = new ScreenAndRelaxExecutor(emt);
    const oneShot = await searchAdsorption({
      slab: prepared,
      adsorbate: ads,
      references: search.references,
      planner: new OfflinePlanner({ screen: oneShotExecutor.siteScreen(prepared.slab, ads) }),
      executor: oneShotExecutor,
      options: { ablations: { slipFeedback: true, forbid: true, terminate: true, oneShot: true } },
    });
    const ablations: CaseRow['ablations'] = {};
    if (ABLATIONS) {
      for (const [name, sw] of Object.entries(SWITCHES)) {
        const ex = new ScreenAndRelaxExecutor(emt);
        const r = await searchAdsorption({
          slab: prepared,
          adsorbate: ads,
          references: search.references,
          planner: new OfflinePlanner({ screen: ex.siteScreen(prepared.slab, ads), patience: PATIENCE }),
          executor: ex,
          options: { ablations: sw as Ablations },
        });
        ablations[name] = { relaxations: r.result.relaxations, bestEv: r.result.best?.adsorptionEnergyEv ?? null };
      }
    }
    const enumExecutor = new ScreenAndRelaxExecutor(emt);
    const te = performance.now();
    const en = await enumerateSites({
      slab: prepared.slab,
      surface: prepared.surface,
      adsorbate: ads,
      references: search.references,
      executor: enumExecutor,
    });
    const enumSeconds = (performance.now() - te) / 1000;
    const loopBest = search.result.best;
    const gap = loopBest && en.best ? loopBest.adsorptionEnergyEv - en.best.adsorptionEnergyEv : null;
    const row: CaseRow = {
      id: c.id,
      source: c.source,
      slabAtoms: prepared.slab.slab.symbols.length,
      topLayerAtoms: prepared.surface.topLayer.length,
      sites: prepared.surface.sites.length,
      siteClasses: new Set(prepared.surface.sites.map((s) => s.fingerprint)).size,
      loop: {
        relaxations: search.result.relaxations,
        singlePoints: loopExecutor.singlePoints,
        bestEv: loopBest?.adsorptionEnergyEv ?? null,
        bestFingerprint: loopBest?.analysis.fingerprint ?? null,
        stopReason: search.result.stopReason,
        chemicalSlips: slips(search.result.iterations, 'chemical'),
        geometricSlips: slips(search.result.iterations, 'geometric'),
        dissociated: search.result.iterations.filter((r) => r.analysis.dissociated).length,
        seconds: loopSeconds,
      },
      oneShot: { bestEv: oneShot.result.best?.adsorptionEnergyEv ?? null, valid: !!oneShot.result.best },
      ...(ABLATIONS ? { ablations } : {}),
      enumeration: {
        relaxations: en.relaxations,
        bestEv: en.best?.adsorptionEnergyEv ?? null,
        bestFingerprint: en.best?.analysis.fingerprint ?? null,
        chemicalSlips: slips(en.records, 'chemical'),
        geometricSlips: slips(en.records, 'geometric'),
        dissociated: en.records.filter((r) => r.analysis.dissociated).length,
        seconds: enumSeconds,
      },
      success: !!loopBest,
      withinTolerance: gap !== null && gap <= TOLERANCE_EV,
      gapEv: gap,
    };
    rows.push(row);
    console.log(
      `${c.id.padEnd(36)} loop ${String(row.loop.relaxations).padStart(2)} relax ${fmt(row.loop.bestEv)} | enum ${String(row.enumeration.relaxations).padStart(3)} relax ${fmt(row.enumeration.bestEv)} | gap ${gap === null ? '   n/a' : gap.toFixed(3).padStart(6)} ${row.withinTolerance ? 'ok' : 'MISS'} (${row.loop.stopReason})`,
    );
  }
  const withEnum = rows.filter((r) => r.enumeration.bestEv !== null);
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const loopRelax = sum(rows.map((r) => r.loop.relaxations));
  const enumRelax = sum(rows.map((r) => r.enumeration.relaxations));
  const bySource = (src: string) => rows.filter((r) => r.source === src);
  const summarise = (rs: CaseRow[]) => ({
    cases: rs.length,
    successRate: rs.length ? rs.filter((r) => r.success).length / rs.length : null,
    withinToleranceFraction: rs.filter((r) => r.enumeration.bestEv !== null).length
      ? rs.filter((r) => r.withinTolerance).length / rs.filter((r) => r.enumeration.bestEv !== null).length
      : null,
    oneShotWithinToleranceFraction: rs.filter((r) => r.enumeration.bestEv !== null).length
      ? rs.filter(
          (r) => r.oneShot.bestEv !== null && r.enumeration.bestEv !== null && r.oneShot.bestEv - r.enumeration.bestEv <= TOLERANCE_EV,
        ).length / rs.filter((r) => r.enumeration.bestEv !== null).length
      : null,
    meanLoopRelaxations: rs.length ? sum(rs.map((r) => r.loop.relaxations)) / rs.length : null,
    meanEnumerationRelaxations: rs.length ? sum(rs.map((r) => r.enumeration.relaxations)) / rs.length : null,
    relaxationFraction: sum(rs.map((r) => r.enumeration.relaxations))
      ? sum(rs.map((r) => r.loop.relaxations)) / sum(rs.map((r) => r.enumeration.relaxations))
      : null,
    loopChemicalSlipRate: sum(rs.map((r) => r.loop.relaxations))
      ? sum(rs.map((r) => r.loop.chemicalSlips)) / sum(rs.map((r) => r.loop.relaxations))
      : null,
    loopGeometricSlipRate: sum(rs.map((r) => r.loop.relaxations))
      ? sum(rs.map((r) => r.loop.geometricSlips)) / sum(rs.map((r) => r.loop.relaxations))
      : null,
    enumerationChemicalSlipRate: sum(rs.map((r) => r.enumeration.relaxations))
      ? sum(rs.map((r) => r.enumeration.chemicalSlips)) / sum(rs.map((r) => r.enumeration.relaxations))
      : null,
    meanLoopSinglePoints: rs.length ? sum(rs.map((r) => r.loop.singlePoints)) / rs.length : null,
  });
  const overall = summarise(rows);
  const ablationSummary = ABLATIONS
    ? Object.fromEntries(
        Object.keys(SWITCHES).map((name) => {
          const rs = rows.filter((r) => r.enumeration.bestEv !== null);
          const within = rs.filter((r) => {
            const b = r.ablations![name]!.bestEv;
            return b !== null && b - r.enumeration.bestEv! <= TOLERANCE_EV;
          }).length;
          return [
            name,
            {
              withinToleranceFraction: rs.length ? within / rs.length : null,
              meanRelaxations: sum(rows.map((r) => r.ablations![name]!.relaxations)) / rows.length,
            },
          ];
        }),
      )
    : undefined;
  const wallSeconds = (performance.now() - t0) / 1000;
  const results = {
    benchmark: 'adsorption',
    calculator: 'EMT (Jacobsen, Stoltze & Nørskov 1996; H, C, N, O as extended in ASE)',
    settings: {
      fmaxEvPerAngstrom: 0.1,
      maxSteps: 200,
      optimizer: 'FIRE',
      toleranceEv: TOLERANCE_EV,
      loopBudget: 10,
      patience: PATIENCE,
      screen: '4 azimuths per site, single points',
    },
    targets: { withinToleranceFraction: TARGET_WITHIN, relaxationFraction: TARGET_RELAX_FRACTION },
    met: {
      withinTolerance: (overall.withinToleranceFraction ?? 0) >= TARGET_WITHIN,
      relaxationFraction: (overall.relaxationFraction ?? 1) <= TARGET_RELAX_FRACTION,
    },
    overall,
    ...(ablationSummary ? { ablations: ablationSummary } : {}),
    bySource: Object.fromEntries(['AA20', 'OCD-GMAE62', 'generated'].map((s) => [s, summarise(bySource(s))])),
    excluded,
    cases: rows,
    machine: { cpus: os.cpus().length, node: process.version },
    wallSeconds,
    totals: { loopRelaxations: loopRelax, enumerationRelaxations: enumRelax, casesWithEnumerationBest: withEnum.length },
    measuredAt: new Date().toISOString(),
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/adsorption.json'), JSON.stringify(results, null, 2) + '\n');
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
  console.log('\nsource      cases success within0.05 1-shot  loop/case enum/case fraction chem-slip');
  for (const [name, s] of [['all', overall] as const, ...Object.entries(results.bySource)]) {
    console.log(
      `${name.padEnd(11)} ${String(s.cases).padStart(5)} ${pct(s.successRate).padStart(7)} ${pct(s.withinToleranceFraction).padStart(10)} ${pct(s.oneShotWithinToleranceFraction).padStart(7)} ${(s.meanLoopRelaxations ?? NaN).toFixed(2).padStart(9)} ${(s.meanEnumerationRelaxations ?? NaN).toFixed(1).padStart(9)} ${pct(s.relaxationFraction).padStart(8)} ${pct(s.loopChemicalSlipRate).padStart(9)}`,
    );
  }
  if (ablationSummary) {
    console.log('\nablation           within0.05 relaxations/case');
    console.log(
      `full loop          ${pct(overall.withinToleranceFraction).padStart(10)} ${(overall.meanLoopRelaxations ?? NaN).toFixed(2).padStart(16)}`,
    );
    for (const [name, a] of Object.entries(ablationSummary))
      console.log(`${name.padEnd(18)} ${pct(a.withinToleranceFraction).padStart(10)} ${a.meanRelaxations.toFixed(2).padStart(16)}`);
    console.log(`one-shot           ${pct(overall.oneShotWithinToleranceFraction).padStart(10)} ${'1.00'.padStart(16)}`);
  }
  console.log(
    `\ntargets: within 0.05 eV ≥ ${pct(TARGET_WITHIN)} — ${results.met.withinTolerance ? 'met' : 'NOT met'}; relaxations ≤ ${pct(TARGET_RELAX_FRACTION)} of enumeration — ${results.met.relaxationFraction ? 'met' : 'NOT met'}`,
  );
  console.log(`excluded dataset cases: ${excluded.length} (${[...new Set(excluded.map((e) => e.source))].join(', ')})`);
  console.log(`wall time ${wallSeconds.toFixed(1)} s on ${os.cpus().length} CPUs; wrote bench/results/adsorption.json`);
}

const fmt = (x: number | null) => (x === null ? '   n/a ' : `${x.toFixed(3).padStart(7)}`);

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
