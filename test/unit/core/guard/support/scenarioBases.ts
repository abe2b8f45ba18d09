/**
 * The registries the adversarial scenarios start from: an fcc Al lattice-constant study
 * (cutoff sweep, k sweep, EOS, lattice constant) and a CO/Pt(111) site-preference study.
 * Energies are synthetic (smooth model curves standing in for pw.x runs); every derived
 * artifact is made by the real tool bodies through the guarded call, so the calls,
 * arguments and inputs are what a run records. Artifacts are named so scenarios can
 * refer to them ("@cutSel.chosen.ecutwfcRy") without depending on ids.
 */
import { ApprovalBook } from '../../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../../src/core/guard/guardedCall';
import type { ProposedCall } from '../../../../../src/core/guard/types';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import { eosEnergyEv } from '../../../../../src/core/dft/eos';
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import type { PhysicalSettings, Structure } from '../../../../../src/core/dft/types';
import type { ArtifactDraft } from '../../../../../src/core/provenance/types';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRun, openRun, type Run } from '../../../../../src/core/run/directory';
import type { EventLog } from '../../../../../src/core/canvas/eventLog';
import type { ProvenanceRegistry } from '../../../../../src/core/provenance/registry';
import { seedCall } from './seedCall';
import { buildEveryday } from './everydayBase';

export interface ScenarioBase {
  /** The run's own provenance registry, over its event log on disk. */
  provenance: ProvenanceRegistry;
  log: EventLog;
  approvals: ApprovalBook;
  /** Scenario names -> artifact ids. */
  names: Record<string, string>;
  dir: string;
}

const registry = new ToolRegistry();

