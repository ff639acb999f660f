import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createWalletWithCli } from '../helpers/cli.js';
import { see, useBrowser } from '../helpers/browser.js';

/** What a person does in the dashboard that moves money or changes state: resolve, retry, advance the clock. */
const b = useBrowser({ seed: 73 });

/** Set before an action and read after it: still there only if the page was updated in place, not reloaded. */
const mark = (page: Page) => page.evaluate('window.__stay = 1');
const marked = (page: Page) => page.evaluate('window.__stay === 1');

/** Picks `name`'s wallet in the dialog's "Wallet" field, a list to choose from or a field to type in. */
async function chooseWallet(field: Locator, name: string, id: string): Promise<void> {
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') {
    const value = await field.locator('option', { hasText: name }).first().getAttribute('value');
    await field.selectOption(value!);
  } else await field.fill(id);
}

describe('acting in the dashboard', { timeout: 120_000 }, () => {
  it('resolves a suspense item to a wallet after the confirmation, and the wallet shows the new balance', async () => {
    const closed = await createWalletWithCli(b.cli, 'cust-closed', { first: 'Chidi', last: 'Closed' });
    const target = await createWalletWithCli(b.cli, 'cust-target', { first: 'Tola', last: 'Target' });
    await b.cli.json(['credit', target, '100000', '--narration', 'opening balance']);
    expect((await b.cli.run(['wallets', 'close', closed, '--yes'])).exitCode).toBe(0);
    const held = await b.cli.json([
      'credit',
      closed,
      '420000',
      '--narration',
      'rent for June',
      '--sender-name',
      'FEMI ADE',
    ]);
    expect(held.outcome).toBe('SUSPENDED');
    const item = held.suspense_item as { id: string };

    await b.login();
    await b.page.goto(`${b.baseUrl}/wallets/${target}`);
    await see(b.page.getByText('₦1,000.00'));
    expect(await b.page.getByText('₦5,200.00').count()).toBe(0);
    await b.shot('wallet before');

    await b.page.getByRole('link', { name: 'Suspense', exact: true }).click();
    await see(b.page.getByRole('heading', { level: 1, name: /Suspense/ }));
    await see(b.page.getByText('FEMI ADE'));
    await b.shot('inbox');
    await b.page.locator(`a[href="/suspense/${item.id}"]`).first().click();
    await b.page.waitForURL(`**/suspense/${item.id}`);
    await see(b.page.getByText('₦4,200.00'));
    await b.shot('item');

    await b.page.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = await see(b.page.getByRole('dialog'));
    const action = dialog.getByLabel('Action');
    if (await action.count()) await action.selectOption('CREDIT_WALLET');
    await chooseWallet(dialog.getByLabel('Wallet', { exact: true }), 'Tola', target);
    // What the CLI prints before it asks, and its question, word for word.
    await see(dialog.getByText(`CREDIT_WALLET → wallet ${target} (Tola Target, cust-target)`));
    await see(dialog.getByText('Resolve this 420000 (₦4,200.00) payment?'));
    await b.shot('confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await see(b.page.getByText('RESOLVED'));
    await b.shot('resolved');

    await b.page.goto(`${b.baseUrl}/wallets/${target}`);
    await see(b.page.getByText('₦5,200.00'));
    await see(b.page.getByText('FEMI ADE'));
    await b.shot('wallet after');
    expect((await b.cli.json(['wallets', 'get', target])).balance).toBe(520_000);
  });

  it('a delivery that failed is retried from its page and shows delivered without a reload; new deliveries appear live', async () => {
    // Deliveries still waiting from other tests go out first, so the failure injected below is this test's.
    await b.cli.json(['sandbox', 'clock', 'advance', '1s']);
    expect((await b.cli.run(['sandbox', 'receiver', 'fail', '--status', '500', '--times', '1'])).exitCode).toBe(0);
    const wallet = await createWalletWithCli(b.cli, 'cust-hook', { first: 'Hook', last: 'Test' });
    const credit = await b.cli.json(['credit', wallet, '250000', '--narration', 'salary']);
    await b.cli.json(['sandbox', 'clock', 'advance', '1s']);
    const [failed] = (await b.cli.json(['webhooks', 'list', '--status', 'FAILED'])).items as { id: string }[];
    expect(failed).toBeDefined();

    await b.login();
    await b.page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await see(b.page.getByRole('heading', { level: 1, name: /Webhooks/ }));
    await b.page.locator(`a[href="/webhooks/${failed!.id}"]`).first().click();
    await b.page.waitForURL(`**/webhooks/${failed!.id}`);
    await see(b.page.getByText('FAILED'));
    await see(b.page.getByText('500'));
    await see(b.page.getByText('webhook-signature'));
    await see(b.page.getByText(credit.transaction.id));
    await b.shot('failed');

    await mark(b.page);
    await b.page.getByRole('button', { name: 'Retry' }).click();
    await see(b.page.getByText('DELIVERED'));
    expect(await marked(b.page)).toBe(true);
    await b.shot('delivered');
    expect((await b.cli.json(['webhooks', 'show', failed!.id])).log.status).toBe('DELIVERED');

    await b.page.goto(`${b.baseUrl}/webhooks`);
    await see(b.page.getByText('DELIVERED'));
    const rows = await b.page.locator('a[href^="/webhooks/"]').count();
    await mark(b.page);
    await b.cli.json(['credit', wallet, '1000', '--narration', 'late arrival']);
    await b.cli.json(['sandbox', 'clock', 'advance', '1s']);
    await b.page.locator('a[href^="/webhooks/"]').nth(rows).waitFor();
    expect(await marked(b.page)).toBe(true);
    await b.shot('live');
  });

  it('advancing the clock by 1h settles a pending payout, and its transaction shows it settled', async () => {
    const wallet = await createWalletWithCli(b.cli, 'cust-pay', { first: 'Payo', last: 'Out' });
    await b.cli.json(['credit', wallet, '500000']);
    const payout = await b.cli.json([
      'transfer',
      wallet,
      makeNuban('058', '123123123'),
      '150000',
      '--bank',
      '058',
      '--yes',
    ]);
    expect(payout.status).toBe('PENDING');

    await b.login();
    await b.page.goto(`${b.baseUrl}/transactions/${payout.transaction_id}`);
    await see(b.page.getByText('PENDING'));
    await see(b.page.getByText('₦1,500.00'));
    await b.shot('pending');

    await b.page.getByRole('link', { name: 'Clock', exact: true }).click();
    await see(b.page.getByRole('heading', { level: 1, name: /Clock/ }));
    await see(b.page.getByText('2026'));
    await b.shot('clock');
    await b.page.getByLabel('Advance by').fill('1h');
    await b.page.getByRole('button', { name: 'Advance' }).click();
    const ran = await see(b.page.getByRole('region', { name: /What ran/ }));
    await see(ran.getByText('transfer.completed'));
    await b.shot('advanced');

    await b.page.goto(`${b.baseUrl}/transactions/${payout.transaction_id}`);
    await see(b.page.getByText('SETTLED'));
    expect(await b.page.getByText('PENDING').count()).toBe(0);
    await b.shot('settled');
    expect((await b.cli.json(['transactions', 'get', payout.transaction_id])).status).toBe('SETTLED');
  });
});
