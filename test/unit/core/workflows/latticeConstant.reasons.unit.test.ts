import assert from 'node:assert/strict';
import { generateSeriesTool } from '../../../../src/core/tools/qeTools';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';
import type { WorkflowEnvironment } from '../../../../src/core/workflows/types';

// A file that states no suggested cutoff (as Al.pz-vbc.UPF), and one that does.
const silent: WorkflowEnvironment = { pseudopotential: ({ file }) => ({ file: file ?? 'Al.pz-vbc.UPF', type: 'NC' }) };
const suggesting: WorkflowEnvironment = {
  pseudopotential: ({ file }) => ({
    file: file ?? 'Al.pbe-n-kjpaw_psl.1.0.0.UPF',
    type: 'PAW',
    suggestedEcutwfcRy: 30,
    suggestedEcutrhoRy: 240,
  }),
};

const reasons = (inputs: Record<string, unknown>, env: WorkflowEnvironment, step: string) =>
  prepareWorkflow(
    'lattice-constant',
    { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05, functional: 'PZ', ...inputs },
    env,
  ).steps.find((s) => s.id === step)!.reasons!;

describe('lattice-constant plan: reasons true of the case at hand', () => {
  it("says the pseudopotential is the library's when the objective named none, and the named file when it did", () => {
    assert.equal(reasons({}, silent, 'pseudopotentials').prefer, "the library's PZ file for Al (the objective named none)");
    assert.equal(reasons({ pseudopotential: 'Al.pz-vbc.UPF' }, silent, 'pseudopotentials').prefer, 'the file named with the objective');
  });

  it('does not claim the cutoffs start from a suggestion the file does not state', () => {
    assert.match(reasons({}, silent, 'cutoff-series').values!, /^in 10-Ry steps from 20 Ry: Al\.pz-vbc\.UPF states no suggested cutoff$/);
    assert.equal(reasons({}, suggesting, 'cutoff-series').values, 'from the 30 Ry its file suggests upward, in 10-Ry steps');
    assert.equal(reasons({ cutoffsRy: [20, 30, 40] }, silent, 'cutoff-series').values, 'the cutoffs the objective asked for');
  });

  it("plans an EOS range the judges' good value for an EOS series includes", () => {
    const note = generateSeriesTool.parameterNotes!.values!;
    const [, lo, upTo] = /EOS lattice scale factors spanning ±(\d+(?:\.\d+)?)(?: to ±(\d+(?:\.\d+)?))? %/.exec(note) ?? [];
    assert.ok(lo, note);
    const hi = upTo ?? lo;
    const values = prepareWorkflow(
      'lattice-constant',
      { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05, functional: 'PZ' },
      silent,
    ).steps.find((s) => s.id === 'eos-series')!.args!.values as number[];
    const rangePercent = Math.max(...values.map((v) => Math.abs(v - 1) * 100));
    assert.ok(
      rangePercent >= Number(lo) - 1e-9 && rangePercent <= Number(hi) + 1e-9,
      `±${rangePercent} % against the note's ±${lo} to ±${hi} %`,
    );
  });
});
