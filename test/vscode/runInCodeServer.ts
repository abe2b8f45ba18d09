/**
 * vscode tier driver: starts real VS Code (code-server) with the extension under
 * development and the bundled suites as extensionTestsPath, waits for VS Code to
 * report the result, prints each test, and exits non-zero on any failure.
 *   node --import tsx test/vscode/runInCodeServer.ts      (after `npm run build -- --tests`)
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, startVsCodeHost } from '../harness/vscodeHost';

const TIMEOUT_MS = Number(process.env.DREAMS_VSCODE_TIMEOUT_MS ?? 15 * 60_000);
// Another code-server (DREAMS_CODE_SERVER_DIR) says which VS Code it is.
const EXPECTED_VERSION = process.env.DREAMS_EXPECT_VSCODE_VERSION ?? '1.100.3';

async function main(): Promise<number> {
  const testsPath = path.join(PROJECT_ROOT, 'out/test/vscode/index.js');
  if (!fs.existsSync(testsPath)) {
    console.error(`no test bundle at ${testsPath}: run \`node scripts/build.mjs --tests\` first`);
    return 1;
  }
  const runDir = path.join(PROJECT_ROOT, 'test-results/vscode-host/vscode-tier');
  const workspace = path.join(PROJECT_ROOT, 'test-results/vscode-tier-workspace');
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  const resultFile = path.join(PROJECT_ROOT, 'test-results/vscode-tier-results.json');
  fs.rmSync(resultFile, { force: true });

  const t0 = Date.now();
  const host = await startVsCodeHost({
    workspace,
    runDir,
    label: 'vscode-tier',
    extensionTestsPath: testsPath,
    env: {
      DREAMS_TEST_RESULT: resultFile,
      DREAMS_TEST_GREP: process.env.DREAMS_TEST_GREP ?? '',
      DREAMS_TEST_WORKSPACE: workspace,
      DREAMS_EXPECT_VSCODE_VERSION: EXPECTED_VERSION,
    },
  });
  let code: number | 'timeout';
  try {
    code = await Promise.race([host.automationExit, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), TIMEOUT_MS))]);
    if (code !== 0) await host.screenshot('vscode-tier-exit').catch(() => undefined);
  } finally {
    await host.stop();
  }
  if (fs.existsSync(resultFile)) {
    const r = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as { results: { title: string; state: string; error?: string }[] };
    for (const t of r.results) {
      console.log(`${t.state === 'passed' ? '  ✓' : '  ✗'} ${t.title}`);
      if (t.error)
        console.log(
          t.error
            .split('\n')
            .map((l) => `      ${l}`)
            .join('\n'),
        );
    }
    const failed = r.results.filter((t) => t.state !== 'passed').length;
    // scripts/test.mjs repeats these under its summary
    if (process.env.DREAMS_TEST_FAILURES_FILE) {
      const failures = r.results
        .filter((t) => t.state !== 'passed')
        .map((t) => ({ title: t.title, message: (t.error ?? t.state).split('\n').slice(0, 6).join('\n').trimEnd() }));
      fs.writeFileSync(process.env.DREAMS_TEST_FAILURES_FILE, JSON.stringify(failures, null, 1));
    }
    console.log(
      `\nvscode tier: ${r.results.length - failed} passing, ${failed} failing (${((Date.now() - t0) / 1000).toFixed(1)} s in VS Code ${EXPECTED_VERSION})`,
    );
  } else {
    console.error(`VS Code exited (${code}) without writing results; see ${runDir}/server.log and browser-console.log`);
  }
  if (code === 'timeout') {
    console.error(`vscode tier timed out after ${TIMEOUT_MS / 1000} s`);
    return 1;
  }
  return code === 0 ? 0 : 1;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
