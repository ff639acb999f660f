import { beforeAll, describe, expect, it } from 'vitest';
import { closedPort, useSandboxCli, createWalletWithCli } from '../helpers/cli.js';

// The list filters as support staff type them, through the built binary, on a manual clock that
// stands months away from real time: "today", "yesterday" and "23h" can only come out right when
// they are read on the sandbox's clock.
const cli = useSandboxCli({ seed: 11, clockStart: '2026-03-10T12:00:00Z' });

const json = (args: string[]) => cli.json(args);
let ada: string;
let bayo: string;
const tx: Record<string, unknown> = {};
const held: Record<string, unknown> = {};

const credit = async (walletId: string, amount: number, sender: string, narration = 'school fees') =>
  json([
    'credit',
    walletId,
    String(amount),
    '--sender-name',
    sender,
    '--narration',
    narration,
    '--sender-account',
    '0690000032',
    '--sender-bank-code',
    '044',
  ]);
const page = (items: unknown[]) => ({ items, total: items.length, page: 1, limit: 20 });

beforeAll(async () => {
  ada = await createWalletWithCli(cli, 'ada-001', { first: 'Ngozi', last: 'Okafor' });
  bayo = await createWalletWithCli(cli, 'bayo-002', { first: 'Bayo', last: 'Okafor' });
  tx.obi = (await credit(ada, 700_000, 'OBI ADA NKECHI')).transaction;
  held.risky = (await credit(bayo, 250_000, 'EMEKA OBI', 'rent SANDBOX-RISK')).suspense_item;
  await cli.run(['sandbox', 'clock', 'advance', '1d']);
  tx.tunde = (await credit(ada, 150_000, 'TUNDE BAKARE')).transaction;
  tx.lovelace = (await credit(bayo, 700_000, 'ada lovelace')).transaction;
  held.unclear = (await credit(ada, 5_000, 'CHIDI EZE', 'SANDBOX-LOW-CONFIDENCE')).suspense_item;
  const get = async (key: string) => (tx[key] = await json(['transactions', 'get', (tx[key] as { id: string }).id]));
  for (const key of Object.keys(tx)) await get(key);
  // An item as a list gives it: `show` adds its notes, which lists leave out.
  const listed = async (item: unknown) => {
    const { notes: _notes, ...shown } = await json(['suspense', 'show', (item as { id: string }).id]);
    return shown;
  };
  held.risky = await listed(held.risky);
  held.unclear = await listed(held.unclear);
});

describe('transactions list', () => {
  it('without a wallet lists every wallet of yours; relative times are read on the sandbox clock', async () => {
    expect(await json(['transactions', 'list'])).toEqual(page([tx.obi, tx.tunde, tx.lovelace]));
    expect(await json(['transactions', 'list', '--since', 'today'])).toEqual(page([tx.tunde, tx.lovelace]));
    expect(await json(['transactions', 'list', '--until', 'yesterday'])).toEqual(page([tx.obi]));
    expect(await json(['transactions', 'list', '--since', '23h', '--sender', 'ADA'])).toEqual(page([tx.lovelace]));
    expect(await json(['transactions', 'list', '--since', '2026-03-10', '--until', '2026-03-10'])).toEqual(
      page([tx.obi]),
    );
    expect(await json(['transactions', 'list', '--since', '2026-03-11T11:59:59', '--desc'])).toEqual(
      page([tx.lovelace, tx.tunde]),
    );
  });

  it('by customer, wallet, amount, reference and status, alone and together', async () => {
    expect(await json(['transactions', 'list', '--customer', 'ada-001'])).toEqual(page([tx.obi, tx.tunde]));
    expect(await json(['transactions', 'list', ada, '--amount', '100000..200000'])).toEqual(page([tx.tunde]));
    expect(await json(['transactions', 'list', '--wallet', bayo, '--status', 'settled,pending'])).toEqual(
      page([tx.lovelace]),
    );
    expect(await json(['transactions', 'list', '--amount', '700000'])).toEqual(page([tx.obi, tx.lovelace]));
    expect(
      await json(['transactions', 'list', '--amount', '..200000', '--customer', 'ada-001', '--wallet', ada]),
    ).toEqual(page([tx.tunde]));
    expect(
      await json([
        'transactions',
        'list',
        '--reference',
        (tx.lovelace as { provider_reference: string }).provider_reference,
      ]),
    ).toEqual(page([tx.lovelace]));
    expect(await json(['transactions', 'list', '--customer', 'nobody'])).toEqual(page([]));
  });
});

