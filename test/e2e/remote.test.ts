import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { execa } from 'execa';
import { BIN, type Cli, cleanEnv, createCli, watchOutput } from '../helpers/cli.js';
import { type LiveService, type RecordedRequest, startLiveService } from '../helpers/live-service.js';

// The CLI against a Wallet Ledger Service that has the seed's /v1 and nothing more (the live-service
// helper, in front of a real sandbox, with the sandbox's own svc_test_ key passed through), compared
// with the same commands against that sandbox directly: each extension the service lacks falls back
// to the seed's lists with the same --json, or is refused before anything keyed is sent.
let sandbox: RunningSandbox;
let live: LiveService;
let home: string;
let direct: Cli;
let remote: Cli;
const ids: Record<string, string> = {};

/** The environment of a run against the service: its URL and the key, its certificate trusted, a home of the test's own. */
const remoteEnv = (cache = join(home, 'cache')) => ({
  LEDGER_BASE_URL: live.url,
  LEDGER_API_KEY: sandbox.apiKey,
  NODE_EXTRA_CA_CERTS: live.caFile,
  HOME: home,
  XDG_CACHE_HOME: cache,
  XDG_CONFIG_HOME: join(home, 'config'),
});

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 41, clockStart: '2026-03-10T12:00:00Z' });
  home = mkdtempSync(join(tmpdir(), 'ledger-remote-'));
  live = await startLiveService(home, sandbox.baseUrl, {});
  direct = createCli({
    LEDGER_BASE_URL: sandbox.baseUrl,
    LEDGER_API_KEY: sandbox.apiKey,
    HOME: home,
    XDG_CACHE_HOME: join(home, 'direct-cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
  });
  remote = createCli(remoteEnv());
  const wallet = async (ref: string, first: string) =>
    (await direct.json([
      'wallets',
      'create',
      '--customer-reference',
      ref,
      '--first-name',
      first,
      '--last-name',
      'Okafor',
      '--email',
      `${ref}@x.ng`,
    ])) as { id: string; account_number: string };
  const ada = await wallet('ada-001', 'Ngozi');
  const bayo = await wallet('bayo-002', 'Bayo');
  ids.ada = ada.id;
  ids.bayo = bayo.id;
  const credit = (to: string, amount: number, sender: string, narration = 'school fees') =>
    direct.json([
      'credit',
      to,
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
  await credit(ada.account_number, 700_000, 'OBI ADA NKECHI');
  ids.risky = (await credit(bayo.account_number, 250_000, 'EMEKA OBI', 'rent SANDBOX-RISK')).suspense_item.id;
  await sandbox.advance('1d');
  await credit(ada.account_number, 150_000, 'TUNDE BAKARE');
  await credit(bayo.account_number, 700_000, 'ada lovelace');
  ids.unclear = (await credit(ada.account_number, 5_000, 'CHIDI EZE', 'SANDBOX-LOW-CONFIDENCE')).suspense_item.id;
  ids.agent = (
    await direct.json([
      'agents',
      'create',
      ada.id,
      '--trigger',
      'ON_CREDIT',
      '--action',
      'WEBHOOK_NOTIFY',
      '--name',
      'notify ada',
    ])
  ).id;
  // Every delivery settled before anything is compared: the two views are read at different moments.
  await sandbox.advance('10s');
  for (let i = 0; i < 100 && (await direct.json(['webhooks', 'list', '--status', 'PENDING'])).total > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  ids.log = (await direct.json(['webhooks', 'list', '--event-type', 'ledger.credit'])).items[0].id;
}, 60_000);

afterAll(async () => {
  await live?.close();
  await sandbox?.stop();
  direct?.cleanup();
  remote?.cleanup();
  rmSync(home, { recursive: true, force: true });
});

/** The requests the service got from `from` on, and any that asked beyond the seed (a /sandbox path, a parameter or value the seed lacks). */
function sentSince(from: number): { sent: RecordedRequest[]; beyondSeed: RecordedRequest[] } {
  const sent = live.requests.slice(from);
  const seedParams = ['page', 'limit', 'status', 'reason', 'event_type', 'wallet_id'];
  const beyondSeed = sent.filter((r) => {
    const url = new URL(r.path, 'https://x');
    if (url.pathname === '/openapi.json') return r.key !== undefined;
    if (url.pathname.startsWith('/sandbox') || url.pathname === '/v1/transactions') return true;
    return [...url.searchParams].some(
      ([name, value]) =>
        !seedParams.includes(name) || value.includes(',') || (name === 'wallet_id' && url.pathname !== '/v1/agents'),
    );
  });
  return { sent, beyondSeed };
}

describe('lists with filters the service lacks: every seed page, filtered here, the same --json', () => {
  it.each([
    [['suspense', 'list', '--status', 'PENDING,FLAGGED'], 2],
    [['suspense', 'list', '--status', 'pending,flagged', '--desc'], 2],
    [['suspense', 'list', '--sender', 'emeka', '--amount', '250000'], 1],
    [['suspense', 'list', '--customer', 'ada-001', '--since', '2026-03-11'], 1],
    [['suspense', 'list', '--reason', 'AI_LOW_CONFIDENCE', '--until', '2026-03-11T23:00:00Z'], 1],
    [['webhooks', 'list', '--event-type', 'ledger.credit', '--wallet', '$ada'], 2],
    [['webhooks', 'list', '--customer', 'bayo-002', '--status', 'delivered,failed', '--limit', '1', '--page', '2'], 1],
    [['transactions', 'list', '$ada', '--amount', '100000..200000'], 1],
    [['transactions', 'list', '$ada', '--type', 'CREDIT', '--desc', '--limit', '1'], 1],
    [['transactions', 'list', '--wallet', '$bayo', '--customer', 'bayo-002', '--sender', 'ADA'], 1],
    [['transactions', 'list', '--wallet', '$bayo', '--customer', 'nobody'], 0],
    [['agents', 'list', '--desc'], 1],
  ])('%j gives %i items', async (template, count) => {
    const args = template.map((word) => (word.startsWith('$') ? ids[word.slice(1)]! : word));
    const expected = await direct.json(args);
    expect(expected.items).toHaveLength(count);
    const from = live.requests.length;
    expect(await remote.json(args)).toEqual(expected);
    const { sent, beyondSeed } = sentSince(from);
    expect(beyondSeed).toEqual([]);
    expect(sent.length).toBeGreaterThan(0);
  });

  it('says so on stderr, naming what the service lacks and how many items it reads', async () => {
    const r = await remote.run(['suspense', 'list', '--sender', 'emeka']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      'this service has no sender on suspense items: paging through 2 suspense items and filtering here\n',
    );
    expect(r.stdout.split('\n')[1]).toContain(ids.risky);
  });

  it('a relative time needs the sandbox clock, which the service lacks: refused, with the way that works', async () => {
    const from = live.requests.length;
    const r = await remote.run(['suspense', 'list', '--since', 'today']);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error [UNSUPPORTED]: --since "today" is counted on the sandbox clock, and ${live.url} has none: give an ISO date or time instead; nothing was sent\n`,
    ]);
    expect(sentSince(from).sent.filter((q) => q.key)).toEqual([]);
  });
});

describe('one record without the sandbox routes', () => {
  it('suspense show finds the item in the seed list (without its notes)', async () => {
    const { notes: _notes, ...listed } = await direct.json(['suspense', 'show', ids.risky!]);
    const from = live.requests.length;
    expect(await remote.json(['suspense', 'show', ids.risky!])).toEqual(listed);
    expect(sentSince(from).beyondSeed).toEqual([]);
    const r = await remote.run(['suspense', 'show', ids.risky!]);
    expect(r.stderr).toMatch(
      /^this service cannot read one suspense item by its id: looking for it in its list of 2\n/,
    );
  });

  it('webhooks show finds the delivery in the seed list and shows it without the attempts', async () => {
    const { log } = await direct.json(['webhooks', 'show', ids.log!]);
    const from = live.requests.length;
    expect(await remote.json(['webhooks', 'show', ids.log!])).toEqual({ log });
    expect(sentSince(from).beyondSeed).toEqual([]);
    const missing = await remote.run(['webhooks', 'show', '01234567-89ab-4cde-8f01-23456789abcd']);
    expect([missing.exitCode, missing.stderr.split('\n').at(-2)]).toEqual([
      1,
      expect.stringMatching(/^Error \[NOT_FOUND\]: .*webhook log/),
    ]);
  });

  it('a whole id works everywhere; the start of one is refused before anything is sent, asking for the whole id', async () => {
    expect((await remote.json(['wallets', 'get', ids.ada!])).id).toBe(ids.ada);
    const from = live.requests.length;
    const r = await remote.run(['wallets', 'get', ids.ada!.slice(-8)]);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error [UNSUPPORTED]: <wallet_id> "${ids.ada!.slice(-8)}" is not a whole id, and ` +
        `${live.url} (from LEDGER_BASE_URL) has no search to find the wallet it starts: ` +
        `give the whole id; nothing was sent\n`,
    ]);
    expect(sentSince(from).sent).toEqual([]);
  });

  it('find searches what the seed lists hold, and a whole id as a wallet and a transaction', async () => {
    const from = live.requests.length;
    const found = await remote.json(['find', 'emeka']);
    expect(found.items.map((m: { kind: string; id: string }) => [m.kind, m.id])).toEqual([
      ['suspense_item', ids.risky],
    ]);
    expect(found.items[0]).toMatchObject({ matched: 'sender_name', sender_name: 'EMEKA OBI', amount: 250_000 });
    const wallet = await remote.json(['find', ids.bayo!]);
    expect(wallet.items.map((m: { kind: string; id: string }) => [m.kind, m.id])).toEqual([['wallet', ids.bayo]]);
    expect(sentSince(from).beyondSeed).toEqual([]);
    const none = await remote.run(['find', 'nobody-at-all']);
    expect(none.exitCode).toBe(1);
  });
});

