// What the cross judge is shown of each referenced run: its own numbers, without what repeats the
// pressure (the stress tensor of a cubic cell) or says nothing (forces zero on every atom).
import assert from 'node:assert/strict';
import { judgedMeta } from '../../../../../src/core/guard/judges/crossJudge';

const run = (stressKbar: number[][], forcesEvPerAngstrom: number[][]) => ({
  natoms: 2,
  volumeAngstrom3: 40.05,
  scfConverged: true,
  pressureKbar: -15.04,
  settings: { ecutwfcRy: 50, ecutrhoRy: 200, pseudopotentials: { Si: { file: 'Si.pz-vbc.UPF', sha256: 'ab'.repeat(32) } } },
  stressKbar,
  forcesEvPerAngstrom,
});

describe('cross judge: the referenced runs as shown', () => {
  it("leaves out a cubic cell's stress tensor (the pressure on its diagonal) and forces zero on every atom", () => {
    const m = judgedMeta(
      run(
        [
          [-15.04, 0, 0],
          [0, -15.04, 0],
          [0, 0, -15.04],
        ],
        [
          [0, 0, 0],
          [0, 0, 0],
        ],
      ),
    );
    assert.equal(m.pressureKbar, -15.04);
    assert.equal('stressKbar' in m, false, 'the stress repeats the pressure');
    assert.equal('forcesEvPerAngstrom' in m, false, 'zero forces say nothing');
    assert.deepEqual(m.settings, { ecutwfcRy: 50, ecutrhoRy: 200 }, 'no pseudopotential hashes');
  });

  it('keeps a stress tensor that differs from the pressure (a shape to judge) and forces an atom feels', () => {
    const stress = [
      [-12.1, 0, 0],
      [0, -12.1, 0],
      [0, 0, -20.9],
    ];
    const forces = [
      [0, 0, 0.0123],
      [0, 0, -0.0123],
    ];
    const m = judgedMeta({ ...run(stress, forces), pressureKbar: -15.03 });
    assert.deepEqual(m.stressKbar, stress);
    assert.deepEqual(m.forcesEvPerAngstrom, forces);
  });
});
