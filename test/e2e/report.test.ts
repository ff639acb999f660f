import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { type Cli, createCli } from '../helpers/cli.js';

// `ledger report` at an 80-column terminal: one screen, naira for people, the API's data for --json.
let sandbox: RunningSandbox;
let cli: Cli;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 32, clock: 'manual', clockStart: '2026-11-21T08:00:00.000Z' });
  cli = createCli({ LEDGER_BASE_URL: sandbox.baseUrl, LEDGER_API_KEY: sandbox.apiKey });
});
afterAll(async () => {
  cli.cleanup();
  await sandbox.stop();
});
const narrow = { env: { COLUMNS: '80' } };

async function run(args: string[]) {
  const r = await cli.run(args, narrow);
  expect([r.exitCode, r.exitCode === 0 || r.stderr]).toEqual([0, true]);
  return r.stdout;
}

describe('ledger report', () => {
  it('shows the day on one screen of 80 columns, and --json is exactly the API data', async () => {
    const ada = (
      await run([
        'wallets',
        'create',
        '--customer-reference',
        'ada',
        '--first-name',
        'Ada',
        '--last-name',
        'Obi',
        '--email',
        'ada@example.com',
        '-q',
      ])
    ).trim();
    await run(['credit', ada, '1250000', '--narration', 'rent for december']);
    await run(['sandbox', 'clock', 'advance', '1h']);
    await run(['credit', ada, '700000', '--narration', 'SANDBOX-RISK']);
    await run(['credit', ada, '5000', '--narration', 'SANDBOX-LOW-CONFIDENCE']);
    await run(['sandbox', 'receiver', 'fail', '--status', '500', '--times', '3']);
    await run(['transfer', ada, '1111111111', '20000', '--bank', '058', '--yes']);
    await run(['transfer', ada, '0000000252', '300000', '--bank', '058', '--yes']);
    await run(['sandbox', 'clock', 'advance', '10m']);

    const screen = await run(['report']);
    const lines = screen.trimEnd().split('\n');
    expect(lines.filter((line) => displayWidth(line) > 80)).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(24);
    const url = `${sandbox.baseUrl}/sandbox/receiver/`;
    expect(screen.replace(/http:\/\/\S+/, (u) => (u.startsWith(url) ? '<receiver>' : u)))
      .toBe(`Report 2026-11-21 00:00 → 10:10 Lagos time (UTC+1)

Transactions                         count              amount
  CREDIT    SETTLED                      2          ₦12,710.00
  DEBIT     FAILED                       1             ₦200.00
  DEBIT     SETTLED                      3           ₦3,020.00
Money in    inbound credits              1          ₦12,500.00
Money out   payouts settled              1           ₦3,000.00
            payouts failed, reversed     1             ₦200.00
            NIP fees                                    ₦10.00
Net         in − payouts                             ₦9,500.00

Suspense                             count              amount
  FLAGGED   AI_RISK_FLAG                 1           ₦7,000.00
  PENDING   AI_LOW_CONFIDENCE            1              ₦50.00
  Oldest waiting 10m 0s: 019b76da-a80f-7a13-9744-319773f343b3 (AI_RISK_FLAG)

Webhooks    DELIVERED 10
  Failing <receiver>
    3 failed attempts, 0 still failing; last 10:00:
    HTTP 500 {"error":"failure injected by PUT /sandbox/receiver/behaviour (500…
`);

    const json = JSON.parse(await run(['report', '--json']));
    const api = await fetch(`${sandbox.baseUrl}/sandbox/report`, { headers: { 'x-api-key': sandbox.apiKey } });
    expect(json).toEqual(((await api.json()) as { data: unknown }).data);
    expect(json).toMatchObject({
      since: '2026-11-20T23:00:00.000Z',
      until: '2026-11-21T09:10:00.000Z',
      money_in: { count: 1, amount: 1_250_000 },
    });
  });

  it('reads --since yesterday and --until today on the sandbox clock, in Lagos days', async () => {
    const json = JSON.parse(await run(['report', '--since', 'yesterday', '--until', 'today', '--json']));
    expect([json.since, json.until]).toEqual(['2026-11-19T23:00:00.000Z', '2026-11-20T23:00:00.000Z']);
    expect(json.money_in).toEqual({ count: 0, amount: 0 });
  });

  it('refuses a period it cannot read before any request, exit 2', async () => {
    const r = await cli.run(['report', '--since', 'last tuesday'], narrow);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --since "last tuesday" must be an ISO date or time (2026-01-02, 2026-01-02T09:30:00Z), ' +
        'today, yesterday, or a duration such as 24h or 7d\n',
    ]);
  });
});
