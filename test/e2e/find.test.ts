import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandboxCli } from '../helpers/cli.js';

const cli = useSandboxCli({ seed: 32, clockStart: '2026-11-21T09:00:00.000Z' });
const at80 = { env: { COLUMNS: '80' } };

let ada: { id: string; account_number: string };
let bola: { id: string; account_number: string };
let credit: { id: string; provider_reference: string };
let held: { id: string; provider_reference: string };

beforeAll(async () => {
  const wallet = (ref: string, first: string, last: string) =>
    cli.json([
      'wallets',
      'create',
      '--customer-reference',
      ref,
      '--first-name',
      first,
      '--last-name',
      last,
      '--email',
      `${ref}@x.ng`,
    ]);
  ada = await wallet('cust-ada', 'Ada', 'Okafor');
  bola = await wallet('cust-bola', 'Bola', 'Tinubu');
  await cli.run(['sandbox', 'clock', 'advance', '1h']);
  credit = (
    await cli.json([
      'credit',
      ada.account_number,
      '700000',
      '--sender-name',
      'OBI ADA NKECHI',
      '--narration',
      'school fees',
      '--reference',
      '000013261121100000000000000007',
    ])
  ).transaction;
  await cli.run(['sandbox', 'clock', 'advance', '1h']);
  held = (
    await cli.json([
      'credit',
      bola.account_number,
      '50000',
      '--sender-name',
      'MUSA KANO',
      '--narration',
      'rent SANDBOX-RISK',
    ])
  ).suspense_item;
});

