import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { readUpfHeader, UpfReadError } from '../../../../../src/core/dft/qe/upf';
import { functionalName } from '../../../../../src/core/dft/qe/functional';
import { readUpfHeaderFile } from '../../../../../src/core/dft/qe/upfFiles';
import { FIXTURES } from './fixtures';

const head = (name: string) => readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf', name), 'utf8'), name);

describe('UPF header reader', () => {
  it('reads a UPF v2 norm-conserving header (no cutoffs stated: a stated 0 is "unknown")', () => {
    const h = head('Al.pz-vbc.UPF');
    assert.deepEqual(
      {
        format: h.format,
        element: h.element,
        type: h.type,
        functional: h.functional,
        z: h.zValence,
        rel: h.relativistic,
        wfc: h.suggestedEcutwfcRy,
        rho: h.suggestedEcutrhoRy,
      },
      { format: 'UPF v2', element: 'Al', type: 'NC', functional: 'PZ', z: 3, rel: 'no', wfc: undefined, rho: undefined },
    );
    assert.equal(h.functionalComponents, 'SLA PZ NOGX NOGC');
  });

  it('reads an ultrasoft pslibrary header with its suggested cutoffs', () => {
    const h = head('Fe.pbe-spn-rrkjus_psl.0.2.1.UPF');
    assert.equal(h.type, 'US');
    assert.equal(h.functional, 'PBE');
    assert.equal(h.zValence, 16);
    assert.equal(h.relativistic, 'scalar');
    assert.equal(h.coreCorrection, true);
    assert.ok(Math.abs(h.suggestedEcutwfcRy! - 63.926) < 1e-3);
    assert.ok(Math.abs(h.suggestedEcutrhoRy! - 781.737) < 1e-3);
    const si = head('Si.pbe-nl-rrkjus_psl.1.0.0.UPF');
    assert.equal(si.type, 'US'); // pseudo_type="USPP"
    assert.ok(Math.abs(si.suggestedEcutwfcRy! - 43.74) < 0.01);
  });

  it('reads a PAW header written with single-quoted attributes and padded element', () => {
    const h = head('O.pbe-kjpaw.UPF');
    assert.equal(h.type, 'PAW');
    assert.equal(h.element, 'O');
    assert.equal(h.functional, 'PBE');
    assert.equal(h.zValence, 6);
    assert.ok(Math.abs(h.suggestedEcutrhoRy! - 151.107) < 1e-3);
  });

  it('reads UPF v1 headers, with the relativistic treatment from PP_INFO', () => {
    const c = head('C.UPF');
    assert.deepEqual(
      [c.format, c.element, c.type, c.functional, c.zValence, c.relativistic, c.coreCorrection],
      ['UPF v1', 'C', 'NC', 'PZ', 4, 'scalar', false],
    );
    const ni = head('Ni.rel-pbe-nd-rrkjus.UPF');
    assert.deepEqual([ni.type, ni.functional, ni.zValence, ni.relativistic], ['US', 'PBE', 10, 'full']);
    assert.ok(Math.abs(ni.suggestedEcutwfcRy! - 23.557) < 1e-9);
    assert.ok(Math.abs(ni.suggestedEcutrhoRy! - 371.902) < 1e-9);
  });

  it('reads a UPF v1 file to its end for spin-orbit data (PP_ADDINFO), which a header alone cannot show', () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'upf', 'Ni.rel-pbe-nd-rrkjus.UPF'), 'utf8');
    assert.equal(readUpfHeader(text).spinOrbit, undefined);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-upf-'));
    try {
      const body = `${text}\n<PP_MESH>\n${'  1.0E+00  2.0E+00  3.0E+00  4.0E+00\n'.repeat(10_000)}</PP_MESH>\n<PP_RHOATOM>\n</PP_RHOATOM>\n`;
      fs.writeFileSync(path.join(dir, 'so.UPF'), `${body}<PP_ADDINFO>\n</PP_ADDINFO>\n`);
      fs.writeFileSync(path.join(dir, 'sr.UPF'), body);
      assert.equal(readUpfHeaderFile(path.join(dir, 'so.UPF')).spinOrbit, true);
      assert.equal(readUpfHeaderFile(path.join(dir, 'sr.UPF')).spinOrbit, false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses text that is not UPF, saying what to do', () => {
    assert.throws(
      () => readUpfHeader('<?xml version="1.0"?><qes:espresso/>', 'x.xml'),
      (e: unknown) => e instanceof UpfReadError && /x\.xml/.test(e.message) && /upfconv/.test(e.message),
    );
    assert.throws(() => readUpfHeader('<UPF version="2.0.1"><PP_HEADER element="Fe"/>', 'bad.UPF'), /z_valence/);
  });

  it('names functionals the same whether written as components or short names', () => {
    assert.equal(functionalName('SLA PW PBX PBC'), 'PBE');
    assert.equal(functionalName(' SLA  PW   PBE  PBE'), 'PBE');
    assert.equal(functionalName('pbe'), 'PBE');
    assert.equal(functionalName('LDA'), 'PZ');
    assert.equal(functionalName('SLA PW PSX PSC'), 'PBESOL');
    assert.equal(functionalName('BEEF-vdW'), 'BEEF-VDW');
  });
});
