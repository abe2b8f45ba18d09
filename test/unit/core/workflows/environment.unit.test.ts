import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPseudopotential } from '../../../../src/core/workflows/environment';

// UPF files from the QE fixtures (see their NOTICE.md), copied under names that compete.
const upf = path.resolve(__dirname, '../../../fixtures/qe/upf');

describe('pseudopotential defaults for templates', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pseudo-'));
    for (const f of ['Al.pz-vbc.UPF', 'Fe.pbe-spn-rrkjus_psl.0.2.1.UPF', 'Ni.rel-pbe-nd-rrkjus.UPF', 'Si.pbe-nl-rrkjus_psl.1.0.0.UPF'])
      fs.copyFileSync(path.join(upf, f), path.join(dir, f));
    // A second PBE Si file that states no cutoffs: ranked after the one that does.
    fs.writeFileSync(
      path.join(dir, 'Si.pbe-aaa.UPF'),
      fs
        .readFileSync(path.join(upf, 'Si.pbe-nl-rrkjus_psl.1.0.0.UPF'), 'utf8')
        .replace(/wfc_cutoff="[^"]*"/, 'wfc_cutoff="0"')
        .replace(/rho_cutoff="[^"]*"/, 'rho_cutoff="0"')
        .replace(/Suggested minimum cutoff[^\n]*\n/g, ''),
    );
  });

  it('picks the file the header says is for the element and functional, with stated cutoffs first', () => {
    const si = findPseudopotential(dir, { element: 'Si', functional: 'PBE' });
    assert.equal(si?.file, 'Si.pbe-nl-rrkjus_psl.1.0.0.UPF');
    assert.equal(si?.type, 'US');
    assert.ok(si!.suggestedEcutwfcRy! > 0);
    assert.equal(findPseudopotential(dir, { element: 'Al', functional: 'LDA' })?.file, 'Al.pz-vbc.UPF');
    assert.equal(findPseudopotential(dir, { element: 'Al', functional: 'PBE' }), undefined, 'no PBE Al in the library');
  });

  it('takes a full-relativistic file only when it is the one there is, and a named file as named', () => {
    assert.equal(findPseudopotential(dir, { element: 'Ni', functional: 'PBE' })?.file, 'Ni.rel-pbe-nd-rrkjus.UPF');
    assert.equal(findPseudopotential(dir, { element: 'Si', functional: 'PBE', file: 'Si.pbe-aaa.UPF' })?.file, 'Si.pbe-aaa.UPF');
    assert.equal(findPseudopotential(dir, { element: 'Si', functional: 'PBE', file: 'missing.UPF' }), undefined);
  });
});
