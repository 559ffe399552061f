import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); GW_TEST_CHROMIUM names another binary. */
export const CHROMIUM = process.env.GW_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests save their screenshots (gitignored). */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');

/**
 * Flags for a quiet, headless run: no GPU, no QUIC, and none of the browser's own traffic
 * (updates, sync, safe browsing), so every request a test sees is the page's.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  /** URLs the pages asked for on a host other than 127.0.0.1 or localhost; they were refused */
  offHost: string[];
  newPage(): Promise<Page>;
  /** saves a full-page screenshot as test-output/screenshots/<name>.png; answers its path */
  screenshot(page: Page, name: string): Promise<string>;
  /** closes the browser and removes its profile; safe to call twice */
  close(): Promise<void>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Launches headless chromium with a fresh profile (user-data-dir) of its own. Requests that
 * would leave this machine are refused and listed in `offHost`, so a test can assert a page
 * loads from local assets only. Call `close()` in an `after` hook.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      timeout: 20_000,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  const offHost: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || LOCAL_HOSTS.has(url.hostname)) return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  let closed = false;
  return {
    context,
    offHost,
    newPage: () => context.newPage(),
    async screenshot(page, name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/** Whether the chromium binary is installed here (browser suites skip themselves otherwise). */
export function browserAvailable(): boolean {
  return existsSync(CHROMIUM);
}
