/**
 * Launching the test browser.
 *
 * Chromium makes its single-instance socket at `$TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket`
 * and stops at once ("Socket path too long", seen by Playwright as "Target page, context or
 * browser has been closed" from the launch itself) when that path does not fit in a Unix socket
 * address (107 bytes). The code-server host gives its processes a TMPDIR inside the test's run
 * directory, which is under the clone, so a clone at a long path made Chromium fail to start on
 * every attempt. The browser therefore always gets a temporary directory short enough for the
 * socket; when the one it was given is too long it gets a fresh one under /tmp, removed when the
 * browser goes away.
 */
import fs from 'node:fs';
import os from 'node:os';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { shortTempDir } from '../../src/core/hpc/shortTempDir';

export const CHROMIUM = process.env.DREAMS_CHROMIUM ?? '/usr/bin/chromium';

/** Longest path a Unix socket address holds (sun_path is 108 bytes with its terminating NUL). */
const SOCKET_PATH_MAX = 107;
/** What Chromium appends to TMPDIR for its singleton socket. */
const SINGLETON_SUFFIX = '/org.chromium.Chromium.XXXXXX/SingletonSocket';

/** Whether Chromium can make its singleton socket under `tmp`. */
export function chromiumTmpFits(tmp: string): boolean {
  return tmp.length + SINGLETON_SUFFIX.length <= SOCKET_PATH_MAX;
}

export async function launchChromium(options: Omit<LaunchOptions, 'executablePath' | 'headless'> = {}): Promise<Browser> {
  const given = options.env?.TMPDIR ?? process.env.TMPDIR ?? os.tmpdir();
  let own: string | undefined;
  if (!chromiumTmpFits(given)) {
    own = shortTempDir('dreams-chromium-');
  }
  const env = own ? { ...process.env, ...options.env, TMPDIR: own } : options.env;
  const removeOwn = () => {
    if (own) fs.rmSync(own, { recursive: true, force: true });
  };
  try {
    const browser = await chromium.launch({ ...options, env, executablePath: CHROMIUM, headless: true });
    browser.on('disconnected', removeOwn);
    return browser;
  } catch (e) {
    removeOwn();
    throw e;
  }
}
