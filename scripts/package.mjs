// npm run package: production build, then a .vsix that holds no source, tests or maps.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { name, version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = path.join(root, `${name}-${version}.vsix`);
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: root, stdio: 'inherit' });
// The README links to docs/ in the repository; with no repository URL to point them at, they are
// left as written (the package's README page shows them as plain relative links).
execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/@vscode/vsce/vsce'),
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--no-rewrite-relative-links',
    '-o',
    out,
  ],
  { cwd: root, stdio: 'inherit' },
);

// A .vsix is a zip: list it with vsce's own listing and refuse anything that should not ship.
const listing = execFileSync(process.execPath, [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], {
  cwd: root,
  encoding: 'utf8',
})
  .trim()
  .split('\n');
const bad = listing.filter((f) => /\.(ts|tsx|map)$/.test(f) || /(^|\/)(test|src|webview-ui|scripts)\//.test(f));
if (bad.length) {
  console.error(`the package would contain source or test files:\n  ${bad.join('\n  ')}\nTighten .vscodeignore.`);
  process.exit(1);
}
if (!listing.includes('dist/THIRD_PARTY_NOTICES.md')) {
  console.error(
    "the package would not contain dist/THIRD_PARTY_NOTICES.md (the bundled libraries' licences); check scripts/build.mjs and .vscodeignore.",
  );
  process.exit(1);
}
console.log(`${path.basename(out)}: ${(fs.statSync(out).size / 1024).toFixed(0)} KiB, ${listing.length} files:\n  ${listing.join('\n  ')}`);
