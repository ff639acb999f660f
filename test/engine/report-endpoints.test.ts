import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { storedId } from '../../src/engine/events/stored.js';
import { seededIds } from '../../src/engine/ids.js';
import { failingEndpoints } from '../../src/engine/report/report.repository.js';
import { postgresDb, sqliteDb } from '../helpers/two-backends.js';

/** The four tables failingEndpoints reads, as the PostgreSQL schema has them (no more than the query needs). */
const POSTGRES_TABLES = [
  sql`CREATE TABLE events (seq bigint PRIMARY KEY, id bytea NOT NULL UNIQUE, developer_seq bigint NOT NULL, type_code bigint NOT NULL, payload text NOT NULL,
    transaction_seq bigint, created_at_ms bigint NOT NULL)`,
  sql`CREATE TABLE webhook_logs (seq bigint PRIMARY KEY, id bytea NOT NULL UNIQUE, developer_seq bigint NOT NULL,
    event_seq bigint NOT NULL REFERENCES events (seq), event_type_code bigint NOT NULL, status text NOT NULL,
    http_status_code bigint, response_body text, attempt_count bigint NOT NULL, next_retry_at_ms bigint, delivered_at_ms bigint)`,
  sql`CREATE TABLE webhook_urls (seq bigint PRIMARY KEY, url text NOT NULL UNIQUE)`,
  sql`CREATE TABLE webhook_attempts (seq bigint PRIMARY KEY, id bytea NOT NULL, log_seq bigint NOT NULL REFERENCES webhook_logs (seq),
    attempt_number bigint NOT NULL, manual bigint NOT NULL, url_seq bigint NOT NULL REFERENCES webhook_urls (seq),
    http_status_code bigint, response_body text, error text, duration_ms bigint NOT NULL, created_at_ms bigint NOT NULL)`,
];

const uuid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const LONG_BODY = 'x'.repeat(250);

/** Three events of developer 1, their deliveries, and attempts at two URLs, some failed; the same rows on either backend. */
async function fill(db: Db): Promise<void> {
  const id = (n: number) => storedId(db, uuid(n));
  await db
    .insertInto('events')
    .values(
      [1000, 2000, 3000].map((at, i) => ({
        seq: i + 1,
        id: id(i + 1),
        developer_seq: 1,
        type_code: 0,
        payload: '{}',
        transaction_seq: null,
        created_at_ms: at,
      })),
    )
    .execute();
  const log = (seq: number, status: 'FAILED' | 'DELIVERED' | 'DEAD') => ({
    seq,
    id: id(10 + seq),
    developer_seq: 1,
    event_seq: seq,
    event_type_code: 0,
    status,
    http_status_code: null,
    response_body: null,
    attempt_count: 1,
    next_retry_at_ms: null,
    delivered_at_ms: null,
  });
  await db
    .insertInto('webhook_logs')
    .values([log(1, 'FAILED'), log(2, 'DELIVERED'), log(3, 'DEAD')])
    .execute();
  await db
    .insertInto('webhook_urls')
    .values([
      { seq: 1, url: 'https://a.example/hook' },
      { seq: 2, url: 'https://b.example/hook' },
    ])
    .execute();
  const attempt = (
    seq: number,
    logSeq: number,
    urlSeq: number,
    status: number | null,
    body: string | null,
    error: string | null,
    at: number,
  ) => ({
    seq,
    id: id(20 + seq),
    log_seq: logSeq,
    attempt_number: seq,
    manual: 0,
    url_seq: urlSeq,
    http_status_code: status,
    response_body: body,
    error,
    duration_ms: 5,
    created_at_ms: at,
  });
  await db
    .insertInto('webhook_attempts')
    .values([
      attempt(1, 1, 1, 500, 'oops', null, 1100),
      attempt(2, 2, 1, null, null, 'timeout', 2100),
      attempt(3, 2, 1, 200, 'ok', null, 2200),
      attempt(4, 3, 2, 404, 'not found', null, 3100),
      attempt(5, 1, 2, 503, 'busy', null, 3200),
      attempt(6, 1, 1, 502, LONG_BODY, null, 3300),
    ])
    .execute();
}

const endpoints = async (db: Db) => [
  await failingEndpoints(db, 1, { since: 0, until: null }),
  await failingEndpoints(db, 1, { since: 0, until: 2500 }),
];

describe('failingEndpoints', () => {
  test('gives each endpoint its failed attempts and its last failure, the same on SQLite and PostgreSQL', async () => {
    const lite = await sqliteDb();
    await lite
      .transaction()
      .execute((trx) => createDeveloper(trx, { clock: new ManualClock(), ids: seededIds('report') }, 'Report Co'));
    const postgres = await postgresDb();
    for (const table of POSTGRES_TABLES) await table.execute(postgres);
    await fill(lite);
    await fill(postgres);

    const a = {
      url: 'https://a.example/hook',
      failed_attempts: 3,
      failing_deliveries: 1,
      last_at_ms: 3300,
      http_status_code: 502,
      response_body: 'x'.repeat(200),
      error: null,
    };
    const expected = [
      [
        a,
        {
          url: 'https://b.example/hook',
          failed_attempts: 2,
          failing_deliveries: 2,
          last_at_ms: 3200,
          http_status_code: 503,
          response_body: 'busy',
          error: null,
        },
      ],
      // Until 2500: the third event's attempt (at B, DEAD) is out of the period.
      [
        a,
        {
          url: 'https://b.example/hook',
          failed_attempts: 1,
          failing_deliveries: 1,
          last_at_ms: 3200,
          http_status_code: 503,
          response_body: 'busy',
          error: null,
        },
      ],
    ];
    expect(await endpoints(lite)).toEqual(expected);
    expect(await endpoints(postgres)).toEqual(expected);
  });
});
