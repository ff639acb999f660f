// docs/dashboard.png: the dashboard's overview at 1280 wide, on a seeded sandbox with a few wallets,
// payments in and out, a payment held in suspense and a webhook delivery that failed. Regenerate it
// after a change to the pages: `npm run build && node scripts/dashboard-screenshot.js` (the seed and
// the manual clock give the same page every time; it needs Chromium, as the browser tests do).
import { resolve } from 'node:path';
import { makeNuban } from '../dist/engine/wallets/nuban.js';
import { startSandbox } from '../dist/index.js';
import { launchChromium } from './chromium.js';

const OUT = resolve(import.meta.dirname, '../docs/dashboard.png');

const sandbox = await startSandbox({ seed: 2026, clockStart: '2026-11-21T08:00:00.000Z' });
const call = async (method, path, body) => {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': sandbox.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data;
};
const browser = await launchChromium();
try {
  const people = [
    ['cust-ada', 'Ada', 'Okafor'],
    ['cust-bola', 'Bola', 'Adeyemi'],
    ['cust-chidi', 'Chidi', 'Eze'],
    ['cust-ngozi', 'Ngozi', 'Bello'],
  ];
  const wallets = [];
  for (const [reference, first, last] of people)
    wallets.push(
      await call('POST', '/v1/wallets', {
        customer_reference: reference,
        first_name: first,
        last_name: last,
        email: `${reference}@example.com`,
      }),
    );
  const credit = (wallet, amount, sender_name, narration) =>
    call('POST', '/sandbox/inbound-transfers', {
      account_number: wallet.account_number,
      amount,
      sender_name,
      narration,
    });
  await credit(wallets[0], 700_000, 'OBI ADA NKECHI', 'school fees');
  await credit(wallets[1], 2_500_000, 'ADEYEMI HOLDINGS', 'November salary');
  await credit(wallets[2], 150_000, 'EZE CHIDI', 'contribution');
  await sandbox.advance('1h');
  await call('POST', `/v1/wallets/${wallets[1].id}/transfer`, {
    destination_account_number: wallets[3].account_number,
    amount: 450_000,
    narration: 'rent share',
  });
  const payout = (wallet, amount, serial, narration) =>
    call('POST', `/v1/wallets/${wallet.id}/transfer`, {
      destination_account_number: makeNuban('058', serial),
      destination_bank_code: '058',
      amount,
      narration,
    });
  await payout(wallets[1], 800_000, '100200300', 'supplier invoice 114');
  await call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 1 });
  await credit(wallets[3], 50_000, 'MUSA KANO', 'rent SANDBOX-RISK');
  await sandbox.advance('1s');
  await credit(wallets[0], 120_000, 'OKAFOR EMEKA', 'books');
  await sandbox.advance('2h');
  await payout(wallets[0], 200_000, '100200301', 'electricity');

  const { url } = await call('POST', '/sandbox/dashboard/links');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-NG' });
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await page.screenshot({ path: OUT });
  process.stdout.write(`${OUT}\n`);
} finally {
  await browser.close();
  await sandbox.stop();
}
