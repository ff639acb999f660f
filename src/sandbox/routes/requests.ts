import { parseInstant } from '../../api/instant.js';
import {
  RequestLogEntryResponse,
  RequestLogPageResponse,
  RequestLogParams,
  RequestLogQuery,
  type RequestLogEntry,
} from '../../api/schemas/requests.js';
import { notFound } from '../../engine/errors.js';
import { findRequest, listRequests, type RequestLogRow } from '../../engine/requests/requests.repository.js';
import { REQUEST_LOG_PATH } from '../plugins/request-log.js';
import { developerRequestId, requestNumberOf } from '../../api/request-id.js';
import { toPage } from '../serialize.js';
import { type App, type RouteDeps, ok } from './route.js';

const tags = ['Sandbox'];
const iso = (ms: number) => new Date(ms).toISOString();

function toRequestLogEntry(row: RequestLogRow): RequestLogEntry {
  return {
    id: developerRequestId(Number(row.number)),
    method: row.method,
    path: row.path,
    status: Number(row.status),
    code: row.code,
    duration_ms: Number(row.duration_ms),
    idempotency_key: row.idempotency_key,
    replayed: Number(row.replayed) === 1,
    source: row.source as RequestLogEntry['source'],
    at: iso(Number(row.at)),
    real_at: iso(Number(row.real_at)),
    request_body: row.request_body,
  };
}

/** The caller's request log (decisions: Request log). These routes are not logged themselves. */
export function requestLogRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    REQUEST_LOG_PATH,
    {
      schema: {
        tags,
        summary: "The caller's requests, newest first (filters status 422 or 4xx, path prefix, since, idempotency_key)",
        querystring: RequestLogQuery,
        response: { 200: RequestLogPageResponse },
      },
    },
    async (request) => {
      await app.requestLog.flush();
      const { since, ...query } = request.query;
      const page = await listRequests(sandbox.db, request.developerId, {
        ...query,
        since: since === undefined ? undefined : parseInstant(since),
      });
      return ok(toPage(page, toRequestLogEntry));
    },
  );

  app.get(
    `${REQUEST_LOG_PATH}/:request_id`,
    {
      schema: {
        tags,
        summary: "One of the caller's requests in full, its failure's redacted body included",
        params: RequestLogParams,
        response: { 200: RequestLogEntryResponse },
      },
    },
    async (request) => {
      await app.requestLog.flush();
      const number = requestNumberOf(request.params.request_id);
      const row = number === undefined ? undefined : await findRequest(sandbox.db, request.developerId, number);
      if (!row) throw notFound('request');
      return ok(toRequestLogEntry(row));
    },
  );
}
