import { z } from 'zod';
import { extension, Ok, Page, pageQuery, Timestamp } from './common.js';
import { timeFilters } from './filters.js';

/** The request log's statuses: one (`422`) or a class (`4xx`). */
export const REQUEST_STATUS_PATTERN = '^([1-5][0-9][0-9]|[1-5]xx)$';

/** One request of the caller's, as the request log keeps it (decisions: Request log). */
export const RequestLogEntry = z
  .object({
    id: z.string().describe('the request id, as its request-id header gave it'),
    method: z.string(),
    path: z.string().describe('the path with its query string, API keys and webhook secrets removed'),
    status: z.int(),
    code: z.string().nullable().describe('detail.code of an error answer; null for a success'),
    duration_ms: z.int().describe('milliseconds from the request arriving to its answer being sent'),
    idempotency_key: z.string().nullable(),
    replayed: z.boolean().describe('the answer was an idempotent replay (header Idempotent-Replayed)'),
    source: z.enum(['api', 'dashboard']),
    at: Timestamp.describe("when it arrived, on the caller's sandbox clock"),
    real_at: z.string().describe('when it arrived, in real time'),
    request_body: z
      .string()
      .nullable()
      .describe(
        'a failure’s request body, credentials and secrets replaced by [redacted], at most 4,096 characters; null for a success',
      ),
  })
  .meta({ id: 'RequestLogEntry' });
export type RequestLogEntry = z.infer<typeof RequestLogEntry>;

export const RequestLogQuery = z.strictObject({
  page: pageQuery.page,
  limit: pageQuery.limit,
  order: extension(z.enum(['asc', 'desc']).default('desc')).describe('newest first (desc) unless asc'),
  status: z
    .string({ error: 'must be text' })
    .regex(new RegExp(REQUEST_STATUS_PATTERN), { error: 'must be an HTTP status such as 422, or a class such as 4xx' })
    .optional()
    .describe('only requests answered with this status (422) or class (4xx)'),
  path: z
    .string({ error: 'must be text' })
    .regex(/^\//, { error: 'must start with /' })
    .max(2000, { error: 'must be at most 2000 characters' })
    .optional()
    .describe('only requests whose path starts with this (/v1/transfers)'),
  since: timeFilters.since.describe("only requests that arrived at or after this time, on the caller's clock"),
  idempotency_key: z
    .string({ error: 'must be text' })
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .optional()
    .describe('only requests sent with this Idempotency-Key'),
});

export const RequestLogParams = z.strictObject({ request_id: z.string() });
export const RequestLogPageResponse = Ok(Page(RequestLogEntry));
export const RequestLogEntryResponse = Ok(RequestLogEntry);
