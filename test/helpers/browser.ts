import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type Cli, sandboxState, useCli } from './cli.js';

/** Where each step's full-page screenshot lands: test-results/ is CI's artifact folder (and ignored by git). */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 390, height: 844 };

export interface BrowserTest {
  /** The built binary, run in the sandbox's own folder (its state file gives URL and key). */
  readonly cli: Cli;
  readonly baseUrl: string;
  /** The test's page, in a context of its own (no cookies from another test). */
  readonly page: Page;
  /** A new context and page at `viewport`, for a second browser or a narrow window. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** A one-time login link, as `ledger sandbox open --no-browser --json` prints it. */
  loginLink(): Promise<string>;
  /** Opens a login link in `page` and waits for the overview. */
  login(page?: Page): Promise<void>;
  /** A full-page screenshot, `<test>-<nn>-<step>.png` under test-results/screenshots. */
  shot(step: string, page?: Page): Promise<void>;
  /** What the page reported of its own accord: alert/confirm/prompt dialogs and uncaught script errors. */
  readonly incidents: string[];
}

/** Lower-case words joined by hyphens, at most about 40 characters, cut between words. */
const slug = (text: string) => {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return words.length <= 40 ? words : words.slice(0, 41).replace(/-[^-]*$/, '');
};

/**
 * A real sandbox (the built binary, detached, on port 0, in memory, seeded, on a manual clock) for
 * the file, a Chromium for the file, and a fresh browser context for each test. After each test the
 * ledger's audit must pass and no page may have opened a dialog or thrown.
 */
export function useBrowser(options: { seed?: number; start?: string[] } = {}): BrowserTest {
  const cli = useCli('all');
  let browser: Browser | undefined;
  let baseUrl = '';
  let contexts: BrowserContext[] = [];
  let page: Page | undefined;
  let name = '';
  let shots = 0;
  const incidents: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const started = await cli.run([
      'sandbox',
      'start',
      '--detach',
      '--port',
      '0',
      '--memory',
      '--seed',
      String(options.seed ?? 37),
      '--clock-start',
      '2026-11-21T09:00:00.000Z',
      ...(options.start ?? []),
    ]);
    if (started.exitCode !== 0) throw new Error(`ledger sandbox start failed (${started.exitCode}): ${started.stderr}`);
    baseUrl = sandboxState(cli.dir).baseUrl;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const newPage = async (viewport = WIDE) => {
    const context = await browser!.newContext({ viewport, locale: 'en-NG', timezoneId: 'Africa/Lagos' });
    contexts.push(context);
    const opened = await context.newPage();
    // Any dialog is a script that should not have run (the pages never call alert, confirm or prompt).
    opened.on('dialog', (dialog) => {
      incidents.push(`dialog ${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    opened.on('pageerror', (error) => incidents.push(`page error: ${error.message}`));
    return opened;
  };

  beforeEach(async ({ task }) => {
    name = slug(task.name);
    shots = 0;
    incidents.length = 0;
    page = await newPage();
  });
  afterEach(async ({ task }) => {
    // The page as it stood when the test failed: what the browser showed, beside the error.
    if (task.result?.state === 'fail')
      await page?.screenshot({ path: join(SCREENSHOTS, `${name}-failed.png`), fullPage: true });
    await Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    const audit = await cli.run(['sandbox', 'audit']);
    expect([audit.exitCode, audit.stderr]).toEqual([0, '']);
    expect(incidents).toEqual([]);
  });

  const loginLink = async () => {
    const link = await cli.json(['sandbox', 'open', '--no-browser']);
    return String(link.url);
  };
  return {
    cli,
    get baseUrl() {
      return baseUrl;
    },
    get page() {
      return page!;
    },
    incidents,
    newPage,
    loginLink,
    login: async (on = page!) => {
      await on.goto(await loginLink());
      await on.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    },
    shot: async (step, on = page!) => {
      shots += 1;
      const file = `${name}-${String(shots).padStart(2, '0')}-${slug(step)}.png`;
      await on.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });
    },
  };
}

/** Waits (Playwright's own auto-waiting, no sleeps) until one of the locator's matches is visible, and returns it. */
export async function see(locator: Locator): Promise<Locator> {
  const shown = locator.filter({ visible: true }).first();
  await shown.waitFor({ state: 'visible' });
  return shown;
}
