// Debian's Chromium driven by playwright-core, headless: for the browser tests (test/helpers/browser.ts)
// and the dashboard's screenshot in docs/ (scripts/dashboard-screenshot.js).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.LEDGER_CHROMIUM ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium tries to reach Google on start and stalls where there is no network. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts Chromium, or fails with the line that installs it: the browser tests are part of `npm test`
 * and must run in CI, so a missing browser is an error, never a reason to skip them.
 */
export async function launchChromium() {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not at ${CHROMIUM}: the browser tests need it. Install it with \`apt-get install -y chromium\` ` +
        '(as .ci/run does), or point LEDGER_CHROMIUM at a Chromium or Chrome binary.',
    );
  try {
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  } catch (error) {
    throw new Error(
      `Chromium at ${CHROMIUM} did not start (${error.message.split('\n')[0]}). ` +
        'Reinstall it with `apt-get install -y chromium`, or point LEDGER_CHROMIUM at a working binary.',
    );
  }
}
