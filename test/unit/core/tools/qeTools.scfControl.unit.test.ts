// make_pw_input's SCF-control arguments: written into &ELECTRONS, checked by the schema,
// never part of the physical settings (energies with and without them may be combined),
// and the convergence advisor's suggestions for them now map to make_pw_input.
import assert from 'node:assert/strict';
import path from 'node:path';
import { mapToInputTool } from '../../../../src/core/agents/advisor';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { PwInputValue } from '../../../../src/core/artifacts/shapes';
import { numberIn, parsePwInput, stringIn } from '../../../../src/core/dft/qe/input';
import { physicalSettingsOf } from '../../../../src/core/dft/qe/settings';
import { physicalSettingsDifferences } from '../../../../src/core/dft/settingsComparison';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { guardedCall, type GuardContext } from '../../../../src/core/guard/guardedCall';
import type { ProposedCall } from '../../../../src/core/guard/types';
import { MemoryEventLog } from '../guard/support/memoryEventLog';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const registry = new ToolRegistry();
const UPF = path.resolve(__dirname, '../../../fixtures/qe/upf');
const ctx = (p: MemoryProvenance): GuardContext => ({
  provenance: p,
  approvals: new ApprovalBook(new MemoryEventLog()),
  policy: 'auto-approve',
  run: { runId: 'r', runDir: '/nonexistent', signal: new AbortController().signal, progress: () => {}, services: {} },
});
const call = (args: Record<string, unknown>): ProposedCall => ({
  tool: 'make_pw_input',
  args,
  refs: {},
  reasons: {},
  context: 'test',
  agent: { role: 'dft' },
});

async function alInputs(scf: Record<string, unknown>) {
  const p = new MemoryProvenance();
  const [bulk] = (
    (await guardedCall(
      registry.get('build_bulk')!,
      { ...call({}), tool: 'build_bulk', args: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 } },
      ctx(p),
    )) as { outputs: string[] }
  ).outputs;
  const [table] = await seedCall(p, 'select_pseudopotentials', { elements: ['Al'], functional: 'PZ' }, [
    {
      kind: 'table',
      name: 'pseudopotentials',
      value: { directory: UPF, byElement: { Al: { file: 'Al.pz-vbc.UPF', sha256: 'ab'.repeat(32), functional: 'PZ' } } },
    },
  ]);
  const base = {
    structure: bulk,
    pseudopotentials: table!.id,
    purpose: 'production',
    calculation: 'scf',
    ecutwfcRy: 20,
    ecutrhoRy: 80,
    kSpacingPerAngstrom: 0.3,
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.02,
    nspin: 1,
  };
  const plain = await guardedCall(registry.get('make_pw_input')!, call(base), ctx(p));
  const steered = await guardedCall(registry.get('make_pw_input')!, call({ ...base, ...scf }), ctx(p));
  return { p, plain, steered };
}

describe('make_pw_input SCF control', () => {
  const scf = { electronMaxstep: 250, mixingMode: 'local-TF', mixingBeta: 0.2, diagonalization: 'cg' };

  it('writes electron_maxstep, mixing_mode, mixing_beta and diagonalization into &ELECTRONS; the physical settings are those of the plain input', async () => {
    const { p, plain, steered } = await alInputs(scf);
    assert.equal(steered.status, 'ok', JSON.stringify(steered));
    const v = p.artifact((steered as { outputs: string[] }).outputs[0]!)!.value as PwInputValue;
    const parsed = parsePwInput(v.text);
    assert.equal(numberIn(parsed, 'electrons', 'electron_maxstep'), 250);
    assert.equal(stringIn(parsed, 'electrons', 'mixing_mode'), 'local-TF');
    assert.equal(numberIn(parsed, 'electrons', 'mixing_beta'), 0.2);
    assert.equal(stringIn(parsed, 'electrons', 'diagonalization'), 'cg');
    const w = p.artifact((plain as { outputs: string[] }).outputs[0]!)!.value as PwInputValue;
    assert.deepEqual(v.settings, w.settings);
    assert.deepEqual(physicalSettingsOf(v.text), physicalSettingsOf(w.text), 'read back from the input text, too');
  });

  it('refuses values pw.x does not know, naming the argument', async () => {
    const { steered } = await alInputs({ diagonalization: 'lanczos', electronMaxstep: 0 });
    assert.equal(steered.status, 'refused');
    assert.match((steered as { message: string }).message, /diagonalization[\s\S]*electronMaxstep|electronMaxstep[\s\S]*diagonalization/);
  });

  it('settings comparison treats them as SCF control even when an energy lists them among its extras', () => {
    const a = physicalSettingsOf(
      `&CONTROL\n/\n&SYSTEM\n ibrav=2, celldm(1)=7.6, nat=1, ntyp=1, ecutwfc=20\n/\n&ELECTRONS\n/\nATOMIC_SPECIES\n Al 26.98 Al.pz-vbc.UPF\nATOMIC_POSITIONS alat\n Al 0 0 0\nK_POINTS automatic\n 4 4 4 0 0 0\n`,
    );
    const b = {
      ...a,
      extra: { electron_maxstep: 300, mixing_beta: 0.1, mixing_mode: 'TF', diagonalization: 'ppcg', 'starting_magnetization(1)': 0.5 },
    };
    assert.deepEqual(
      physicalSettingsDifferences(a, b).map((d) => d.setting),
      ['extra.starting_magnetization(1)'],
    );
  });

  it("the convergence advisor's suggestions for them now apply to make_pw_input", () => {
    const mapped = mapToInputTool(
      [
        { parameter: 'electron_maxstep', currentValue: 100, newValue: 200, reason: 'more iterations' },
        { parameter: 'mixing_mode', currentValue: 'plain', newValue: 'local-TF', reason: 'a slab' },
        { parameter: 'diagonalization', currentValue: 'david', newValue: 'cg', reason: 'robust' },
        { parameter: 'mixing_beta', currentValue: 0.7, newValue: 0.35, reason: 'sloshing' },
      ],
      registry.get('make_pw_input')!.schema,
    );
    assert.deepEqual(
      mapped.map((m) => m.apply),
      [
        { tool: 'make_pw_input', argument: 'electronMaxstep', value: 200 },
        { tool: 'make_pw_input', argument: 'mixingMode', value: 'local-TF' },
        { tool: 'make_pw_input', argument: 'diagonalization', value: 'cg' },
        { tool: 'make_pw_input', argument: 'mixingBeta', value: 0.35 },
      ],
    );
    assert.ok(mapped.every((m) => m.notApplicable === undefined));
  });
});
