import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { storedId } from '../../src/engine/events/stored.js';
import { seededIds } from '../../src/engine/ids.js';
import {
  deliveryGroups,
  deliveryRun,
  failingEndpoints,
  type Period,
} from '../../src/engine/report/report.repository.js';
import { sqliteDb } from '../helpers/two-backends.js';

const uuid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/**
 * Events 1, 2, 3 and 5 of developer 1 and event 4 of developer 2, one delivery each; deliveries 1 and
 * 2 delivered on a second attempt after a failed first (an answer of 500, then no answer), 3 on its
 * first, 4 (developer 2's) and 5 failing.
 */
async function fill(db: Db): Promise<void> {
  const env = { clock: new ManualClock(), ids: seededIds('runs') };
  await db.transaction().execute(async (trx) => {
    await createDeveloper(trx, env, 'Runs One');
    await createDeveloper(trx, env, 'Runs Two');
  });
  const id = (n: number) => storedId(db, uuid(n));
  const events = [
    [1, 1, 1000],
    [2, 1, 2000],
    [3, 1, 3000],
    [4, 2, 3500],
    [5, 1, 4000],
  ] as const;
  await db
    .insertInto('events')
    .values(
      events.map(([seq, developer, at]) => ({
        seq,
        id: id(seq),
        developer_seq: developer,
        type_code: 0,
        payload: '{}',
        transaction_seq: null,
        created_at_ms: at,
      })),
    )
    .execute();
  const status = { 1: 'DELIVERED', 2: 'DELIVERED', 3: 'DELIVERED', 4: 'FAILED', 5: 'FAILED' } as const;
  await db
    .insertInto('webhook_logs')
    .values(
      events.map(([seq, developer]) => ({
        seq,
        id: id(10 + seq),
        developer_seq: developer,
        event_seq: seq,
        event_type_code: 0,
        status: status[seq],
        http_status_code: null,
        response_body: null,
        attempt_count: seq <= 2 ? 2 : 1,
        next_retry_at_ms: null,
        delivered_at_ms: null,
      })),
    )
    .execute();
  await db.insertInto('webhook_urls').values({ seq: 1, url: 'https://a.example/hook' }).execute();
  const attempts: [log: number, status: number | null, error: string | null, at: number][] = [
    [1, 500, null, 1100],
    [2, null, 'timeout', 2100],
    [1, 200, null, 2150],
    [2, 200, null, 2200],
    [3, 200, null, 3100],
    [4, 500, null, 3600],
    [5, 503, null, 4100],
  ];
  await db
    .insertInto('webhook_attempts')
    .values(
      attempts.map(([log, code, error, at], i) => ({
        seq: i + 1,
        id: id(20 + i),
        log_seq: log,
        attempt_number: attempts.slice(0, i).filter(([other]) => other === log).length + 1,
        manual: 0,
        url_seq: 1,
        http_status_code: code,
        response_body: code === null ? null : `answer ${code}`,
        error,
        duration_ms: 5,
        created_at_ms: at,
      })),
    )
    .execute();
}

/** The deliveries and failing endpoints of a period, read through the run of seqs when there is one and through each event. */
async function bothWays(db: Db, period: Period) {
  const run = await deliveryRun(db, 1, period);
  return {
    run,
    byRun: [await deliveryGroups(db, 1, period, run), await failingEndpoints(db, 1, period, run)],
    byEvent: [await deliveryGroups(db, 1, period, null), await failingEndpoints(db, 1, period, null)],
  };
}

describe('a period of deliveries read as one run of seqs', () => {
  test('counts a delivery that failed before it was delivered, and nothing of the developer between, the same as read event by event', async () => {
    const db = await sqliteDb();
    await fill(db);

    // Events 1 to 3 are one run: their failed first attempts count, delivered as they now are.
    const early = await bothWays(db, { since: 0, until: 3500 });
    expect(early.run).toEqual({ lo: 1, hi: 3 });
    const failedFirsts = {
      url: 'https://a.example/hook',
      failed_attempts: 2,
      failing_deliveries: 0,
      last_at_ms: 2100,
      http_status_code: null,
      response_body: null,
      error: 'timeout',
    };
    expect(early.byRun).toEqual([[{ status: 'DELIVERED', count: 3 }], [failedFirsts]]);
    expect(early.byRun).toEqual(early.byEvent);

    // Developer 2's event 4 breaks the run of 1, 2, 3 and 5: read event by event, 4's failure left out.
    const all = await bothWays(db, { since: 0, until: null });
    expect(all.run).toBeNull();
    expect(all.byEvent).toEqual([
      [
        { status: 'DELIVERED', count: 3 },
        { status: 'FAILED', count: 1 },
      ],
      [
        {
          url: 'https://a.example/hook',
          failed_attempts: 3,
          failing_deliveries: 1,
          last_at_ms: 4100,
          http_status_code: 503,
          response_body: 'answer 503',
          error: null,
        },
      ],
    ]);

    // Nothing in the period: no run, and nothing either way.
    expect(await bothWays(db, { since: 5000, until: null })).toEqual({
      run: null,
      byRun: [[], []],
      byEvent: [[], []],
    });
  });
});
