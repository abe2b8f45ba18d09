import assert from 'node:assert/strict';
import { physicalSettingsDifferences } from '../../../../src/core/dft/settingsComparison';
import type { PhysicalSettings } from '../../../../src/core/dft/types';

const a: PhysicalSettings = {
  code: 'pw.x',
  codeVersion: '6.7MaX',
  functional: 'PBE',
  ecutwfcRy: 40,
  ecutrhoRy: 320,
  pseudopotentials: { Pt: { file: 'Pt.UPF', sha256: 'aa' }, O: { file: 'O.UPF' } },
  kMesh: [6, 6, 1],
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
  extra: { vdw_corr: 'dft-d3' },
};
const settings = (d: PhysicalSettings) => physicalSettingsDifferences(a, d).map((x) => x.setting);

describe('physical settings differences', () => {
  it('finds nothing between identical settings and names each differing one', () => {
    assert.deepEqual(settings({ ...a }), []);
    assert.deepEqual(settings({ ...a, degaussRy: 0.01, nspin: 2 }), ['degaussRy', 'nspin']);
    assert.deepEqual(settings({ ...a, extra: {} }), ['extra.vdw_corr']);
    assert.deepEqual(settings({ ...a, extra: { vdw_corr: 'dft-d3', tot_charge: 1 } }), ['extra.tot_charge']);
  });

  it('compares functionals case-insensitively and versions only when both are known', () => {
    assert.deepEqual(settings({ ...a, functional: 'pbe' }), []);
    assert.deepEqual(settings({ ...a, functional: 'PBEsol' }), ['functional']);
    assert.deepEqual(settings({ ...a, codeVersion: undefined }), []);
    assert.deepEqual(settings({ ...a, codeVersion: '7.2' }), ['codeVersion']);
  });

  it('compares pseudopotentials by hash when both have one, else by file, and only for shared elements', () => {
    assert.deepEqual(settings({ ...a, pseudopotentials: { Pt: { file: 'renamed.UPF', sha256: 'aa' }, O: { file: 'O.UPF' } } }), []);
    assert.deepEqual(settings({ ...a, pseudopotentials: { Pt: { file: 'Pt.UPF', sha256: 'bb' }, O: { file: 'O.UPF' } } }), [
      'pseudopotentials.Pt',
    ]);
    assert.deepEqual(settings({ ...a, pseudopotentials: { O: { file: 'O2.UPF' } } }), ['pseudopotentials.O']);
    assert.deepEqual(settings({ ...a, pseudopotentials: { O: { file: 'O.UPF' }, C: { file: 'C.UPF' } } }), []);
  });

  it('ignores the settings a caller varies on purpose', () => {
    const b = { ...a, ecutwfcRy: 50, ecutrhoRy: 400, kMesh: [8, 8, 1] as [number, number, number] };
    assert.deepEqual(
      physicalSettingsDifferences(a, b, ['ecutwfcRy', 'ecutrhoRy']).map((d) => d.setting),
      ['kMesh'],
    );
    assert.deepEqual(physicalSettingsDifferences(a, { ...a, extra: {} }, ['extra.vdw_corr']), []);
  });
});
