import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWalletWithCli } from '../helpers/cli.js';
import { NARROW, see, useBrowser } from '../helpers/browser.js';

/** Every page of the dashboard on a sandbox with a little of everything, at 1280 wide and at 390: named, titled, and saved as a screenshot. */
const b = useBrowser({ seed: 79 });

const ids = { wallet: '', transaction: '', suspense: '', delivery: '' };

beforeAll(async () => {
  const ada = await createWalletWithCli(b.cli, 'cust-ada', { first: 'Ada', last: 'Okafor' });
  const bola = await createWalletWithCli(b.cli, 'cust-bola', { first: 'Bola', last: 'Adeyemi' });
  ids.wallet = ada;
  ids.transaction = (
    await b.cli.json(['credit', ada, '700000', '--sender-name', 'OBI ADA NKECHI', '--narration', 'school fees'])
  ).transaction.id;
  await b.cli.json(['transfer', ada, bola, '150000', '--narration', 'lunch money']);
  await b.cli.run(['sandbox', 'receiver', 'fail', '--status', '503', '--times', '1']);
  ids.suspense = (
    await b.cli.json(['credit', bola, '50000', '--sender-name', 'MUSA KANO', '--narration', 'rent SANDBOX-RISK'])
  ).suspense_item.id;
  await b.cli.json(['sandbox', 'clock', 'advance', '1s']);
  ids.delivery = (await b.cli.json(['webhooks', 'list'])).items[0].id;
});

const pages = () => [
  { path: '/', h1: 'Overview' },
  { path: '/wallets', h1: 'Wallets' },
  { path: `/wallets/${ids.wallet}`, h1: /Ada Okafor/ },
  { path: `/transactions/${ids.transaction}`, h1: /Transaction|Credit/i },
  { path: '/find?q=school', h1: /Find/ },
  { path: '/suspense', h1: 'Suspense' },
  { path: `/suspense/${ids.suspense}`, h1: /Suspense|MUSA KANO|₦500\.00/ },
  { path: '/webhooks', h1: 'Webhooks' },
  { path: `/webhooks/${ids.delivery}`, h1: /ledger\.credit|Delivery|Webhook/ },
  { path: '/clock', h1: 'Clock' },
  { path: '/requests', h1: 'Requests' },
  { path: '/magic', h1: 'Magic values' },
];

const name = (path: string) => path.split('?')[0]!.split('/').slice(1, 2)[0] || 'overview';

/** Opens `path`, checks its heading and title, and that nothing scrolls sideways at this width. */
async function visit(page: Page, path: string, h1: string | RegExp): Promise<void> {
  const response = await page.goto(`${b.baseUrl}${path}`);
  expect(response?.status(), path).toBe(200);
  const heading = await see(page.getByRole('heading', { level: 1, name: h1 }));
  expect(await page.title()).toBe(`${(await heading.innerText()).trim()} · ledger sandbox`);
  const width = page.viewportSize()!.width;
  expect(
    await page.evaluate<number>('document.documentElement.scrollWidth'),
    `${path} at ${width}`,
  ).toBeLessThanOrEqual(width);
}

describe('every page', { timeout: 180_000 }, () => {
  it('at 1280 wide: each page answers, names itself, and is saved as a screenshot', async () => {
    await b.login();
    for (const { path, h1 } of pages()) {
      await visit(b.page, path, h1);
      await b.shot(name(path) + (path.split('/').length > 2 ? '-one' : ''));
    }
    // The request log: live, and the refused request opens on its own page.
    await b.page.goto(`${b.baseUrl}/requests`);
    const rows = b.page.getByRole('row');
    const before = await rows.count();
    await b.page.evaluate('window.__stay = 1');
    await b.cli.run(['wallets', 'get', '00000000-0000-7000-8000-00000000beef']);
    await see(rows.filter({ hasText: '00000000-0000-7000-8000-00000000beef' }));
    expect(await rows.count()).toBeGreaterThan(before);
    expect(await b.page.evaluate('window.__stay')).toBe(1);
    await b.shot('requests-live');
    await rows.filter({ hasText: '00000000-0000-7000-8000-00000000beef' }).getByRole('link').first().click();
    await b.page.waitForURL(/\/requests\/[^/]+$/);
    await see(b.page.getByRole('heading', { level: 1, name: /Request/ }));
    await see(b.page.getByText('NOT_FOUND'));
    await see(b.page.getByText('404'));
    await b.shot('requests-one');
  });

  it('at 390 wide: the overview, a wallet, a transaction, a suspense item and a delivery fit the window', async () => {
    const narrow = await b.newPage(NARROW);
    await b.login(narrow);
    for (const { path, h1 } of pages().filter((p) =>
      [
        '/',
        `/wallets/${ids.wallet}`,
        `/transactions/${ids.transaction}`,
        `/suspense/${ids.suspense}`,
        `/webhooks/${ids.delivery}`,
      ].includes(p.path),
    )) {
      await visit(narrow, path, h1);
      await b.shot(`narrow-${name(path)}`, narrow);
    }
    // The main navigation is still there, by its names, at this width.
    await see(narrow.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Wallets', exact: true }));
  });
});