describe('what the seed cannot do: UNSUPPORTED, exit 2, nothing keyed sent', () => {
  it.each([
    [
      ['transactions', 'list'],
      'has no GET /v1/transactions (it does not list it in its /openapi.json): list one wallet at a time: `ledger transactions list <wallet_id>`',
    ],
    [
      ['wallets', 'list'],
      'has no GET /sandbox/wallets (it does not list it in its /openapi.json): ' +
        'its API has no list of wallets: look one up by its whole id with `ledger wallets get <wallet_id>`',
    ],
    [['report'], 'has no report (GET /sandbox/report): the lists give each part'],
    [['agents', 'runs', '$agent'], 'has no GET /sandbox/agents/{}/runs'],
    [['suspense', 'flag', '$risky', '--note', 'call the bank'], 'has no POST /v1/suspense/{}/flag'],
    [['suspense', 'note', '$risky', 'called'], 'has no POST /v1/suspense/{}/notes'],
    [['wallets', 'unlock', '$ada'], 'has no PATCH /sandbox/wallets/{}'],
    [['webhooks', 'secret'], 'has no GET /sandbox/webhook-endpoint'],
    [['webhooks', 'endpoint', 'set', 'https://example.ng/hooks'], 'has no PUT /sandbox/webhook-endpoint'],
  ])('%j', async (template, said) => {
    const args = template.map((word) => (word.startsWith('$') ? ids[word.slice(1)]! : word));
    const from = live.requests.length;
    const r = await remote.run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Error [UNSUPPORTED]: ${live.url} (from LEDGER_BASE_URL) ${said}`);
    expect(r.stderr).toMatch(/; nothing was sent\n$/);
    expect(sentSince(from).sent.filter((q) => q.key)).toEqual([]);
  });
});

describe('webhooks tail without a stream', () => {
  it('reads the webhook logs every --interval seconds and shows each new attempt, through the seed list alone', async () => {
    const from = live.requests.length;
    const tail = execa(process.execPath, [BIN, 'webhooks', 'tail', '--json', '--interval', '0.2'], {
      cwd: remote.dir,
      env: cleanEnv(remoteEnv()),
      extendEnv: false,
      reject: false,
    });
    const err = watchOutput(tail.stderr);
    const out = watchOutput(tail.stdout);
    await err.waitFor(/reading its webhook logs every 0\.2 s instead/);
    // The list it has read once already is not shown again; a delivery made now is.
    const reads = () => live.requests.slice(from).filter((q) => q.path.startsWith('/v1/webhook-logs')).length;
    for (let i = 0; i < 200 && reads() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const account = (await direct.json(['wallets', 'get', ids.bayo!])).account_number;
    await direct.json(['credit', account, '1234', '--narration', 'school fees for the tail']);
    await sandbox.advance('1s');
    const [line] = await out.waitFor(/^.*school fees for the tail.*$/m);
    tail.kill('SIGINT');
    const ended = await tail;
    expect(ended.exitCode).toBe(0);
    expect(JSON.parse(line!)).toMatchObject({ event_type: 'ledger.credit', attempt_count: 1 });
    expect(out.text().split('\n').filter(Boolean)).toHaveLength(1);
    expect(sentSince(from).beyondSeed).toEqual([]);
  });
});

describe('commands of the sandbox alone: SANDBOX_ONLY, having asked only /openapi.json, without the key', () => {
  it.each([[['credit', '0123456789', '100']], [['sandbox', 'clock']], [['sandbox', 'audit', '--json']]])(
    '%j',
    async (args) => {
      const fresh = createCli(remoteEnv(mkdtempSync(join(home, 'cache-'))));
      try {
        const from = live.requests.length;
        const r = await fresh.run(args);
        expect([r.exitCode, r.stderr]).toEqual([
          2,
          `Error [SANDBOX_ONLY]: \`ledger ${args.filter((a) => !a.startsWith('-') && !/^\d/.test(a)).join(' ')}\` ` +
            `works only against a ledger sandbox, and ${live.url} (from LEDGER_BASE_URL) ` +
            `has none of the sandbox's routes (its /openapi.json lists no /sandbox path); nothing was sent\n`,
        ]);
        expect(sentSince(from).sent).toEqual([{ method: 'GET', path: '/openapi.json', key: undefined }]);
      } finally {
        fresh.cleanup();
      }
    },
  );

  it('scenario run --base-url', async () => {
    const fresh = createCli({ ...remoteEnv(mkdtempSync(join(home, 'cache-'))), LEDGER_BASE_URL: '' });
    try {
      writeFileSync(
        join(fresh.dir, 'one.yaml'),
        'name: one\nsteps:\n  - request: GET /v1/banks\n    expect: { status: 200 }\n',
      );
      const from = live.requests.length;
      const r = await fresh.run(['scenario', 'run', 'one.yaml', '--base-url', live.url]);
      expect([r.exitCode, r.stderr]).toEqual([
        2,
        `Error [SANDBOX_ONLY]: \`ledger scenario run --base-url\` works only against a ledger sandbox, ` +
          `and ${live.url} (from --base-url) ` +
          `has none of the sandbox's routes (its /openapi.json lists no /sandbox path); nothing was sent\n`,
      ]);
      expect(sentSince(from).sent).toEqual([{ method: 'GET', path: '/openapi.json', key: undefined }]);
    } finally {
      fresh.cleanup();
    }
  });
});

