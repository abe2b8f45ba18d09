/**
 * The scenario base of the everyday calculations: a formation-energy set (rocksalt MgO, hcp and
 * fcc Mg, O2 as a triplet and as a singlet), a surface-energy set (Al(111) with bulks at its
 * settings, at another cutoff, on a mesh with no spacing, at another lattice constant), a magnetic-ordering set (bcc Fe
 * ferromagnetic, antiferromagnetic, an antiferromagnetic start that fell back to
 * ferromagnetic, a non-spin-polarised run), and relaxations from real pw.x 6.7 outputs (a
 * converged Si relax, a vc-relax whose final SCF is above its thresholds but whose energy was
 * left final). Derived artifacts are made by the real tools through the guarded call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import { ApprovalBook } from '../../../../../src/core/guard/approvals';
import { guardedCall } from '../../../../../src/core/guard/guardedCall';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import { moleculeInBox } from '../../../../../src/core/dft/structure/molecules';
import { slab } from '../../../../../src/core/dft/structure/surface';
import type { PhysicalSettings, Structure } from '../../../../../src/core/dft/types';
import type { Run } from '../../../../../src/core/run/directory';
import { runFactsMeta } from '../../../../../src/core/tools/runFacts';
import { ryToEv } from '../../../../../src/core/units';
import { seedCall } from './seedCall';

const registry = new ToolRegistry();
const FIXTURES = path.resolve(__dirname, '../../../../fixtures');

const MG = { file: 'Mg.pz-n-vbc.UPF', sha256: '3d1f' };
const O = { file: 'O.pz-rrkjus.UPF', sha256: '0a9c' };
const mgoSettings = (over: Partial<PhysicalSettings> = {}): PhysicalSettings => ({
  code: 'pw.x',
  codeVersion: '6.7',
  functional: 'PZ',
  ecutwfcRy: 30,
  ecutrhoRy: 240,
  kSpacingPerAngstrom: 0.3,
  pseudopotentials: { Mg: MG, O },
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.01,
  nspin: 2,
  ...over,
});
const alSettings = (over: Partial<PhysicalSettings> = {}): PhysicalSettings => ({
  code: 'pw.x',
  codeVersion: '6.7',
  functional: 'PZ',
  ecutwfcRy: 15,
  ecutrhoRy: 60,
  kSpacingPerAngstrom: 0.3,
  pseudopotentials: { Al: { file: 'Al.pz-vbc.UPF', sha256: '77aa' } },
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
  ...over,
});
const feSettings = (over: Partial<PhysicalSettings> = {}): PhysicalSettings => ({
  code: 'pw.x',
  codeVersion: '6.7',
  functional: 'PBE',
  ecutwfcRy: 25,
  ecutrhoRy: 200,
  pseudopotentials: { Fe: { file: 'Fe.pbe-nd-rrkjus.UPF', sha256: 'fe01' } },
  kMesh: [6, 6, 6],
  kShift: [0, 0, 0],
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 2,
  ...over,
});
const moments = (total: number, order: string) => ({
  magnetization: {
    totalBohrMagnetonPerCell: total,
    absoluteBohrMagnetonPerCell: Math.abs(total) + (order === 'antiferromagnetic' ? 3.7 : 0),
    order,
  },
});

export async function buildEveryday(r: Run): Promise<Record<string, string>> {
  const p = r.registry;
  const approvals = new ApprovalBook(r.log);
  const names: Record<string, string> = {};
  const tool = async (name: string, args: Record<string, unknown>): Promise<string[]> => {
    const out = await guardedCall(
      registry.get(name)!,
      { tool: name, args, refs: {}, reasons: {}, context: 'scenario base', agent: { role: 'dft' } },
      {
        provenance: p,
        approvals,
        policy: 'auto-approve',
        run: { runId: 'base', runDir: r.dir, signal: new AbortController().signal, progress: () => {}, services: {} },
      },
    );
    if (out.status !== 'ok') throw new Error(`everyday base: ${name} did not run: ${JSON.stringify(out)}`);
    return out.outputs;
  };
  /** An input and its energy as make_pw_input and run_pw record them; with `output`, the real pw.x output beside it. */
  const energy = async (
    name: string,
    o: {
      structure: Structure;
      settings: PhysicalSettings;
      ev?: number;
      calculation?: string;
      options?: Record<string, unknown>;
      meta?: Record<string, unknown>;
      output?: string;
    },
  ) => {
    const calculation = o.calculation ?? 'scf';
    const options = { purpose: 'production', calculation, nspin: o.settings.nspin, ...(o.options ?? {}) };
    const [input] = await seedCall(p, 'make_pw_input', {}, [
      {
        kind: 'qe-input',
        name: 'pw_input',
        value: { text: `! ${name}`, calculation, structure: o.structure, settings: o.settings, options },
      },
    ]);
    names[`${name}Input`] = input!.id;
    const text = o.output ? fs.readFileSync(path.join(FIXTURES, o.output), 'utf8') : undefined;
    const out = text ? parsePwOutput(text) : undefined;
    const facts = out ? runFactsMeta({ calculation, structure: o.structure, settings: o.settings, options: options as never }, out) : {};
    const last = out?.ionicSteps.at(-1);
    const cell = last?.cellAngstrom ?? o.structure.cell;
    const made = await seedCall(p, 'run_pw', { input: input!.id }, [
      ...(text
        ? [
            {
              kind: 'file' as const,
              name: 'pw_output',
              file: { name: 'pw.out', bytes: text },
              meta: { job: `j-${name}`, state: 'completed' },
            },
          ]
        : []),
      {
        kind: 'scalar',
        name: 'total_energy',
        value: o.ev ?? ryToEv(out!.totalEnergyRy!),
        unit: 'eV',
        status: 'final',
        meta: {
          settings: o.settings,
          natoms: o.structure.symbols.length,
          volumeAngstrom3: cellVolume(cell),
          formula: o.structure.symbols.join(''),
          scfConverged: true,
          cellAngstrom: cell,
          purpose: 'production',
          ...(last && calculation !== 'scf' ? { finalPositionsAngstrom: last.positionsAngstrom, ionicSteps: out!.ionicSteps.length } : {}),
          ...facts,
          ...(o.meta ?? {}),
        },
      },
    ]);
    names[name] = made.at(-1)!.id;
  };

  // formation energy of MgO (LDA, every energy spin-polarised so the triplet O2 compares)
  await energy('eMgO', {
    structure: bulk({ kind: 'rocksalt', symbols: ['Mg', 'O'], aAngstrom: 4.2, cell: 'primitive' }),
    settings: mgoSettings(),
    ev: -2254.1,
    meta: moments(0, 'non-magnetic'),
  });
  await energy('eMgHcp', {
    structure: bulk({ kind: 'hcp', symbols: ['Mg'], aAngstrom: 3.2, cAngstrom: 5.2, cell: 'primitive' }),
    settings: mgoSettings(),
    ev: -1503.2,
    meta: moments(0, 'non-magnetic'),
  });
  await energy('eMgFcc', {
    structure: bulk({ kind: 'fcc', symbols: ['Mg'], aAngstrom: 4.5, cell: 'primitive' }),
    settings: mgoSettings(),
    ev: -751.58,
    meta: moments(0, 'non-magnetic'),
  });
  const o2Settings = mgoSettings({ kMesh: [1, 1, 1], pseudopotentials: { O } });
  delete (o2Settings as { kSpacingPerAngstrom?: number }).kSpacingPerAngstrom;
  await energy('eO2', {
    structure: moleculeInBox('O2', 8),
    settings: o2Settings,
    ev: -1982.3,
    options: { startingMagnetization: { O: 0.5 } },
    meta: moments(2, 'ferromagnetic'),
  });
  await energy('eO2Singlet', {
    structure: moleculeInBox('O2', 8),
    settings: o2Settings,
    ev: -1981.2,
    options: { startingMagnetization: { O: 0.1 } },
    meta: moments(0, 'non-magnetic'),
  });
  [names.formation] = await tool('energy_difference', {
    quantity: 'formation_energy',
    energies: [names.eMgO, names.eMgHcp, names.eO2],
    coefficients: [1, -0.5, -0.5],
    per: 'formula-unit',
    count: 1,
  });

  // surface energy of Al(111)
  await energy('eAlSlab', {
    structure: slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.99, size: [1, 1], layers: 3, vacuumAngstrom: 6 }),
    settings: alSettings(),
    ev: -171.6,
  });
  const alBulk = bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.99, cell: 'primitive' });
  await energy('eAlBulk', { structure: alBulk, settings: alSettings(), ev: -57.3 });
  await energy('eAlBulkLowCut', { structure: alBulk, settings: alSettings({ ecutwfcRy: 12, ecutrhoRy: 48 }), ev: -57.25 });
  const { kSpacingPerAngstrom: _k, ...meshOnly } = alSettings();
  await energy('eAlBulkMesh', { structure: alBulk, settings: { ...meshOnly, kMesh: [12, 12, 12] }, ev: -57.3 });
  [names.surface] = await tool('energy_difference', {
    quantity: 'surface_energy',
    energies: [names.eAlSlab, names.eAlBulk],
    coefficients: [1, -3],
    per: 'area',
  });

  // magnetic order of bcc Fe in its cubic cell
  const fe = bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'conventional' });
  await energy('eFeFm', {
    structure: fe,
    settings: feSettings(),
    ev: -3035.95,
    options: { startingMagnetization: { Fe: 0.5 } },
    meta: moments(4.6, 'ferromagnetic'),
  });
  await energy('eFeAfm', {
    structure: { ...fe, labels: ['Fe1', 'Fe2'] },
    settings: feSettings(),
    ev: -3035.15,
    options: { startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    meta: moments(0, 'antiferromagnetic'),
  });
  await energy('eFeAfmLost', {
    structure: { ...fe, labels: ['Fe1', 'Fe2'] },
    settings: feSettings(),
    ev: -3035.95,
    options: { startingMagnetization: { Fe1: 0.5, Fe2: -0.2 } },
    meta: moments(4.6, 'ferromagnetic'),
  });
  await energy('eFeNonSpin', { structure: fe, settings: feSettings({ nspin: 1 }), ev: -3034.9 });
  // a real antiferromagnetic run, with its output, for the magnetization tool
  const { source: _src, ...afm } = readStructureFile(path.join(FIXTURES, 'dft/magnetism/fe-bcc-afm.in'));
  await energy('eFeAfmRun', {
    structure: afm,
    settings: feSettings(),
    options: { startingMagnetization: { Fe1: 0.5, Fe2: -0.5 } },
    output: 'dft/magnetism/fe-bcc-afm.out',
  });
  [names.magnetization] = await tool('magnetization', { energy: names.eFeAfmRun });

  // relaxations from real pw.x outputs
  const si = (file: string) => {
    const { source: _s, ...s } = readStructureFile(path.join(FIXTURES, 'qe/runs', file));
    return s;
  };
  const siSettings: PhysicalSettings = {
    code: 'pw.x',
    codeVersion: '6.7',
    functional: 'PBE',
    ecutwfcRy: 16,
    ecutrhoRy: 64,
    pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF', sha256: '51a1' } },
    kMesh: [3, 3, 3],
    occupations: 'fixed',
    nspin: 1,
  };
  await energy('eSiRelax', { structure: si('si-relax.in'), settings: siSettings, calculation: 'relax', output: 'qe/runs/si-relax.out' });
  [names.relaxation] = await tool('relaxation_result', { relaxation: names.eSiRelax });
  await energy('eSiVcAbove', {
    structure: si('si-vc-final.in'),
    settings: { ...siSettings, ecutwfcRy: 10, ecutrhoRy: 40 },
    calculation: 'vc-relax',
    output: 'qe/runs/si-vc-final.out',
  });
  [names.relaxationAbove] = await tool('relaxation_result', { relaxation: names.eSiVcAbove });

  // the Al bulk at the experimental a (4.05 Å), the slab above at 3.99 Å: one is strained against the other
  await energy('eAlBulkOtherA', {
    structure: bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.05, cell: 'primitive' }),
    settings: alSettings(),
    ev: -57.29,
  });
  return names;
}
