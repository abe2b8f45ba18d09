import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { DosValue } from '../../../../../src/core/artifacts/electronic';
import { dosZero, ZERO_SOURCE } from '../../../../../src/core/dft/electronic/energyZero';
import { parsePwOutput } from '../../../../../src/core/dft/qe/output/parse';
import { parseDosFile } from '../../../../../src/core/dft/qe/postprocessing/dosx';
import { dosSvg, electronicStructureReportSection } from '../../../../../src/core/report/sections/electronicStructure';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';

// QE 6.7 on diamond Si: the SCF (fixed occupations) and dos.x after a tetrahedra nscf (test/fixtures/dft/qe-postprocessing/si/dos-tetrahedra)
const DIR = path.join(__dirname, '../../../../fixtures/dft/qe-postprocessing/si/dos-tetrahedra');
const file = parseDosFile(fs.readFileSync(path.join(DIR, 'dreams.dos'), 'utf8'));
const scf = parsePwOutput(fs.readFileSync(path.join(DIR, 'scf.out'), 'utf8'));
const value = (withZero: boolean): DosValue => ({
  energiesEv: file.energiesEv,
  total: file.dos,
  integrated: file.integrated,
  occupations: 'tetrahedra_opt',
  fermiEnergyEv: file.fermiEnergyEv!,
  ...(withZero
    ? {
        reference: dosZero(
          { scfOccupations: 'fixed', scfHighestOccupiedEv: scf.highestOccupiedEv! },
          { energyEv: file.fermiEnergyEv!, source: ZERO_SOURCE.dosxFermi },
        )!,
      }
    : {}),
});

describe("the report's DOS of an insulator", () => {
  it('draws it against the valence-band maximum, as the band structure, and marks E_VBM, not E_F', () => {
    const svg = dosSvg(value(true), 'a-8');
    assert.match(svg, /E − E_VBM \(eV\)/);
    assert.match(svg, /E_VBM = 6\.270 eV/);
    assert.doesNotMatch(svg, /E − E_F/);
  });

  it('says the zero and what printed it in the line under the plot', () => {
    const a = { id: 'a-8', name: 'dos', kind: 'table', status: 'final', value: value(true) } as unknown as ArtifactRecord;
    const md = electronicStructureReportSection([a])!.markdown.join('\n');
    assert.match(md, /zero at the valence-band maximum \(6\.270 eV, highest occupied level of the SCF, pw\.x\)/);
    assert.match(md, /Fermi energy \*\*6\.738 eV\*\*/);
  });

  it('keeps a DOS recorded before the zero existed against its E_F', () => {
    assert.match(dosSvg(value(false), 'a-8'), /E − E_F \(eV\)/);
  });
});