describe('the capabilities cache', () => {
  it('is one file, 0600 in a 0700 folder; a second run asks nothing of /openapi.json; our own sandbox never is asked', async () => {
    const cache = mkdtempSync(join(home, 'cache-'));
    const fresh = createCli(remoteEnv(cache));
    try {
      let from = live.requests.length;
      expect((await fresh.run(['suspense', 'list', '--sender', 'emeka', '--json'])).exitCode).toBe(0);
      expect(sentSince(from).sent.filter((r) => r.path === '/openapi.json')).toHaveLength(1);
      expect(statSync(join(cache, 'ledger', 'capabilities.json')).mode & 0o777).toBe(0o600);
      expect(statSync(join(cache, 'ledger')).mode & 0o777).toBe(0o700);
      from = live.requests.length;
      expect((await fresh.run(['webhooks', 'list', '--since', '2026-03-11', '--json'])).exitCode).toBe(0);
      expect(sentSince(from).sent.filter((r) => r.path === '/openapi.json')).toEqual([]);
      // A seed request needs no look at the server's capabilities.
      const seedOnly = createCli(remoteEnv(mkdtempSync(join(home, 'cache-'))));
      from = live.requests.length;
      expect((await seedOnly.run(['suspense', 'list', '--status', 'FLAGGED', '--json'])).exitCode).toBe(0);
      expect(sentSince(from).sent.map((r) => r.path)).toEqual(['/v1/suspense?page=1&limit=20&status=FLAGGED']);
      seedOnly.cleanup();
    } finally {
      fresh.cleanup();
    }
  });
});
