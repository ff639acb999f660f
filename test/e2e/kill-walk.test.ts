import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { useCli, createWalletWithCli } from '../helpers/cli.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

/**
 * A sandbox killed (SIGKILL) in the middle of a clock walk (`clock advance 2d` running the attempts
 * and settlements that fall due on the way), then started again on the same database. The kill
 * happens when the developer's endpoint receives a counted post, before it answers: no timers.
 */
const cli = useCli('each');

const START = ['sandbox', 'start', '--detach', '--port', '0', '--db', 'ledger.db', '--clock', 'manual'];
const TWO_DAYS = 2 * 86_400;

const pid = (): number => JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8')).pid;

/**
 * A started sandbox whose webhook endpoint is one the test runs: it answers 500 to every post,
 * except the `killAt`th (or each of them), on which it kills the sandbox and never answers.
 */
async function sandboxWithFailingEndpoint(killAt: number | number[], start = START) {
  const kills = [killAt].flat();
  expect((await cli.run(start)).exitCode).toBe(0);
  const { secret } = await cli.json(['webhooks', 'endpoint']);
  const app = await startWebhookApp(
    () => secret,
    (n) => {
      if (!kills.includes(n)) return 500;
      process.kill(pid(), 'SIGKILL');
      return 'hang';
    },
  );
  expect((await cli.run(['webhooks', 'endpoint', 'set', app.url])).exitCode).toBe(0);
  /** How many posts the endpoint received of each event (webhook-id): the attempt numbers it has seen are 1…n. */
  const seen = () => {
    const counts: Record<string, number> = {};
    for (const r of app.received) counts[r.id] = (counts[r.id] ?? 0) + 1;
    return counts;
  };
  return { app, seen };
}

/** Each delivery as `webhooks list --json` shows it: event id → [status, attempt_count]. */
async function logs(): Promise<Record<string, [string, number]>> {
  const { items } = await cli.json(['webhooks', 'list', '--limit', '100']);
  return Object.fromEntries(
    items.map((l: { event_id: string; status: string; attempt_count: number }) => [
      l.event_id,
      [l.status, l.attempt_count],
    ]),
  );
}

/** The attempts each delivery has made, as its log counts them (those not attempted yet left out, as the endpoint never saw them). */
const countsOf = (logged: Record<string, [string, number]>) =>
  Object.fromEntries(Object.entries(logged).flatMap(([id, [, n]]) => (n > 0 ? [[id, n]] : [])));

/** The attempts list of the delivery of event `eventId`, as `webhooks show --json` prints it. */
async function attemptsOf(
  eventId: string,
): Promise<{ attempt_number: number; http_status_code: number | null; manual: boolean; error: string | null }[]> {
  const { items } = await cli.json(['webhooks', 'list', '--limit', '100']);
  const log = items.find((l: { event_id: string }) => l.event_id === eventId);
  return (await cli.json(['webhooks', 'show', log.id])).attempts;
}

async function auditClean() {
  const audit = await cli.run(['sandbox', 'audit']);
  expect([audit.exitCode, audit.stderr]).toEqual([0, '']);
}

