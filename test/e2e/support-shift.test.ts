import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { BIN, type Cli, cleanEnv, createCli, type RunResult, sandboxState } from '../helpers/cli.js';

/**
 * A support shift at an 80-column terminal, as a newcomer ran it: a sandbox with 32 customers, four
 * of them closed, 301 inbound credits over two days on the manual clock, risky and unclear
 * narrations held in suspense, and the webhook endpoint failing half of the first attempts. Each
 * task of the shift is at most two commands without --json, checked by what the screen shows. The
 * data goes in through the HTTP API (a few at a time), so the test spends its time on the shift.
 */
let cli: Cli;
let base: string;
let key: string;

/** 32 customers; only Ada's name or reference holds "ada", so `ledger find ada` has one customer to find. */
const FIRST = [
  ...[
    'Ada',
    'Bola',
    'Chidi',
    'Dayo',
    'Emeka',
    'Funke',
    'Gbenga',
    'Halima',
    'Ifeoma',
    'Jide',
    'Kemi',
    'Lola',
    'Musa',
    'Ngozi',
    'Obinna',
    'Peju',
  ],
  ...[
    'Kunle',
    'Rotimi',
    'Sola',
    'Tunde',
    'Uche',
    'Victor',
    'Wale',
    'Yemi',
    'Zainab',
    'Amaka',
    'Bisi',
    'Chioma',
    'Dapo',
    'Efe',
    'Femi',
    'Gozie',
  ],
];
const LAST = ['Obi', 'Okafor', 'Bello', 'Eze', 'Lawal', 'Nwosu', 'Ojo', 'Umar'];
const SENDERS = ['MUSA IBRAHIM', 'GRACE OKON', 'TUNDE BAKARE', 'FOLA JOHNSON', 'KELECHI UZO', 'SEUN COKER'];
const LABELS = ['Salary for March', 'rent share', 'school fees', 'loan repayment', 'upkeep money'];
const CLOSED = 4;
/** Five batches a day, 90 minutes apart, from 08:00 UTC: yesterday is 9 March, today 10 March (both UTC and Lagos days). */
const START = '2026-03-09T08:00:00.000Z';
const BATCH = 30;

