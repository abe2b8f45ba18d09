// npm run demo: the product's main job on this machine, offline, with local pw.x.
// Until the lattice-constant workflow lands this runs the deepest real path that exists:
// one fcc Al SCF through pw.x.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (spawnSync('sh', ['-c', 'command -v pw.x']).status !== 0) {
  console.error('demo: pw.x not found. Install Quantum ESPRESSO 6.7 and its pseudopotentials:\n' +
    '  sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data');
  process.exit(1);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-demo-'));
const out = execFileSync('pw.x', ['-in', path.join(root, 'test/fixtures/qe/al-fcc-scf.in')], { cwd: dir, encoding: 'utf8' });
const e = /^!\s+total energy\s+=\s+(-?\d+\.\d+) Ry/m.exec(out);
console.log(`fcc Al SCF (pw.x): total energy ${e ? e[1] : '?'} Ry; output in ${dir}`);
