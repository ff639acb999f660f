import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare, prepareInsertRows, prepareRows } from '../db/prepared.js';
import type { EngineEnv } from '../env.js';
import type { ListFilters } from '../filters.js';
import { LedgerError, notFound } from '../errors.js';
import { newWebhookSecret } from '../secrets.js';
import type { Page, PageQuery } from '../paging.js';
import { storedBody, withAnsweredBody } from './answers.js';
import type { WebhookAttemptTable, WebhookLogStatus, WebhookLogTable } from './events.table.js';
import { idText, isoTime, storedId, storedTimeOrNull } from './stored.js';
import {
  countLogs,
  countStatusChange,
  findDeveloperLog,
  fromStoredLog,
  listLogs,
  type WebhookLogRow,
} from './webhook-logs.repository.js';

export { dueLogs, findLog, stillFresh, type WebhookLogRow } from './webhook-logs.repository.js';
/** An attempt as callers see it: with its URL (stored once, in webhook_urls) in place of the URL's seq, and its time as ISO text. */
export type WebhookAttemptRow = Omit<Selectable<WebhookAttemptTable>, 'id' | 'url_seq' | 'created_at_ms'> & {
  id: string;
  url: string;
  created_at: string;
};

/** Seconds to wait after attempt n (1-based) before attempt n + 1 (decisions: Webhooks): 8 attempts in all. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** A rotated-out secret keeps signing for this long (sandbox time). */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
/** How much of a response body a log keeps. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface AttemptResult {
  url: string;
  httpStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  manual: boolean;
}

export async function listWebhookLogs(
  trx: Trx,
  developerId: string,
  query: PageQuery & ListFilters & { event_type?: string | undefined },
): Promise<Page<WebhookLogRow>> {
  return listLogs(trx, developerId, query);
}

export async function getWebhookLog(trx: Trx, developerId: string, id: string): Promise<WebhookLogRow> {
  const log = await findDeveloperLog(trx, developerId, id);
  if (!log) throw notFound('webhook log');
  return log;
}

/** Attempts with their URLs, in the order they were made; narrow it with `where` (an attempt's columns as `a.*`), and read each row through `asAttempt`. */
export const selectAttempts = (trx: Trx) =>
  trx
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_urls as u', 'u.seq', 'a.url_seq')
    .select([
      'a.seq',
      'a.id',
      'a.log_seq',
      'a.attempt_number',
      'a.manual',
      'u.url',
      'a.http_status_code',
      'a.response_body',
      'a.error',
      'a.duration_ms',
      'a.created_at_ms',
    ]);

/** A row of `selectAttempts` as callers see it: its time as ISO text, its response body as answered. */
export function asAttempt({
  id,
  created_at_ms,
  ...row
}: Awaited<ReturnType<ReturnType<typeof selectAttempts>['execute']>>[number]): WebhookAttemptRow {
  return withAnsweredBody({ ...row, id: idText(id), created_at: isoTime(created_at_ms) });
}

/** A log's attempts by number (one a restart found interrupted is recorded after those that followed it in a database an older version left). */
export async function listAttempts(trx: Trx, logSeq: number): Promise<WebhookAttemptRow[]> {
  return (
    await selectAttempts(trx).where('a.log_seq', '=', logSeq).orderBy('a.attempt_number').orderBy('a.seq').execute()
  ).map(asAttempt);
}

/** Only a FAILED or DEAD delivery can be retried by hand (decisions: Webhooks). */
export function assertRetryable(log: WebhookLogRow): void {
  if (log.status === 'PENDING' || log.status === 'DELIVERED') {
    throw new LedgerError(
      'WEBHOOK_NOT_RETRYABLE',
      `a ${log.status} delivery cannot be retried: only FAILED or DEAD ones`,
    );
  }
}

/** The log as an attempt of it starts: counted, and due again when the schedule says (a manual attempt keeps its schedule). */
function started(log: WebhookLogRow, now: number, manual: boolean): WebhookLogRow {
  const attempts = log.attempt_count + 1;
  const wait = RETRY_SCHEDULE_SECONDS[Math.min(attempts, RETRY_SCHEDULE_SECONDS.length) - 1]!;
  return {
    ...log,
    attempt_count: attempts,
    next_retry_at: manual ? log.next_retry_at : new Date(now + wait * 1000).toISOString(),
  };
}

