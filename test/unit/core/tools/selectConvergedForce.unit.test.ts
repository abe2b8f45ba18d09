// select_converged_settings with the force criterion, end to end through the guard: the forces run_pw records
// of an SCF, the selection's rows and criterion, the report judge's table and the tier-1 rule's words.
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { ConvergenceSelectionValue } from '../../../../src/core/artifacts/shapes';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import { selectionTable } from '../../../../src/core/guard/judges/selectionTables';
import { convergenceChoiceInRange } from '../../../../src/core/guard/rules/convergenceChoiceInRange';
import { quantitySchema } from '../../../../src/core/guard/schemaAnnotations';
import type { ProposedCall } from '../../../../src/core/guard/types';
import { parsePwOutput } from '../../../../src/core/dft/qe/output/parse';
import { scfForcesMeta } from '../../../../src/core/tools/runFacts';
import type { Structure } from '../../../../src/core/dft/types';
import type { ProvenanceWriter } from '../../../../src/core/provenance/view';
import { MemoryProvenance, type SeedArtifact } from '../guard/support/memoryProvenance';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { energy, proposed } from '../guard/support/domain';

const registry = new ToolRegistry();
const RY = 13.605693123;
const RY_PER_BOHR = 25.71104309541616;

const ctxFor = (provenance: ProvenanceWriter): GuardContext => ({
  provenance,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (args: Record<string, unknown>): ProposedCall => ({
  tool: 'select_converged_settings',
  args,
  refs: {},
  reasons: {},
  context: 'test',
  agent: { role: 'dft' },
});
const select = (p: ProvenanceWriter, args: Record<string, unknown>) =>
  guardedCall(registry.get('select_converged_settings')!, call(args), ctxFor(p));

// displaced 2-atom Si (Si.pbe-rrkj.UPF, 3×3×3, as in convergenceForce.unit.test.ts): ecutwfc, E (Ry), x force on atom 1 (Ry/bohr)
const SWEEP: [number, number, number][] = [
  [14, -15.67560734, 0.08567909],
  [18, -15.68312682, 0.08514373],
  [22, -15.68428654, 0.08476132],
  [30, -15.68456628, 0.0846384],
  [40, -15.68464083, 0.08461751],
];
const runs = (withForces = true): SeedArtifact[] =>
  SWEEP.map(([ec, ry, fx], i) => {
    const e = energy(`a-${10 + i}`, ry * RY, { natoms: 2, settings: { ecutwfcRy: ec, ecutrhoRy: 4 * ec, kSpacingPerAngstrom: 0.9 } });
    const f = fx * RY_PER_BOHR;
    return withForces
      ? {
          ...e,
          meta: {
            ...e.meta!,
            forcesEvPerAngstrom: [
              [f, 0, 0],
              [-f, 0, 0],
            ],
          },
        }
      : e;
  });

describe('select_converged_settings by the forces', () => {
  it("reads each run's forces from run_pw's meta, chooses by them alone or beside the energy, and records the criterion and the rows", async () => {
    const p = new MemoryProvenance(runs());
    const energies = SWEEP.map((_, i) => `a-${10 + i}`);
    const out = await select(p, { parameter: 'ecutwfc', energies, criterion: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.equal(out.status, 'ok', JSON.stringify(out));
    const v = p.artifact((out as { outputs: string[] }).outputs[0]!)!.value as ConvergenceSelectionValue;
    assert.equal(v.chosenValue, 22);
    assert.deepEqual(v.criterion, { kind: 'force', toleranceForceEvPerAngstrom: 0.005 });
    const at18 = v.tested.find((t) => t.value === 18)!;
    assert.ok(Math.abs(at18.deltaForceEvPerAngstrom! - (0.08514373 - 0.08461751) * RY_PER_BOHR) < 1e-9);
    assert.ok(Math.abs(at18.maxForceEvPerAngstrom! - 0.08514373 * RY_PER_BOHR) < 1e-9);
    assert.match(
      (out as { summary: string }).summary,
      /ecutwfc converged at 22 Ry \(within 0\.005 eV\/Å in every force component of 40 Ry/,
    );
    // beside 1 meV/atom: 30 Ry, and the selection says both
    const both = await select(p, { parameter: 'ecutwfc', energies, toleranceMevPerAtom: 1, toleranceForceEvPerAngstrom: 0.005 });
    const b = p.artifact((both as { outputs: string[] }).outputs[0]!)!.value as ConvergenceSelectionValue;
    assert.equal(b.chosenValue, 30);
    assert.deepEqual(b.criterion, { kind: 'energy', toleranceMevPerAtom: 1, toleranceForceEvPerAngstrom: 0.005 });
  });

  it('refuses the force criterion without its tolerance (schema), and a sweep whose runs recorded no forces, with what to do', async () => {
    const p = new MemoryProvenance(runs());
    const energies = SWEEP.map((_, i) => `a-${10 + i}`);
    const missing = await select(p, { parameter: 'ecutwfc', energies, criterion: 'force' });
    assert.notEqual(missing.status, 'ok');
    assert.match(JSON.stringify(missing), /toleranceForceEvPerAngstrom/);
    const bare = new MemoryProvenance(runs(false));
    const none = await select(bare, { parameter: 'ecutwfc', energies, criterion: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.notEqual(none.status, 'ok');
    assert.match(JSON.stringify(none), /has no forces recorded, which the force criterion judges it by.*SCF runs only/);
  });

  it("shows the forces in the report judge's table and marks each row by the force tolerance", () => {
    const sel: ConvergenceSelectionValue = {
      parameter: 'ecutwfc',
      tested: [
        { value: 18, energyEvPerAtom: -106.6668, deltaMevPerAtom: 10.29, maxForceEvPerAngstrom: 2.1891, deltaForceEvPerAngstrom: 0.0135 },
        { value: 22, energyEvPerAtom: -106.6747, deltaMevPerAtom: 2.41, maxForceEvPerAngstrom: 2.1793, deltaForceEvPerAngstrom: 0.0037 },
        { value: 40, energyEvPerAtom: -106.6771, deltaMevPerAtom: 0, maxForceEvPerAngstrom: 2.1756, deltaForceEvPerAngstrom: 0 },
      ],
      chosenValue: 22,
      chosen: { ecutwfcRy: 22, ecutrhoRy: 88 },
      criterion: { kind: 'force', toleranceForceEvPerAngstrom: 0.005 },
      converged: true,
    };
    const t = selectionTable('a-20', 'converged_settings', sel);
    assert.match(
      t,
      /judged by force: \|ΔF\| < 0\.005 eV\/Å \(the largest difference of one force component on one atom\); chosen 22, finest 40/,
    );
    assert.match(t, /^ {2}ecutwfc \| E \(eV\/atom\) \| ΔE \(meV\/atom\) \| F max \(eV\/Å\) \| ΔF \(eV\/Å\) \| within$/m);
    assert.match(t, /^ {2}18 \| -106\.6668 \| 10\.29 \| 2\.1891 \| 0\.0135 \| no$/m);
    assert.match(t, /^ {2}22 \| -106\.6747 \| 2\.41 \| 2\.1793 \| 0\.0037 \| yes \(chosen\)$/m);
  });

  it('names the force difference when a value coarser than the force choice is used (tier 1)', () => {
    const sel: SeedArtifact = {
      id: 'a-1',
      kind: 'table',
      name: 'converged_settings',
      creatorTool: 'select_converged_settings',
      value: {
        parameter: 'ecutwfc',
        tested: [
          { value: 18, energyEvPerAtom: -106.6668, deltaMevPerAtom: 10.29, deltaForceEvPerAngstrom: 0.0135 },
          { value: 22, energyEvPerAtom: -106.6747, deltaMevPerAtom: 2.41, deltaForceEvPerAngstrom: 0.0037 },
          { value: 40, energyEvPerAtom: -106.6771, deltaMevPerAtom: 0, deltaForceEvPerAngstrom: 0 },
        ],
        chosenValue: 22,
        chosen: { ecutwfcRy: 22, ecutrhoRy: 88 },
        criterion: { kind: 'energy', toleranceMevPerAtom: 5, toleranceForceEvPerAngstrom: 0.005 },
        converged: true,
      },
      meta: { settings: energy('a-0', 0).meta!.settings },
    };
    const [v] = convergenceChoiceInRange({
      call: proposed('t', { ecutwfcRy: 18 }),
      schema: { type: 'object', properties: { ecutwfcRy: quantitySchema('c', 'Ry') } },
      provenance: new MemoryProvenance([sel]),
    });
    assert.equal(v!.level, 'fail');
    assert.match(
      v!.reasons[0]!,
      /18 Ry is coarser than 22 Ry, the cheapest value a-1 found within 5 meV\/atom and within 0\.005 eV\/Å in every force component of the finest \(18 is 10\.290 meV\/atom and 0\.0135 eV\/Å in a force component from the finest\)/,
    );
  });

  it("run_pw records an SCF's forces in eV/Å, atom by atom, and none for a relaxation", () => {
    const text = [
      '     Program PWSCF v.6.7MaX starts on  5Dec2026 at  6:10:00 ',
      '!    total energy              =     -15.68428654 Ry',
      '     Forces acting on atoms (cartesian axes, Ry/au):',
      '',
      '     atom    1 type  1   force =     0.08476132   -0.00000000    0.00000000',
      '     atom    2 type  1   force =    -0.08476132    0.00000000   -0.00000000',
      '',
      '     Total force =     0.119870     Total SCF correction =     0.000011',
    ].join('\n');
    const out = parsePwOutput(text);
    const structure = { symbols: ['Si', 'Si'] } as Structure;
    const m = scfForcesMeta({ calculation: 'scf', structure }, out);
    const f = m.forcesEvPerAngstrom!;
    assert.equal(f.length, 2);
    assert.ok(Math.abs(f[0]![0] - 0.08476132 * RY_PER_BOHR) < 2e-6 && f[1]![0] === -f[0]![0], JSON.stringify(f));
    // pw.x's "-0.00000000" is a zero
    assert.deepEqual(
      [f[0]![1], f[0]![2], f[1]![1], f[1]![2]].map((x) => Object.is(x, 0)),
      [true, true, true, true],
    );
    assert.deepEqual(scfForcesMeta({ calculation: 'relax', structure }, out), {});
  });
});
