/**
 * Real VS Code for tests: code-server (VS Code 1.100.3) with a fresh profile, and a
 * headless Debian chromium driven by playwright-core. Used by the vscode tier (tests
 * loaded through the workbench URL's payload), the e2e tier and bench:activation.
 */
import type { Browser, Page } from 'playwright-core';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
export const CODE_SERVER_DIR = process.env.DREAMS_CODE_SERVER_DIR ?? path.join(PROJECT_ROOT, '.vscode-test/code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_DIR, 'node_modules/code-server/out/node/entry.js');
import { CHROMIUM, launchChromium } from './chromium';
import { shortTempDir } from '../../src/core/hpc/shortTempDir';

export { CHROMIUM };
export const EXTENSION_ID = 'dreams-dft.dreams-vscode';

export interface HostOptions {
  /** Folder the workbench opens. */
  workspace: string;
  /** 'dev': loaded through extensionDevelopmentPath; 'installed': linked into the extensions dir. */
  extension?: 'dev' | 'installed' | 'none';
  /** Module whose run() VS Code calls inside the extension host (vscode tier). */
  extensionTestsPath?: string;
  /** Extra environment for the server and so for the extension host. */
  env?: Record<string, string>;
  /** User settings merged over the defaults below. */
  settings?: Record<string, unknown>;
  /**
   * Settings of the machine the extension host runs on (code-server's remote settings): where
   * machine-scoped settings (dreams.clusters, dreams.pwCommand, dreams.pseudoDir) are read in
   * this remote window.
   */
  machineSettings?: Record<string, unknown>;
  /** Keep Workspace Trust on (default off, so the workspace is trusted). */
  workspaceTrust?: boolean;
  /** Scratch folder for this host; default test-results/vscode-host/<label>. */
  runDir?: string;
  label?: string;
  viewport?: { width: number; height: number };
}

export interface VsCodeHost {
  readonly url: string;
  readonly runDir: string;
  readonly page: Page;
  readonly browser: Browser;
  /** Resolves with the code VS Code passes to codeAutomationExit (test runs). */
  readonly automationExit: Promise<number>;
  remoteUri(p: string): string;
  screenshot(name: string): Promise<string>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export function assertHostInstalled(): void {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) {
    throw new Error(`code-server is not installed at ${CODE_SERVER_DIR}. Install it with: npm run setup:vscode-host`);
  }
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no chromium at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium (or set DREAMS_CHROMIUM)`);
  }
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.ignoreRecommendations': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'notebook.confirmDeleteRunningCell': false,
  'remote.autoForwardPorts': false,
  'window.restoreWindows': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
  'git.autoRepositoryDetection': false,
};

export async function startVsCodeHost(opts: HostOptions): Promise<VsCodeHost> {
  assertHostInstalled();
  const label = opts.label ?? 'host';
  const runDir = opts.runDir ?? path.join(PROJECT_ROOT, 'test-results/vscode-host', label);
  fs.rmSync(runDir, { recursive: true, force: true });
  // Everything the server and chromium write stays under runDir (caches, crash reports), except
  // their temporary files: VS Code and Chromium make Unix sockets there, and a socket path holds
  // 107 bytes, which a run directory inside a clone at a long path overflows (libuv cuts the
  // name short silently, Chromium stops at launch). So TMPDIR is a short directory of its own,
  // removed by stop().
  const tmp = shortTempDir('dreams-host-');
  const iso = {
    HOME: path.join(runDir, 'home'),
    TMPDIR: tmp,
    XDG_DATA_HOME: path.join(runDir, 'xdg/data'),
    XDG_CONFIG_HOME: path.join(runDir, 'xdg/config'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg/cache'),
  };
  for (const d of [...Object.values(iso), path.join(runDir, 'ud/User'), path.join(runDir, 'exts')]) {
    fs.mkdirSync(d, { recursive: true });
  }
  const settings = { ...DEFAULT_SETTINGS, 'security.workspace.trust.enabled': !!opts.workspaceTrust, ...opts.settings };
  fs.writeFileSync(path.join(runDir, 'ud/User/settings.json'), JSON.stringify(settings, null, 2));
  if (opts.machineSettings) {
    fs.mkdirSync(path.join(runDir, 'ud/Machine'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'ud/Machine/settings.json'), JSON.stringify(opts.machineSettings, null, 2));
  }
  if (opts.extension === 'installed') {
    const { version } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
    fs.symlinkSync(PROJECT_ROOT, path.join(runDir, 'exts', `${EXTENSION_ID}-${version}`));
  }

  const port = await freePort();
  const serverLog = fs.openSync(path.join(runDir, 'server.log'), 'w');
  const args = [
    CODE_SERVER_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--config',
    path.join(runDir, 'config.yaml'),
    '--user-data-dir',
    path.join(runDir, 'ud'),
    '--extensions-dir',
    path.join(runDir, 'exts'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    opts.workspace,
  ];
  const server: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...iso, ...opts.env },
    stdio: ['ignore', serverLog, serverLog],
    detached: true, // own process group, so stop() ends its children too
  });
  const serverExited = new Promise<void>((r) => server.once('exit', () => r()));
  const groupAlive = () => {
    try {
      process.kill(-server.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  let browser: Browser | undefined;
  const stop = async () => {
    try {
      await browser?.close();
    } catch {
      /* already closed */
    }
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await Promise.race([serverExited, sleep(5000)]);
    for (let i = 0; i < 50 && groupAlive(); i++) await sleep(100);
    if (groupAlive()) {
      try {
        process.kill(-server.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
      'code-server /healthz',
    );
    browser = await launchChromium({
      env: { ...process.env, ...iso },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    const consoleLog = path.join(runDir, 'browser-console.log');
    page.on('console', (m) => fs.appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));

    const remoteUri = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload: [string, string][] = [];
    if (opts.extension === 'dev' || opts.extensionTestsPath) payload.push(['extensionDevelopmentPath', remoteUri(PROJECT_ROOT)]);
    if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(opts.extensionTestsPath)]);
    const automationExit = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
      const line = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
      if (!/ENOTFOUND|open-vsx/.test(line)) process.stdout.write(line.endsWith('\n') ? line : line + '\n');
    });
    let url = `${base}/?folder=${encodeURIComponent(opts.workspace)}`;
    if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });

    return {
      url: base,
      runDir,
      page,
      browser,
      automationExit,
      remoteUri,
      async screenshot(name: string) {
        const dir = path.join(PROJECT_ROOT, 'test-results/screenshots');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, `${name}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