/**
 * Where a started attempt leaves its log: 2xx → DELIVERED; 410 → DEAD; otherwise FAILED, due again
 * when the start said, or DEAD when attempts are used up. A manual attempt that fails leaves a
 * FAILED log on its schedule and a DEAD one dead.
 */
function settled(log: WebhookLogRow, result: AttemptResult, now: string): WebhookLogRow {
  const ok = result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
  let status: WebhookLogStatus;
  let next: string | null = null;
  if (ok) status = 'DELIVERED';
  else if (result.httpStatus === 410) status = 'DEAD';
  else if (result.manual) {
    status = log.status === 'DEAD' ? 'DEAD' : 'FAILED';
    next = status === 'FAILED' ? log.next_retry_at : null;
  } else if (log.attempt_count >= MAX_ATTEMPTS) status = 'DEAD';
  else {
    status = 'FAILED';
    next = log.next_retry_at;
  }
  return {
    ...log,
    status,
    http_status_code: result.httpStatus,
    response_body: result.responseBody ?? result.error,
    next_retry_at: next,
    delivered_at: ok ? now : log.delivered_at,
  };
}

/** The attempt's own record; its URL by seq (`urlSeqs`). */
function attemptRow(
  trx: Trx,
  env: EngineEnv,
  log: WebhookLogRow,
  result: AttemptResult,
  now: string,
  urls: Map<string, number>,
) {
  return {
    id: storedId(trx, env.ids.uuid()),
    log_seq: log.seq,
    attempt_number: log.attempt_count,
    manual: result.manual ? 1 : 0,
    url_seq: urls.get(result.url)!,
    http_status_code: result.httpStatus,
    response_body: storedBody(result.httpStatus, result.responseBody),
    error: result.error,
    duration_ms: Math.round(result.durationMs),
    created_at_ms: Date.parse(now),
  };
}

/**
 * Records that an attempt starts, before anything is sent: nothing is sent that cannot be recorded
 * (decisions: Webhooks). The attempt is counted, and the log is already due again at the time the
 * schedule gives if this attempt fails: if its outcome can never be written (a full disk, a crash), the
 * delivery waits for that time instead of being sent again at once. A manual attempt leaves the
 * schedule as it is.
 *
 * With `leaseSeconds` (where other servers may choose the same deliveries), the log is held for
 * at least that long from now, whatever the schedule says: no one begins another attempt of it
 * while this one may be out. The logs given back, and `finishAttempt`, keep the schedule's time.
 * @example const [started] = await beginAttempts(trx, env, [log], false);
 */
export async function beginAttempts(
  trx: Trx,
  env: EngineEnv,
  logs: WebhookLogRow[],
  manual: boolean,
  leaseSeconds?: number,
): Promise<WebhookLogRow[]> {
  const now = env.clock.now().getTime();
  const begun: WebhookLogRow[] = [];
  for (const log of logs) {
    const next = started(log, now, manual);
    const scheduled = storedTimeOrNull(next.next_retry_at);
    const held = leaseSeconds === undefined ? scheduled : Math.max(scheduled ?? 0, now + leaseSeconds * 1000);
    const { rows } = await startLog(trx, {
      id: storedId(trx, log.id),
      attempt_count: next.attempt_count,
      next_retry_at_ms: held,
    });
    begun.push({ ...asLog(rows[0]!, log), next_retry_at: next.next_retry_at });
  }
  return begun;
}

/**
 * Whether the attempt `begun` started is still the log's latest and has no record yet: false once
 * another server, its lease over, recorded it as interrupted and went on with the schedule (or a
 * restore replaced the log). Its outcome is then not written.
 * @example if (await attemptStillOut(trx, begun)) await finishAttempt(trx, env, begun, result);
 */