interface Wallet {
  id: string;
  account_number: string;
  customer_reference: string;
  closed: boolean;
}
interface Credit {
  day: 1 | 2;
  wallet: Wallet;
  amount: number;
  narration: string;
  sender_name: string;
  sender_account?: string;
  /** Where the rules say it goes: credited, or held for this reason with this status. */
  held?: { reason: string; status: 'PENDING' | 'FLAGGED' };
  at: string;
  suspense_id?: string;
}
const wallets: Wallet[] = [];
const credits: Credit[] = [];
let ada: Credit;

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(base + path, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Runs `work` over `items`, a few at a time: the sandbox is a separate process on a small machine. */
async function pool<T>(items: T[], work: (item: T) => Promise<void>, width = 6): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const advance = async (seconds: number) => (await api('POST', '/sandbox/clock/advance', { seconds })).now as string;

/** Sends a batch of credits, then fails half of the deliveries waiting and moves the clock. */
async function batch(list: Credit[], after: number): Promise<void> {
  const { now } = await api('GET', '/sandbox/clock');
  await pool(list, async (credit) => {
    credit.at = now;
    const outcome = await api('POST', '/sandbox/inbound-transfers', {
      account_number: credit.wallet.account_number,
      amount: credit.amount,
      narration: credit.narration,
      sender_name: credit.sender_name,
      ...(credit.sender_account ? { sender_account: credit.sender_account, sender_bank_code: '058' } : {}),
    });
    credit.suspense_id = outcome.suspense_item?.id;
    expect([outcome.outcome, outcome.suspense_item?.reason, outcome.suspense_item?.status]).toEqual(
      credit.held ? ['SUSPENDED', credit.held.reason, credit.held.status] : ['CREDITED', undefined, undefined],
    );
  });
  const { total } = await api('GET', '/v1/webhook-logs?status=PENDING&limit=1');
  await api('PUT', '/sandbox/receiver/behaviour', { status: 503, count: Math.floor(total / 2) });
  await advance(after);
}

function plan(i: number, day: 1 | 2): Credit {
  const wallet = wallets[i % wallets.length]!;
  let amount = 10_000 + ((i * 7919) % 997) * 1_000;
  if (amount === 700_000) amount += 100; // Ada's ₦7,000 is the one of yesterday's the shift looks for.
  const label = LABELS[i % LABELS.length]!;
  const narration = i % 20 === 7 ? `SANDBOX-RISK ${label}` : i % 10 === 4 ? `SANDBOX-LOW-CONFIDENCE ${label}` : label;
  const held = wallet.closed
    ? { reason: 'WALLET_CLOSED', status: 'PENDING' as const }
    : narration.startsWith('SANDBOX-RISK')
      ? { reason: 'AI_RISK_FLAG', status: 'FLAGGED' as const }
      : narration.startsWith('SANDBOX-LOW')
        ? { reason: 'AI_LOW_CONFIDENCE', status: 'PENDING' as const }
        : undefined;
  return {
    day,
    wallet,
    amount,
    narration,
    held,
    at: '',
    sender_name: SENDERS[i % SENDERS.length]!,
    ...(i % 3 === 0 ? { sender_account: '0123456785' } : {}),
  };
}

beforeAll(async () => {
  cli = createCli();
  const started = await cli.run([
    'sandbox',
    'start',
    '--detach',
    '--port',
    '0',
    '--memory',
    '--seed',
    '32',
    '--clock-start',
    START,
  ]);
  expect(started.exitCode, started.stderr).toBe(0);
  ({ baseUrl: base, apiKey: key } = sandboxState(cli.dir));

  const people = Array.from({ length: 32 }, (_, i) => ({
    first: FIRST[i]!,
    last: LAST[i % LAST.length]!,
    reference: i === 0 ? 'ada' : `${FIRST[i]!.toLowerCase()}-${String(i).padStart(2, '0')}`,
    closed: i >= 32 - CLOSED,
  }));
  wallets.push(...people.map(() => undefined as unknown as Wallet));
  await pool(
    people.map((person, i) => ({ person, i })),
    async ({ person, i }) => {
      const made = await api('POST', '/v1/wallets', {
        customer_reference: person.reference,
        first_name: person.first,
        last_name: person.last,
        email: `${person.reference}@example.com`,
      });
      wallets[i] = {
        id: made.id,
        account_number: made.account_number,
        customer_reference: person.reference,
        closed: person.closed,
      };
    },
  );
  for (const wallet of wallets.filter((w) => w.closed)) await api('POST', `/v1/wallets/${wallet.id}/close`);

  for (let i = 0; i < 300; i++) credits.push(plan(i, i < 150 ? 1 : 2));
  ada = {
    day: 1,
    wallet: wallets[0]!,
    amount: 700_000,
    narration: 'SANDBOX-LOW-CONFIDENCE for upkeep',
    sender_name: 'OBI ADA NKECHI',
    sender_account: '0123456785',
    held: { reason: 'AI_LOW_CONFIDENCE', status: 'PENDING' },
    at: '',
  };
  const batches = Array.from({ length: 10 }, (_, b) => credits.slice(b * BATCH, (b + 1) * BATCH));
  batches[2]!.push(ada);
  credits.push(ada);
  for (const [b, list] of batches.entries()) {
    // 90 minutes between batches; from yesterday's last to today's first, the night; after today's
    // last, one second: its first attempts are made, and the failed half wait for their retry.
    await batch(list, b === 9 ? 1 : b === 4 ? 18 * 3600 : 5400);
  }
}, 120_000);

afterAll(async () => {
  await cli?.run(['sandbox', 'stop']);
  cli?.cleanup();
});

/** Runs `ledger …` as at an 80-column terminal: every line fits, and a list is a table whatever stdout is. */
async function screen(args: string[], options: { table?: boolean; exit?: number } = {}): Promise<RunResult> {
  const r = await cli.run([...args, ...(options.table ? ['--format', 'table'] : [])], { env: { COLUMNS: '80' } });
  expect(r.exitCode, `ledger ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(options.exit ?? 0);
  expect(r.stdout.split('\n').filter((line) => displayWidth(line) > 80)).toEqual([]);
  return r;
}
/** A table's rows as { label: cell } (its box drawn with │). */
function table(text: string): Record<string, string>[] {
  const [head, ...rows] = text
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.map((row) => Object.fromEntries(head!.map((label, i) => [label, row[i]!])));
}
const naira = (kobo: number) =>
  `₦${(kobo / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const money = (kobo: number) => `${kobo} (${naira(kobo)})`;
/** The credit whose suspense item a table shows by this short id (the start of the id's last group). */
const heldBy = (short: string) => {
  const found = credits.filter((c) => c.suspense_id?.split('-')[4]!.startsWith(short));
  expect(found, short).toHaveLength(1);
  return found[0]!;
};
const open = () => credits.filter((c) => c.held && !resolved.has(c.suspense_id!));
const resolved = new Set<string>();

describe('a support shift at 80 columns', () => {
  it('"ada says her ₦7,000 from yesterday never arrived": find shows her wallet and the held payment, and suspense show takes its bank reference', async () => {
    const found = (await screen(['find', 'ada'])).stdout;
    expect(found).toMatch(/^Wallets \(1\)\n {2}Ada Obi \(ada\) /);
    const held = found.slice(found.indexOf('Suspense items (1)\n'));
    expect(held).toContain('2026-03-09 11:00  700000 (₦7,000.00)  PENDING  AI_LOW_CONFIDENCE');
    expect(held).toMatch(/from OBI ADA\s+NKECHI\s+to Ada Obi/);
    expect(held).toContain(`ledger suspense show ${ada.suspense_id}`);

    const { items } = await api('GET', `/sandbox/search?q=${ada.suspense_id}`);
    const shown = (await screen(['suspense', 'show', items[0].provider_reference])).stdout;
    expect(shown).toMatch(new RegExp(`^Suspense item +${ada.suspense_id}\n`));
    expect(shown).toMatch(/^Amount +700000 \(₦7,000\.00\)$/m);
    expect(shown).toMatch(/^Sender +OBI ADA NKECHI · 0123456785 · Guaranty Trust Bank \(058\)$/m);
  });

  it('…or the queue filtered to her: customer, amount and yesterday, with the age, the whole amount and the customer on the screen', async () => {
    const rows = table(
      (
        await screen(['suspense', 'list', '--customer', 'ada', '--amount', '700000', '--since', 'yesterday'], {
          table: true,
        })
      ).stdout,
    );
    expect(rows).toEqual([
      expect.objectContaining({ Age: '1d', Amount: '700000 (₦7,000.00)', Reason: 'AI_LOW_CONFIDENCE' }),
    ]);
    expect(heldBy(rows[0]!.ID!)).toBe(ada);
    // The customer is the filter's, so the same on every row: dropped first, as the footer says.
    const wide = await cli.run(
      [
        'suspense',
        'list',
        '--customer',
        'ada',
        '--amount',
        '700000',
        '--since',
        'yesterday',
        '--wide',
        '--format',
        'table',
      ],
      { env: { COLUMNS: '80' } },
    );
    expect(table(wide.stdout)[0]).toMatchObject({ Customer: 'ada', Sender: 'OBI ADA NKECHI' });
  });

  it('"a one-screen summary of today": report fits 80 columns and one screen, with the counts the test made', async () => {
    const lines = (await screen(['report'])).stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
    const today = credits.filter((c) => c.day === 2);
    const settled = today.filter((c) => !c.held);
    const sum = (list: Credit[]) => list.reduce((total, c) => total + c.amount, 0);
    const row = (label: string, count: number, amount: number) =>
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^${label} +${count} +${naira(amount).replace(/[.]/g, '\\.')}$`)),
      );
    expect(lines[0]).toBe('Report 2026-03-10 00:00 → 15:00 Lagos time (UTC+1)');
    expect(lines.filter((line) => /^ {2}(CREDIT|DEBIT) /.test(line))).toHaveLength(1);
    row('  CREDIT    SETTLED', settled.length, sum(settled));
    row('Money in    inbound credits', settled.length, sum(settled));
    const groups = new Map<string, Credit[]>();
    for (const c of today.filter((c) => c.held)) {
      const group = `${c.held!.status.padEnd(9)} ${c.held!.reason}`;
      groups.set(group, [...(groups.get(group) ?? []), c]);
    }
    expect(lines.filter((line) => /^ {2}(PENDING|FLAGGED) /.test(line))).toHaveLength(groups.size);
    for (const [group, list] of groups) row(`  ${group}`, list.length, sum(list));
    // The first of today's held payments came at 08:00; the clock stands at 14:00:01.
    const oldest = /^ {2}Oldest waiting 6h 0m: (\S+) \((\w+)\)$/m.exec(lines.join('\n'));
    const first = today.filter((c) => c.held && c.at === today[0]!.at);
    expect(first.map((c) => [c.suspense_id, c.held!.reason])).toContainEqual([oldest?.[1], oldest?.[2]]);
    // Half of each batch's first attempts failed: 15 of today's 30 a batch; the last batch's wait for their retry.
    expect(lines).toContain(`Webhooks    DELIVERED ${today.length - 15} · FAILED 15`);
    expect(lines).toContain(`    ${5 * 15} failed attempts, 15 still failing; last 15:00:`);
  });

  it('"what is waiting in suspense, and why, oldest first": the open queue in one call, every page', async () => {
    const r = await screen(['suspense', 'list', '--status', 'PENDING,FLAGGED', '--all'], { table: true });
    const rows = table(r.stdout);
    expect(rows).toHaveLength(open().length);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['ID', 'Age', 'Amount', 'Customer', 'Reason']));
    const held = rows.map((row) => heldBy(row.ID!));
    expect(held.map((c) => c.at)).toEqual(
      open()
        .map((c) => c.at)
        .sort(),
    );
    expect(rows.map((row) => [row.Amount, row.Customer, row.Reason])).toEqual(
      held.map((c) => [money(c.amount), c.wallet.customer_reference, c.held!.reason]),
    );
    expect(rows[0]!.Age).toBe('1d');
    expect(rows.at(-1)!.Age).toBe('1s');
  });

  it('webhook logs: the failing deliveries with their wallet and last error, and the clock they wait for', async () => {
    const r = await screen(['webhooks', 'list', '--status', 'FAILED'], { table: true });
    const rows = table(r.stdout);
    expect(rows).toHaveLength(15);
    for (const row of rows) {
      expect(row['Last error']).toMatch(/^503\b/);
      expect(
        wallets.filter((w) => w.id.split('-')[4]!.startsWith(row.Wallet!)).map((w) => w.customer_reference),
      ).toEqual([row.Customer]);
    }
    expect(r.stderr).toBe('15 deliveries wait for the clock: ledger sandbox clock advance 4s\n');
  });

  it('a list piped to `head -3` is a header line and two tab-separated rows, full ids first', async () => {
    const r = await execa(
      'bash',
      ['-o', 'pipefail', '-c', '$LEDGER suspense list --status PENDING,FLAGGED | head -3'],
      {
        cwd: cli.dir,
        env: cleanEnv({ LEDGER: `${process.execPath} ${BIN}`, COLUMNS: '80' }),
        extendEnv: false,
        reject: false,
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.split('\n').map((line) => line.split('\t'));
    expect(head!.slice(0, 3)).toEqual(['id', 'created_at', 'amount']);
    expect(rows).toHaveLength(2);
    expect(
      open()
        .filter((c) => c.at === open()[0]!.at)
        .map((c) => c.suspense_id),
    ).toContain(rows[0]![0]);
  });

  it('"resolve three items": by short id without a terminal, one flagged and one annotated; a refund warns when the bank names someone else', async () => {
    const short = (id: string) => id.split('-')[4]!.slice(0, 8);
    const credited = await screen([
      'suspense',
      'resolve',
      short(ada.suspense_id!),
      '--action',
      'CREDIT_WALLET',
      '--target-wallet',
      short(ada.wallet.id),
      '--note',
      'customer confirmed',
      '--yes',
    ]);
    expect(credited.stdout.replace(/\s+/g, ' ')).toContain(
      `credited 700000 (₦7,000.00) to wallet ${ada.wallet.id} (Ada Obi, ada)`,
    );
    resolved.add(ada.suspense_id!);

    const risky = open().find((c) => c.held!.reason === 'AI_RISK_FLAG' && c.sender_account)!;
    const refunded = await screen(['suspense', 'resolve', short(risky.suspense_id!), '--action', 'REFUND', '--yes']);
    const warning = new RegExp(
      `^Warning: the bank names account 0123456785 "([A-Z ]+)", not "${risky.sender_name}" as the payment's sender: the money would go to \\1\\.$`,
    );
    expect(refunded.stderr.replace(/\s+/g, ' ').trim()).toMatch(warning);
    resolved.add(risky.suspense_id!);

    const closed = open().find((c) => c.held!.reason === 'WALLET_CLOSED')!;
    const dismissed = await screen([
      'suspense',
      'resolve',
      short(closed.suspense_id!),
      '--action',
      'DISMISS',
      '--note',
      'sent again to her open account',
      '--yes',
    ]);
    expect(dismissed.stdout).toMatch(/^Result +dismissed\b/m);
    expect(dismissed.stdout.replace(/\s+/g, ' ')).toContain(money(closed.amount));
    resolved.add(closed.suspense_id!);

    const unclear = open().find((c) => c.held!.status === 'PENDING' && c.held!.reason === 'AI_LOW_CONFIDENCE')!;
    const flagged = await screen([
      'suspense',
      'flag',
      short(unclear.suspense_id!),
      '--note',
      'sender unknown to the customer',
    ]);
    expect(flagged.stdout).toMatch(/^Status +FLAGGED$/m);
    const noted = await screen(['suspense', 'note', short(unclear.suspense_id!), 'called the customer, no answer']);
    expect(noted.stdout.replace(/\s+/g, ' ')).toContain(
      `Status FLAGGED Amount ${money(unclear.amount)} Note 2026-03-10T14:00:01.000Z · SANDBOX · "called the customer, no answer" Notes 2 notes in all`,
    );
    const item = await api('GET', `/sandbox/suspense/${unclear.suspense_id}`);
    expect([item.status, item.notes.map((n: { kind: string; note: string }) => [n.kind, n.note])]).toEqual([
      'FLAGGED',
      [
        ['FLAG', 'sender unknown to the customer'],
        ['NOTE', 'called the customer, no answer'],
      ],
    ]);
    const statuses = await Promise.all(
      [ada, risky, closed].map(async (c) => (await api('GET', `/sandbox/suspense/${c.suspense_id}`)).status),
    );
    expect(statuses).toEqual(['RESOLVED', 'RESOLVED', 'RESOLVED']);
  });

  it('ends with the audit clean', async () => {
    expect((await screen(['sandbox', 'audit'])).stdout).toMatch(/^Audit clean: every invariant holds\./);
  });
});
