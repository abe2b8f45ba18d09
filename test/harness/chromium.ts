/**
 * Launching the test browser. Debian's Chromium now and then dies while it starts on a busy
 * machine ("Target page, context or browser has been closed" from the launch itself, before any
 * page exists). That is the browser failing to start, not the product failing a test, so the
 * launch is tried again a few times; each failed attempt is written to stderr so a machine where
 * Chromium never starts still shows why, and the last error is the one thrown.
 */
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = process.env.DREAMS_CHROMIUM ?? '/usr/bin/chromium';

const ATTEMPTS = 3;

export async function launchChromium(options: Omit<LaunchOptions, 'executablePath' | 'headless'> = {}): Promise<Browser> {
  let last: unknown;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      return await chromium.launch({ ...options, executablePath: CHROMIUM, headless: true });
    } catch (e) {
      last = e;
      const first = ((e as Error).message ?? String(e)).split('\n')[0];
      process.stderr.write(`chromium did not start (attempt ${attempt} of ${ATTEMPTS}): ${first}\n`);
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, 2000 * attempt));
    }
  }
  throw last;
}