export async function attemptStillOut(trx: Trx, begun: WebhookLogRow): Promise<boolean> {
  const row = await trx
    .selectFrom('webhook_logs as l')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('webhook_attempts as a')
            .select('a.seq')
            .whereRef('a.log_seq', '=', 'l.seq')
            .where('a.attempt_number', '=', begun.attempt_count),
        )
        .as('recorded'),
    )
    .where('l.seq', '=', begun.seq)
    .where('l.attempt_count', '=', begun.attempt_count)
    .executeTakeFirst();
  return row !== undefined && !row.recorded;
}

/**
 * Records how a started attempt went and moves the log on (see `settled`).
 * @example await finishAttempt(trx, env, begun, { url, httpStatus: 500, responseBody: 'oops', error: null, durationMs: 12, manual: false })
 */
export async function finishAttempt(
  trx: Trx,
  env: EngineEnv,
  log: WebhookLogRow,
  result: AttemptResult,
): Promise<WebhookLogRow> {
  const now = env.clock.now().toISOString();
  await insertAttempts(trx, [attemptRow(trx, env, log, result, now, await urlSeqs(trx, [result.url]))]);
  const next = settled(log, result, now);
  const written = await writeLog(trx, log, next);
  await countStatusChange(trx, log, log.status, next.status);
  return written;
}

/**
 * Attempts that started and ended inside this transaction (deliveries handed to the built-in
 * receiver in the same write): each is counted, recorded and settled as `beginAttempts` and
 * `finishAttempt` would, with a few statements for the whole batch instead of several per attempt.
 * @example const settledLogs = await recordAttempts(trx, env, [{ log, result }]);
 */
export async function recordAttempts(
  trx: Trx,
  env: EngineEnv,
  attempts: { log: WebhookLogRow; result: AttemptResult }[],
): Promise<WebhookLogRow[]> {
  if (attempts.length === 0) return [];
  const at = env.clock.now();
  const now = at.toISOString();
  const done = attempts.map(({ log, result }) => {
    const begun = started(log, at.getTime(), result.manual);
    return { log, begun, result, after: settled(begun, result, now) };
  });
  const urls = await urlSeqs(
    trx,
    done.map((d) => d.result.url),
  );
  await insertAttempts(
    trx,
    done.map(({ begun, result }) => attemptRow(trx, env, begun, result, now, urls)),
  );
  // One UPDATE for each distinct outcome (nearly always one: all delivered).
  const outcomes = new Map<string, typeof done>();
  for (const d of done) {
    const { status, http_status_code, response_body, next_retry_at, delivered_at } = d.after;
    const key = JSON.stringify([status, http_status_code, response_body, next_retry_at, delivered_at]);
    outcomes.set(key, [...(outcomes.get(key) ?? []), d]);
  }
  for (const group of outcomes.values()) {
    const { status, http_status_code, response_body, next_retry_at, delivered_at } = group[0]!.after;
    const outcome = {
      status,
      http_status_code,
      response_body: storedBody(http_status_code, response_body),
      next_retry_at_ms: storedTimeOrNull(next_retry_at),
      delivered_at_ms: storedTimeOrNull(delivered_at),
    };
    await settleLogs(
      trx,
      group.map((d) => ({ ...outcome, seq: d.log.seq })),
    );
  }
  const moves = new Map<
    string,
    { developerId: string; type: string; from: WebhookLogStatus; to: WebhookLogStatus; n: number }
  >();
  for (const { log, after } of done) {
    if (log.status === after.status) continue;
    const key = `${log.developer_id}:${log.event_type}:${log.status}:${after.status}`;
    const move = moves.get(key) ?? {
      developerId: log.developer_id,
      type: log.event_type,
      from: log.status,
      to: after.status,
      n: 0,
    };
    move.n += 1;
    moves.set(key, move);
  }
  for (const move of moves.values()) {
    await countLogs(trx, move.developerId, move.from, move.type, -move.n);
    await countLogs(trx, move.developerId, move.to, move.type, move.n);
  }
  return done.map((d) => d.after);
}

/**
 * A delivery whose last attempt started but whose outcome was never recorded, and which has no
 * attempt left: it is given up as DEAD without another send.
 */