describe('a sandbox killed during a clock walk, started again on the same database', () => {
  it('deliveries: no attempt is made twice, and the logs agree with what the endpoint saw', async () => {
    // The walk carries on where it died: the clock reads the new time and the rest run on the next advance.
    // Three credits fail their first attempts at the start of the walk (posts 1-3), their second 5 s
    // later (4-6); 5 min after that the sandbox dies while the endpoint holds the second credit's third (post 8).
    const { app, seen } = await sandboxWithFailingEndpoint(8);
    try {
      const w = await createWalletWithCli(cli, 'walk');
      for (const amount of ['1000', '2000', '3000']) expect((await cli.run(['credit', w, amount])).exitCode).toBe(0);
      const events = Object.keys(await logs());
      expect(events).toHaveLength(3);

      const advance = await cli.run(['sandbox', 'clock', 'advance', '2d']);
      expect(app.received).toHaveLength(8);
      expect([advance.exitCode, advance.stdout]).toEqual([3, '']);
      expect(advance.stderr).toMatch(
        /^Error \[UNREACHABLE\]: the sandbox at http:\/\/127\.0\.0\.1:\d+ closed the connection before it answered \(ECONNRESET\)/,
      );

      expect((await cli.run(START)).exitCode).toBe(0);
      // The move committed before the walk began: the clock reads the new time.
      expect((await cli.json(['sandbox', 'clock'])).offset_seconds).toBe(TWO_DAYS);
      await auditClean();
      // The attempt that was out counts (it was on record before it was sent); nothing was sent twice.
      const after = await logs();
      expect(countsOf(after)).toEqual(seen());
      expect(seen()).toEqual({ [events[0]!]: 3, [events[1]!]: 3, [events[2]!]: 2 });
      expect(Object.values(after).map(([status]) => status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
      // Every counted attempt is listed; the one that was out reads as interrupted, with no status code.
      const killed = await attemptsOf(events[1]!);
      expect(killed.map((a) => [a.attempt_number, a.http_status_code, a.manual])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, null, false],
      ]);
      expect(killed[2]!.error).toBe(
        "interrupted: the sandbox stopped before this attempt's outcome was recorded; the endpoint may or may not have received it",
      );
      expect((await attemptsOf(events[0]!)).map((a) => [a.attempt_number, a.http_status_code])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
      ]);
      expect((await attemptsOf(events[2]!)).map((a) => a.attempt_number)).toEqual([1, 2]);
      // As a person reads it: the interrupted attempt says why it has no answer, and no duration.
      const { items } = await cli.json(['webhooks', 'list', '--limit', '100']);
      const shown = await cli.run([
        'webhooks',
        'show',
        items.find((l: { event_id: string }) => l.event_id === events[1])!.id,
      ]);
      const text = shown.stdout.replace(/\s+/g, ' ');
      expect(text).toMatch(
        new RegExp(
          / Attempts \(3\) #1 \S+ → 500 in 0 ms .* #3 \S+ → interrupted: /.source +
            /the sandbox stopped before this attempt's outcome was recorded; /.source +
            /the endpoint may or may not have received it( ·)? http:\/\/127\.0\.0\.1:\d+\/hooks $/.source,
        ),
      );

      // The attempts still due run on the next advance, each once, until all 8 are spent.
      expect((await cli.run(['sandbox', 'clock', 'advance', '2d'])).exitCode).toBe(0);
      expect(seen()).toEqual(Object.fromEntries(events.map((id) => [id, 8])));
      expect(await logs()).toEqual(Object.fromEntries(events.map((id) => [id, ['DEAD', 8]])));
      // Each list holds its 8 attempts in order; only the one the kill cut off has no answer.
      for (const id of events) {
        const attempts = await attemptsOf(id);
        expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(attempts.filter((a) => a.http_status_code === null).map((a) => a.attempt_number)).toEqual(
          id === events[1] ? [3] : [],
        );
      }
      expect(app.received.every((r) => r.verified)).toBe(true);
      await auditClean();
    } finally {
      await app.close();
    }
  }, 60_000);

  it.each([
    // The credit's first attempt, before the payout falls due (60 s in).
    ['before the payout settles', 1],
    // The payout settled at 60 s and its transfer.completed failed; its retry 5 s later is post 6.
    ['after the payout settled', 6],
  ])(
    'payouts: killed by a delivery %s, the payout settles exactly once',
    async (_when, killAt) => {
      const start = [...START, '--settlement-delay', '60'];
      const { app, seen } = await sandboxWithFailingEndpoint(killAt, start);
      try {
        const w = await createWalletWithCli(cli, 'payout');
        expect((await cli.run(['credit', w, '100000'])).exitCode).toBe(0);
        const payout = await cli.json([
          'transfer',
          w,
          makeNuban('057', '123123123'),
          '10000',
          '--bank',
          '057',
          '--yes',
        ]);
        expect(payout.status).toBe('PENDING');

        expect((await cli.run(['sandbox', 'clock', 'advance', '2d'])).exitCode).toBe(3);
        expect(app.received).toHaveLength(killAt);
        expect((await cli.run(start)).exitCode).toBe(0);
        expect((await cli.json(['sandbox', 'clock'])).offset_seconds).toBe(TWO_DAYS);
        await auditClean();
        expect(countsOf(await logs())).toEqual(seen());

        // Whatever the walk left due runs on the next advances; the payout settles once.
        for (let i = 0; i < 2; i++) expect((await cli.run(['sandbox', 'clock', 'advance', '2d'])).exitCode).toBe(0);
        expect((await cli.json(['transactions', 'get', payout.transaction_id])).status).toBe('SETTLED');
        const history = (await cli.json(['transactions', 'list', w])).items.map(
          (t: { type: string; amount: number; status: string }) => [t.type, t.amount, t.status],
        );
        expect(history).toEqual([
          ['CREDIT', 100_000, 'SETTLED'],
          ['DEBIT', 10_000, 'SETTLED'],
          ['DEBIT', 1_000, 'SETTLED'],
        ]);
        expect((await cli.json(['wallets', 'get', w])).balance).toBe(89_000);
        const completed = await cli.json(['webhooks', 'list', '--event-type', 'transfer.completed']);
        expect(
          completed.items.map((l: { payload: { data: { transaction_id: string } } }) => l.payload.data.transaction_id),
        ).toEqual([payout.transaction_id]);
        expect((await cli.json(['webhooks', 'list', '--event-type', 'transfer.failed'])).items).toEqual([]);
        // Every delivery made all its attempts, each once.
        const logged = await logs();
        expect(countsOf(logged)).toEqual(seen());
        expect(Object.values(logged).every(([status, n]) => status === 'DEAD' && n === 8)).toBe(true);
        await auditClean();
      } finally {
        await app.close();
      }
    },
    60_000,
  );

  it('the client: a killed advance exits 3, and repeated with its --idempotency-key it replays instead of moving the clock again', async () => {
    // The advance may have run before the kill, so the error says the clock may have moved and how to look.
    // One credit: its first attempt fails (post 1); the walk dies at its second (post 2, 5 s in);
    // after the restart the next advance begins with its third (post 3), and dies there too.
    const { app, seen } = await sandboxWithFailingEndpoint([2, 3]);
    try {
      expect((await cli.run(['credit', await createWalletWithCli(cli, 'client'), '1000'])).exitCode).toBe(0);
      const url = JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8')).base_url;

      const plain = await cli.run(['sandbox', 'clock', 'advance', '2d']);
      expect([plain.exitCode, plain.stdout, plain.stderr]).toEqual([
        3,
        '',
        `Error [UNREACHABLE]: the sandbox at ${url} closed the connection before it answered (ECONNRESET): ` +
          `the request was sent and may have been carried out; ` +
          `look before you repeat it (\`ledger sandbox clock\` shows whether the clock moved); ` +
          `an advance repeated with the same --idempotency-key moves the clock once\n`,
      ]);
      expect((await cli.run(START)).exitCode).toBe(0);
      // Looking first, as the error says: the clock moved.
      expect((await cli.json(['sandbox', 'clock'])).offset_seconds).toBe(TWO_DAYS);

      const keyed = ['sandbox', 'clock', 'advance', '1d', '--idempotency-key', 'ci-day-3'];
      const killed = await cli.run(keyed);
      expect([killed.exitCode, killed.stdout]).toEqual([3, '']);
      expect(killed.stderr).toMatch(
        new RegExp(
          /: the request was sent and may have been carried out; /.source +
            /repeat it with the same --idempotency-key: /.source +
            /the sandbox then answers it again without doing it twice\n$/.source,
        ),
      );
      expect(seen()).toEqual({ [app.received[0]!.id]: 3 });

      expect((await cli.run(START)).exitCode).toBe(0);
      // The user repeats the command: the move that committed is answered again, not made twice.
      const repeated = await cli.json(keyed);
      expect(repeated.offset_seconds).toBe(TWO_DAYS + 86_400);
      expect((await cli.json(['sandbox', 'clock'])).offset_seconds).toBe(TWO_DAYS + 86_400);
      expect(seen()).toEqual({ [app.received[0]!.id]: 3 });
      // The same key with another duration is another request: refused, nothing moves.
      const reused = await cli.run(['sandbox', 'clock', 'advance', '2d', '--idempotency-key', 'ci-day-3']);
      expect([reused.exitCode, reused.stderr]).toEqual([
        1,
        expect.stringMatching(/^Error \[IDEMPOTENCY_KEY_REUSED\]: /),
      ]);
      expect((await cli.json(['sandbox', 'clock'])).offset_seconds).toBe(TWO_DAYS + 86_400);
      const bad = await cli.run(['sandbox', 'clock', 'advance', '1d', '--idempotency-key', 'k'.repeat(256)]);
      expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringMatching(/^Error \[USAGE\]: .*--idempotency-key/)]);
      await auditClean();
    } finally {
      await app.close();
    }
  }, 60_000);
});
