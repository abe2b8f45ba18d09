import assert from 'node:assert/strict';
import { cardFields, fieldName, formatField, formatQuantity, withUnit } from '../../../../webview-ui/renderer/quantities';

describe('artifact card fields (names, units and precision as a lab notebook writes them)', () => {
  it('reads the unit from the key: gapEv → gap (eV), forceEvPerAngstrom → force (eV/Å), totalBohrMagnetonPerCell → total (μB/cell)', () => {
    assert.deepEqual(fieldName('gapEv'), { label: 'gap', unit: 'eV' });
    assert.deepEqual(fieldName('fermiEnergyEv'), { label: 'Fermi energy', unit: 'eV' });
    assert.deepEqual(fieldName('forceEvPerAngstrom'), { label: 'force', unit: 'eV/Å' });
    assert.deepEqual(fieldName('totalBohrMagnetonPerCell'), { label: 'total', unit: 'μB/cell' });
    assert.deepEqual(fieldName('volumeAngstrom3'), { label: 'volume', unit: 'Å³' });
    assert.deepEqual(fieldName('v0A3'), { label: 'v0', unit: 'Å³' });
    assert.deepEqual(fieldName('pointsPerInverseAngstrom'), { label: 'points', unit: 'per Å⁻¹' });
    assert.deepEqual(fieldName('kpointCount'), { label: 'k-point count' });
    assert.deepEqual(fieldName('vbm'), { label: 'VBM' });
    // moments spelled μB in the core's convergence rows (MuB), angles, pw.x's time of a run
    assert.deepEqual(fieldName('deltaMomentMuBPerAtom'), { label: 'Δ moment', unit: 'μB/atom' });
    assert.deepEqual(fieldName('magnetizationMuBPerAtom'), { label: 'magnetization', unit: 'μB/atom' });
    assert.deepEqual(fieldName('absoluteMagnetizationMuBPerAtom'), { label: 'absolute magnetization', unit: 'μB/atom' });
    assert.deepEqual(fieldName('toleranceMomentMuBPerAtom'), { label: 'tolerance moment', unit: 'μB/atom' });
    assert.deepEqual(fieldName('magnetizationMuB'), { label: 'magnetization', unit: 'μB' });
    assert.deepEqual(fieldName('totalMuBPerCell'), { label: 'total', unit: 'μB/cell' });
    assert.deepEqual(fieldName('deltaMevPerAtom'), { label: 'Δ', unit: 'meV/atom' });
    assert.deepEqual(fieldName('alphaDegrees'), { label: 'alpha', unit: '°' });
    assert.deepEqual(fieldName('azimuthDeg'), { label: 'azimuth', unit: '°' });
    assert.deepEqual(fieldName('seconds'), { label: 'time', unit: 's' });
    // QE's own names stay as pw.x spells them
    assert.deepEqual(fieldName('forc_conv_thr'), { label: 'forc_conv_thr' });
  });

  it('gives one quantity one precision: E_F 6.738 (dos.x) and 6.7378 (pw.x) both read 6.738 eV', () => {
    assert.equal(withUnit(6.738, 'eV'), '6.738 eV');
    assert.equal(withUnit(6.7378, 'eV'), '6.738 eV');
    assert.equal(withUnit(6.27, 'eV'), '6.270 eV');
    assert.equal(withUnit(-213.87317941354425, 'eV', true), '-213.87318 eV');
    assert.equal(withUnit(0.02571103373816294, 'eV/Å'), '0.0257 eV/Å');
    assert.equal(withUnit(40, 'Ry'), '40 Ry');
  });

  it('writes a total energy to 10 µeV whatever its size (Al near −57 eV as Fe near −833 eV), a band edge to the meV', () => {
    // Al fcc SCF (test/fixtures/qe/runs/al-fcc-scf.out): -4.19212889 Ry
    const al = -4.19212889 * 13.605693122994;
    assert.equal(formatQuantity(al, 'eV', true), '-57.03682');
    assert.equal(withUnit(al, 'eV', true), '-57.03682 eV');
    assert.equal(formatQuantity(-833.05484, 'eV/atom', true), '-833.05484');
    assert.deepEqual(fieldName('finalEnergyEv'), { label: 'final energy', unit: 'eV', totalEnergy: true });
    assert.deepEqual(fieldName('energyEv', 'vbm'), { label: 'energy', unit: 'eV' });
    assert.deepEqual(cardFields({ e0Ev: al, finalEnergyEv: al, energyEvPerAtom: al, gapEv: 0.579, vbm: { energyEv: 6.27 } }), [
      { label: 'e0', text: '-57.03682 eV' },
      { label: 'final energy', text: '-57.03682 eV' },
      { label: 'energy', text: '-57.03682 eV/atom' },
      { label: 'gap', text: '0.579 eV' },
      { label: 'VBM', fields: [{ label: 'energy', text: '6.270 eV' }] },
    ]);
  });

  it('writes moments to three significant digits with their trailing zeros: 2.30 μB, not 2.3', () => {
    assert.equal(formatQuantity(2.3, 'μB'), '2.30');
    assert.equal(formatQuantity(2.2541, 'μB/cell'), '2.25');
    assert.equal(formatQuantity(6.4901, 'e'), '6.49');
  });

  it('writes booleans as yes/no and short lists out, not .true. or raw JSON', () => {
    assert.equal(formatField(true), 'yes');
    assert.equal(formatField(false), 'no');
    assert.equal(formatField([12, 12, 12]), '[12, 12, 12]');
    assert.equal(formatField(Array.from({ length: 76 }, (_, i) => i)), '76 entries');
  });

  it("lists a record inside a record as named fields with units: a band gap's VBM, a relaxation's thresholds", () => {
    const gap = cardFields({ gapEv: 0.5790000000000006, direct: false, vbm: { energyEv: 6.27, k: [0, 0, 0], location: 'Γ' } });
    assert.deepEqual(gap, [
      { label: 'gap', text: '0.579 eV' },
      { label: 'direct', text: 'no' },
      {
        label: 'VBM',
        fields: [
          { label: 'energy', text: '6.270 eV' },
          { label: 'k', text: '[0, 0, 0]' },
          { label: 'location', text: 'Γ' },
        ],
      },
    ]);
    assert.deepEqual(cardFields({ thresholds: { forceEvPerAngstrom: 0.02571103373816294 } }), [
      { label: 'thresholds', fields: [{ label: 'force', text: '0.0257 eV/Å' }] },
    ]);
    assert.ok(!JSON.stringify(cardFields({ reference: { energyEv: 6.27, kind: 'vbm' } })).includes('{\\"'), 'no JSON text in a field');
  });
});
