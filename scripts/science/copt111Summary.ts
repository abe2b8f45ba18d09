/**
 * What a finished (or partial) CO/Pt(111) study says: ΔBE and the adsorption energies
 * with the settings they share, the bulk and slab choices, where each adsorbate ended up,
 * the BEEF ensemble when run, the pw.x cost, and the published values to compare with.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BeefStatsValue, ConvergenceSelectionValue, EnergyMeta } from '../../src/core/artifacts/shapes';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { Structure } from '../../src/core/dft/types';
import type { JobRecord } from '../../src/core/hpc/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import { adsorbateGeometry } from '../../src/core/workflows/sitePreference/relaxedGeometry';
import type { SlabSelection } from '../../src/core/dft/slabSelection';
import { pwCpuSeconds } from '../bench/sol27/measure';

const REFERENCE = path.resolve(__dirname, '../../test/fixtures/workflows/copt111_reference.csv');

export interface StudySummary {
  study: string;
  state: string;
  runDir: string;
  deltaBeEv?: number;
  adsorptionEnergyEv?: { ontop?: number; fcc?: number };
  settings?: Record<string, unknown>;
  bulk?: { aAngstrom?: number; ecutwfcRy?: number; kSpacingPerAngstrom?: number };
  slab?: Record<string, unknown>;
  relaxedSites?: Record<string, unknown>;
  beef?: Omit<BeefStatsValue, 'deltaBeEv'>;
  published?: Record<string, string>;
  pwRuns: number;
  pwCpuHours: number;
  stepsDone: number;
}

function published(study: string): Record<string, string> {
  const [head, ...rows] = fs.readFileSync(REFERENCE, 'utf8').trim().split('\n');
  const cols = head!.split(',');
  // A BEEF study relaxes with PBE and (with adsorptionEnergies) reports the PBE ΔBE as well.
  const xcs = study === 'BEEF' ? ['BEEF-vdW', 'PBE'] : [study];
  const out: Record<string, string> = {};
  for (const line of rows) {
    const r = line.split(',');
    if (!xcs.includes(r[cols.indexOf('xc')]!)) continue;
    const q = `${r[cols.indexOf('quantity')]!}${study === 'BEEF' && r[cols.indexOf('xc')] === 'PBE' ? ' (PBE)' : ''}`;
    for (const c of ['dreams_agent_value', 'human_expert_value', 'literature_value'])
      if (r[cols.indexOf(c)]) out[`${q} ${c}`] = r[cols.indexOf(c)]!;
  }
  return out;
}

export function studySummary(
  study: string,
  runDir: string,
  state: string,
  artifacts: ArtifactRecord[],
  jobs: JobRecord[],
  events: readonly CanvasEvent[],
): StudySummary {
  const calls = new Map(
    events.filter((e) => e.kind === 'provenance.call').map((e) => [(e.payload as ToolCallRecord).id, e.payload as ToolCallRecord]),
  );
  const of = (step: string, name: string) =>
    artifacts.filter((a) => a.status === 'final' && a.name === name && calls.get(a.creator)?.step === step).at(-1);
  const num = (a?: ArtifactRecord) => a?.value as number | undefined;
  const energy = of('relax-fcc-run', 'total_energy');
  const st = (energy?.meta as EnergyMeta | undefined)?.settings;
  const cut = of('bulk-cutoff-choice', 'converged_settings')?.value as ConvergenceSelectionValue | undefined;
  const k = of('bulk-k-choice', 'converged_settings')?.value as ConvergenceSelectionValue | undefined;
  const slabChoice = (of('vacuum-choice', 'converged_slab') ?? of('layers-choice', 'converged_slab'))?.value as SlabSelection | undefined;
  const relaxed = Object.fromEntries(
    ['ontop', 'fcc'].map((site) => {
      const s = of(`relaxed-${site}`, 'relaxed_structure');
      const g = s ? adsorbateGeometry(s.value as Structure) : undefined;
      return [
        site,
        g
          ? {
              endedOver: g.site,
              offsetAngstrom: g.offsetAngstrom,
              heightAngstrom: g.heightAngstrom,
              bondAngstrom: g.bondAngstrom,
              maxDisplacementAngstrom: s!.meta?.maxDisplacementAngstrom,
              fixedAtomsMoved: s!.meta?.fixedAtomsMoved,
            }
          : undefined,
      ];
    }),
  );
  const slabInfo = (of('relaxed-fcc', 'relaxed_structure')?.value as Structure | undefined)?.info;
  const beef = of('beef-stats', 'beef_ensemble_stats')?.value as BeefStatsValue | undefined;
  let cpu = 0;
  for (const j of jobs) {
    const dir = path.join(runDir, 'jobs', j.id);
    const out = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.out')) : undefined;
    cpu += (out && pwCpuSeconds(fs.readFileSync(path.join(dir, out), 'utf8'))) || 0;
  }
  const plan = [...events].reverse().find((e) => e.kind === 'key.write' && e.key === 'plan')?.payload as
    | { value?: { steps: { status: string }[] } }
    | undefined;
  const { deltaBeEv: _members, ...beefStats } = beef ?? ({} as BeefStatsValue);
  return {
    study,
    state,
    runDir,
    ...(of('site-preference', 'delta_be') ? { deltaBeEv: num(of('site-preference', 'delta_be')) } : {}),
    adsorptionEnergyEv: { ontop: num(of('eads-ontop', 'adsorption_energy')), fcc: num(of('eads-fcc', 'adsorption_energy')) },
    ...(st
      ? {
          settings: {
            functional: st.functional,
            ecutwfcRy: st.ecutwfcRy,
            ecutrhoRy: st.ecutrhoRy,
            kMesh: st.kMesh,
            kSpacingPerAngstrom: st.kSpacingPerAngstrom,
            smearing: st.smearing,
            degaussRy: st.degaussRy,
            pseudopotentials: Object.values(st.pseudopotentials).map((p) => p.file),
            codeVersion: st.codeVersion,
          },
        }
      : {}),
    bulk: {
      aAngstrom: num(of('bulk-lattice', 'lattice_constant')),
      ecutwfcRy: cut?.chosen.ecutwfcRy,
      kSpacingPerAngstrom: k?.chosen.kSpacingPerAngstrom,
    },
    slab: {
      layers: slabInfo?.layers,
      fixedLayers: slabInfo?.fixedLayers,
      vacuumAngstrom: slabInfo?.vacuum,
      size: slabInfo?.size,
      sweep: slabChoice?.tested.map((t) => ({ layers: t.layers, vacuumAngstrom: t.vacuumAngstrom, deltaBeEv: t.valueEv })),
    },
    relaxedSites: relaxed,
    ...(beef ? { beef: beefStats } : {}),
    published: published(study),
    pwRuns: jobs.length,
    pwCpuHours: cpu / 3600,
    stepsDone: plan?.value?.steps.filter((s) => s.status === 'done').length ?? 0,
  };
}

/** bench/results/copt111-production.json: each study with the command, pseudopotential directory and date that measured it. */
export interface ProductionFile {
  date?: string;
  command?: string;
  pseudoDir?: string;
  results?: Record<string, object>;
}

/**
 * The file after one invocation: the studies it measured replace theirs; studies measured
 * by an earlier invocation stay, each keeping the command, directory and date that made it
 * (taken from the file's top level when the study carries none of its own, as files written
 * before studies carried them do). A study this invocation found no run of ("not started":
 * another --runs-dir, a typo) does not wipe out an earlier measurement of it.
 */
export function mergeProductionResults(
  earlier: ProductionFile,
  made: Record<string, object>,
  now: { command: string; pseudoDir: string; date: string },
): Required<ProductionFile> {
  const notStarted = (v: object) => (v as { state?: string }).state === 'not started';
  const replaces = (k: string) => k in made && !(notStarted(made[k]!) && earlier.results?.[k]);
  const kept = Object.fromEntries(
    Object.entries(earlier.results ?? {})
      .filter(([k]) => !replaces(k))
      .map(([k, v]) => [k, { command: earlier.command, pseudoDir: earlier.pseudoDir, date: earlier.date, ...v }]),
  );
  const fresh = Object.fromEntries(
    Object.entries(made)
      .filter(([k]) => replaces(k))
      .map(([k, v]) => [k, { ...now, ...v }]),
  );
  return { ...now, results: { ...kept, ...fresh } };
}
