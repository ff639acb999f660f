import { describe, expect, it } from 'vitest';
import { createWalletWithCli } from '../helpers/cli.js';
import { see, useBrowser } from '../helpers/browser.js';

/** The dashboard as a person meets it in Chromium: logging in, finding a payment, and what it must never show or run. */
const b = useBrowser({ seed: 71 });

const NAV = ['Overview', 'Wallets', 'Suspense', 'Webhooks', 'Clock', 'Requests', 'Magic values'];

describe('the dashboard in a browser', { timeout: 120_000 }, () => {
  it('logs in with the one-time link; the same link a second time is refused, and without a session a page says how to log in', async () => {
    const link = await b.loginLink();
    expect(link.startsWith(`${b.baseUrl}/login?token=`)).toBe(true);
    await b.page.goto(link);
    await see(b.page.getByRole('heading', { level: 1, name: 'Overview' }));
    expect(new URL(b.page.url()).pathname).toBe('/');
    expect(await b.page.title()).toBe('Overview · ledger sandbox');
    const nav = b.page.getByRole('navigation', { name: 'Main' });
    for (const name of NAV) await see(nav.getByRole('link', { name, exact: true }));
    const [cookie] = (await b.page.context().cookies()).filter((c) => c.name === 'ledger_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    await b.shot('logged in');

    const other = await b.newPage();
    const again = await other.goto(link);
    expect(again?.status()).toBeGreaterThanOrEqual(400);
    expect(await other.getByRole('heading', { level: 1, name: 'Overview' }).count()).toBe(0);
    expect((await other.context().cookies()).filter((c) => c.name === 'ledger_session')).toEqual([]);
    await b.shot('link used twice', other);

    const anonymous = await other.goto(`${b.baseUrl}/wallets`);
    expect(anonymous?.status()).toBe(401);
    await see(other.getByText('ledger sandbox open'));
    await b.shot('no session', other);
  });

  it('finds the ₦7,000 payment by its bank reference, from the keyboard, and opens it', async () => {
    const wallet = await createWalletWithCli(b.cli, 'cust-ada', { first: 'Ada', last: 'Okafor' });
    const reference = '000013261121100000000000000777';
    const credit = await b.cli.json([
      'credit',
      wallet,
      '700000',
      '--sender-name',
      'OBI ADA NKECHI',
      '--narration',
      'school fees',
      '--reference',
      reference,
    ]);
    await b.login();
    // Tab from the top of the page reaches the header's search before anything else in the page's content.
    const find = b.page.getByLabel('Find a payment');
    for (
      let presses = 0;
      presses < 20 && !(await find.evaluate((el) => el === el.ownerDocument.activeElement));
      presses++
    )
      await b.page.keyboard.press('Tab');
    expect(await find.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await b.page.keyboard.type(reference);
    await b.shot('reference typed');
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL((url) => url.pathname === '/find' && url.searchParams.get('q') === reference);
    await see(b.page.getByRole('heading', { level: 1 }));
    const result = b.page.locator(`a[href="/transactions/${credit.transaction.id}"]`);
    await see(result);
    await b.shot('found');
    await result.first().click();
    await b.page.waitForURL(`**/transactions/${credit.transaction.id}`);
    await see(b.page.getByText('₦7,000.00'));
    await see(b.page.getByText(reference));
    await see(b.page.getByText('OBI ADA NKECHI'));
    await b.shot('transaction');
  });

  it("another developer's wallet is neither listed, found, nor reachable by its URL", async () => {
    const otherKey = (await b.cli.run(['sandbox', 'developers', 'create', 'Other Pay', '--quiet'])).stdout.trim();
    const asOther = { env: { LEDGER_BASE_URL: b.baseUrl, LEDGER_API_KEY: otherKey } };
    const made = await b.cli.run(
      [
        'wallets',
        'create',
        '--customer-reference',
        'zed-secret',
        '--first-name',
        'Zedekiah',
        '--last-name',
        'Hidden',
        '--email',
        'zed@other.ng',
        '--json',
      ],
      asOther,
    );
    expect(made.exitCode).toBe(0);
    const theirs = JSON.parse(made.stdout) as { id: string; account_number: string };
    const paid = await b.cli.run(['credit', theirs.id, '123400', '--narration', 'zed private', '--json'], asOther);
    const theirCredit = JSON.parse(paid.stdout).transaction as { id: string; provider_reference: string };
    await createWalletWithCli(b.cli, 'cust-mine', { first: 'Mine', last: 'Own' });

    await b.login();
    await b.page.goto(`${b.baseUrl}/wallets`);
    await see(b.page.getByText('Mine Own'));
    expect(await b.page.getByText('Zedekiah').count()).toBe(0);
    await b.page.getByLabel('Search wallets').fill('Zedekiah');
    await b.page.getByLabel('Search wallets').press('Enter');
    await b.page.waitForURL((url) => url.searchParams.get('q') === 'Zedekiah');
    await b.shot('wallet search');
    expect(await b.page.locator('main').innerText()).not.toContain('Hidden');

    for (const q of [theirs.account_number, theirCredit.provider_reference, 'zed-secret']) {
      await b.page.goto(`${b.baseUrl}/find?q=${encodeURIComponent(q)}`);
      await see(b.page.getByRole('heading', { level: 1 }));
      expect(
        await b.page.locator(`a[href="/wallets/${theirs.id}"], a[href="/transactions/${theirCredit.id}"]`).count(),
      ).toBe(0);
      expect(await b.page.locator('main').innerText()).not.toMatch(/Zedekiah|Hidden|₦1,234\.00/);
    }
    await b.shot('find theirs');

    for (const path of [`/wallets/${theirs.id}`, `/transactions/${theirCredit.id}`]) {
      const response = await b.page.goto(`${b.baseUrl}${path}`);
      expect(response?.status()).toBe(404);
      await see(b.page.getByText(/not found/i));
      const text = await b.page.locator('body').innerText();
      for (const secret of ['Zedekiah', 'Hidden', theirs.account_number, 'zed private', '₦1,234.00'])
        expect(text).not.toContain(secret);
      await b.shot(`their ${path.split('/')[1]}`);
    }
  });

  it('a narration written as markup is shown as those characters and never runs', async () => {
    const wallet = await createWalletWithCli(b.cli, 'cust-xss', { first: 'Xena', last: 'Script' });
    const markup = '<img src=x onerror="window.__xss=1;alert(1)">';
    const credit = await b.cli.json(['credit', wallet, '5000', '--narration', markup, '--sender-name', '<b>BOLD</b>']);
    await b.login();
    for (const path of [
      `/wallets/${wallet}`,
      `/transactions/${credit.transaction.id}`,
      `/find?q=${credit.transaction.provider_reference}`,
    ]) {
      await b.page.goto(`${b.baseUrl}${path}`);
      await see(b.page.getByText(markup, { exact: false }));
      await see(b.page.getByText('<b>BOLD</b>', { exact: false }));
      expect(await b.page.evaluate('window.__xss')).toBeUndefined();
      expect(await b.page.locator('main img, main b').count()).toBe(0);
      await b.shot(path.split('/')[1]!.replace(/\?.*/, ''));
    }
    expect(b.incidents).toEqual([]);
  });
});