export async function abandonLog(trx: Trx, log: WebhookLogRow): Promise<WebhookLogRow> {
  const written = await writeLog(trx, log, {
    id: log.id,
    status: 'DEAD',
    attempt_count: log.attempt_count,
    http_status_code: log.http_status_code,
    response_body: 'the outcome of the last attempt could not be recorded',
    next_retry_at: null,
    delivered_at: log.delivered_at,
  });
  await countStatusChange(trx, log, log.status, 'DEAD');
  return written;
}

/** A log row as written, as callers see it: as stored.ts reads it, its response body as answered, and what it carries from its developer and event (`log`). */
const asLog = (row: Selectable<WebhookLogTable>, log: WebhookLogRow): WebhookLogRow => ({
  ...withAnsweredBody(fromStoredLog(row)),
  developer_id: log.developer_id,
  event_id: log.event_id,
  payload: log.payload,
  created_at: log.created_at,
});

/** A log's state as `writeLog` writes it. */
type LogState = Pick<
  WebhookLogRow,
  'id' | 'status' | 'attempt_count' | 'http_status_code' | 'response_body' | 'next_retry_at' | 'delivered_at'
>;

/** Writes a log's new state, the built-in receiver's standard answer stored as NULL (answers.ts), and gives it back as `asLog`. */
async function writeLog(trx: Trx, log: WebhookLogRow, next: LogState): Promise<WebhookLogRow> {
  const { rows } = await updateLog(trx, {
    id: storedId(trx, next.id),
    status: next.status,
    attempt_count: next.attempt_count,
    http_status_code: next.http_status_code,
    response_body: storedBody(next.http_status_code, next.response_body),
    next_retry_at_ms: storedTimeOrNull(next.next_retry_at),
    delivered_at_ms: storedTimeOrNull(next.delivered_at),
  });
  return asLog(rows[0]!, log);
}

const startLog = prepare((db, p: Pick<Selectable<WebhookLogTable>, 'id' | 'attempt_count' | 'next_retry_at_ms'>) =>
  db
    .updateTable('webhook_logs')
    .set({ attempt_count: p.attempt_count, next_retry_at_ms: p.next_retry_at_ms })
    .where('id', '=', p.id)
    .returningAll(),
);

/** Attempts, one or a handover's, in one statement (prepared once for each number of rows: see prepareRows). */
export const insertAttempts = prepareInsertRows('webhook_attempts', [
  'id',
  'log_seq',
  'attempt_number',
  'manual',
  'url_seq',
  'http_status_code',
  'response_body',
  'error',
  'duration_ms',
  'created_at_ms',
]);

/** A log to settle by seq, with the outcome its group shares (the statement takes it from the first). */
type SettledLog = Pick<
  Selectable<WebhookLogTable>,
  'seq' | 'status' | 'http_status_code' | 'response_body' | 'next_retry_at_ms' | 'delivered_at_ms'
>;

/** Logs that share one outcome, settled in one statement: each attempt counted, the outcome set (the first row's). */
const settleLogs = prepareRows((db, logs: SettledLog[]) =>
  db
    .updateTable('webhook_logs')
    .set((eb) => ({
      status: logs[0]!.status,
      attempt_count: eb('attempt_count', '+', 1),
      http_status_code: logs[0]!.http_status_code,
      response_body: logs[0]!.response_body,
      next_retry_at_ms: logs[0]!.next_retry_at_ms,
      delivered_at_ms: logs[0]!.delivered_at_ms,
    }))
    .where(
      'seq',
      'in',
      logs.map((log) => log.seq),
    ),
);

const addUrl = prepare((db, p: { url: string }) =>
  db
    .insertInto('webhook_urls')
    .values({ url: p.url })
    .onConflict((oc) => oc.column('url').doNothing()),
);
// Kept in memory by the connection (until a URL is added): every handover of deliveries asks for its URL's seq.
const urlSeq = prepare(
  (db, p: { url: string }) => db.selectFrom('webhook_urls').select('seq').where('url', '=', p.url),
  { keptUntil: 'webhook_urls' },
);

