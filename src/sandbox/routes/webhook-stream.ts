import type { ServerResponse } from 'node:http';
import { WEBHOOK_STREAM_PATH, type WebhookAttemptEvent, WebhookStreamQuery } from '../../api/schemas/webhook-stream.js';
import type { WebhookLog } from '../../api/schemas/webhooks.js';
import { authenticate, knownKeyOwner } from '../../engine/developers/keys.js';
import { LedgerError } from '../../engine/errors.js';
import { developerSeq } from '../../engine/events/stored.js';
import {
  asAttempt,
  findLog,
  RETRY_SCHEDULE_SECONDS,
  selectAttempts,
  type WebhookAttemptRow,
} from '../../engine/events/webhooks.service.js';
import { errorBody } from '../plugins/errors.js';
import { toAttempt, toWebhookLog } from '../serialize.js';
import type { App, RouteDeps } from './route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A long-lived stream: the request log notes it once, when it opens. */
    stream?: boolean;
  }
}

/** How often a stream looks for new attempts, and how often it says it is alive when there are none. */
const POLL_MS = 250;
const HEARTBEAT_MS = 15_000;
const BATCH = 100;

/**
 * A delivery as it stood right after one of its attempts. For the latest attempt that is the log
 * itself; an earlier one (two attempts within one poll) is rebuilt from the attempt and the schedule.
 */
function afterAttempt(log: WebhookLog, attempt: WebhookAttemptRow): WebhookLog {
  if (attempt.attempt_number >= log.attempt_count) return log;
  const code = attempt.http_status_code;
  const ok = code !== null && code >= 200 && code < 300;
  const dead = code === 410;
  const wait = RETRY_SCHEDULE_SECONDS[attempt.attempt_number - 1];
  return {
    ...log,
    status: ok ? 'DELIVERED' : dead ? 'DEAD' : 'FAILED',
    attempt_count: attempt.attempt_number,
    http_status_code: code,
    response_body: attempt.response_body ?? attempt.error,
    delivered_at: ok ? attempt.created_at : null,
    next_retry_at:
      ok || dead || wait === undefined ? null : new Date(Date.parse(attempt.created_at) + wait * 1000).toISOString(),
  };
}

/**
 * `GET /sandbox/webhook-logs/stream`: server-sent events, one `attempt` event per delivery attempt of
 * the caller's webhooks from the moment it connects (data: `{ log, attempt }`), and a comment line as
 * a heartbeat every 15 s. Each open stream looks for new attempts every 250 ms with one indexed
 * query that reads only the attempts made since its last look, so following costs the server next
 * to nothing, however large the logs are.
 */
export function webhookStreamRoutes(app: App, { sandbox }: RouteDeps): void {
  const { db } = sandbox;
  /** Each open stream, with the last attempt it has looked past. */
  const open = new Map<ServerResponse, { cursor: number }>();
  const lastAttempt = async () =>
    Number(
      (
        await db
          .selectFrom('webhook_attempts')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    );
  // A restore can take attempts away: a stream waiting past them would miss the restored sandbox's
  // next ones (seen: it went silent). It can bring attempts back, made before the stream opened: a
  // stream short of them would send them as new (seen). It goes on from the restored state's last attempt.
  sandbox.onRestore(async () => {
    const last = await lastAttempt();
    for (const following of open.values()) following.cursor = last;
  });

  const newAttempts = (developer: number, after: number) =>
    selectAttempts(db)
      .innerJoin('webhook_logs as l', 'l.seq', 'a.log_seq')
      .where('a.seq', '>', after)
      .where('l.developer_seq', '=', developer)
      .orderBy('a.seq')
      .limit(BATCH)
      .execute()
      .then((rows) => rows.map(asAttempt));

  // A stream never ends by itself: close them when the server closes, or it would wait for them.
  app.addHook('preClose', async () => {
    for (const response of open.keys()) response.end();
  });

  app.get(
    WEBHOOK_STREAM_PATH,
    {
      config: { stream: true },
      schema: {
        // OpenAPI 3.1 has no way to describe an event stream's events; docs/cli.md does. Left out of
        // /openapi.json, so generated clients and the fuzzer (which reads it) do not wait on it forever.
        hide: true,
        tags: ['Sandbox'],
        summary:
          'Follow delivery attempts live (text/event-stream): one `attempt` event per attempt, data { log, attempt }',
        querystring: WebhookStreamQuery,
      },
    },
    async (request, reply) => {
      const { developerId } = request;
      const header = request.headers['x-api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      const developer = await developerSeq(db, developerId);
      const following = { cursor: await lastAttempt() };
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        'request-id': request.requestId,
      });
      // HEAD answers as GET would, status and headers, and ends there.
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      response.write(': following delivery attempts\n\n');
      open.set(response, following);
      let quiet = 0;
      let looking = false;
      const look = async () => {
        if (looking) return;
        looking = true;
        try {
          // The key that opened the stream must still be its developer's: one rotated away (or gone
          // with a snapshot restore) ends it at once, as it would end any other request
          // (decisions: Keys and secrets).
          const owner =
            knownKeyOwner(db, key) ??
            (await authenticate(db, key).catch((error: unknown) =>
              error instanceof LedgerError ? undefined : Promise.reject(error),
            ));
          if (owner !== developerId) {
            const refusal = new LedgerError('UNAUTHORIZED', 'API key is invalid or has been rotated');
            clearInterval(timer);
            open.delete(response);
            response.end(`event: error\ndata: ${JSON.stringify(errorBody(refusal, request.requestId))}\n\n`);
            return;
          }
          // Nothing is read while a restore runs, and a read a restore overlapped is dropped: on a
          // database with several connections (PostgreSQL) the read may see the restored rows
          // before the restore's listener has moved the cursor past them.
          const epoch = sandbox.restoreEpoch();
          if (epoch % 2 === 1) return;
          const from = following.cursor;
          const rows = await newAttempts(developer, from);
          if (following.cursor !== from || sandbox.restoreEpoch() !== epoch) return;
          for (const row of rows) {
            const log = await findLog(db, row.log_seq);
            if (!log) continue;
            const event: WebhookAttemptEvent = { log: afterAttempt(toWebhookLog(log), row), attempt: toAttempt(row) };
            response.write(`id: ${row.seq}\nevent: attempt\ndata: ${JSON.stringify(event)}\n\n`);
            following.cursor = row.seq;
          }
          quiet = rows.length > 0 ? 0 : quiet + POLL_MS;
          if (quiet >= HEARTBEAT_MS) {
            response.write(': heartbeat\n\n');
            quiet = 0;
          }
        } catch {
          // The database is busy or closing: look again next time.
        } finally {
          looking = false;
        }
      };
      const timer = setInterval(() => void look(), POLL_MS);
      response.on('close', () => {
        clearInterval(timer);
        open.delete(response);
      });
    },
  );
}
