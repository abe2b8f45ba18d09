import assert from 'node:assert/strict';
import { samplePath, standardBandPath } from '../../../../../src/core/dft/electronic/kpath';
import { defaultNbnd, renderNscfInput } from '../../../../../src/core/dft/qe/nscfInput';
import { renderPwInput, type PwInputOptions } from '../../../../../src/core/dft/qe/pwInput';
import { parsePwInput, readKPoints, stringIn, numberIn } from '../../../../../src/core/dft/qe/input';
import type { Structure } from '../../../../../src/core/dft/types';

const a = 2.7345;
const si: Structure = {
  symbols: ['Si', 'Si'],
  positions: [
    [0, 0, 0],
    [a / 2, a / 2, a / 2],
  ],
  cell: [
    [0, a, a],
    [a, 0, a],
    [a, a, 0],
  ],
  pbc: [true, true, true],
};
const pseudos = { Si: { file: 'Si.pbe-rrkj.UPF', sha256: 'abc', functional: 'PBE' } };
const scf: PwInputOptions = {
  purpose: 'production',
  calculation: 'scf',
  ecutwfcRy: 12,
  ecutrhoRy: 48,
  kSpacingPerAngstrom: 0.3,
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
};

describe('NSCF inputs from an SCF', () => {
  it('keeps everything of the SCF but calculation, forces and stress, bands and K_POINTS for a band path', () => {
    const nodes = samplePath(standardBandPath(si), si.cell, 10).nodes;
    const { text, settings, calculation } = renderNscfInput(
      { structure: si, options: scf, pseudos },
      { kind: 'bands', nbnd: 8, path: nodes },
    );
    assert.equal(calculation, 'bands');
    const input = parsePwInput(text);
    assert.equal(stringIn(input, 'control', 'calculation'), 'bands');
    assert.equal(stringIn(input, 'control', 'outdir'), './tmp');
    assert.equal(numberIn(input, 'system', 'nbnd'), 8);
    assert.equal(stringIn(input, 'system', 'occupations'), 'smearing');
    const k = readKPoints(input)!.value;
    assert.ok(k.kind === 'list' && k.unit === 'crystal_b' && k.points.length === nodes.length);
    // the rest of the text is the SCF's, line for line
    const scfText = renderPwInput(si, scf, pseudos).text;
    const body = (t: string) =>
      t.split('\n').filter((l) => !/calculation|tprnfor|tstress|nbnd|K_POINTS|^\s+-?\d+\.\d{10}|^\d+$|^\s+\d+ \d+ \d+ 0 0 0/.test(l));
    assert.deepEqual(body(text), body(scfText));
    assert.equal(settings.kMesh, undefined);
    assert.equal(settings.ecutwfcRy, 12);
  });

  it('puts a DOS on its own mesh with optimised tetrahedra, dropping the smearing', () => {
    const { text, settings } = renderNscfInput(
      { structure: si, options: scf, pseudos },
      { kind: 'dos', nbnd: 8, kMesh: [12, 12, 12], occupations: 'tetrahedra_opt' },
    );
    const input = parsePwInput(text);
    assert.equal(stringIn(input, 'system', 'occupations'), 'tetrahedra_opt');
    assert.equal(stringIn(input, 'system', 'smearing'), undefined);
    assert.deepEqual(settings.kMesh, [12, 12, 12]);
    assert.equal(settings.occupations, 'tetrahedra_opt');
    assert.equal(settings.degaussRy, undefined);
  });

  it("keeps the SCF's smearing for a smeared DOS", () => {
    const { settings } = renderNscfInput(
      { structure: si, options: scf, pseudos },
      { kind: 'dos', nbnd: 8, kMesh: [12, 12, 12], occupations: 'smearing' },
    );
    assert.equal(settings.smearing, 'mv');
  });

  it('refuses to continue a relaxation input', () => {
    assert.throws(
      () =>
        renderNscfInput(
          { structure: si, options: { ...scf, calculation: 'relax' }, pseudos },
          { kind: 'dos', nbnd: 8, kMesh: [4, 4, 4], occupations: 'smearing' },
        ),
      /run an SCF at the final geometry first/,
    );
  });

  it('asks for the occupied bands and at least four empty ones', () => {
    assert.equal(defaultNbnd(8, 1), 8);
    assert.equal(defaultNbnd(3, 1), 6);
    assert.equal(defaultNbnd(40, 1), 24);
  });
});
