/**
 * The vscode tier under desktop VS Code, through @vscode/test-electron. Uses the
 * executable in $VSCODE_EXECUTABLE, or tries to download one; on a machine that can
 * do neither it says so plainly (the same suite runs in code-server: npm run test:vscode).
 */
import fs from 'node:fs';
import path from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { PROJECT_ROOT } from '../harness/vscodeHost';

async function main(): Promise<number> {
  let executable = process.env.VSCODE_EXECUTABLE;
  if (executable && !fs.existsSync(executable)) {
    console.error(`VSCODE_EXECUTABLE=${executable} does not exist. Point it at a desktop VS Code binary (e.g. /usr/share/code/code).`);
    return 1;
  }
  if (!executable) {
    try {
      executable = await downloadAndUnzipVSCode({ version: '1.100.3', timeout: 15_000 });
    } catch (e) {
      const msg = (e as Error).message ?? String(e);
      console.error(
        [
          'No desktop VS Code for @vscode/test-electron:',
          `  VSCODE_EXECUTABLE is not set, and downloading VS Code 1.100.3 failed (${msg.split('\n')[0]}).`,
          '  This machine cannot reach update.code.visualstudio.com. Either set VSCODE_EXECUTABLE to an installed',
          '  desktop VS Code, or run the same suite in real VS Code through code-server: npm run test:vscode',
        ].join('\n'),
      );
      return 1;
    }
  }
  const workspace = path.join(PROJECT_ROOT, 'test-results/vscode-electron-workspace');
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(PROJECT_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: PROJECT_ROOT,
    extensionTestsPath: path.join(PROJECT_ROOT, 'out/test/vscode/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { DREAMS_TEST_WORKSPACE: workspace },
  });
  return 0;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(`vscode tier (electron) failed: ${(e as Error).message ?? e}`);
    process.exit(1);
  },
);
