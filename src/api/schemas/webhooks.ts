import { z } from 'zod';
import { EVENT_TYPES } from '../../engine/events/events.service.js';
import { Ok, Page, pageQuery, Timestamp } from './common.js';
import { checkRanges, statusList, timeFilters, walletFilters } from './filters.js';

const LogStatus = z.enum(['PENDING', 'DELIVERED', 'FAILED', 'DEAD']);

export const WebhookLog = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    payload: z.record(z.string(), z.unknown()).describe('the event envelope, exactly as delivered'),
    status: LogStatus,
    http_status_code: z.int().nullable(),
    response_body: z.string().nullable().describe('first 4 KiB of the last response, or why there was none'),
    attempt_count: z.int(),
    next_retry_at: Timestamp.nullable(),
    delivered_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookLog' });
export type WebhookLog = z.infer<typeof WebhookLog>;

export const WebhookLogParams = z.object({ log_id: z.string() });

/** Deliveries by their event's time and wallet (an event with no wallet, such as `suspense.resolved`, matches no wallet filter). */
export const WebhookLogListQuery = z
  .strictObject({
    ...pageQuery,
    status: statusList(LogStatus.options),
    event_type: z.enum(EVENT_TYPES).optional(),
    ...timeFilters,
    ...walletFilters,
  })
  .superRefine(checkRanges);

export const WebhookAttempt = z
  .object({
    id: z.string(),
    attempt_number: z.int(),
    manual: z.boolean(),
    url: z.string(),
    http_status_code: z.int().nullable(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.int(),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookEndpoint = z
  .object({
    url: z.string(),
    built_in: z.boolean().describe('true while deliveries go to the sandbox’s own receiver'),
    secret: z.string(),
    previous_secret_valid_until: Timestamp.nullable().describe(
      'after a rotation, the old secret also signs until then',
    ),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const PutEndpointBody = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2048, { error: 'must be at most 2048 characters' })
    .nullable()
    .describe('null goes back to the built-in receiver'),
});

export const ReceiverEvent = z
  .object({
    id: z.string(),
    webhook_id: z.string().nullable(),
    event_type: z.string().nullable(),
    signature_valid: z.boolean(),
    response_status: z.int(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'ReceiverEvent' });

export const ReceiverEventsQuery = z.strictObject({
  ...pageQuery,
  webhook_id: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .optional()
    .describe('only what arrived with this webhook-id header: the attempts of one delivery'),
});

export const ReceiverBehaviour = z.object({ status: z.int(), remaining: z.int() }).meta({ id: 'ReceiverBehaviour' });
export const ReceiverBehaviourBody = z.strictObject({
  status: z
    .int({ error: 'must be an HTTP status code' })
    .min(200, { error: 'must be 200 to 599' })
    .max(599, { error: 'must be 200 to 599' }),
  count: z
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be 0 or more' })
    .max(10_000, { error: 'must be at most 10000' }),
});

export const WebhookLogResponse = Ok(WebhookLog);
export const WebhookLogPageResponse = Ok(Page(WebhookLog));
export const AttemptsResponse = Ok(z.object({ items: z.array(WebhookAttempt) }));
export const EndpointResponse = Ok(WebhookEndpoint);
export const ReceiverEventsResponse = Ok(Page(ReceiverEvent));
export const ReceiverBehaviourResponse = Ok(ReceiverBehaviour);
