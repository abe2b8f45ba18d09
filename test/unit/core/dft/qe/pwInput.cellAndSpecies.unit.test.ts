// vc-relax inputs (press_conv_thr, press, cell_dofree, nstep in their namelists) and species
// labels: an antiferromagnet's Fe1 and Fe2 as two species of one pseudopotential, each with its
// own starting magnetization, while the settings its energies carry stay keyed by element.
import assert from 'node:assert/strict';
import { renderPwInput, type PwInputOptions } from '../../../../../src/core/dft/qe/pwInput';
import { arrayIn, numberIn, parsePwInput, readAtomicSpecies, stringIn } from '../../../../../src/core/dft/qe/input';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import { numberOf } from '../../../../../src/core/dft/qe/input/fortran';
import { validatePwInput } from '../../../../../src/core/dft/qe/validate';

const si = bulk({ kind: 'diamond', symbols: ['Si'], aAngstrom: 5.6, cell: 'primitive' });
const base: PwInputOptions = {
  purpose: 'production',
  calculation: 'vc-relax',
  ecutwfcRy: 30,
  ecutrhoRy: 120,
  kMesh: [4, 4, 4],
  occupations: 'fixed',
  nspin: 1,
};
const magnetizations = (p: ReturnType<typeof parsePwInput>) =>
  Object.fromEntries([...arrayIn(p, 'system', 'starting_magnetization')].map(([i, v]) => [i, numberOf(v.value)]));
const pseudo = { Si: { file: 'Si.pbe-rrkj.UPF', sha256: 'x' }, Fe: { file: 'Fe.pbe-nd-rrkjus.UPF', sha256: 'y' } };

describe('vc-relax and species labels in make_pw_input', () => {
  it('writes press_conv_thr, press and cell_dofree in &CELL and nstep in &CONTROL, and pw.x 6.7 accepts them', () => {
    const text = renderPwInput(
      si,
      { ...base, pressureThresholdKbar: 0.2, targetPressureKbar: 10, cellDofree: 'ibrav', maxIonicSteps: 30 },
      pseudo,
    ).text;
    const parsed = parsePwInput(text);
    assert.equal(numberIn(parsed, 'cell', 'press_conv_thr'), 0.2);
    assert.equal(numberIn(parsed, 'cell', 'press'), 10);
    assert.equal(stringIn(parsed, 'cell', 'cell_dofree'), 'ibrav');
    assert.equal(numberIn(parsed, 'control', 'nstep'), 30);
    const errors = validatePwInput(text, { qeVersion: '6.7' }).diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((d) => d.message),
      [],
    );
  });

  it('leaves &CELL empty (pw.x defaults) when nothing is given, and writes no nstep for an SCF', () => {
    const parsed = parsePwInput(renderPwInput(si, { ...base, maxIonicSteps: 5 }, pseudo).text);
    assert.equal(numberIn(parsed, 'cell', 'press_conv_thr'), undefined);
    assert.equal(
      numberIn(parsePwInput(renderPwInput(si, { ...base, calculation: 'scf', maxIonicSteps: 5 }, pseudo).text), 'control', 'nstep'),
      undefined,
    );
  });

  it('an antiferromagnet: one species per label with its own starting magnetization, the settings keyed by element', () => {
    const fe = bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'conventional' });
    const afm = { ...fe, labels: ['Fe1', 'Fe2'] };
    const r = renderPwInput(
      afm,
      {
        ...base,
        calculation: 'scf',
        occupations: 'smearing',
        smearing: 'mv',
        degaussRy: 0.02,
        nspin: 2,
        ecutrhoRy: 240,
        startingMagnetization: { Fe1: 0.5, Fe2: -0.5 },
      },
      pseudo,
    );
    const parsed = parsePwInput(r.text);
    assert.deepEqual(
      readAtomicSpecies(parsed)!.value.map((s) => [s.label, s.pseudopotential]),
      [
        ['Fe1', 'Fe.pbe-nd-rrkjus.UPF'],
        ['Fe2', 'Fe.pbe-nd-rrkjus.UPF'],
      ],
    );
    assert.deepEqual(magnetizations(parsed), { 1: 0.5, 2: -0.5 });
    assert.deepEqual(Object.keys(r.settings.pseudopotentials), ['Fe']);
    // a ferromagnet by element still works on the same structure without labels
    const fm = parsePwInput(
      renderPwInput(
        fe,
        {
          ...base,
          calculation: 'scf',
          occupations: 'smearing',
          smearing: 'mv',
          degaussRy: 0.02,
          nspin: 2,
          startingMagnetization: { Fe: 0.5 },
        },
        pseudo,
      ).text,
    );
    assert.deepEqual(magnetizations(fm), { 1: 0.5 });
  });
});