async function run(
  p: ProvenanceRegistry,
  approvals: ApprovalBook,
  tool: string,
  args: Record<string, unknown>,
  refs: Record<string, string> = {},
): Promise<string[]> {
  const ctx: GuardContext = {
    provenance: p,
    approvals,
    policy: 'auto-approve',
    run: { runId: 'base', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
  };
  const call: ProposedCall = { tool, args, refs, reasons: {}, context: 'scenario base', agent: { role: 'dft' } };
  const out = await guardedCall(registry.get(tool)!, call, ctx);
  if (out.status !== 'ok') throw new Error(`scenario base: ${tool} did not run: ${JSON.stringify(out)}`);
  return out.outputs;
}

function energyDraft(
  ev: number,
  settings: PhysicalSettings,
  s: Structure,
  purpose: 'production' | 'convergence-test' = 'production',
): ArtifactDraft {
  return {
    kind: 'scalar',
    name: 'total_energy',
    value: ev,
    unit: 'eV',
    status: 'final',
    meta: {
      settings,
      natoms: s.symbols.length,
      volumeAngstrom3: cellVolume(s.cell),
      formula: s.symbols.join(''),
      scfConverged: true,
      cellAngstrom: s.cell,
      purpose,
    },
  };
}

const scaled = (s: Structure, f: number): Structure => ({
  ...s,
  cell: s.cell.map((v) => v.map((x) => x * f)) as Structure['cell'],
  positions: s.positions.map((v) => v.map((x) => x * f)) as Structure['positions'],
});

/** The bases name pslibrary files that are not installed here: no directory, so no headers are read. */
const NOT_ON_DISK = '';

export const AL_PSEUDO = { file: 'Al.pbe-nl-rrkjus_psl.1.0.0.UPF', sha256: '5f2b6a9c0d1e' };

export function alSettings(over: Partial<PhysicalSettings> = {}): PhysicalSettings {
  return {
    code: 'pw.x',
    codeVersion: '6.7',
    functional: 'PBE',
    ecutwfcRy: 40,
    ecutrhoRy: 320,
    pseudopotentials: { Al: AL_PSEUDO },
    kSpacingPerAngstrom: 0.2,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
    ...over,
  };
}

async function buildAlLattice(r: Run): Promise<Record<string, string>> {
  const p = r.registry;
  const approvals = new ApprovalBook(r.log);
  const names: Record<string, string> = {};
  [names.bulk] = await run(p, approvals, 'build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.04 });
  const bulk = p.artifact(names.bulk!)!.value as Structure;
  [names.pseudos] = (
    await seedCall(p, 'select_pseudopotentials', { elements: ['Al'], functional: 'PBE' }, [
      {
        kind: 'table',
        name: 'pseudopotentials',
        value: {
          directory: NOT_ON_DISK,
          byElement: { Al: { ...AL_PSEUDO, functional: 'PBE', suggestedEcutwfcRy: 29, suggestedEcutrhoRy: 121 } },
        },
      },
    ])
  ).map((a) => a.id);
  const templateArgs = {
    structure: names.bulk,
    pseudopotentials: names.pseudos,
    purpose: 'convergence-test',
    calculation: 'scf',
    ecutwfcRy: 30,
    ecutrhoRy: 240,
    kSpacingPerAngstrom: 0.15,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
  };
  [names.template] = (
    await seedCall(p, 'make_pw_input', templateArgs, [
      {
        kind: 'qe-input',
        name: 'pw_input',
        value: {
          text: '&control\n/',
          settings: alSettings({ ecutwfcRy: 30, ecutrhoRy: 240, kSpacingPerAngstrom: 0.15 }),
          structure: bulk,
          calculation: 'scf',
        },
      },
    ])
  ).map((a) => a.id);

  const cutoffs = [30, 35, 40, 45, 50];
  for (const [i, ecut] of cutoffs.entries()) {
    const e = -57.2 + 0.4 * Math.exp(-(ecut - 30) / 1.2);
    [names[`cut${i}`]] = (
      await seedCall(p, 'run_pw', { input: names.template, backend: 'local' }, [
        energyDraft(e, alSettings({ ecutwfcRy: ecut, ecutrhoRy: 8 * ecut, kSpacingPerAngstrom: 0.15 }), bulk, 'convergence-test'),
      ])
    )
      .map((a) => a.id)
      .slice(-1);
  }
  [names.cutSel] = await run(p, approvals, 'select_converged_settings', {
    parameter: 'ecutwfc',
    energies: cutoffs.map((_, i) => names[`cut${i}`]),
    toleranceMevPerAtom: 1,
  });

  const spacings = [0.4, 0.3, 0.25, 0.2, 0.15];
  for (const [i, k] of spacings.entries()) {
    const e = -57.2 + 0.5 * k ** 4;
    [names[`k${i}`]] = (
      await seedCall(p, 'run_pw', { input: names.template, backend: 'local' }, [
        energyDraft(e, alSettings({ kSpacingPerAngstrom: k }), bulk, 'convergence-test'),
      ])
    ).map((a) => a.id);
  }
  [names.kSel] = await run(p, approvals, 'select_converged_settings', {
    parameter: 'kspacing',
    energies: spacings.map((_, i) => names[`k${i}`]),
    toleranceMevPerAtom: 1,
  });

  const eosArgs = { ...templateArgs, purpose: 'production', ecutwfcRy: 40, ecutrhoRy: 320, kSpacingPerAngstrom: 0.2 };
  [names.eosInput] = (
    await seedCall(
      p,
      'make_pw_input',
      eosArgs,
      [{ kind: 'qe-input', name: 'pw_input', value: { text: '&control\n/', settings: alSettings(), structure: bulk, calculation: 'scf' } }],
      {
        ecutwfcRy: `${names.cutSel}.chosen.ecutwfcRy`,
        ecutrhoRy: `${names.cutSel}.chosen.ecutrhoRy`,
        kSpacingPerAngstrom: `${names.kSel}.chosen.kSpacingPerAngstrom`,
      },
    )
  ).map((a) => a.id);
  const v0 = 16.6;
  const factors = [0.94, 0.97, 1.0, 1.03, 1.06];
  for (const [i, f] of factors.entries()) {
    const s = scaled(bulk, Math.cbrt((v0 * f) / cellVolume(bulk.cell)));
    const e = eosEnergyEv('birch-murnaghan', cellVolume(s.cell), { e0Ev: -57.3, v0A3: v0, b0Gpa: 77, b0Prime: 4.5 });
    [names[`eos${i}`]] = (await seedCall(p, 'run_pw', { input: names.eosInput, backend: 'local' }, [energyDraft(e, alSettings(), s)])).map(
      (a) => a.id,
    );
  }
  [names.eosFit] = await run(p, approvals, 'fit_eos', { energies: factors.map((_, i) => names[`eos${i}`]), form: 'birch-murnaghan' });
  [names.lattice] = await run(p, approvals, 'lattice_constant_from_volume', {
    eosFit: names.eosFit,
    structure: names.bulk,
    bravais: 'fcc',
  });
  return names as Record<string, string>;
}

const PT_PSEUDOS = {
  Pt: { file: 'Pt.pbe-n-rrkjus_psl.1.0.0.UPF', sha256: '7ac31e0b' },
  C: { file: 'C.pbe-n-rrkjus_psl.1.0.0.UPF', sha256: '19be02dd' },
  O: { file: 'O.pbe-n-rrkjus_psl.1.0.0.UPF', sha256: 'c0ffee01' },
};

export function ptSettings(over: Partial<PhysicalSettings> = {}): PhysicalSettings {
  return {
    code: 'pw.x',
    codeVersion: '6.7',
    functional: 'PBE',
    ecutwfcRy: 50,
    ecutrhoRy: 450,
    pseudopotentials: PT_PSEUDOS,
    kSpacingPerAngstrom: 0.2,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
    ...over,
  };
}

async function buildCoPt(r: Run): Promise<Record<string, string>> {
  const p = r.registry;
  const approvals = new ApprovalBook(r.log);
  const names: Record<string, string> = {};
  [names.pseudos] = (
    await seedCall(p, 'select_pseudopotentials', { elements: ['Pt', 'C', 'O'], functional: 'PBE' }, [
      {
        kind: 'table',
        name: 'pseudopotentials',
        value: {
          directory: NOT_ON_DISK,
          byElement: {
            Pt: { ...PT_PSEUDOS.Pt, suggestedEcutwfcRy: 39, suggestedEcutrhoRy: 401 },
            C: { ...PT_PSEUDOS.C, suggestedEcutwfcRy: 40, suggestedEcutrhoRy: 326 },
            O: { ...PT_PSEUDOS.O, suggestedEcutwfcRy: 47, suggestedEcutrhoRy: 323 },
          },
        },
      },
    ])
  ).map((a) => a.id);
  [names.ptBulk] = await run(p, approvals, 'build_bulk', { elements: ['Pt'], bravais: 'fcc', latticeConstantAngstrom: 3.92 });
  [names.ptEosFit] = (
    await seedCall(p, 'fit_eos', { energies: [], form: 'birch-murnaghan' }, [
      {
        kind: 'table',
        name: 'eos_fit',
        value: {
          form: 'birch-murnaghan',
          v0Angstrom3: 15.64,
          e0Ev: -1000,
          b0GPa: 250,
          b0Prime: 5,
          natoms: 1,
          points: [],
          rmsResidualEv: 1e-4,
        },
        meta: { settings: ptSettings() },
      },
    ])
  ).map((a) => a.id);
  [names.ptLattice] = await run(p, approvals, 'lattice_constant_from_volume', {
    eosFit: names.ptEosFit,
    structure: names.ptBulk,
    bravais: 'fcc',
  });
  const a = p.artifact(names.ptLattice!)!.value as number;
  [names.slab] = await run(
    p,
    approvals,
    'build_slab',
    { element: 'Pt', facet: 'fcc111', latticeConstantAngstrom: a, size: [2, 2], layers: 4, vacuumAngstrom: 12, fixedLayers: 2 },
    { latticeConstantAngstrom: names.ptLattice! },
  );
  [names.slabTop] = await run(p, approvals, 'place_adsorbate', { slab: names.slab, adsorbate: 'CO', site: 'ontop' });
  [names.slabFcc] = await run(p, approvals, 'place_adsorbate', { slab: names.slab, adsorbate: 'CO', site: 'fcc' });
  [names.co] = await run(p, approvals, 'build_molecule', { name: 'CO', boxAngstrom: 12 });
  const structureOf = (n: string) => p.artifact(names[n]!)!.value as Structure;
  const energies: [string, string, number, PhysicalSettings][] = [
    ['eSlab', 'slab', -8400.0, ptSettings()],
    ['eTop', 'slabTop', -8991.65, ptSettings()],
    ['eFcc', 'slabFcc', -8991.7, ptSettings()],
    [
      'eCo',
      'co',
      -590.0,
      ptSettings({ kSpacingPerAngstrom: undefined, kMesh: [1, 1, 1], pseudopotentials: { C: PT_PSEUDOS.C, O: PT_PSEUDOS.O } }),
    ],
  ];
  for (const [name, structure, ev, settings] of energies) {
    [names[name]] = (
      await seedCall(p, 'run_pw', { input: structure, backend: 'local' }, [energyDraft(ev, settings, structureOf(structure))])
    ).map((x) => x.id);
  }
  [names.eadsTop] = await run(p, approvals, 'adsorption_energy', {
    slabWithAdsorbate: names.eTop,
    slab: names.eSlab,
    adsorbate: names.eCo,
  });
  [names.eadsFcc] = await run(p, approvals, 'adsorption_energy', {
    slabWithAdsorbate: names.eFcc,
    slab: names.eSlab,
    adsorbate: names.eCo,
  });
  [names.dbe] = await run(p, approvals, 'delta_be', { ontop: names.eadsTop, fcc: names.eadsFcc });
  return names as Record<string, string>;
}

const BUILDERS: Record<string, (r: Run) => Promise<Record<string, string>>> = {
  'al-lattice': buildAlLattice,
  'co-pt': buildCoPt,
  everyday: buildEveryday,
};
const templates = new Map<string, Promise<{ dir: string; names: Record<string, string> }>>();
const opened: { run: Run; root: string }[] = [];
let templateRoot: string | undefined;

/** Each base is built once into a run directory; every scenario gets its own copy, reopened. */
function template(name: string): Promise<{ dir: string; names: Record<string, string> }> {
  let t = templates.get(name);
  if (!t) {
    t = (async () => {
      if (!templateRoot) {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-guard-bases-'));
        templateRoot = root;
        process.once('exit', () => fs.rmSync(root, { recursive: true, force: true }));
      }
      const r = await createRun(templateRoot!, { objective: `guard scenario base ${name}`, slug: name });
      const names = await BUILDERS[name]!(r);
      await r.close();
      return { dir: r.dir, names };
    })();
    templates.set(name, t);
  }
  return t;
}

export async function openBase(name: string): Promise<ScenarioBase> {
  const t = await template(name);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `dreams-guard-${name}-`));
  const dir = path.join(root, path.basename(t.dir));
  fs.cpSync(t.dir, dir, { recursive: true });
  const r = await openRun(dir, { mode: 'writer' });
  opened.push({ run: r, root });
  return { provenance: r.registry, log: r.log, approvals: new ApprovalBook(r.log), names: { ...t.names }, dir };
}

/** Close every opened base and remove the directories (call from an after hook). */
export async function closeAllBases(): Promise<void> {
  for (const { run, root } of opened.splice(0)) {
    await run.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export const alLatticeBase = () => openBase('al-lattice');
export const coPtBase = () => openBase('co-pt');
export const everydayBase = () => openBase('everyday');
export const SCENARIO_BASES: Record<string, () => Promise<ScenarioBase>> = {
  'al-lattice': alLatticeBase,
  'co-pt': coPtBase,
  everyday: everydayBase,
};
