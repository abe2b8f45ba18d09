// Test tiers. `npm test` runs them all; `npm run test:<tier>` runs one.
//   node scripts/test.mjs <all|static|unit|qe|cluster|vscode|vscode-electron|e2e> [mocha args...]
// Each tier checks what it needs first and, when something is missing, says the exact
// command that installs or starts it. A tier that cannot run fails; nothing is skipped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [tierArg = 'all', ...extra] = process.argv.slice(2);
const isRoot = process.getuid?.() === 0;
const CLUSTER_DIR = process.env.DREAMS_TEST_CLUSTER_DIR ?? '/tmp/dreams-test-cluster';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  if (r.error) console.error(`could not start ${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}
const quiet = (cmd, args) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
const has = (cmd) => quiet('sh', ['-c', `command -v ${cmd}`]).status === 0;
// Each mocha tier writes what failed to this file (scripts/mocha-reporter.cjs); the summary repeats it.
const failuresFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-tests-')), 'failures.json');
const mochaArgs = (globs, opts) => [
  path.join(root, 'node_modules/mocha/bin/mocha.js'),
  '--node-option',
  'import=tsx',
  '--timeout',
  String(opts.timeout ?? 10_000),
  '--reporter',
  path.join(root, 'scripts/mocha-reporter.cjs'),
  // A failing test can leave a connection or timer open; the tier must still end and report.
  '--exit',
  ...globs,
  ...extra,
];
const mocha = (globs, opts = {}) =>
  run(process.execPath, mochaArgs(globs, opts), { ...opts, env: { ...opts.env, DREAMS_TEST_FAILURES_FILE: failuresFile } });
/**
 * Two mocha processes at once, one per lane of test files, for a tier whose files mostly keep
 * one core busy (the qe tier's pw.x runs are serial). The first lane writes to the terminal;
 * the second to a log file, printed whole when both have ended. Each lane writes its own
 * failures file; takeFailures() reads them all.
 */
async function mochaLanes(lanes, opts = {}) {
  const dir = path.dirname(failuresFile);
  const codes = await Promise.all(
    lanes.map(
      (files, i) =>
        new Promise((resolve) => {
          const log = i === 0 ? undefined : path.join(dir, `lane-${i + 1}.log`);
          const out = log ? fs.openSync(log, 'w') : 'inherit';
          if (log)
            console.log(
              `(lane ${i + 1}: ${files.map((f) => path.basename(f)).join(', ')} — its output follows the tier's; live in ${log})`,
            );
          const child = spawn(process.execPath, mochaArgs(files, opts), {
            cwd: root,
            stdio: ['ignore', out, out],
            env: { ...process.env, ...opts.env, DREAMS_TEST_FAILURES_FILE: i === 0 ? failuresFile : `${failuresFile}.${i}` },
          });
          child.on('error', (e) => {
            console.error(`could not start mocha: ${e.message}`);
            resolve(1);
          });
          child.on('exit', (code, signal) => {
            if (log) {
              fs.closeSync(out);
              console.log(`\n--- lane ${i + 1} (ran alongside): ${files.map((f) => path.basename(f)).join(', ')} ---`);
              process.stdout.write(fs.readFileSync(log, 'utf8'));
            }
            resolve(code ?? (signal ? 1 : 0));
          });
        }),
    ),
  );
  return codes.every((c) => c === 0) ? 0 : 1;
}
process.on('exit', () => fs.rmSync(path.dirname(failuresFile), { recursive: true, force: true }));
function takeFailures() {
  const files = [
    failuresFile,
    ...fs
      .readdirSync(path.dirname(failuresFile))
      .filter((f) => /^failures\.json\.\d+$/.test(f))
      .map((f) => path.join(path.dirname(failuresFile), f)),
  ];
  return files.flatMap((file) => {
    if (!fs.existsSync(file)) return [];
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return [];
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
}

function fail(msg) {
  console.error(`\n${msg}\n`);
  return 1;
}

function ensureVsCodeHost() {
  if (fs.existsSync(path.join(root, '.vscode-test/code-server/node_modules/code-server/out/node/entry.js'))) return 0;
  console.log('installing the VS Code test host (code-server 4.100.3) into .vscode-test/ ...');
  return run('bash', ['scripts/vscode-host/install-code-server.sh']);
}

function clusterReachable() {
  const cfg = path.join(CLUSTER_DIR, 'ssh/ssh_config');
  if (!fs.existsSync(cfg)) return false;
  return quiet('ssh', ['-F', cfg, '-o', 'ConnectTimeout=5', 'cluster', 'sinfo -h -o %a']).stdout?.trim() === 'up';
}

const tiers = {
  static() {
    console.log('type check (tsc --noEmit)');
    const types = run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
    console.log('format and lint (biome ci --error-on-warnings, as npm run lint; npm run format rewrites)');
    const lint = run(process.execPath, [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'ci', '--error-on-warnings', '.']);
    return types || lint;
  },
  unit() {
    return mocha(['test/unit/**/*.unit.test.ts']);
  },
  qe() {
    if (!has('pw.x')) {
      return fail(
        'qe tier: pw.x not found. Install Quantum ESPRESSO 6.7 and its pseudopotentials:\n' +
          '  sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data',
      );
    }
    if (!fs.existsSync('/usr/share/espresso/pseudo') && !process.env.DREAMS_PSEUDO_DIR) {
      return fail(
        'qe tier: no pseudopotentials in /usr/share/espresso/pseudo. Install them with:\n' +
          '  sudo apt-get install -y quantum-espresso-data   (or set DREAMS_PSEUDO_DIR)',
      );
    }
    // The CO/Pt(111) toy studies keep two pw.x running (coptToyRuns); every other file runs
    // one at a time. Both lanes at once use the two cores a CI machine has; DREAMS_QE_LANES=1,
    // or naming files or mocha options, runs the tier as one mocha process.
    const files = fs
      .readdirSync(path.join(root, 'test/qe'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.qe.test.ts'))
      .map((f) => path.join('test/qe', f))
      .sort();
    // live-replay reuses the toy site-preference study's pw.x results, so it shares its process.
    const studies = files.filter((f) => /(workflow-(beef111|copt111|interrupted-relax)|live-replay)\.qe\.test\.ts$/.test(f));
    if (extra.length || process.env.DREAMS_QE_LANES === '1' || !studies.length)
      return mocha(['test/qe/**/*.qe.test.ts'], { timeout: 600_000 });
    return mochaLanes([files.filter((f) => !studies.includes(f)), studies], { timeout: 600_000 });
  },
  cluster() {
    if (!clusterReachable()) {
      if (!isRoot) {
        return fail(
          'cluster tier: no test cluster answers on 127.0.0.1:2222. Start it (installs munge, SLURM and sshd) with:\n' +
            '  sudo npm run setup:cluster',
        );
      }
      console.log('starting the test cluster (scripts/cluster/setup-cluster.sh) ...');
      if (run('bash', ['scripts/cluster/setup-cluster.sh']) !== 0 || !clusterReachable()) {
        return fail('cluster tier: the test cluster did not come up; see the output above.');
      }
    }
    return mocha(['test/cluster/**/*.cluster.test.ts'], { timeout: 300_000, env: { DREAMS_TEST_CLUSTER_DIR: CLUSTER_DIR } });
  },
  vscode() {
    if (ensureVsCodeHost() !== 0) return fail('vscode tier: could not install code-server (see above).');
    if (run(process.execPath, ['scripts/build.mjs', '--tests']) !== 0) return 1;
    return run(process.execPath, ['--import', 'tsx', 'test/vscode/runInCodeServer.ts'], {
      env: { DREAMS_TEST_FAILURES_FILE: failuresFile },
    });
  },
  'vscode-electron'() {
    if (run(process.execPath, ['scripts/build.mjs', '--tests']) !== 0) return 1;
    return run(process.execPath, ['--import', 'tsx', 'test/vscode/runInElectron.ts']);
  },
  e2e() {
    if (ensureVsCodeHost() !== 0) return fail('e2e tier: could not install code-server (see above).');
    if (run(process.execPath, ['scripts/build.mjs']) !== 0) return 1;
    return mocha(['test/e2e/**/*.e2e.test.ts'], { timeout: 300_000 });
  },
};

const order = ['static', 'unit', 'qe', 'cluster', 'vscode', 'e2e'];
const selected = tierArg === 'all' ? order : [tierArg];
for (const t of selected)
  if (!tiers[t]) {
    console.error(`unknown tier "${t}"; tiers: ${Object.keys(tiers).join(', ')}, all`);
    process.exit(2);
  }

// Tests work in scratch directories. A program run from the project root leaves files
// there (pw.x writes CRASH and input_tmp.in into its working directory), so a tier that
// adds anything at the top level fails and names it.
const EXPECTED_TOP_LEVEL = new Set(['dist', 'out', 'test-results', 'runs', '.vscode-test', 'node_modules', 'bench']);
const topLevel = () => new Set(fs.readdirSync(root));

const summary = [];
for (const t of selected) {
  console.log(`\n=== ${t} tier ===`);
  const t0 = Date.now();
  const before = topLevel();
  let code = await tiers[t]();
  const notes = takeFailures().map((f) => `${f.title}\n      ${f.message.replace(/\n/g, '\n      ')}`);
  const strays = [...topLevel()].filter((f) => !before.has(f) && !EXPECTED_TOP_LEVEL.has(f) && !f.endsWith('.vsix'));
  if (strays.length) {
    const note = `a test left ${strays.join(', ')} in the project root; run programs such as pw.x in a scratch directory (cwd).`;
    console.error(`\n${t} tier: ${note}`);
    notes.push(note);
    code = 1;
  }
  if (code !== 0 && notes.length === 0) notes.push(`exited with status ${code}; see the tier's output above`);
  summary.push({ tier: t, ok: code === 0, seconds: (Date.now() - t0) / 1000, notes });
}
if (selected.length > 1 || summary.some((s) => !s.ok)) {
  console.log('\n=== summary ===');
  for (const s of summary) {
    console.log(`${s.ok ? 'pass' : 'FAIL'}  ${s.tier.padEnd(8)} ${s.seconds.toFixed(1)} s`);
    if (!s.ok) for (const n of s.notes) console.log(`    - ${n}`);
  }
}
process.exit(summary.every((s) => s.ok) ? 0 : 1);