describe('suspense list and webhooks list', () => {
  it('gives the open queue oldest first, newest first with --desc, and filters it', async () => {
    expect(await json(['suspense', 'list', '--status', 'PENDING,FLAGGED'])).toEqual(page([held.risky, held.unclear]));
    expect(await json(['suspense', 'list', '--status', 'pending,flagged', '--desc'])).toEqual(
      page([held.unclear, held.risky]),
    );
    expect(await json(['suspense', 'list', '--sender', 'emeka', '--amount', '250000'])).toEqual(page([held.risky]));
    expect(await json(['suspense', 'list', '--customer', 'ada-001', '--since', 'today'])).toEqual(page([held.unclear]));
  });

  it("webhooks list by the event's wallet and time, and several statuses", async () => {
    const credits = await json(['webhooks', 'list', '--wallet', ada, '--event-type', 'ledger.credit']);
    expect(
      credits.items.map((log: { payload: { data: { transaction_id: string } } }) => log.payload.data.transaction_id),
    ).toEqual([(tx.obi as { id: string }).id, (tx.tunde as { id: string }).id]);
    const today = await json([
      'webhooks',
      'list',
      '--customer',
      'ada-001',
      '--event-type',
      'ledger.credit',
      '--since',
      'today',
      '--status',
      'pending,delivered,failed,dead',
    ]);
    expect(today).toEqual(page([credits.items[1]]));
  });
});

describe('a server without the sandbox clock', () => {
  it('takes absolute times, and refuses a relative one clearly instead of reading the local clock', async () => {
    const { createServer } = await import('node:http');
    const requests: string[] = [];
    // A service with the list of every wallet's transactions and its time filters, and no clock.
    const openapi = {
      openapi: '3.1.0',
      paths: {
        '/v1/transactions': { get: { parameters: ['page', 'limit', 'since'].map((name) => ({ name, in: 'query' })) } },
      },
    };
    const server = createServer((request, response) => {
      requests.push(request.url!);
      if (request.url === '/openapi.json')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openapi));
      else if (request.url!.startsWith('/v1/transactions?'))
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: true, data: page([]) }));
      else response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const env = { LEDGER_BASE_URL: url, LEDGER_API_KEY: `svc_test_${'a'.repeat(32)}` };
      const absolute = await cli.run(['transactions', 'list', '--since', '2026-03-10', '--json'], { env });
      expect([absolute.exitCode, JSON.parse(absolute.stdout)]).toEqual([0, page([])]);
      expect(requests).toEqual([
        '/openapi.json',
        '/v1/transactions?page=1&limit=20&since=2026-03-09T23%3A00%3A00.000Z',
      ]);
      const relative = await cli.run(['transactions', 'list', '--since', '24h'], { env });
      expect([relative.exitCode, relative.stdout, relative.stderr]).toEqual([
        2,
        '',
        `Error [UNSUPPORTED]: --since "24h" is counted on the sandbox clock, and ${url} has none: give an ISO date or time instead; nothing was sent\n`,
      ]);
      // Its /openapi.json was read once, and kept: the clock was never asked.
      expect(requests).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});

describe('bad filter values', () => {
  it.each([
    [
      ['transactions', 'list', '--since', '2026-02-30'],
      '--since "2026-02-30" must be an ISO date or time (2026-01-02, 2026-01-02T09:30:00Z), today, yesterday, or a duration such as 24h or 7d',
    ],
    [
      ['transactions', 'list', '--until', 'last week'],
      '--until "last week" must be an ISO date or time (2026-01-02, 2026-01-02T09:30:00Z), today, yesterday, or a duration such as 24h or 7d',
    ],
    [
      ['transactions', 'list', '--since', '2026-03-11', '--until', '2026-03-10'],
      '--since "2026-03-11" (2026-03-10T23:00:00.000Z) is after --until "2026-03-10" (2026-03-10T22:59:59.999Z)',
    ],
    [
      ['transactions', 'list', '--amount', '12.5'],
      '--amount "12.5" must be a whole number of kobo, digits only: ₦12.50 is 1250',
    ],
    [
      ['transactions', 'list', '--amount', '-5'],
      '--amount "-5" must be a whole number of kobo, digits only (500000 is ₦5,000.00)',
    ],
    [
      ['transactions', 'list', '--amount', '500..100'],
      '--amount "500..100": the smaller amount comes first (100..500)',
    ],
    [
      ['transactions', 'list', '--amount', '..'],
      '--amount "..." must be kobo (700000) or a range min..max (5000..10000, 5000.. or ..10000)'.replace(
        '"..."',
        '".."',
      ),
    ],
    [
      ['suspense', 'list', '--status', 'PENDING,LOST'],
      '--status must be one or more of PENDING, RESOLVED, FLAGGED, separated by commas',
    ],
    [
      ['webhooks', 'list', '--status', 'FAILED,'],
      '--status must be one or more of PENDING, DELIVERED, FAILED, DEAD, separated by commas',
    ],
    [['suspense', 'list', '--sender', ' '], '--sender must not be empty'],
    [['transactions', 'list', 'a', '--wallet', 'b'], 'give the wallet once: <wallet_id> "a" and --wallet "b" differ'],
  ])('ledger %j exits 2 before any request', async (args, message) => {
    // Nothing listens at the base URL: a request would exit 3.
    const r = await cli.run(args, { env: { LEDGER_BASE_URL: `http://127.0.0.1:${await closedPort()}` } });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, '', `Error [USAGE]: ${message}\n`]);
  });

  it('an option a list does not take is refused (exit 2)', async () => {
    const r = await cli.run(['webhooks', 'list', '--sender', 'ada']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--sender');
  });
});
