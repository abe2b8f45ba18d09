// One element table for the whole project: symbols, masses, covalent radii and colours live in
// src/shared/elements.ts, which the core, the CLI and the webview bundles all read.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { atomicMassAmu } from '../../../src/core/dft/structure/atomicMasses';
import { CHEMICAL_SYMBOLS as IO_SYMBOLS } from '../../../src/core/dft/io/elements';
import { covalentRadiusAngstrom } from '../../../src/core/dft/structure/covalentRadii';
import { allElements, CHEMICAL_SYMBOLS, elementOf } from '../../../src/shared/elements';

const root = path.resolve(__dirname, '../../..');
const TABLE = 'src/shared/elements.ts';

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f))
    .map((f) => path.join(dir, f));
}

// Values only an element table holds: oxygen's Jmol colour, oxygen's Cordero radius, platinum's
// weight, and the run of symbols after chlorine.
const TABLE_MARKERS = [/#ff0d0d/i, /\bO:\s*\[?['"#\w, ]*0\.66\b/, /\bPt:\s*195\.08\b/, /'Cl',\s*'Ar',\s*'K'/];

describe('the element table', () => {
  it('is defined once: no other source file holds element colours, radii, masses or the symbol list', () => {
    const files = [...sources('src'), ...sources('webview-ui')].filter((f) => f !== TABLE);
    assert.ok(files.length > 100, 'the scan found too few files');
    const offences = files.flatMap((f) => {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      return TABLE_MARKERS.filter((re) => re.test(text)).map((re) => `${f} matches ${re}`);
    });
    assert.deepEqual(offences, []);
  });

  it('holds the 118 elements in order, and the core reads its masses, radii and symbols from it', () => {
    assert.equal(allElements().length, 118);
    assert.equal(CHEMICAL_SYMBOLS[79], 'Au');
    assert.equal(IO_SYMBOLS, CHEMICAL_SYMBOLS);
    assert.equal(atomicMassAmu('Pt'), elementOf('Pt')!.massAmu);
    assert.equal(covalentRadiusAngstrom('Ga'), elementOf('Ga')!.covalentRadiusAngstrom);
    assert.equal(elementOf('Cl')!.colour, '#1ff01f');
    assert.throws(() => atomicMassAmu('Xx'), /not a chemical symbol/);
  });
});
