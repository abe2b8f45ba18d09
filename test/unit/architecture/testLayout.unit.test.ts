// Tests mirror the source (docs/ARCHITECTURE.md "Tests mirror the source"): a unit test sits in
// the folder of the module it tests, so every folder of test/unit/ that holds one is a folder of
// src/ (test/unit/core/guard/ for src/core/guard/), scripts/ or webview-ui/. Whole-tree checks
// stay in test/unit/architecture/; helpers (support/) hold no tests and may sit anywhere.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** The source folder a folder of test/unit/ mirrors (relative to the root, '/'-separated). */
function sourceFolderOf(testFolder: string): string {
  return /^(scripts|webview-ui)(\/|$)/.test(testFolder) ? testFolder : `src/${testFolder}`;
}

/** Folders of a unit-test tree (relative to it) that hold a test but mirror no folder of the source. */
function strayTestFolders(unitRoot: string, projectRoot: string): string[] {
  const folders = new Set(
    fs
      .readdirSync(unitRoot, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.unit.test.ts'))
      .map((d) => path.relative(unitRoot, d.parentPath).split(path.sep).join('/')),
  );
  return [...folders]
    .filter((f) => f !== '' && f !== 'architecture' && !f.startsWith('architecture/'))
    .filter((f) => !fs.existsSync(path.join(projectRoot, sourceFolderOf(f))))
    .sort();
}

describe('tests mirror the source', () => {
  it('finds a test folder that mirrors no source folder (on a made-up tree)', () => {
    const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'dreams-layout-'));
    try {
      for (const dir of [
        'src/core/guard',
        'scripts/bench',
        'test/unit/core/guard/support',
        'test/unit/core/gaurd',
        'test/unit/scripts/bench',
      ])
        fs.mkdirSync(path.join(tmp, dir), { recursive: true });
      for (const file of [
        'test/unit/core/guard/guardedCall.unit.test.ts',
        'test/unit/core/guard/support/rig.ts',
        'test/unit/core/gaurd/typo.unit.test.ts',
        'test/unit/scripts/bench/parsers.unit.test.ts',
        'test/unit/architecture/layers.unit.test.ts',
      ]) {
        fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
        fs.writeFileSync(path.join(tmp, file), '');
      }
      assert.deepEqual(strayTestFolders(path.join(tmp, 'test/unit'), tmp), ['core/gaurd']);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('puts every unit test in a folder that mirrors one of src/, scripts/ or webview-ui/', () => {
    const unitRoot = path.join(root, 'test/unit');
    const tests = fs.readdirSync(unitRoot, { recursive: true }).filter((f) => String(f).endsWith('.unit.test.ts'));
    assert.ok(tests.length > 150, `finds the unit tests (${tests.length})`);
    assert.deepEqual(strayTestFolders(unitRoot, root), []);
  });
});