describe('ledger find', () => {
  it('prints matches grouped by kind, newest first, each with the command that shows it; --json is the API data exactly', async () => {
    const found = await cli.run(['find', 'ada'], at80);
    expect([found.exitCode, found.stderr]).toEqual([0, '']);
    expect(found.stdout).toBe(
      [
        'Wallets (1)',
        '  Ada Okafor (cust-ada)  ' + ada.account_number + '  700000 (₦7,000.00)  ACTIVE  matched',
        '    customer_reference',
        `    ledger wallets get ${ada.id}`,
        '',
        'Transactions (1)',
        '  2026-11-21 10:00  CREDIT  700000 (₦7,000.00)  SETTLED  Ada Okafor  from OBI',
        '    ADA NKECHI  "school fees"  matched sender_name',
        `    ledger transactions get ${credit.id}`,
        '',
      ].join('\n'),
    );
    const response = await fetch(`${cli.sandbox.baseUrl}/sandbox/search?q=ada`, {
      headers: { 'x-api-key': cli.sandbox.apiKey },
    });
    const data = ((await response.json()) as { data: unknown }).data;
    const json = await cli.run(['find', 'ada', '--json']);
    expect(json.stdout).toBe(`${JSON.stringify(data, null, 2)}\n`);

    const reference = await cli.run(['find', held.provider_reference], at80);
    expect(reference.stdout).toContain(
      `Suspense items (1)\n  2026-11-21 11:00  50000 (₦500.00)  FLAGGED  AI_RISK_FLAG  from MUSA KANO  to\n` +
        `    Bola Tinubu  "rent SANDBOX-RISK"  matched provider_reference\n` +
        `    ledger suspense show ${held.id}\n`,
    );
    expect(reference.stdout).toMatch(
      new RegExp(
        /\nWebhook deliveries \(1\)\n  2026-11-21 11:00  suspense\.created  \w+  \d attempts  wallet\n/.source +
          /    [0-9a-f-]{36}  matched payload\n/.source +
          /    ledger webhooks show [0-9a-f-]{36}\n$/.source,
      ),
    );
    expect((await cli.run(['find', 'school', 'FEES', '--kind', 'transaction', '--quiet'])).stdout).toBe(
      `${credit.id}\n`,
    );
  });

  it('exits 1 with a line on stderr when nothing matches, as grep does; 2 for a text too short to search by', async () => {
    expect(await cli.run(['find', 'nobody', 'here'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: 'Nothing of yours matches "nobody here".\n',
    });
    const empty = await cli.run(['find', 'nobody', '--json']);
    expect([empty.exitCode, JSON.parse(empty.stdout)]).toEqual([1, { items: [], more: [] }]);
    const short = await cli.run(['find', 'ab']);
    expect([short.exitCode, short.stdout]).toEqual([2, '']);
    expect(short.stderr).toMatch(/^Error \[USAGE\]: <text> must be at least 3 characters/);
  });
});

describe('ids by their start', () => {
  it('every command that takes an id takes the start of one, or of its last 12 hex digits; suspense show takes a provider reference', async () => {
    expect((await cli.json(['wallets', 'get', ada.id.slice(-12, -4)])).id).toBe(ada.id);
    expect((await cli.json(['wallets', 'get', ada.id.slice(0, 25).toUpperCase()])).id).toBe(ada.id);
    expect((await cli.json(['transactions', 'get', credit.id.slice(-12, -6)])).id).toBe(credit.id);
    expect((await cli.json(['suspense', 'show', held.provider_reference])).id).toBe(held.id);
    expect((await cli.json(['suspense', 'show', held.id.slice(-12, -6)])).id).toBe(held.id);
    const moved = await cli.json(['transfer', ada.id.slice(-12, -6), bola.id.slice(-12, -6), '100']);
    expect(moved).toMatchObject({ status: 'SUCCESS' });
    expect((await cli.json(['transactions', 'list', bola.id.slice(-12, -6)])).items.at(-1)).toMatchObject({
      type: 'CREDIT',
      amount: 100,
    });
    expect((await cli.json(['credit', ada.id.slice(-12, -6), '200'])).transaction.wallet_id).toBe(ada.id);
  });

  it('a start shared by several ids exits 2 and lists each, and one that starts none is NOT_FOUND', async () => {
    // A seeded sandbox's ids share their time part: the first 8 characters of the two wallets' ids are one.
    expect(ada.id.slice(0, 8)).toBe(bola.id.slice(0, 8));
    const both = await cli.run(['wallets', 'get', ada.id.slice(0, 8)]);
    expect([both.exitCode, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toBe(
      [
        `Error [AMBIGUOUS]: <wallet_id> "${ada.id.slice(0, 8)}" names 2 wallets: give more of the id`,
        `  ${bola.id}  Bola Tinubu (cust-bola) ${bola.account_number} ACTIVE`,
        `  ${ada.id}  Ada Okafor (cust-ada) ${ada.account_number} ACTIVE`,
        '',
      ].join('\n'),
    );
    const none = await cli.run(['wallets', 'close', 'ffffffff', '--yes']);
    expect([none.exitCode, none.stderr]).toEqual([
      1,
      'Error [NOT_FOUND]: wallet not found: <wallet_id> "ffffffff" is the start of none of your wallet ids (`ledger wallets list` shows them)\n',
    ]);
  });

  describe('against a server without /sandbox/search', () => {
    let server: Server;
    let baseUrl: string;
    const wallet = { id: '019b0000-0000-7000-8000-000000000001' };
    beforeAll(async () => {
      server = createServer((request, response) => {
        const found = request.url === `/v1/wallets/${wallet.id}`;
        response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(
            found
              ? { success: true, data: wallet }
              : { success: false, detail: { code: 'NOT_FOUND', message: 'no such route' } },
          ),
        );
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((done) => server.close(() => done())));

    it('a whole id works, and the start of one is refused with why', async () => {
      const env = { LEDGER_BASE_URL: baseUrl, LEDGER_API_KEY: 'svc_test_00000000000000000000000000000000' };
      expect(JSON.parse((await cli.run(['wallets', 'get', wallet.id, '--json'], { env })).stdout)).toEqual(wallet);
      const start = await cli.run(['wallets', 'get', '019b0000'], { env });
      expect([start.exitCode, start.stderr]).toEqual([
        2,
        `Error [UNSUPPORTED]: <wallet_id> "019b0000" is not a whole id, and ${baseUrl} (from LEDGER_BASE_URL) has no search to find the wallet it starts: ` +
          `give the whole id; nothing was sent\n`,
      ]);
    });
  });
});
