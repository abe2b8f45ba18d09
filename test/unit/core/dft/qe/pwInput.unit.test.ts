// A relaxation's two stopping criteria: the force threshold given to make_pw_input and the energy
// threshold pw.x also requires, kept in pw.x's own ratio (1e-4 Ry : 1e-3 Ry/bohr).
import assert from 'node:assert/strict';
import { renderPwInput, type PwInputOptions } from '../../../../../src/core/dft/qe/pwInput';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import { numberIn, parsePwInput } from '../../../../../src/core/dft/qe/input';
import { validatePwInput } from '../../../../../src/core/dft/qe/validate';

const al = bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4.05, cell: 'primitive' });
const base: PwInputOptions = {
  purpose: 'production',
  calculation: 'relax',
  ecutwfcRy: 30,
  ecutrhoRy: 240,
  kMesh: [4, 4, 4],
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
};
const render = (o: Partial<PwInputOptions>) =>
  parsePwInput(renderPwInput(al, { ...base, ...o }, { Al: { file: 'Al.pz-vbc.UPF', sha256: 'x' } }).text);

describe('relaxation thresholds in make_pw_input', () => {
  it('writes forc_conv_thr in Ry/bohr and etot_conv_thr at a tenth of it (bohr), as pw.x pairs its defaults', () => {
    const parsed = render({ forceThresholdEvPerAngstrom: 0.25 });
    const forc = numberIn(parsed, 'control', 'forc_conv_thr')!;
    assert.ok(Math.abs(forc - 0.25 / 25.71104309541616) < 1e-7, `forc_conv_thr = ${forc}`);
    assert.ok(Math.abs(numberIn(parsed, 'control', 'etot_conv_thr')! - forc / 10) < 1e-9);
    // pw.x's default force threshold keeps its default energy threshold
    const dflt = render({ forceThresholdEvPerAngstrom: 0.0257112 });
    assert.ok(Math.abs(numberIn(dflt, 'control', 'etot_conv_thr')! - 1e-4) < 1e-8);
  });

  it('leaves both to pw.x when no threshold is given, and writes no energy threshold outside relaxations', () => {
    assert.equal(numberIn(render({}), 'control', 'etot_conv_thr'), undefined);
    assert.equal(numberIn(render({ calculation: 'scf', forceThresholdEvPerAngstrom: 0.1 }), 'control', 'etot_conv_thr'), undefined);
  });

  it('writes &IONS for relaxations and ensemble runs, which pw.x 6.7 reads, and the validator accepts the ensemble input', () => {
    for (const calculation of ['relax', 'ensemble'] as const) {
      const text = renderPwInput(
        al,
        { ...base, calculation, ...(calculation === 'ensemble' ? { inputDft: 'BEEF-vdW' } : {}) },
        { Al: { file: 'Al.pz-vbc.UPF', sha256: 'x' } },
      ).text;
      assert.match(text, /&IONS/i, calculation);
      const problems = validatePwInput(text, { qeVersion: '6.7' }).diagnostics.filter(
        (d) => d.severity === 'error' && d.code !== 'unknown-pseudopotential' && !/pseudo/i.test(d.code),
      );
      assert.deepEqual(
        problems.map((d) => d.message),
        [],
        calculation,
      );
    }
    assert.doesNotMatch(renderPwInput(al, { ...base, calculation: 'scf' }, { Al: { file: 'Al.pz-vbc.UPF', sha256: 'x' } }).text, /&IONS/i);
  });
});