/** The seq of each URL given (nearly always one: the endpoint's), kept once in webhook_urls: added the first time it is used. */
export async function urlSeqs(trx: Trx, urls: string[]): Promise<Map<string, number>> {
  const seqs = new Map<string, number>();
  for (const url of new Set(urls)) {
    let { rows } = await urlSeq(trx, { url });
    if (rows.length === 0) {
      await addUrl(trx, { url });
      ({ rows } = await urlSeq(trx, { url }));
    }
    seqs.set(url, rows[0]!.seq);
  }
  return seqs;
}

const updateLog = prepare(
  (
    db,
    p: Pick<
      Selectable<WebhookLogTable>,
      'id' | 'status' | 'attempt_count' | 'http_status_code' | 'response_body' | 'next_retry_at_ms' | 'delivered_at_ms'
    >,
  ) =>
    db
      .updateTable('webhook_logs')
      .set({
        status: p.status,
        attempt_count: p.attempt_count,
        http_status_code: p.http_status_code,
        response_body: p.response_body,
        next_retry_at_ms: p.next_retry_at_ms,
        delivered_at_ms: p.delivered_at_ms,
      })
      .where('id', '=', p.id)
      .returningAll(),
);

export interface Endpoint {
  /** null: the built-in receiver. */
  url: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
}

// Kept in memory by the connection (until a developer row changes): the dispatcher asks for the
// endpoint before every handover to the built-in receiver.
const developerById = prepare(
  (db, p: { id: string }) => db.selectFrom('developers').selectAll().where('id', '=', p.id),
  { keptUntil: 'developers' },
);

/** Where a developer's webhooks go and what signs them; undefined for an unknown developer. */
export async function findEndpoint(trx: Trx, developerId: string): Promise<Endpoint | undefined> {
  const [d] = (await developerById(trx, { id: developerId })).rows;
  return (
    d && {
      url: d.webhook_url,
      secret: d.webhook_secret,
      previous_secret: d.webhook_secret_previous,
      previous_secret_until: d.webhook_secret_previous_until,
    }
  );
}

export async function getEndpoint(trx: Trx, developerId: string): Promise<Endpoint> {
  const endpoint = await findEndpoint(trx, developerId);
  if (!endpoint) throw new Error(`developer ${developerId} does not exist`);
  return endpoint;
}

export async function setEndpointUrl(trx: Trx, developerId: string, url: string | null): Promise<void> {
  await trx.updateTable('developers').set({ webhook_url: url }).where('id', '=', developerId).execute();
}

/**
 * Issues a new signing secret; the old one keeps signing alongside it for 24 h of sandbox time so
 * receivers can switch without losing a delivery.
 */
export async function rotateSecret(trx: Trx, env: EngineEnv, developerId: string): Promise<Endpoint> {
  const current = await getEndpoint(trx, developerId);
  await trx
    .updateTable('developers')
    .set({
      webhook_secret: newWebhookSecret(env),
      webhook_secret_previous: current.secret,
      webhook_secret_previous_until: new Date(env.clock.now().getTime() + SECRET_OVERLAP_MS).toISOString(),
    })
    .where('id', '=', developerId)
    .execute();
  return getEndpoint(trx, developerId);
}

/**
 * Makes `secret` the developer's only signing secret (`sandbox start --webhook-secret`), as
 * `--api-key` makes its key the only key: a secret it replaces, or one a rotation left signing
 * beside it, stops at once. Nothing changes when `secret` signs already as the current one.
 * @example await fixSecret(trx, developerId, 'whsec_…');
 */
export async function fixSecret(trx: Trx, developerId: string, secret: string): Promise<void> {
  await trx
    .updateTable('developers')
    .set({ webhook_secret: secret, webhook_secret_previous: null, webhook_secret_previous_until: null })
    .where('id', '=', developerId)
    .where('webhook_secret', '!=', secret)
    .execute();
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: Endpoint, now: Date): string[] {
  const previousValid =
    endpoint.previous_secret &&
    endpoint.previous_secret_until &&
    Date.parse(endpoint.previous_secret_until) > now.getTime();
  return previousValid ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}
