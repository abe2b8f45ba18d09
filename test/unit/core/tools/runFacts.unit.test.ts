import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import type { PhysicalSettings, Structure } from '../../../../src/core/dft/types';
import { runFactsMeta } from '../../../../src/core/tools/runFacts';

const out = (file: string) => parsePwOutput(fs.readFileSync(path.resolve(__dirname, '../../../fixtures', file), 'utf8'));
const si: Structure = {
  symbols: ['Si', 'Si'],
  positions: [
    [0, 0, 0],
    [1.36, 1.36, 1.36],
  ],
  cell: [
    [0, 2.7, 2.7],
    [2.7, 0, 2.7],
    [2.7, 2.7, 0],
  ],
  pbc: [true, true, true],
};
const settings = (nspin: 1 | 2): PhysicalSettings => ({
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 16,
  ecutrhoRy: 64,
  pseudopotentials: {},
  occupations: 'fixed',
  nspin,
});

describe('what run_pw records of a relaxation and a spin-polarised run', () => {
  it('a vc-relax whose final SCF is above the thresholds is recorded as not converged, with the failure kind and the stress deviation', () => {
    const f = runFactsMeta({ calculation: 'vc-relax', structure: si, settings: settings(1) }, out('qe/runs/si-vc-final.out'));
    assert.equal(f.relaxation?.converged, false);
    assert.equal(f.relaxation?.failureKind, 'final-scf-above-thresholds');
    assert.equal(f.relaxation?.pressureThresholdKbar, 0.2);
    assert.ok(f.relaxation!.stressDeviationKbar! > 6);
    assert.equal(f.kpointCount, 10);
  });

  it('a converged relax: forces and the threshold in eV/Å; an SCF gets no relaxation facts', () => {
    const f = runFactsMeta({ calculation: 'relax', structure: si, settings: settings(1) }, out('qe/runs/si-relax.out'));
    assert.equal(f.relaxation?.converged, true);
    assert.ok(f.relaxation!.maxForceEvPerAngstrom! < f.relaxation!.forceThresholdEvPerAngstrom!);
    assert.equal(
      runFactsMeta({ calculation: 'scf', structure: si, settings: settings(1) }, out('qe/runs/si-relax.out')).relaxation,
      undefined,
    );
  });

  it('the moments of an nspin = 2 run, and none for nspin = 1', () => {
    const fe: Structure = {
      symbols: ['Fe', 'Fe'],
      labels: ['Fe1', 'Fe2'],
      positions: [
        [0, 0, 0],
        [1.415, 1.415, 1.415],
      ],
      cell: [
        [2.83, 0, 0],
        [0, 2.83, 0],
        [0, 0, 2.83],
      ],
      pbc: [true, true, true],
    };
    const afm = runFactsMeta({ calculation: 'scf', structure: fe, settings: settings(2) }, out('dft/magnetism/fe-bcc-afm.out'));
    assert.equal(afm.magnetization?.order, 'antiferromagnetic');
    assert.equal(afm.magnetization?.siteMomentsBohrMagneton?.length, 2);
    assert.equal(
      runFactsMeta({ calculation: 'scf', structure: fe, settings: settings(1) }, out('dft/magnetism/fe-bcc-afm.out')).magnetization,
      undefined,
    );
  });
});
