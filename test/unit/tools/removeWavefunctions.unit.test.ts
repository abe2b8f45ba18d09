import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeWavefunctions } from '../../../src/core/agents/tools/runPw';

function jobDir(files: Record<string, number>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-wfc-'));
  for (const [name, size] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(size));
  }
  return dir;
}

const input = (outdir: string, prefix = 'dreams') => `&CONTROL\n  calculation = 'scf'\n  prefix = '${prefix}'\n  outdir = '${outdir}'\n/\n`;

describe('removeWavefunctions (a finished convergence test)', () => {
  it("removes <outdir>/<prefix>.save/wfc*.dat and <prefix>.wfc*, keeping the output, the charge density and the XML", () => {
    const dir = jobDir({
      'pw.out': 10, 'tmp/dreams.save/wfc1.dat': 1000, 'tmp/dreams.save/wfc2.dat': 1000, 'tmp/dreams.save/charge-density.dat': 50,
      'tmp/dreams.save/data-file-schema.xml': 5, 'tmp/dreams.wfc1': 300, 'tmp/dreams.xml': 5,
    });
    assert.deepEqual(removeWavefunctions(dir, input('./tmp')), { files: 3, bytes: 2300 });
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp/dreams.save')).sort(), ['charge-density.dat', 'data-file-schema.xml']);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')).sort(), ['dreams.save', 'dreams.xml']);
    assert.ok(fs.existsSync(path.join(dir, 'pw.out')));
  });

  it('touches nothing outside the job directory, nor another prefix', () => {
    const outside = jobDir({ 'x.save/wfc1.dat': 10 });
    const dir = jobDir({ 'tmp/other.save/wfc1.dat': 10 });
    assert.deepEqual(removeWavefunctions(dir, input(outside)), { files: 0, bytes: 0 });
    assert.deepEqual(removeWavefunctions(dir, input('../')), { files: 0, bytes: 0 });
    assert.deepEqual(removeWavefunctions(dir, input('./tmp')), { files: 0, bytes: 0 });
    assert.ok(fs.existsSync(path.join(outside, 'x.save/wfc1.dat')) && fs.existsSync(path.join(dir, 'tmp/other.save/wfc1.dat')));
    // pw.x's defaults: outdir './', prefix 'pwscf'
    const plain = jobDir({ 'pwscf.save/wfc1.dat': 7 });
    assert.deepEqual(removeWavefunctions(plain, "&CONTROL\n  calculation = 'scf'\n/\n"), { files: 1, bytes: 7 });
  });
});
