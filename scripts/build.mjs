// One build for every bundle the product ships, plus (with --tests) the bundle of
// the suites that run inside VS Code.
//   node scripts/build.mjs [--production] [--tests] [--watch] [--cli]
// --cli builds the command-line bundle alone (what `npm run demo` runs), without the notices file.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const withTests = args.has('--tests');
const watch = args.has('--watch');
const cliOnly = args.has('--cli');

// ssh2 loads an optional native crypto binding and cpu-features inside try/catch;
// leaving them out of the bundle makes it fall back to its pure-JS code paths.
const nodeExternals = ['vscode', 'cpu-features', '*.node'];
// Prefer packages' ES module builds: some UMD builds (jsonc-parser's) require() files at
// run time that a bundle does not contain.
const nodeMainFields = ['module', 'main'];

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
  legalComments: 'none',
};

/** @type {esbuild.BuildOptions[]} */
const targets = [
  {
    ...common,
    // extension.js holds only what activation needs; workbench.js (agents, jobs, views,
    // panels) is required by it at run time after activate() returns.
    entryPoints: { extension: 'src/extension/extension.ts', workbench: 'src/extension/workbench.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: nodeExternals,
    mainFields: nodeMainFields,
    // Lets bench:activation measure from the first line of the bundle.
    banner: { js: 'globalThis.__dreamsLoadStart = globalThis.__dreamsLoadStart ?? Date.now();' },
  },
  {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: nodeExternals,
    mainFields: nodeMainFields,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    // Notebook renderers are ES modules that export activate().
    entryPoints: { 'canvas-renderer': 'webview-ui/renderer/index.ts' },
    outdir: 'dist/renderer',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // The 3-D viewer (3Dmol.js) is its own chunk, loaded when a structure first comes into view.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  },
  {
    ...common,
    entryPoints: { provenance: 'webview-ui/provenance/index.ts', structure: 'webview-ui/structure-editor/index.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

if (withTests) {
  // Each suite is its own bundle next to the runner, which adds every *.vscode.test.js it finds.
  const suites = fs
    .readdirSync(path.join(root, 'test/vscode'), { recursive: true })
    .filter((f) => String(f).endsWith('.vscode.test.ts'))
    .map((f) => [path.basename(String(f), '.ts'), path.join('test/vscode', String(f))]);
  targets.push({
    ...common,
    sourcemap: 'inline',
    minify: false,
    entryPoints: { index: 'test/vscode/index.ts', ...Object.fromEntries(suites) },
    outdir: 'out/test/vscode',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // mocha is loaded from node_modules at run time inside the extension host.
    external: [...nodeExternals, 'mocha'],
    mainFields: nodeMainFields,
  });
}

const present = targets.filter((t) => Object.values(t.entryPoints).every((e) => fs.existsSync(path.join(root, e))));
const skipped = targets.filter((t) => !present.includes(t)).flatMap((t) => Object.values(t.entryPoints));
if (skipped.length) console.warn(`build: no entry point yet for ${skipped.join(', ')}`);
const existing = cliOnly ? present.filter((t) => 'cli' in t.entryPoints) : present;

// QE's input definitions are GPL-2.0-or-later data: they ship as separate files with their
// notice (see src/core/dft/qe/definitions.ts), not inside the MIT-licensed bundles.
function copyQeDefinitions() {
  const from = path.join(root, 'src/core/dft/qe/defs');
  const to = path.join(root, 'dist/qe-defs');
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) if (/^pw-.*\.json$/.test(f)) fs.copyFileSync(path.join(from, f), path.join(to, f));
  fs.copyFileSync(path.join(root, 'scripts/qe-defs/source/NOTICE.md'), path.join(to, 'NOTICE.md'));
}

// The bundles drop the libraries' licence comments (legalComments: 'none'); their licences ship
// instead in one file, written from what esbuild actually bundled (its metafile): each
// package's name, version, licence field and licence text.
function writeThirdPartyNotices(results) {
  const packages = new Map();
  for (const r of results) {
    for (const input of Object.keys(r.metafile?.inputs ?? {})) {
      const m = /^(.*node_modules\/)((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) packages.set(m[2], path.join(root, m[1], m[2]));
    }
  }
  const sections = [...packages.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const licenceFile = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
      const text = licenceFile ? fs.readFileSync(path.join(dir, licenceFile), 'utf8').trim() : undefined;
      const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see the package');
      if (!text) console.warn(`build: ${name} has no licence file; THIRD_PARTY_NOTICES.md names its licence (${licence}) only`);
      return `## ${name} ${pkg.version}\n\nLicence: ${licence}\n\n${text ? '```\n' + text + '\n```' : '(no licence file in the package)'}\n`;
    });
  fs.writeFileSync(
    path.join(root, 'dist/THIRD_PARTY_NOTICES.md'),
    `# Third-party notices\n\nThe bundles in dist/ contain these npm packages (${packages.size}), each under its own licence.\n\n${sections.join('\n')}`,
  );
  return packages.size;
}

// The symmetry library (moyo) is WebAssembly: its .wasm file ships beside the node bundles, which
// load it from there (src/core/dft/structure/moyo.ts), never from a URL.
function copyMoyoWasm() {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(root, 'node_modules/@spglib/moyo-wasm/moyo_wasm_bg.wasm'), path.join(root, 'dist/moyo_wasm_bg.wasm'));
}

// The ASE i-PI client script a calculator: { kind: ipi } objective can name ships beside the CLI.
function copyIpiClient() {
  fs.mkdirSync(path.join(root, 'dist/ipi'), { recursive: true });
  fs.copyFileSync(
    path.join(root, 'src/core/calculators/ipi/python/dreams_ase_ipi_client.py'),
    path.join(root, 'dist/ipi/dreams_ase_ipi_client.py'),
  );
}

const t0 = Date.now();
copyQeDefinitions();
copyMoyoWasm();
copyIpiClient();
if (watch) {
  for (const t of existing) (await esbuild.context(t)).watch();
  console.log('build: watching for changes');
} else {
  try {
    // The product bundles record what they contain, for the third-party notices.
    const results = await Promise.all(existing.map((t) => esbuild.build({ ...t, metafile: t.outdir !== 'out/test/vscode' })));
    if (!cliOnly) writeThirdPartyNotices(results.filter((_, i) => existing[i].outdir !== 'out/test/vscode'));
  } catch {
    console.error('build failed: fix the errors above and run `npm run build` again.');
    process.exit(1);
  }
  console.log(
    `build: ${cliOnly ? 'the cli bundle' : `${existing.length} bundles`} in ${Date.now() - t0} ms${production ? ' (production)' : ''}`,
  );
}
