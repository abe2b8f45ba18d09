// npm run demo: the fcc Al lattice constant, offline, with pw.x on this machine (one run per
// core side by side), through the same agent loop, guard and provenance as a model-driven run.
// Prints the lattice constant, the time the build and the study took, and where the notebook
// and report are.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fail = (msg) => {
  console.error(`demo: ${msg}`);
  process.exit(1);
};

if (!fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) fail('dependencies are not installed; run `npm install` first.');
if (spawnSync('sh', ['-c', 'command -v pw.x']).status !== 0) {
  fail(
    'pw.x not found. Install Quantum ESPRESSO and its pseudopotentials:\n' +
      '  sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data',
  );
}
const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
if (!fs.existsSync(path.join(pseudoDir, 'Al.pz-vbc.UPF'))) {
  fail(
    `${path.join(pseudoDir, 'Al.pz-vbc.UPF')} not found. Install the pseudopotentials:\n` +
      '  sudo apt-get install -y quantum-espresso-data\n(or set DREAMS_PSEUDO_DIR to a folder holding Al.pz-vbc.UPF)',
  );
}

const started = Date.now();
// The demo runs the command line only: its bundle alone is built (a fifth of the whole build's work).
console.log('building the command line ...');
if (spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--cli'], { cwd: root, stdio: 'inherit' }).status !== 0)
  fail('the build failed (see above).');

const runsDir = path.join(root, 'runs');
const before = new Set(fs.existsSync(runsDir) ? fs.readdirSync(runsDir) : []);
const t0 = Date.now();
const run = spawnSync(
  process.execPath,
  [
    path.join(root, 'dist/cli.js'),
    'run',
    path.join(root, 'examples/al-lattice-constant.yaml'),
    '--offline',
    '--runs-dir',
    runsDir,
    '--pseudo-dir',
    pseudoDir,
    '--local-jobs',
    'auto',
  ],
  { cwd: root, stdio: 'inherit' },
);
const minutes = ((Date.now() - t0) / 60000).toFixed(1);
const made = (fs.existsSync(runsDir) ? fs.readdirSync(runsDir) : [])
  .filter((d) => !before.has(d))
  .sort()
  .at(-1);
if (!made) fail('the run did not start (see above).');

// The lattice constant as the run recorded it: the latest lattice_constant artifact in the log.
const dir = path.join(runsDir, made);
const events = fs
  .readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const lattice = events.filter((e) => e.kind === 'provenance.artifact' && e.payload.name === 'lattice_constant').at(-1)?.payload;
const judged = events.filter((e) => e.kind === 'report.judged').at(-1)?.payload;
console.log('');
if (lattice) {
  console.log(
    `fcc Al (LDA, Al.pz-vbc.UPF): a = ${lattice.value.toFixed(4)} Å  [${lattice.id}; report ${judged?.accepted ? 'accepted' : 'not accepted'} by the report judge]`,
  );
}
console.log(`took ${minutes} min (${((Date.now() - started) / 1000).toFixed(1)} s with the build)`);
console.log(`notebook: ${path.relative(process.cwd(), path.join(dir, 'canvas.dreams'))}  (open it in VS Code with the DREAMS extension)`);
console.log(`report:   ${path.relative(process.cwd(), path.join(dir, 'report.md'))}`);
process.exit(run.status ?? 1);
