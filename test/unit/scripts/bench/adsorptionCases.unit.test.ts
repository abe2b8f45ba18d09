// The benchmark's case list: which AdsMind cases EMT covers, read from the copied fixtures
// (DREAMS_ADSMIND_DATA points at a folder that does not exist, so ../shared is never read).
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadCases, readCsv } from '../../../../scripts/bench/adsorptionCases';

describe('bench:adsorption cases', () => {
  it('takes the EMT-covered AA20 cases from the fixtures, excludes the rest with the reason, and generates 98 slab cases', () => {
    const saved = process.env.DREAMS_ADSMIND_DATA;
    process.env.DREAMS_ADSMIND_DATA = path.join(__dirname, 'no-such-folder');
    try {
      const { cases, excluded, dataDir } = loadCases(path.resolve(__dirname, '../../../..'));
      assert.match(dataDir, /test\/fixtures\/adsmind$/);
      const aa20 = cases.filter((c) => c.source === 'AA20').map((c) => c.id);
      assert.deepEqual(aa20, [
        'AA20-03-CuPd-H',
        'AA20-04-CuPd-NNH',
        'AA20-05-AgCu-H',
        'AA20-06-AgCu-NNH',
        'AA20-09-Pt-OH',
        'AA20-10-Pt-OH',
        'AA20-11-Pd-OH',
        'AA20-12-Au-OH',
        'AA20-13-Ag-OH',
      ]);
      assert.deepEqual(excluded, [{ id: 'OCD-GMAE62-041', source: 'OCD-GMAE62', reason: 'EMT has no parameters for Cr' }]);
      const generated = cases.filter((c) => c.source === 'generated');
      assert.equal(generated.length, 7 * 2 * 7);
      assert.ok(generated.every((c) => c.slab.symbols.length === 36));
    } finally {
      if (saved === undefined) delete process.env.DREAMS_ADSMIND_DATA;
      else process.env.DREAMS_ADSMIND_DATA = saved;
    }
  });

  it('reads quoted CSV fields with commas and doubled quotes', () => {
    assert.deepEqual(readCsv('a,b\n"x, y","say ""hi"""\n'), [{ a: 'x, y', b: 'say "hi"' }]);
  });
});
